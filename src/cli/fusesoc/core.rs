//! CAPI2 core files (FuseSoC's `.core`) for what `lcanet generate …` and `export-tb`
//! write: the Verilog as a `rtl` fileset, the self-checking bench as `bench`, and the
//! targets `default`, `lint` (Verilator `-Wall`), `sim` (the bench in Icarus, PASS or
//! FAIL with exit status 1) and, for self-tests, `synth` (edalize's `icestorm` flow with
//! the board's pin file). Written as YAML by hand: every key is ours and every value a
//! double-quoted scalar (JSON's escapes are YAML's), so no value can change the structure.

use anyhow::{bail, Context};
use lcanet_hdl::netlist::Emitted;
use std::fmt::Write as _;
use std::path::Path;

/// The FuseSoC core flags of the generators' commands.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct CoreArgs {
    /// Name (VLNV, `vendor:library:name:version`) of the FuseSoC core written beside the
    /// Verilog (default: `lcanet:<kind>:<top>:<lcanet's version>`).
    #[arg(long = "core-name", value_name = "VLNV")]
    pub core_name: Option<String>,
}

impl CoreArgs {
    /// The VLNV to write: `--core-name`, checked, or `lcanet:<kind>:<top>:<version>`.
    pub fn vlnv(&self, kind: &str, top: &str) -> anyhow::Result<String> {
        match &self.core_name {
            Some(v) => check_vlnv(v).map(|()| v.clone()),
            None => Ok(format!("lcanet:{kind}:{top}:{}", env!("CARGO_PKG_VERSION"))),
        }
    }
}

/// Checks a VLNV as FuseSoC parses it: four `:`-separated parts, a non-empty name and
/// version, each part of letters, digits and `_ . - +` (the error names what is wrong).
pub fn check_vlnv(v: &str) -> anyhow::Result<()> {
    let parts: Vec<&str> = v.split(':').collect();
    if parts.len() != 4 {
        bail!("--core-name {v:?}: a VLNV has four parts, vendor:library:name:version (vendor and library may be empty)");
    }
    for (part, what) in parts.iter().zip(["vendor", "library", "name", "version"]) {
        if let Some(c) = part
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || "_.-+".contains(*c)))
        {
            bail!("--core-name {v:?}: the {what} {part:?} contains {c:?} (letters, digits and _ . - + only)");
        }
    }
    if parts[2].is_empty() || parts[3].is_empty() {
        bail!("--core-name {v:?}: the name and the version must not be empty");
    }
    Ok(())
}

/// One file of a fileset.
#[derive(Debug, Clone)]
struct CoreFile {
    name: String,
    /// Set for data files: `user`, copied into the work directory (`copyto`).
    data: bool,
}

#[derive(Debug, Clone)]
struct Fileset {
    name: &'static str,
    file_type: &'static str,
    files: Vec<CoreFile>,
}

#[derive(Debug, Clone)]
struct Target {
    name: &'static str,
    description: String,
    filesets: Vec<String>,
    flow: Option<&'static str>,
    /// `flow_options`: a key and its values (one value: a scalar, more: a list).
    options: Vec<(&'static str, Vec<String>)>,
    toplevel: Option<String>,
}

/// A CAPI2 core being assembled.
#[derive(Debug, Clone)]
pub struct Core {
    vlnv: String,
    description: String,
    comment: Vec<String>,
    filesets: Vec<Fileset>,
    targets: Vec<Target>,
}

/// The CAPI2 flag under which a dependency's `default` target adds its bench
/// (a user's target sets `flags: {lcanet_bench: true}`).
pub const BENCH_FLAG: &str = "lcanet_bench";

impl Core {
    /// The core of emitted Verilog: `rtl` (its module files in order, top last), the
    /// `default` target and a `lint` target running Verilator `-Wall` on its top.
    pub fn design(vlnv: String, description: String, emitted: &Emitted) -> Self {
        let rtl: Vec<String> = emitted.modules.iter().map(|m| m.name.clone()).collect();
        Self::of_files(vlnv, description, &emitted.top, &rtl)
    }

