//! The two halves of a hypercube co-simulation on their own, for `lcanet bench cosim
//! --k`: the cycle-level golden model alone, and the Verilated cube alone (the same
//! stimulus, `start` in bit time 0, no golden model, no comparison).

use super::cosim::{model_options, stimulus, CosimError};
use crate::bridge::{build_in, Design, Model, ModelLibrary, Optimize};
use crate::lca_net::Timed;
use lcanet_hdl::hypercube::hw_params;
use lcanet_sim::hypercube::cycle::{simulate, CycleTrace};
use lcanet_sim::hypercube::timing::Algorithm;
use lcanet_sim::perm::PartialPermutation;
use std::path::Path;
use std::time::Instant;

/// The golden model's whole run (its trace) and the time it took.
pub fn golden_alone(
    k: usize,
    payload_bits: usize,
    algorithm: Algorithm,
    routing: &PartialPermutation,
    payloads: &[u64],
) -> Result<(CycleTrace, Timed), CosimError> {
    let params =
        hw_params(k, payload_bits).map_err(lcanet_hdl::hypercube::cube::CubeError::from)?;
    let t0 = Instant::now();
    let trace = simulate(params, algorithm, routing, payloads)?;
    let timed = Timed {
        bit_times: trace.total + 1,
        seconds: t0.elapsed().as_secs_f64(),
    };
    Ok((trace, timed))
}

/// The Verilated cube of `design` (built under `models_root`, with `threads` threads as
/// [`CosimOptions::threads`](super::cosim::CosimOptions::threads)) alone for `bit_times`.
#[allow(clippy::too_many_arguments)]
pub fn verilator_alone(
    design: &Design,
    models_root: &Path,
    optimize: Optimize,
    threads: usize,
    k: usize,
    payload_bits: usize,
    algorithm: Algorithm,
    routing: &PartialPermutation,
    payloads: &[u64],
    bit_times: u64,
) -> Result<Timed, CosimError> {
    let params =
        hw_params(k, payload_bits).map_err(lcanet_hdl::hypercube::cube::CubeError::from)?;
    let info = build_in(
        models_root,
        design,
        &model_options(false, optimize).with_threads(threads),
    )?;
    let lib = ModelLibrary::load(&info)?;
    let mut model = Model::new(&lib, None)?;
    let clock = model.input("clock")?;
    let start = model.input("start")?;
    model.set(
        model.input("algorithm")?,
        u64::from(algorithm != Algorithm::Semi),
    );
    let [send, dest, pay] = stimulus(params, routing, payloads);
    model.set_words(model.input("send")?, &send)?;
    model.set_words(model.input("dest")?, &dest)?;
    model.set_words(model.input("payload")?, &pay)?;
    let t0 = Instant::now();
    for t in 0..bit_times {
        model.set(start, u64::from(t == 0));
        model.tick(clock);
    }
    Ok(Timed {
        bit_times,
        seconds: t0.elapsed().as_secs_f64(),
    })
}
