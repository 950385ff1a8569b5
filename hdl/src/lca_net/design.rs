//! Whole designs built from a [`NetSpec`]: the fabric alone (PE wires as ports), used to
//! validate the wiring with the tools before the PE interface and controller exist.

use super::fabric::{add_fabric, pe_down_net, FabricWiring, CTL_SIGNALS};
use super::gtkw::{save_file, Group, Trace};
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
    let f = &spec.net.fmt;
    design
        .param("topology", spec.topo.kind().name())
        .param("d", spec.topo.d())
        .param("u", spec.topo.u())
        .param("levels", spec.topo.levels())
        .param("n", spec.topo.n())
        .param("switches", spec.topo.total_switches())
        .param("width", spec.width())
        .param("message_bits", spec.net.msg_bits)
        .param("arbiter", spec.policy())
        .param("algorithm", spec.net.algorithm.name())
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
    let sw = add_switch(&mut design, spec.net.switch)?;
    let sw = design.module(&sw).expect("just added").clone();
    let roms = super::rom::roms_of(&mut design, spec)?;
    let (n, w, d) = (spec.topo.n(), spec.width(), spec.topo.d());
    let mut m = ModuleBuilder::new(top);
    m.input("clock", 1);
    for (name, width) in CTL_SIGNALS {
        m.input(name, width);
    }
    if spec.policy() == ArbiterPolicy::Random {
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
            policy: spec.policy(),
            pe_up: &pe_up,
            roms: &roms,
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

/// What `generate network` writes: the Verilog, the GTKWave save file, the top's ports.
#[derive(Debug, Clone)]
pub struct NetArtifacts {
    /// The emitted Verilog.
    pub emitted: Emitted,
    /// The `.gtkw` text (no dump file: pass the VCD on GTKWave's command line).
    pub gtkw: String,
    /// Ports of the top module: name and width.
    pub ports: Vec<(String, usize)>,
}

/// The switches on PE `pe`'s upward path through upper 0: `(level, switch)`, level 0 first.
pub fn path_of_pe(spec: &NetSpec, pe: usize) -> Vec<(usize, usize)> {
    let topo = &spec.topo;
    let mut path = vec![(0, pe / topo.d())];
    while let Some(&(level, sw)) = path.last() {
        match topo.up_link(level, sw, 0) {
            Some((p, _)) => path.push((level + 1, p)),
            None => break,
        }
    }
    path
}

/// GTKWave traces of one switch instance: its ports and crosspoints.
pub(crate) fn switch_traces(spec: &NetSpec, level: usize, sw: usize) -> Vec<Trace> {
    let (d, u, w) = (spec.topo.d(), spec.topo.u(), spec.width());
    let inst = super::fabric::switch_instance(level, sw);
    let mut t = Vec::new();
    for (port, count) in [("a", d), ("c", d), ("b", u), ("d", u)] {
        for i in 0..count * w {
            t.push(Trace::new(format!("{inst}.{port}_{i}"), 1));
        }
    }
    for (grp, count) in [("xp_ac", d * d), ("xp_ad", d * u), ("xp_bc", u * d)] {
        for i in 0..count {
            t.push(Trace::new(format!("{inst}.xbar.{grp}_{i}_q"), 1));
        }
    }
    t
}

/// The whole network's artifacts: Verilog, GTKWave save file (controller, PE 0's
/// interface, the switches on PE 0's upward path), top ports.
pub fn network_artifacts(spec: &NetSpec) -> Result<NetArtifacts, NetGenError> {
    let design = super::network::network_design(spec)?;
    let emitted = design.emit()?;
    let top = design.module(design.top()).expect("top exists");
    let ports: Vec<(String, usize)> = top
        .ports
        .iter()
        .map(|p| (p.name.clone(), p.width))
        .collect();
    Ok(NetArtifacts {
        gtkw: network_gtkw(spec),
        emitted,
        ports,
    })
}

/// The GTKWave save file of the network of `spec`: the controller, PE 0's interface, the
/// switches on PE 0's upward path.
pub fn network_gtkw(spec: &NetSpec) -> String {
    let mut ctl = vec![
        Trace::new("clock", 1),
        Trace::new("reset", 1),
        Trace::new("start", 1),
        Trace::new("ctrl_phase", 4),
        Trace::new("ctrl_passes", 16),
        Trace::new("ctrl_bit_times", 32),
        Trace::new("ctrl_done", 1),
        Trace::new("ctrl_error", 1),
    ];
    ctl.extend(CTL_SIGNALS.iter().map(|&(n, w)| Trace::new(n, w)));
    let (d, w) = (spec.topo.d(), spec.width());
    let mut pe0 = vec![Trace::new("act_0", 1)];
    for lane in 0..w {
        pe0.push(Trace::new(format!("pe0_dout_{lane}"), 1));
        pe0.push(Trace::new(pe_down_net(d, w, 0, lane), 1));
    }
    for r in ["r_snd_q", "r_got_q", "r_sent_q"] {
        pe0.push(Trace::new(format!("pe0.{r}"), 1));
    }
    for o in ["pend", "valid", "sent"] {
        pe0.push(Trace::new(format!("pe0_{o}"), 1));
    }
    let mut groups = vec![
        Group {
            name: "controller".into(),
            traces: ctl,
        },
        Group {
            name: "PE 0 interface".into(),
            traces: pe0,
        },
    ];
    for (level, sw) in path_of_pe(spec, 0) {
        groups.push(Group {
            name: format!("PE 0 path: {}", super::fabric::switch_instance(level, sw)),
            traces: switch_traces(spec, level, sw),
        });
    }
    save_file(&spec.network_name(), None, &groups)
}
