//! One routing evaluated against the references: route with R1 or R2, check the schedule
//! with the validator, and compare its passes with the lower bound and (for `n ≤ 32`)
//! the exact optimum. This is what `lcanet schedule` reports, once or per trial.

use super::bounds::{lower_bound, LowerBound};
use super::optimal::{optimal, which_optimum, Outcome, MAX_OPTIMAL_PES};
use super::paths::Connection;
use super::routing::{route, Config, RoutingError, Schedule};
use super::topology::Topology;
use super::validate::{validate, ScheduleError};
use crate::perm::PartialPermutation;

/// A routing with its references.
#[derive(Debug, Clone)]
pub struct Evaluation {
    /// The schedule (validated).
    pub schedule: Schedule,
    /// The lower bound of docs/routing.md §6.
    pub lower_bound: LowerBound,
    /// The exact optimum, if computed.
    pub optimal: Option<usize>,
    /// Why `optimal` is `None` (or how it was proven).
    pub optimal_reason: Option<String>,
    /// Which optimum `optimal` is.
    pub optimal_kind: &'static str,
    /// Search nodes spent on the optimum.
    pub optimal_nodes: u64,
}

/// Why an evaluation failed (always a bug: inputs were validated before).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// Routing failed.
    #[error(transparent)]
    Routing(#[from] RoutingError),
    /// The schedule produced is invalid.
    #[error("internal error (a bug in lcanet, please report it): the schedule is invalid: {0}")]
    Invalid(#[from] ScheduleError),
}

/// Routes `perm` on `topo` with `cfg`, validates the schedule, and computes the lower
/// bound and, when `budget` is given and `n ≤ 32`, the exact optimum.
pub fn evaluate(
    topo: &Topology,
    perm: &PartialPermutation,
    cfg: &Config,
    budget: Option<u64>,
) -> Result<Evaluation, EvalError> {
    let schedule = route(topo, perm, cfg)?;
    validate(topo, perm, &schedule.pass_lists(), cfg.conflict)?;
    let conns: Vec<Connection> = perm
        .pairs()
        .map(|(src, dst)| Connection { src, dst })
        .collect();
    let lb = lower_bound(topo, &conns, cfg.conflict);
    let kind = which_optimum(topo, cfg.conflict);
    let (opt, reason, nodes) = match budget {
        None => (None, Some("not requested (--optimal off)".to_string()), 0),
        Some(_) if topo.n() > MAX_OPTIMAL_PES => (
            None,
            Some(format!(
                "computed only for n ≤ {MAX_OPTIMAL_PES} (n = {})",
                topo.n()
            )),
            0,
        ),
        Some(b) => match optimal(topo, &conns, cfg.conflict, b, Some(schedule.passes.len())) {
            Outcome::Found(o) => {
                let why = o.schedule.is_none().then(|| {
                    if o.passes == lb.value {
                        "equals the lower bound".to_string()
                    } else {
                        format!("{} passes refuted by exhaustive search", o.passes - 1)
                    }
                });
                (Some(o.passes), why, o.nodes)
            }
            Outcome::Unknown { reason, lower } => {
                (None, Some(format!("{reason}; the optimum is ≥ {lower}")), 0)
            }
        },
    };
    Ok(Evaluation {
        schedule,
        lower_bound: lb,
        optimal: opt,
        optimal_reason: reason,
        optimal_kind: kind,
        optimal_nodes: nodes,
    })
}
