//! The MIN entries of `bench all-to-all`: algorithm ATAPE (004 Table 1) on each of the
//! six self-routing networks (docs/min.md): the `n` rows of the network's Latin square
//! as `n` frames of `F = m + B` bit-times, back to back, plus `m` stages of latency.

use super::table::{Cosim, Exchange, Family, Golden, Hardware, Params};
use anyhow::Context;
use lcanet_sim::min::{Min, Network, RunConfig, Timeline, MAX_M};
use lcanet_testbench::min::cosim::{default_options, run as cosim_run};
use std::path::Path;
use std::time::Instant;

/// ATAPE on one network.
pub struct Atape(pub Network);

impl Atape {
    fn min(&self, n: usize) -> anyhow::Result<Min> {
        anyhow::ensure!(
            n.is_power_of_two() && n >= 2,
            "a MIN has n = 2^m ≥ 2 PEs, not {n}"
        );
        Ok(Min::new(self.0, n.trailing_zeros())?)
    }

    fn config(&self, n: usize, p: &Params) -> anyhow::Result<RunConfig> {
        let bits = u32::try_from(p.message_bits).context("message bits")?;
        Ok(RunConfig::atape(self.min(n)?, bits, p.seed)?)
    }
}

impl Exchange for Atape {
    fn family(&self) -> Family {
        Family::Min
    }

    fn network(&self) -> String {
        self.0.name().to_string()
    }

    fn algorithm(&self) -> &'static str {
        "atape"
    }

    fn exists(&self, n: usize) -> bool {
        n.is_power_of_two() && (2..=1 << MAX_M).contains(&n)
    }

    /// The timeline of docs/min.md §4: every frame's transit must be conflict-free and
    /// deliver row `i`'s messages (every PE receives from `row_i⁻¹`), and the run spans
    /// `N·F + m` bit-times.
    fn golden(&self, n: usize, p: &Params, _jobs: usize) -> anyhow::Result<Golden> {
        let cfg = self.config(n, p)?;
        let tl = Timeline::new(cfg.clone());
        for i in 0..cfg.frame_count() {
            let t = tl.transit(i);
            anyhow::ensure!(
                t.conflicts.is_empty(),
                "internal error: frame {i} of ATAPE on the {} has a conflict",
                cfg.min
            );
            let senders = tl.row(i).inverse();
            anyhow::ensure!(
                (0..n).all(|q| t.arrivals[q] == senders.dst(q)),
                "internal error: frame {i} of ATAPE on the {} misdelivers",
                cfg.min
            );
        }
        let bit_times = tl.end() - cfg.t0();
        let m = cfg.min.m() as usize;
        let closed = (n * (m + p.message_bits) + m) as u64;
        anyhow::ensure!(
            bit_times == closed,
            "internal error: the timeline spans {bit_times} bit-times, not n·(m+B)+m = {closed}"
        );
        Ok(Golden {
            runs: 1,
            bit_times,
            passes: None,
            lower_bound_passes: None,
            formula: Some("n·(m + B) + m".into()),
            model: "sim::min::Timeline (docs/min.md §4)",
        })
    }

    fn cosim(&self, n: usize, p: &Params, dir: &Path) -> anyhow::Result<Cosim> {
        let cfg = self.config(n, p)?;
        let started = Instant::now();
        let r = cosim_run(&cfg, &default_options(dir, false))
            .with_context(|| format!("co-simulating ATAPE on the {}", cfg.min))?;
        let delivered = r.messages_checked == Some(n * n);
        Ok(Cosim {
            matched: r.matched && delivered,
            bit_times: r.bit_times,
            runs: 1,
            failure: r.mismatch.clone().or_else(|| {
                (!delivered)
                    .then(|| format!("{:?} of {} messages checked", r.messages_checked, n * n))
            }),
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    fn hardware(&self, n: usize, p: &Params, dir: &Path) -> anyhow::Result<Hardware> {
        let cfg = self.config(n, p)?;
        let rtl = lcanet_hdl::min::build(&cfg.min, cfg.format.message_bits)?;
        let emitted = rtl.design.emit()?;
        let files = emitted.write_to(dir)?;
        Ok(Hardware {
            top: rtl.top,
            files,
        })
    }
}
