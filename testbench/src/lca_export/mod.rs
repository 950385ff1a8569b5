//! Self-checking Verilog test benches for whole LCA networks (`docs/interface.md`): the
//! stimulus of the canonical run and the network golden model's expected value of every
//! top-level output port after every clock edge, written with [`crate::tbwriter`] so that
//! Icarus Verilog runs them with no Rust and prints `PASS` or `FAIL`.
//!
//! ```no_run
//! # use lcanet_sim::lcan::cycle::network::{NetParams, NetworkModel};
//! # fn demo(mut model: NetworkModel, files: Vec<std::path::PathBuf>) -> Result<(), lcanet_testbench::lca_export::ExportError> {
//! let bench = lcanet_testbench::lca_export::record(&mut model, "lcan_top", 4, 1_000_000)?;
//! let tb = lcanet_testbench::lca_export::write(&bench, std::path::Path::new("out/tb"), &files)?;
//! # let _ = tb; Ok(()) }
//! ```

use crate::bridge::{Direction, PortSpec};
use crate::tbwriter::{write_testbench, Recording, TbError, TestbenchFiles};
use lcanet_hdl::lca_net::{network_artifacts, NetGenError, NetSpec};
use lcanet_hdl::netlist::NetlistError;
use lcanet_sim::lcan::cycle::network::{
    seeded_messages, Mutation, NetError, NetworkModel, Phase, PortWords,
};
use std::path::{Path, PathBuf};

/// Why a network test bench could not be produced.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The golden model failed (bad input, a bug, or `done` never rose).
    #[error("golden model: {0}")]
    Model(#[from] NetError),
    /// The test bench writer failed.
    #[error(transparent)]
    Writer(#[from] TbError),
    /// The network generator failed.
    #[error("generating the network: {0}")]
    Generate(Box<NetGenError>),
    /// Writing the network's Verilog failed.
    #[error("writing the network's Verilog: {0}")]
    Emit(Box<NetlistError>),
    /// The generated top module does not have the ports of `docs/interface.md` §2.
    #[error("the generated top module `{top}`: {what} (docs/interface.md §2)")]
    Ports {
        /// The top module.
        top: String,
        /// What is wrong.
        what: String,
    },
    /// `done` rose, but the tail after it does not fit in the budget.
    #[error(
        "`done` rose at bit-time {done}, but the --tail {tail} bit-times after it end past \
--max-bit-times {budget}: raise --max-bit-times to at least {need} or shorten --tail"
    )]
    TailPastBudget {
        /// Bit-time at which `done` rose.
        done: u64,
        /// The tail asked for.
        tail: u64,
        /// The budget.
        budget: u64,
        /// The smallest budget that fits.
        need: u64,
    },
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        message: String,
    },
}

/// What [`export_network`] wrote.
#[derive(Debug, Clone)]
pub struct ExportedNetwork {
    /// The network's top module.
    pub top: String,
    /// The test bench and its files.
    pub testbench: TestbenchFiles,
    /// The recorded run.
    pub bench: NetworkBench,
}

/// Generates the network of `spec` into `dir`, simulates the golden model's canonical run
/// for `destinations` (messages from [`seeded_messages`] of `seed`, arbiters seeded from
/// `seed`; optionally with a test-only [`Mutation`] of the *expectations*), checks that the
/// generated top module has exactly the model's ports (names and widths) and writes the test bench
/// (`run.sh` refers to the design files by name, so `dir` can be moved).
pub fn export_network(
    spec: &NetSpec,
    destinations: &[Option<usize>],
    seed: u64,
    mutation: Option<Mutation>,
    tail: u64,
    budget: u64,
    dir: &Path,
) -> Result<ExportedNetwork, ExportError> {
    let n = spec.topo.n();
    let msgs = seeded_messages(n, spec.net.msg_bits, seed);
    let mut model = match mutation {
        None => NetworkModel::new(&spec.topo, &spec.net, destinations, &msgs, seed)?,
        Some(m) => {
            NetworkModel::with_mutation(&spec.topo, &spec.net, destinations, &msgs, seed, m)?
        }
    };
    let art = network_artifacts(spec).map_err(|e| ExportError::Generate(Box::new(e)))?;
    let top = art.emitted.top.clone();
    let ports: std::collections::HashMap<&str, usize> =
        art.ports.iter().map(|(p, w)| (p.as_str(), *w)).collect();
    let wanted: Vec<(String, usize)> = model
        .input_ports()
        .into_iter()
        .chain(model.output_ports())
        .map(|p| (p.name, p.width))
        .chain([("clock".to_string(), 1)])
        .collect();
    for (name, width) in &wanted {
        match ports.get(name.as_str()) {
            Some(w) if w == width => {}
            Some(w) => {
                return Err(ExportError::Ports {
                    top,
                    what: format!("port `{name}` is {w} bits wide, not {width}"),
                })
            }
            None => {
                return Err(ExportError::Ports {
                    top,
                    what: format!("no port `{name}`"),
                })
            }
        }
    }
    if art.ports.len() != wanted.len() {
        return Err(ExportError::Ports {
            top,
            what: format!("{} ports, the model has {}", art.ports.len(), wanted.len()),
        });
    }
    let bench = record(&mut model, &top, tail, budget)?;
    let io = |path: &Path, e: std::io::Error| ExportError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let dir = dir.canonicalize().map_err(|e| io(dir, e))?;
    let written = art
        .emitted
        .write_to(&dir)
        .map_err(|e| ExportError::Emit(Box::new(e)))?;
    let design: Vec<PathBuf> = written
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "v"))
        .filter(|p| !p.to_string_lossy().ends_with(".bundle.v"))
        .collect();
    let testbench = write(&bench, &dir, &design)?;
    // Make run.sh relocatable: the design files sit next to it.
    let script = dir.join("run.sh");
    let text = std::fs::read_to_string(&script).map_err(|e| io(&script, e))?;
    let prefix = format!("'{}/", dir.display());
    std::fs::write(&script, text.replace(&prefix, "'")).map_err(|e| io(&script, e))?;
    Ok(ExportedNetwork {
        top,
        testbench,
        bench,
    })
}

