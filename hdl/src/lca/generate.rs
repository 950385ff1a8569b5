//! The switch as netlist modules: its name (after every parameter that changes its text),
//! adding it to a network's design, and a lone switch as a design of its own.

use super::layout::{Layout, TestFault};
use super::switch::switch_module;
use crate::netlist::{elaborate, Design, Emitted, Module, NetlistError};
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SetupMode, SwitchParams, SwitchTopology};

/// Why a switch could not be generated (a bug in the generator or the backend: the
/// parameters were already validated by [`SwitchParams::new`]).
#[derive(Debug, thiserror::Error)]
pub enum SwitchGenError {
    /// Elaboration, validation or emission failed.
    #[error("generating the LCA switch: {0}")]
    Netlist(#[from] NetlistError),
}

/// The module name of a switch:
/// `lca_switch_<tree|cb|pi<n>>_d<d>_u<u>_w<W>_l<l>_<fixed|rr|random>`, with `_fast` appended
/// for the fast set-up (`docs/protocol.md` §13), and, in a tree or cb network whose switch
/// sizes vary by level, `_lv<i>[_<j>…]`: the levels it serves (its route decoder is written
/// for their digits; a Π switch decodes by tables and has no such suffix).
pub fn switch_module_name(p: &SwitchParams) -> String {
    let policy = match p.policy {
        ArbiterPolicy::Fixed => "fixed",
        ArbiterPolicy::RoundRobin => "rr",
        ArbiterPolicy::Random => "random",
    };
    let setup = match p.setup {
        SetupMode::Sequential => String::new(),
        SetupMode::Fast => "_fast".to_string(),
        SetupMode::Chunked(m) => format!("_fast{m}"),
    };
    let served = match (p.shapes, p.topology) {
        (Some(_), SwitchTopology::Tree | SwitchTopology::Cb) => {
            let levels: Vec<String> = (0..p.levels)
                .filter(|&j| p.serves(j))
                .map(|j| j.to_string())
                .collect();
            format!("_lv{}", levels.join("_"))
        }
        _ => String::new(),
    };
    format!(
        "lca_switch_{}_d{}_u{}_w{}_l{}_{}{setup}{served}",
        p.topology, p.d, p.u, p.width, p.levels, policy
    )
}

/// Adds the switch module of `lay` to `design` (a no-op if an identical definition is
/// there) and returns its definition, to instantiate.
pub fn add_switch(design: &mut Design, lay: &Layout) -> Result<Module, SwitchGenError> {
    let name = switch_module_name(&lay.params);
    let module = elaborate(&format!("switch module `{name}`"), || switch_module(lay))?;
    design.add_module(module.clone())?;
    Ok(module)
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
        .param("arbiter", params.policy);
    if params.setup != SetupMode::Sequential {
        design.param("setup", params.setup);
    }
    design
        .param("T_UP", f.t_up)
        .param("T_DOWN", f.t_down)
        .param("T_PROBE", f.t_probe);
    add_switch(&mut design, &Layout::new(params))?;
    Ok(design)
}

/// The emitted files of a lone switch.
pub fn emit_switch(params: SwitchParams) -> Result<Emitted, SwitchGenError> {
    Ok(switch_design(params)?.emit()?)
}

/// Test only: a lone switch with the defect `fault` built in, as a design whose module is
/// named `<switch_module_name>_fault` (so it is never mistaken for the real switch).
pub fn faulty_switch_design(
    params: SwitchParams,
    fault: TestFault,
) -> Result<Design, SwitchGenError> {
    let name = format!("{}_fault", switch_module_name(&params));
    let mut lay = Layout::new(params);
    lay.fault = Some(fault);
    let mut module = elaborate(&format!("switch module `{name}`"), || switch_module(&lay))?;
    module.name = name.clone();
    let mut design = Design::new(name);
    design.add_module(module)?;
    Ok(design)
}
