//! `lcanet fusesoc …`: lcanet as a FuseSoC generator (docs/fusesoc.md).
//!
//! `fusesoc generator -o DIR` writes a core that registers the generator `lcanet`
//! (`generators:`), whose command is a two-line script calling this very executable.
//! A user's core depends on it and asks under `generate:` for a network; FuseSoC then runs
//! `lcanet fusesoc generate INPUT.yml` in a fresh directory: the input's `parameters` are
//! the flags of one `lcanet generate …`/`export-tb …` command (`command:` picks it), run
//! in-process into that directory with the VLNV FuseSoC asked for, so the `.core` it writes
//! is the one FuseSoC picks up. Bad parameters fail with the command's own error, which
//! FuseSoC shows on its stderr.

pub mod core;

use crate::cli::common::{write_atomic, Staged};
use crate::cli::Outcome;
use anyhow::{bail, Context};
use clap::Parser;
use std::path::{Path, PathBuf};
use yaml_rust2::{Yaml, YamlLoader};

/// `lcanet fusesoc …`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Write the core that registers lcanet as the FuseSoC generator `lcanet`.
    Generator(GeneratorArgs),
    /// The generator's entry point, run by FuseSoC with its input file (not by hand).
    Generate(GenerateArgs),
}

/// Arguments of `lcanet fusesoc generator`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Example:
  lcanet fusesoc generator -o ~/fusesoc-cores/lcanet
  fusesoc library add lcanet ~/fusesoc-cores/lcanet
A user's core then depends on `lcanet:lcanet:generator` and says, e.g.
  generate:
    net16:
      generator: lcanet
      parameters: {command: generate network, topology: cb, d: 2, u: 2, n: 16}
Every parameter `key: value` is the flag `--key value` of `lcanet <command>` (true: the
bare flag, a list: comma-separated). docs/fusesoc.md has a whole example.")]
pub struct GeneratorArgs {
    /// Output directory for `lcanet.core` and the `lcanet-generator` script.
    #[arg(short = 'o', long = "out")]
    out: PathBuf,
}

/// Arguments of `lcanet fusesoc generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// FuseSoC's generator input (YAML: `parameters`, `vlnv`, `files_root`, `gapi`).
    input: PathBuf,
}

/// Runs `lcanet fusesoc …`.
pub fn run(command: Command) -> anyhow::Result<Outcome> {
    match command {
        Command::Generator(a) => write_generator(&a.out),
        Command::Generate(a) => generate(&a.input),
    }
}

/// The VLNV of the generator's core.
pub fn generator_vlnv() -> String {
    format!("lcanet:lcanet:generator:{}", env!("CARGO_PKG_VERSION"))
}

/// The commands a generator may run.
const COMMANDS: [&str; 8] = [
    "generate network",
    "generate switch",
    "generate hypercube",
    "generate min",
    "generate selftest",
    "generate selftest hypercube",
    "generate selftest min",
    "export-tb network",
];

fn write_generator(out: &Path) -> anyhow::Result<Outcome> {
    let exe = std::env::current_exe().context("finding the lcanet executable")?;
    let exe = exe.to_string_lossy();
    if exe.contains('\'') {
        bail!("the lcanet executable's path {exe} contains a quote; the generator script cannot name it");
    }
    let script = format!(
        "#!/bin/sh\n# Written by `lcanet fusesoc generator`: FuseSoC runs it with the generator's input file.\nexec '{exe}' fusesoc generate \"$@\"\n"
    );
    let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let usage = format!(
        "Parameters: command (one of: {}; default generate network) and the flags of that \
command without their dashes (true: the bare flag, a list: comma-separated), e.g. \
{{command: generate network, topology: cb, d: 2, u: 2, n: 16}}. With command export-tb \
network the core also holds the self-checking bench: a target with flags \
{{lcanet_bench: true}} and toplevel tb_<top> runs it (PASS, or FAIL and exit status 1).",
        COMMANDS.join(", ")
    );
    let core = format!(
        "CAPI=2:\n# Written by lcanet {v}: registers the generator `lcanet` (docs/fusesoc.md).\n\
name: {name}\ndescription: \"lcanet: LCA networks, hypercube routers and MINs as generated Verilog\"\n\
generators:\n  lcanet:\n    command: lcanet-generator\n    description: {desc}\n    usage: {usage}\n",
        v = env!("CARGO_PKG_VERSION"),
        name = q(&generator_vlnv()),
        desc = q("Verilog of an LCA network, switch, hypercube, MIN or self-test (lcanet generate), optionally with its self-checking bench (lcanet export-tb)"),
        usage = q(&usage),
    );
    let staged = Staged::new(out)?;
    write_atomic(&staged.path().join("lcanet.core"), core.as_bytes())?;
    let script_path = staged.path().join("lcanet-generator");
    write_atomic(&script_path, script.as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script_path, std::fs::Permissions::from_mode(0o755))
            .with_context(|| format!("making {} executable", script_path.display()))?;
    }
    staged.commit()?;
    println!(
        "wrote {} and {} (core {}); add the directory to a FuseSoC library: fusesoc library add lcanet {}",
        out.join("lcanet.core").display(),
        out.join("lcanet-generator").display(),
        generator_vlnv(),
        out.display()
    );
    Ok(Outcome::Success)
}

/// The generator input: where FuseSoC wants the core and with which parameters.
#[derive(Debug, PartialEq)]
struct Input {
    vlnv: String,
    /// The command's words (`generate network`).
    command: String,
    /// `lcanet` followed by the command's words and flags.
    argv: Vec<String>,
}

