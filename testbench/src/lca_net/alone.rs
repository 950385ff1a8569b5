//! The two halves of a co-simulation run on their own, for `lcanet bench cosim`: the golden
//! network model alone (no RTL) and the Verilated model alone (the same canonical inputs, no
//! golden model, no comparison). Set beside a full run, they show what the comparison loop
//! costs over bare Verilator.

use super::bench::{NetBench, NetCosimError};
use super::run::drive;
use super::stimulus::Stimulus;
use crate::bridge::{InputId, Model};
use lcanet_sim::lcan::cycle::network::{NetworkModel, Phase};
use std::time::Instant;

/// Bit-times run and seconds taken.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Timed {
    /// Bit-times run.
    pub bit_times: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Timed {
    /// Bit-times per second.
    pub fn rate(&self) -> f64 {
        self.bit_times as f64 / self.seconds.max(1e-12)
    }
}

impl NetBench {
    /// The golden model alone on `stim`, up to `done` (and at most `max` bit-times).
    pub fn golden_alone(&self, stim: &Stimulus, max: u64) -> Result<Timed, NetCosimError> {
        let dst = stim.destinations();
        let mut golden = NetworkModel::new(
            &self.spec.topo,
            &self.spec.net,
            &dst,
            &stim.messages,
            stim.seed,
        )
        .map_err(|e| NetCosimError::Model(e.to_string()))?;
        let t0 = Instant::now();
        let mut t = 0;
        // `done` is the phase (`outputs()` would build every PE's outputs each bit-time).
        while t < max && golden.phase() != Phase::Done {
            golden
                .step()
                .map_err(|e| NetCosimError::Model(format!("bit-time {t}: {e}")))?;
            t += 1;
        }
        Ok(Timed {
            bit_times: t,
            seconds: t0.elapsed().as_secs_f64(),
        })
    }

    /// The Verilated model alone: `bit_times` bit-times of `stim`'s canonical inputs, no
    /// golden model and no comparison.
    pub fn verilator_alone(&self, stim: &Stimulus, bit_times: u64) -> Result<Timed, NetCosimError> {
        let dst = stim.destinations();
        let golden = NetworkModel::new(
            &self.spec.topo,
            &self.spec.net,
            &dst,
            &stim.messages,
            stim.seed,
        )
        .map_err(|e| NetCosimError::Model(e.to_string()))?;
        let mut model = Model::new(&self.lib, None)?;
        let clock = model.input("clock")?;
        let in_ports = golden.input_ports();
        let inputs: Vec<(InputId, usize)> = in_ports
            .iter()
            .map(|p| model.input(&p.name).map(|id| (id, p.width)))
            .collect::<Result<_, _>>()?;
        let widest = in_ports.iter().map(|p| p.width).max().unwrap_or(64);
        let mut buf32 = vec![0u32; widest.div_ceil(32) + 1];
        let mut canonical = golden.canonical_inputs();
        let t0 = Instant::now();
        for t in 0..bit_times {
            let values = canonical.at(t);
            // As the co-simulation: every input at 0, then only reset and start change.
            let driven = if t == 0 { inputs.len() } else { 2 };
            for (i, &(id, width)) in inputs.iter().enumerate().take(driven) {
                drive(&mut model, id, width, values.get(i), &mut buf32);
            }
            model.tick(clock);
        }
        Ok(Timed {
            bit_times,
            seconds: t0.elapsed().as_secs_f64(),
        })
    }
}
