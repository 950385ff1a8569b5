//! Whole designs built from a [`NetSpec`]: the fabric alone (PE wires as ports), used to
//! validate the wiring with the tools before the PE interface and controller exist.

use super::fabric::{add_fabric, pe_down_net, FabricWiring, CTL_SIGNALS};
use super::spec::NetSpec;
use crate::lca::generate::add_switch;
use crate::lca::SwitchGenError;
use crate::netlist::{Design, Emitted, Expr, ModuleBuilder, NetlistError};
use lcanet_sim::lcan::cycle::ArbiterPolicy;

/// Why a network could not be generated (a bug: the parameters were validated by
/// [`NetSpec::new`]).
#[derive(Debug, thiserror::Error)]
pub enum NetGenError {
    /// The switch block failed.
    #[error(transparent)]
    Switch(#[from] SwitchGenError),
    /// A network block failed to import.
    #[error("importing a network block: {0}")]
    Import(#[from] crate::rusthdl::ImportError),
    /// Validation or emission failed.
    #[error("emitting the network: {0}")]
    Netlist(#[from] NetlistError),
}

/// Header parameters common to every network design.
pub(crate) fn header(design: &mut Design, spec: &NetSpec) {
    let f = spec.switch.format();
    design
        .param("topology", spec.topo.kind().name())
        .param("d", spec.topo.d())
        .param("u", spec.topo.u())
        .param("levels", spec.topo.levels())
        .param("n", spec.topo.n())
        .param("switches", spec.topo.total_switches())
        .param("width", spec.switch.width)
        .param("arbiter", spec.switch.policy)
        .param("algorithm", spec.algorithm)
        .param("T_UP", f.t_up)
        .param("T_DOWN", f.t_down)
        .param("T_PROBE", f.t_probe);
}

/// The fabric alone: ports `clock`, the `ctl_*` broadcast, `seed16` (random policy),
/// `pe_a` (`n·W`, PE `p` lane `l` at bit `p·W + l`) into the level-0 downers and `pe_c`
/// (same layout) out of them.
pub fn fabric_design(spec: &NetSpec) -> Result<Design, NetGenError> {
    let top = spec.fabric_name();
    let mut design = Design::new(top.clone());
    header(&mut design, spec);
    let sw = add_switch(&mut design, spec.switch)?;
    let sw = design.module(&sw).expect("just added").clone();
    let (n, w, d) = (spec.topo.n(), spec.switch.width, spec.topo.d());
    let mut m = ModuleBuilder::new(top);
    m.input("clock", 1);
    for (name, width) in CTL_SIGNALS {
        m.input(name, width);
    }
    if spec.switch.policy == ArbiterPolicy::Random {
        m.input("seed16", 16);
    }
    m.input("pe_a", n * w).output("pe_c", n * w);
    let pe_up = |p: usize, l: usize| Expr::bit("pe_a", p * w + l);
    add_fabric(
        &mut m,
        &FabricWiring {
            topo: &spec.topo,
            switch: &sw,
            width: w,
            policy: spec.switch.policy,
            pe_up: &pe_up,
        },
    );
    for p in 0..n {
        for l in 0..w {
            m.assign(
                Expr::bit("pe_c", p * w + l),
                Expr::sig(pe_down_net(d, w, p, l)),
            );
        }
    }
    design.add_module(m.build())?;
    Ok(design)
}

/// The emitted files of [`fabric_design`].
pub fn emit_fabric(spec: &NetSpec) -> Result<Emitted, NetGenError> {
    Ok(fabric_design(spec)?.emit()?)
}
