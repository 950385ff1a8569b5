//! `lcanet bench cosim --waves`: a network's co-simulation writing a VCD and writing an
//! FST (Verilator's `--trace` and `--trace-fst`), beside the untraced run of the same
//! stimulus: each traced model built cold into the same cache, the waveform file's bytes,
//! the co-simulation's bit-times per second and both as ratios (docs/testbench.md,
//! "Waveforms").

use super::cosim::repeated;
use anyhow::Context;
use lcanet_hdl::lca_net::NetSpec;
use lcanet_testbench::bridge::Optimize;
use lcanet_testbench::lca_net::{NetBench, NetBuild, Stimulus, Timed};
use serde::Serialize;
use std::path::Path;

/// One waveform format, measured.
#[derive(Debug, Serialize)]
pub struct WaveRate {
    /// `vcd` or `fst`.
    pub format: &'static str,
    /// The traced model's cold build (Verilator and g++), seconds.
    pub build_seconds: f64,
    /// Bytes of the waveform file of one run.
    pub file_bytes: u64,
    /// Co-simulation speed while writing it.
    pub bit_times_per_second: f64,
    /// That speed over the untraced co-simulation's.
    pub speed_over_untraced: f64,
}

/// Measures the co-simulation of `spec` on `stim` writing a VCD, then an FST, in `work`
/// (models built into `work/cache`); `untraced` is the untraced run's speed.
pub fn measure(
    spec: &NetSpec,
    stim: &Stimulus,
    work: &Path,
    optimize: Optimize,
    untraced: f64,
) -> anyhow::Result<Vec<WaveRate>> {
    let mut rows = Vec::new();
    for (format, fst) in [("vcd", false), ("fst", true)] {
        let how = NetBuild {
            optimize,
            fst,
            ..NetBuild::auto(true)
        };
        let bench = NetBench::build_at(
            spec.clone(),
            &work.join(format!("rtl-{format}")),
            how,
            Some(&work.join("cache")),
        )
        .with_context(|| format!("building the network traced for {format}"))?;
        let file = work.join(format!("cosim.{format}"));
        let (_, t) = repeated(|| {
            let r = bench.run(stim, Some(&file), None, None)?;
            anyhow::ensure!(
                r.matched(),
                "the traced co-simulation ({format}) did not match"
            );
            Ok((
                (),
                Timed {
                    bit_times: r.simulated,
                    seconds: r.timing.total,
                },
            ))
        })?;
        let file_bytes = std::fs::metadata(&file)
            .with_context(|| format!("reading the size of {}", file.display()))?
            .len();
        rows.push(WaveRate {
            format,
            build_seconds: bench.build_seconds,
            file_bytes,
            bit_times_per_second: t.rate(),
            speed_over_untraced: t.rate() / untraced,
        });
    }
    Ok(rows)
}

/// The rows as text, with the FST's size and speed over the VCD's.
pub fn print(rows: &[WaveRate]) {
    for w in rows {
        println!(
            "  with {}       {:>10.0} bit-times/s ({:.2} x untraced), {} bytes of waveform, cold build {:.1} s",
            w.format, w.bit_times_per_second, w.speed_over_untraced, w.file_bytes, w.build_seconds
        );
    }
    if let [vcd, fst] = rows {
        println!(
            "  FST / VCD       {:.3} x the bytes, {:.2} x the speed",
            fst.file_bytes as f64 / vcd.file_bytes as f64,
            fst.bit_times_per_second / vcd.bit_times_per_second
        );
    }
}