/// A recorded canonical run of a network and what the model concluded.
#[derive(Debug, Clone)]
pub struct NetworkBench {
    /// Inputs per bit-time and the expected outputs after each edge.
    pub recording: Recording,
    /// Bit-times recorded.
    pub bit_times_recorded: u64,
    /// The bit-time in which `done` was first 1.
    pub done_at: u64,
    /// The `bit_times` output at `done`.
    pub bit_times: u64,
    /// Passes.
    pub passes: usize,
    /// The `error` output at `done`.
    pub error: bool,
}

/// Port specs of the model's inputs (without `clock`) and outputs, one per quantity.
pub fn port_specs(model: &NetworkModel) -> (Vec<PortSpec>, Vec<PortSpec>) {
    let spec = |dir| {
        move |p: lcanet_sim::lcan::cycle::network::PortSpec| {
            PortSpec::new(p.name, dir, p.width as u32)
        }
    };
    (
        model
            .input_ports()
            .into_iter()
            .map(spec(Direction::Input))
            .collect(),
        model
            .output_ports()
            .into_iter()
            .map(spec(Direction::Output))
            .collect(),
    )
}

/// 64-bit words as 32-bit words, least significant first.
fn words32(words: &[u64], out: &mut Vec<u32>) {
    out.clear();
    for &w in words {
        out.extend([w as u32, (w >> 32) as u32]);
    }
}

/// Runs `model` (fresh, at bit-time 0) through its canonical run until `done`, then `tail`
/// more bit-times, recording for top module `top` the inputs of every bit-time and every
/// output's expected value after its edge (all compared). Fails if `done` does not rise
/// within `budget` bit-times.
pub fn record(
    model: &mut NetworkModel,
    top: &str,
    tail: u64,
    budget: u64,
) -> Result<NetworkBench, ExportError> {
    let (ins, outs) = port_specs(model);
    let mut rec = Recording::new(top, Some("clock"), ins, outs)?;
    let mut canonical = model.canonical_inputs();
    let mut expect = PortWords::new(&model.output_ports());
    let mut in32: Vec<Vec<u32>> = Vec::new();
    let mut out32: Vec<Vec<u32>> = vec![Vec::new(); expect.len()];
    let mut done_at = None;
    loop {
        let t = model.bit_time();
        if done_at.is_none() && model.phase() == Phase::Done && t >= 2 {
            done_at = Some(t);
        }
        if let Some(d) = done_at {
            if t >= d + tail {
                break;
            }
        }
        if t >= budget {
            return Err(match done_at {
                Some(done) => ExportError::TailPastBudget {
                    done,
                    tail,
                    budget,
                    need: done + tail,
                },
                None => NetError::Timeout(budget).into(),
            });
        }
        let values = canonical.at(t);
        in32.resize(values.len(), Vec::new());
        for (i, buf) in in32.iter_mut().enumerate() {
            words32(values.get(i), buf);
        }
        model.step()?;
        model.output_words(&mut expect);
        for (i, buf) in out32.iter_mut().enumerate() {
            words32(expect.get(i), buf);
        }
        let inputs: Vec<&[u32]> = in32
            .iter()
            .zip(rec.inputs())
            .map(|(v, p)| trim(v, p.width))
            .collect();
        let expected: Vec<Option<&[u32]>> = out32
            .iter()
            .zip(rec.outputs())
            .map(|(v, p)| Some(trim(v, p.width)))
            .collect();
        rec.push_words(&inputs, &expected)?;
    }
    let o = model.outputs();
    Ok(NetworkBench {
        bit_times_recorded: rec.bit_times() as u64,
        recording: rec,
        done_at: done_at.unwrap_or(0),
        bit_times: u64::from(o.bit_times),
        passes: model.passes().len(),
        error: o.error,
    })
}

/// The 32-bit words a `width`-bit value needs.
fn trim(words: &[u32], width: u32) -> &[u32] {
    &words[..(width as usize).div_ceil(32).min(words.len())]
}

/// Writes the test bench of `bench` into `dir` for the network's Verilog `design_files`
/// (`tb_<top>.v`, the hex files and `run.sh`; see `docs/testbench.md`).
pub fn write(
    bench: &NetworkBench,
    dir: &Path,
    design_files: &[PathBuf],
) -> Result<TestbenchFiles, ExportError> {
    Ok(write_testbench(&bench.recording, dir, design_files)?)
}

#[cfg(test)]
mod tests;