    /// As [`Core::design`], for module files `rtl` with top module `top`.
    pub fn of_files(vlnv: String, description: String, top: &str, rtl: &[String]) -> Self {
        Core {
            vlnv,
            description,
            comment: Vec::new(),
            filesets: vec![Fileset {
                name: "rtl",
                file_type: "verilogSource",
                files: rtl
                    .iter()
                    .map(|f| CoreFile {
                        name: f.clone(),
                        data: false,
                    })
                    .collect(),
            }],
            targets: vec![
                Target {
                    name: "default",
                    description: "the Verilog, for cores that depend on this one".into(),
                    filesets: vec!["rtl".into()],
                    flow: None,
                    options: Vec::new(),
                    toplevel: None,
                },
                Target {
                    name: "lint",
                    description: "Verilator --lint-only -Wall (no waivers)".into(),
                    filesets: vec!["rtl".into()],
                    flow: Some("lint"),
                    options: vec![
                        ("tool", vec!["verilator".into()]),
                        ("verilator_options", vec!["-Wall".into()]),
                    ],
                    toplevel: Some(top.to_string()),
                },
            ],
        }
    }

    /// Adds a comment line under the header.
    pub fn comment(mut self, line: impl Into<String>) -> Self {
        self.comment.push(line.into());
        self
    }

    /// Adds the self-checking bench: fileset `bench` (module `tb_module` in `bench_file`,
    /// its `$readmemh` files copied into the work directory), the `sim` target (Icarus:
    /// prints PASS, or FAIL and exits with status 1), and the bench in `default` under
    /// [`BENCH_FLAG`].
    pub fn with_bench(mut self, tb_module: &str, bench_file: &str, data: &[String]) -> Self {
        let mut files = vec![CoreFile {
            name: bench_file.to_string(),
            data: false,
        }];
        files.extend(data.iter().map(|d| CoreFile {
            name: d.clone(),
            data: true,
        }));
        self.filesets.push(Fileset {
            name: "bench",
            file_type: "verilogSource",
            files,
        });
        self.targets[0]
            .filesets
            .push(format!("{BENCH_FLAG} ? (bench)"));
        self.targets.push(Target {
            name: "sim",
            description:
                "the self-checking bench in Icarus Verilog: PASS, or FAIL and exit status 1".into(),
            filesets: vec!["rtl".into(), "bench".into()],
            flow: Some("sim"),
            options: vec![
                ("tool", vec!["icarus".into()]),
                ("iverilog_options", vec!["-g2005".into(), "-Wall".into()]),
            ],
            toplevel: Some(tb_module.to_string()),
        });
        self
    }

    /// Adds the pin file `pcf` (fileset `pins`) and a `synth` target: edalize's
    /// `icestorm` flow (Yosys `synth_ice40`, nextpnr-ice40 with `nextpnr_options`,
    /// icepack) of `top`, described as `board`.
    pub fn with_ice40_synth(self, top: &str, pcf: &str, board: &str, nextpnr: &[&str]) -> Self {
        let what = format!("bitstream for the {board} (Yosys, nextpnr-ice40, icepack; pins {pcf})");
        self.with_synth(
            ("synth", "icestorm", "pins", "PCF"),
            top,
            pcf,
            what,
            nextpnr,
        )
    }

    /// Adds the pin file `lpf` (fileset `pins_ecp5`) and a `synth_ecp5` target: edalize's
    /// `trellis` flow (Yosys `synth_ecp5`, nextpnr-ecp5 with `nextpnr_options`, ecppack;
    /// the latter two the PyPI builds `scripts/setup --ecp5` puts in `.tools/bin`).
    pub fn with_ecp5_synth(self, top: &str, lpf: &str, board: &str, nextpnr: &[&str]) -> Self {
        let what = format!("bitstream for the {board} (Yosys, nextpnr-ecp5, ecppack; pins {lpf})");
        self.with_synth(
            ("synth_ecp5", "trellis", "pins_ecp5", "LPF"),
            top,
            lpf,
            what,
            nextpnr,
        )
    }

    /// A synthesis target `(name, flow, pin fileset, pin file type)` and its pin fileset.
    fn with_synth(
        mut self,
        (name, flow, fileset, pin_type): (&'static str, &'static str, &'static str, &'static str),
        top: &str,
        pins: &str,
        description: String,
        nextpnr: &[&str],
    ) -> Self {
        self.filesets.push(Fileset {
            name: fileset,
            file_type: pin_type,
            files: vec![CoreFile {
                name: pins.to_string(),
                data: false,
            }],
        });
        self.targets.push(Target {
            name,
            description,
            filesets: vec!["rtl".into(), fileset.into()],
            flow: Some(flow),
            options: vec![(
                "nextpnr_options",
                nextpnr.iter().map(|s| s.to_string()).collect(),
            )],
            toplevel: Some(top.to_string()),
        });
        self
    }

    /// The core file's name: `<name part of the VLNV>.core`.
    pub fn file_name(&self) -> String {
        let name = self.vlnv.split(':').nth(2).unwrap_or("lcanet");
        format!("{name}.core")
    }