fn generate(input: &Path) -> anyhow::Result<Outcome> {
    let text = std::fs::read_to_string(input)
        .with_context(|| format!("reading the generator input {}", input.display()))?;
    let parsed = parse_input(&text)
        .with_context(|| format!("in the generator input {}", input.display()))?;
    // FuseSoC runs the generator in the directory where it looks for the core.
    let cli = crate::cli::Cli::try_parse_from(&parsed.argv).map_err(|e| {
        let text = e.render().to_string();
        let first = text.lines().next().unwrap_or_default();
        anyhow::anyhow!(
            "the generator's parameters, as `{}`: {} (each parameter `key: value` is the flag --key of `lcanet {}`; see its --help)",
            parsed.argv.join(" "),
            first.trim().trim_start_matches("error: "),
            parsed.command
        )
    })?;
    match cli.command {
        // A self-test records its command line (for `lcanet fpga`): this one, not FuseSoC's.
        crate::cli::Command::Generate(crate::cli::generate::Command::Selftest(a)) => {
            let after = parsed
                .argv
                .iter()
                .position(|w| w == "selftest")
                .map_or_else(Vec::new, |i| parsed.argv[i + 1..].to_vec());
            crate::cli::generate::selftest::run(a, after)
        }
        _ => crate::cli::run(cli),
    }
}

/// Reads FuseSoC's generator input into the command line it stands for.
fn parse_input(text: &str) -> anyhow::Result<Input> {
    let docs = YamlLoader::load_from_str(text).context("not YAML")?;
    let doc = docs.first().context("empty file")?;
    let vlnv = doc["vlnv"]
        .as_str()
        .context("no `vlnv` (the generated core's name)")?
        .to_string();
    core::check_vlnv(&vlnv)?;
    let params = match &doc["parameters"] {
        Yaml::Hash(h) => h.clone(),
        Yaml::BadValue | Yaml::Null => Default::default(),
        other => bail!("`parameters` must be a mapping of flags to values, not {other:?}"),
    };
    let mut command = "generate network".to_string();
    let mut flags = Vec::new();
    for (k, v) in &params {
        let key = match k {
            Yaml::String(s) => s.replace('_', "-"),
            other => bail!("parameter name {other:?} is not a flag name"),
        };
        if key == "command" {
            command = v
                .as_str()
                .context("parameter `command` must be a string such as `generate network`")?
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            continue;
        }
        if !key
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            || !key.starts_with(|c: char| c.is_ascii_lowercase())
        {
            bail!("parameter `{key}` is not a flag name (lower-case letters, digits and -)");
        }
        if ["out", "o", "core-name", "json", "help", "version"].contains(&key.as_str()) {
            bail!("parameter `{key}` is set by the generator itself (the output is FuseSoC's directory, the core name FuseSoC's VLNV)");
        }
        let scalar = |v: &Yaml| -> anyhow::Result<String> {
            Ok(match v {
                Yaml::String(s) => s.clone(),
                Yaml::Integer(i) => i.to_string(),
                Yaml::Real(r) => r.clone(),
                other => bail!("parameter `{key}`: {other:?} is not a number or a string"),
            })
        };
        match v {
            Yaml::Boolean(true) => flags.push(format!("--{key}")),
            Yaml::Boolean(false) => {}
            Yaml::Array(items) => {
                let values: Vec<String> = items.iter().map(scalar).collect::<Result<_, _>>()?;
                flags.push(format!("--{key}={}", values.join(",")));
            }
            v => flags.push(format!("--{key}={}", scalar(v)?)),
        }
    }
    if !COMMANDS.contains(&command.as_str()) {
        bail!(
            "parameter `command: {command}` is not one of: {}",
            COMMANDS.join(", ")
        );
    }
    let mut argv = vec!["lcanet".to_string()];
    argv.extend(command.split(' ').map(str::to_string));
    argv.extend(flags);
    argv.extend(["-o".into(), ".".into(), "--core-name".into(), vlnv.clone()]);
    Ok(Input {
        vlnv,
        command,
        argv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_become_the_commands_flags() {
        let input = parse_input(
            "files_root: /x\ngapi: '1.0'\nparameters:\n  command: export-tb  network\n  topology: cb\n  d: [4, 4, 2]\n  u: 2\n  message_bits: 4\n  active-low-leds: true\n  json_x: false\nvlnv: user:demo:top-net:1.0\n",
        )
        .unwrap();
        assert_eq!(
            input.argv,
            [
                "lcanet",
                "export-tb",
                "network",
                "--topology=cb",
                "--d=4,4,2",
                "--u=2",
                "--message-bits=4",
                "--active-low-leds",
                "-o",
                ".",
                "--core-name",
                "user:demo:top-net:1.0"
            ]
        );
        let plain = parse_input("vlnv: a:b:c:1\nparameters: {d: 2}\n").unwrap();
        assert_eq!(&plain.argv[1..4], ["generate", "network", "--d=2"]);
    }

    #[test]
    fn bad_inputs_name_what_is_wrong() {
        for (text, says) in [
            ("parameters: {}\n", "no `vlnv`"),
            ("vlnv: a:b:c\n", "four parts"),
            ("vlnv: a:b:c:1\nparameters: [1]\n", "must be a mapping"),
            (
                "vlnv: a:b:c:1\nparameters: {command: sim network}\n",
                "is not one of",
            ),
            (
                "vlnv: a:b:c:1\nparameters: {out: /tmp}\n",
                "set by the generator",
            ),
            ("vlnv: a:b:c:1\nparameters: {'--d': 2}\n", "not a flag name"),
            (
                "vlnv: a:b:c:1\nparameters: {d: {x: 1}}\n",
                "not a number or a string",
            ),
            (
                "vlnv: a:b:c:1\nparameters: {d: null}\n",
                "not a number or a string",
            ),
            ("vlnv: [a, b\n", "not YAML"),
        ] {
            let e = format!("{:#}", parse_input(text).unwrap_err());
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
