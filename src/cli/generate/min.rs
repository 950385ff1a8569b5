//! `lcanet generate min`: a baseline, omega or indirect binary n-cube network, or the
//! reverse of one, of 2x2 bit-serial self-routing switches with one ATAPE unit per PE and a controller, as
//! Verilog-2005 (one file per module, `<top>.f`), a GTKWave save file `<top>.gtkw` and
//! `summary.json` (docs/min.md §6).

use crate::cli::common::{print_json, write_atomic, Staged};
use crate::cli::fusesoc::core::{Core, CoreArgs};
use crate::cli::latin::MinArgs;
use anyhow::Context;
use lcanet_hdl::min::gtkw::min_gtkw;
use lcanet_sim::min::frame::{FrameFormat, MAX_MESSAGE_BITS};
use lcanet_sim::min::hw::TagShifter;
use std::path::PathBuf;

/// Arguments of `lcanet generate min`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lcanet generate min --network omega --m 3 -o out/omega3
  lcanet generate min --network cube --m 8 --message-bits 32 -o out/cube8 --json
  lcanet generate min --network reverse-omega --m 4 -o out/romega4

Top-level interface and protocol: docs/min.md. Frames are F = m + B bit-times; ATAPE
takes n·F + m bit-times from the first frame bit in to the last bit out.")]
pub struct Args {
    #[command(flatten)]
    net: MinArgs,
    /// Payload bits B per message (1 ≤ B ≤ 4096); a frame is m + B bit-times.
    #[arg(long, default_value_t = 8)]
    message_bits: u32,
    /// Output directory (created; files are replaced).
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    out: PathBuf,
    #[command(flatten)]
    core: CoreArgs,
    /// Print the summary as JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct Summary {
    network: String,
    m: u32,
    n: usize,
    message_bits: u32,
    frame_bits: usize,
    top: String,
    file_list: PathBuf,
    files: Vec<PathBuf>,
    /// The GTKWave save file (no translate filter: the controller has no phase code).
    gtkw: PathBuf,
    /// The FuseSoC core file (docs/fusesoc.md) and its name (VLNV).
    core: PathBuf,
    core_name: String,
    modules: usize,
    verilog_bytes: usize,
    switches: usize,
    atape_units: usize,
    /// Destination bit consumed by stage s (stage 0 first).
    tag_bits: Vec<u32>,
    /// ATAPE unit tag register: bit sent, left rotation per header bit-time.
    tag_tap: u32,
    tag_rotation: u32,
    stage_latency_bit_times: u32,
    /// n·F + m.
    atape_bit_times: u64,
}

/// Runs `lcanet generate min`.
pub fn run(args: Args) -> anyhow::Result<crate::cli::Outcome> {
    let min = args.net.build()?;
    let format = FrameFormat::new(&min, args.message_bits)
        .with_context(|| format!("invalid --message-bits (limit {MAX_MESSAGE_BITS})"))?;
    let shifter = TagShifter::for_min(&min).context("internal error: tag bits do not rotate")?;
    // Everything is built in memory first; the files are written only once it all worked.
    let rtl = lcanet_hdl::min::build(&min, args.message_bits).context("generating the network")?;
    let gtkw_files = min_gtkw(&rtl.design, &min)?;
    let emitted = rtl.design.emit().context("emitting the network")?;
    // Written into a staging directory that becomes the output only once every file
    // is in it.
    let staged = Staged::new(&args.out)?;
    let files: Vec<PathBuf> = emitted
        .write_to(staged.path())
        .with_context(|| format!("writing the Verilog files into {}", args.out.display()))?
        .iter()
        .filter_map(|f| f.file_name().map(|name| args.out.join(name)))
        .collect();
    let file_list = args.out.join(&emitted.file_list.name);
    // ATAPE's run: n frames plus m stage latencies.
    let run = (min.n() * format.len()) as u64 + u64::from(min.m());
    gtkw_files
        .clone()
        .viewing(lcanet_hdl::gtkw::View::run(run, None))
        .write_to(staged.path(), &rtl.top, None)
        .with_context(|| format!("writing the GTKWave file into {}", args.out.display()))?;
    let gtkw = args.out.join(format!("{}.gtkw", rtl.top));
    let core_name = args.core.vlnv("min", &rtl.top)?;
    let core = args.out.join(
        Core::design(
            core_name.clone(),
            format!(
                "{min}, {} payload bits, ATAPE (lcanet generate min)",
                args.message_bits
            ),
            &emitted,
        )
        .write_into(staged.path())?,
    );
    let (modules, bytes) = (emitted.modules.len(), emitted.module_bytes());
    let summary = Summary {
        network: min.network().to_string(),
        m: min.m(),
        n: min.n(),
        message_bits: args.message_bits,
        frame_bits: format.len(),
        top: rtl.top.clone(),
        file_list: file_list.clone(),
        files,
        gtkw,
        core,
        core_name,
        modules,
        verilog_bytes: bytes,
        switches: min.m() as usize * min.switches_per_stage(),
        atape_units: min.n(),
        tag_bits: min.tag_bits(),
        tag_tap: shifter.tap,
        tag_rotation: shifter.rot,
        stage_latency_bit_times: 1,
        atape_bit_times: (min.n() * format.len()) as u64 + u64::from(min.m()),
    };
    let text = serde_json::to_string_pretty(&summary)?;
    write_atomic(
        &staged.path().join("summary.json"),
        format!("{text}\n").as_bytes(),
    )?;
    staged.commit()?;
    if args.json {
        print_json(&summary)?;
    } else {
        println!(
            "{min}, {} payload bits, F = {} bit-times",
            args.message_bits,
            format.len()
        );
        println!(
            "top module {} ({} switches, {} ATAPE units, {} module files, {} bytes)",
            summary.top, summary.switches, summary.atape_units, modules, bytes
        );
        println!("file list  {}", file_list.display());
        println!("summary    {}", args.out.join("summary.json").display());
        println!("waveforms  gtkwave <run.vcd> {}", summary.gtkw.display());
        println!(
            "FuseSoC    {} ({}): targets default, lint",
            summary.core.display(),
            summary.core_name
        );
        println!(
            "ATAPE: n·F + m = {} bit-times (stage latency 1)",
            summary.atape_bit_times
        );
    }
    Ok(crate::cli::Outcome::Success)
}