    /// The `.core` text.
    pub fn text(&self) -> String {
        let q = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
        let mut s = String::from("CAPI=2:\n");
        let _ = writeln!(
            s,
            "# Written by lcanet {} (docs/fusesoc.md).",
            env!("CARGO_PKG_VERSION")
        );
        for c in &self.comment {
            let _ = writeln!(s, "# {c}");
        }
        let _ = writeln!(s, "name: {}", q(&self.vlnv));
        let _ = writeln!(s, "description: {}", q(&self.description));
        s.push_str("filesets:\n");
        for f in &self.filesets {
            let _ = writeln!(
                s,
                "  {}:\n    file_type: {}\n    files:",
                f.name, f.file_type
            );
            for file in &f.files {
                if file.data {
                    let _ = writeln!(
                        s,
                        "      - {}: {{file_type: user, copyto: {}}}",
                        q(&file.name),
                        q(&file.name)
                    );
                } else {
                    let _ = writeln!(s, "      - {}", q(&file.name));
                }
            }
        }
        s.push_str("targets:\n");
        for t in &self.targets {
            let _ = writeln!(s, "  {}:", t.name);
            let _ = writeln!(s, "    description: {}", q(&t.description));
            if let Some(flow) = t.flow {
                let _ = writeln!(s, "    flow: {flow}");
            }
            if !t.options.is_empty() {
                s.push_str("    flow_options:\n");
                for (k, v) in &t.options {
                    match v.as_slice() {
                        [one] if *k == "tool" => {
                            let _ = writeln!(s, "      {k}: {}", q(one));
                        }
                        _ => {
                            let items: Vec<String> = v.iter().map(|x| q(x)).collect();
                            let _ = writeln!(s, "      {k}: [{}]", items.join(", "));
                        }
                    }
                }
            }
            let sets: Vec<String> = t.filesets.iter().map(|f| q(f)).collect();
            let _ = writeln!(s, "    filesets: [{}]", sets.join(", "));
            if let Some(top) = &t.toplevel {
                let _ = writeln!(s, "    toplevel: {}", q(top));
            }
        }
        s
    }

    /// Writes the core into `dir`; returns its file name.
    pub fn write_into(&self, dir: &Path) -> anyhow::Result<String> {
        let name = self.file_name();
        crate::cli::common::write_atomic(&dir.join(&name), self.text().as_bytes())
            .with_context(|| format!("writing the FuseSoC core {name}"))?;
        Ok(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vlnv_has_four_parts_of_plain_characters() {
        check_vlnv("lcanet:net:lcan_top:0.1.0").unwrap();
        check_vlnv("::user_net:1").unwrap();
        for (bad, says) in [
            ("lcanet:net:top", "four parts"),
            ("a:b:c:d:e", "four parts"),
            ("a:b::1", "must not be empty"),
            ("a:b:c:", "must not be empty"),
            ("a:b:my net:1", "the name \"my net\" contains ' '"),
            ("a\n:b:c:1", "the vendor"),
        ] {
            let e = check_vlnv(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn the_core_text_lists_filesets_and_targets_in_order_with_quoted_values() {
        let core = Core::of_files(
            "lcanet:net:top:0.1.0".into(),
            "a \"quoted\" network".into(),
            "top",
            &["sw.v".into(), "top.v".into()],
        )
        .comment("hello")
        .with_bench("tb_top", "tb_top.v", &["stim.hex".into()]);
        assert_eq!(core.file_name(), "top.core");
        let text = core.text();
        assert!(text.starts_with("CAPI=2:\n# Written by lcanet"), "{text}");
        for part in [
            "# hello\nname: \"lcanet:net:top:0.1.0\"\ndescription: \"a \\\"quoted\\\" network\"\n",
            "  rtl:\n    file_type: verilogSource\n    files:\n      - \"sw.v\"\n      - \"top.v\"\n",
            "      - \"stim.hex\": {file_type: user, copyto: \"stim.hex\"}\n",
            "    filesets: [\"rtl\", \"lcanet_bench ? (bench)\"]\n",
            "    flow: lint\n    flow_options:\n      tool: \"verilator\"\n      verilator_options: [\"-Wall\"]\n    filesets: [\"rtl\"]\n    toplevel: \"top\"\n",
            "    flow: sim\n    flow_options:\n      tool: \"icarus\"\n      iverilog_options: [\"-g2005\", \"-Wall\"]\n    filesets: [\"rtl\", \"bench\"]\n    toplevel: \"tb_top\"\n",
        ] {
            assert!(text.contains(part), "missing {part:?} in\n{text}");
        }
    }
}
