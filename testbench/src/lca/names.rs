//! Names of the switch's ports and observed registers (`docs/protocol.md` §2, §11), in one
//! place, and the build options that make the registers readable.

use crate::bridge::{ModelOptions, Optimize};
use lcanet_sim::lcan::cycle::ArbiterPolicy;

/// Output ports, `C(x)` lane `l` at `x·W + l` and `D(k)` likewise.
pub const OUTPUTS: [&str; 2] = ["c", "d"];

/// The crosspoint groups, in model order (`xp_ac`, `xp_ad`, `xp_bc`, `xp_bd`; row = input).
pub const CROSSPOINTS: [&str; 4] = ["xp_ac", "xp_ad", "xp_bc", "xp_bd"];

/// Waiting winners: `d` rows laid out like a `P1` packet.
pub const WINNERS: &str = "win";

/// The step counter.
pub const STEP_COUNTER: &str = "bt";

/// The step outcome of the UP arbiter (valid in a commit bit-time): granted and rejected
/// slots, and the upper granted to each `A(x)` (`d` one-hot rows of `u` bits).
pub const UP_OUTCOME: [&str; 3] = ["up_gnt", "up_rej", "up_ch"];

/// The step outcome of the DOWN arbiter: granted and rejected slots (`S(k)`, `X(x)`,
/// `D(k)` = `k`, `u + x`, `u + d + k`), the up-wire of slots `S`, `X` and the down-wire of
/// slots `X`, `D` (one-hot rows of `d` bits).
pub const DN_OUTCOME: [&str; 4] = ["dn_gnt", "dn_rej", "dn_ch0", "dn_ch1"];

/// The policy registers of arbiter `arb` (`up` or `dn`): `<arb>_p`, `<arb>_q`
/// (round-robin) or `<arb>_lfsr` (random); none for fixed priority.
pub fn policy_registers(arb: &str, policy: ArbiterPolicy) -> Vec<String> {
    match policy {
        ArbiterPolicy::Fixed => Vec::new(),
        ArbiterPolicy::RoundRobin => vec![format!("{arb}_p"), format!("{arb}_q")],
        ArbiterPolicy::Random => vec![format!("{arb}_lfsr")],
    }
}

/// Every observed register of a switch of this policy.
pub fn observed(policy: ArbiterPolicy) -> Vec<String> {
    CROSSPOINTS
        .iter()
        .chain(&[WINNERS, STEP_COUNTER])
        .chain(&UP_OUTCOME)
        .chain(&DN_OUTCOME)
        .map(|s| s.to_string())
        .chain(policy_registers("up", policy))
        .chain(policy_registers("dn", policy))
        .collect()
}

/// `<top>.<name>`.
pub fn hier(top: &str, name: &str) -> String {
    format!("{top}.{name}")
}

/// Build options for a switch co-simulation: tracing if `trace` (a VCD is written), every
/// observed register readable (`public_flat_rd` in every `lca_switch_*` module), and the
/// C++ optimization.
pub fn model_options(policy: ArbiterPolicy, optimize: Optimize, trace: bool) -> ModelOptions {
    let mut o = ModelOptions::traced(trace);
    o.optimize = optimize;
    for name in observed(policy) {
        o = o.with_public("lca_switch_*", &name);
    }
    o
}
