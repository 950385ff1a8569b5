//! A lone switch as a netlist design: the rust-hdl block imported through the adapter, its
//! module named after every parameter that changes its text.

use super::layout::Layout;
use super::switch::LcaSwitch;
use crate::netlist::{Design, Emitted, NetlistError};
use crate::rusthdl::{add_block, ImportError};
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SwitchParams};

/// Why a switch could not be generated (a bug in the block or the backend: the parameters
/// were already validated by [`SwitchParams::new`]).
#[derive(Debug, thiserror::Error)]
pub enum SwitchGenError {
    /// The rust-hdl import failed.
    #[error("importing the LCA switch block: {0}")]
    Import(#[from] ImportError),
    /// Validation or emission failed.
    #[error("emitting the LCA switch: {0}")]
    Netlist(#[from] NetlistError),
}

/// The module name of a switch: `lca_switch_<tree|cb>_d<d>_u<u>_w<W>_l<l>_<policy>`.
pub fn switch_module_name(p: &SwitchParams) -> String {
    let policy = match p.policy {
        ArbiterPolicy::Fixed => "fixed",
        ArbiterPolicy::RoundRobin => "rr",
        ArbiterPolicy::Random => "random",
    };
    format!(
        "lca_switch_{}_d{}_u{}_w{}_l{}_{}",
        p.topology, p.d, p.u, p.width, p.levels, policy
    )
}

/// Adds the switch (and its sub-blocks) to `design`; returns its module name.
pub fn add_switch(design: &mut Design, params: SwitchParams) -> Result<String, SwitchGenError> {
    let name = switch_module_name(&params);
    let mut block = LcaSwitch::new(&Layout::new(params));
    Ok(add_block(design, &name, &mut block)?)
}

/// A design whose top is one switch, with its parameters in the header.
pub fn switch_design(params: SwitchParams) -> Result<Design, SwitchGenError> {
    let mut design = Design::new(switch_module_name(&params));
    let f = params.format();
    design
        .param("d", params.d)
        .param("u", params.u)
        .param("width", params.width)
        .param("levels", params.levels)
        .param("topology", params.topology)
        .param("arbiter", params.policy)
        .param("T_UP", f.t_up)
        .param("T_DOWN", f.t_down)
        .param("T_PROBE", f.t_probe);
    add_switch(&mut design, params)?;
    Ok(design)
}

/// The emitted files of a lone switch.
pub fn emit_switch(params: SwitchParams) -> Result<Emitted, SwitchGenError> {
    Ok(switch_design(params)?.emit()?)
}
