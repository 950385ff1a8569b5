//! Many random trials of one routing configuration, summarized: the ratios
//! passes ÷ lower bound and passes ÷ optimum that `lcanet schedule --trials N` prints.
//!
//! Trial `i` draws its permutation and runs its arbiters from the seed
//! `derive(seed, "trial i")`, so any trial can be rerun alone with that `--seed`.

use super::evaluate::{evaluate, EvalError};
use super::routing::Config;
use super::topology::Topology;
use super::workload::{generate, Generator, WorkloadError};
use crate::rng::derive;

/// Mean, minimum and maximum of a series.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Stat {
    /// Mean.
    pub mean: f64,
    /// Minimum.
    pub min: f64,
    /// Maximum.
    pub max: f64,
    /// Number of values.
    pub count: u64,
}

impl Stat {
    /// Adds one value.
    pub fn add(&mut self, x: f64) {
        if self.count == 0 {
            (self.min, self.max) = (x, x);
        }
        self.max = self.max.max(x);
        self.min = self.min.min(x);
        self.mean += (x - self.mean) / (self.count + 1) as f64;
        self.count += 1;
    }
}

/// The summary of a series of trials.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Summary {
    /// Number of trials.
    pub trials: u64,
    /// Passes per trial.
    pub passes: Stat,
    /// Set-up steps per trial.
    pub steps: Stat,
    /// Lower bound per trial.
    pub lower_bound: Stat,
    /// Passes ÷ lower bound.
    pub passes_over_lower_bound: Stat,
    /// Passes ÷ optimum, over the trials where the optimum is known.
    pub passes_over_optimal: Option<Stat>,
    /// Which optimum.
    pub optimal_kind: &'static str,
    /// Trials whose optimum is unknown.
    pub optimal_unknown: u64,
    /// Why, for the first of them.
    pub optimal_unknown_example: Option<String>,
    /// Seed of the trial with the largest passes ÷ lower bound.
    pub worst_trial_seed: u64,
}

/// Why a series of trials failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrialError {
    /// The permutation could not be generated.
    #[error(transparent)]
    Workload(#[from] WorkloadError),
    /// A trial failed (a bug).
    #[error("trial {trial} (--seed {seed}): {source}")]
    Trial {
        /// Trial index.
        trial: u64,
        /// Its seed.
        seed: u64,
        /// The failure.
        source: EvalError,
    },
}

/// The seed of trial `i` of a series started from `seed`.
pub fn trial_seed(seed: u64, i: u64) -> u64 {
    derive(seed, &format!("trial {i}"))
}

/// Runs `trials` trials of `gen` permutations routed with `cfg` (whose seed starts the
/// series), each evaluated as [`evaluate`] does; `tick` is called after each trial.
pub fn run_trials(
    topo: &Topology,
    gen: Generator,
    cfg: &Config,
    budget: Option<u64>,
    trials: u64,
    mut tick: impl FnMut(),
) -> Result<Summary, TrialError> {
    let mut s = Summary {
        trials,
        worst_trial_seed: cfg.seed,
        ..Summary::default()
    };
    let mut opt = Stat::default();
    let mut worst = f64::MIN;
    for i in 0..trials {
        let seed = trial_seed(cfg.seed, i);
        let perm = generate(topo, gen, seed)?.to_partial();
        let ev = evaluate(topo, &perm, &Config { seed, ..*cfg }, budget).map_err(|source| {
            TrialError::Trial {
                trial: i,
                seed,
                source,
            }
        })?;
        let passes = ev.schedule.passes.len();
        let q = ratio(passes, ev.lower_bound.value);
        if q > worst {
            worst = q;
            s.worst_trial_seed = seed;
        }
        s.passes.add(passes as f64);
        s.steps.add(ev.schedule.steps() as f64);
        s.lower_bound.add(ev.lower_bound.value as f64);
        s.passes_over_lower_bound.add(q);
        s.optimal_kind = ev.optimal_kind;
        match ev.optimal {
            Some(o) => opt.add(ratio(passes, o)),
            None => {
                s.optimal_unknown += 1;
                if s.optimal_unknown_example.is_none() {
                    s.optimal_unknown_example = ev.optimal_reason;
                }
            }
        }
        tick();
    }
    s.passes_over_optimal = (opt.count > 0).then_some(opt);
    Ok(s)
}

/// `a / b`, 1 when `b = 0` (no connections).
pub fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}
