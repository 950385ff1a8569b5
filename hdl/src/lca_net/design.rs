//! Errors, the header parameters of every network design, and the artifacts of
//! `generate network`: Verilog, the GTKWave save file and its translate filters, the top's
//! ports.

use super::gtkw::{network_gtkw, GtkwFiles};
use super::network::network_design;
use super::spec::NetSpec;
use crate::lca::SwitchGenError;
use crate::netlist::{Design, Emitted, NetlistError};

/// Why a network could not be generated (a bug: the parameters were validated by
/// [`NetSpec::new`]).
#[derive(Debug, thiserror::Error)]
pub enum NetGenError {
    /// The switch block failed.
    #[error(transparent)]
    Switch(#[from] SwitchGenError),
    /// Validation or emission failed, or the generator hit a bug (an internal error).
    #[error("emitting the network: {0}")]
    Netlist(#[from] NetlistError),
}

/// Header parameters common to every network design.
pub(crate) fn header(design: &mut Design, spec: &NetSpec) {
    let f = &spec.net.fmt;
    let (d, u) = super::spec::size_tags(&spec.topo, ",");
    design
        .param("topology", spec.topo.kind().name())
        .param("d", d)
        .param("u", u)
        .param("levels", spec.topo.levels())
        .param("n", spec.topo.n())
        .param("switches", spec.topo.total_switches())
        .param("structure", spec.structure.name())
        .param("width", spec.width())
        .param("message_bits", spec.net.msg_bits);
    if spec.net.algorithm == lcanet_sim::lcan::routing::Algorithm::R3 {
        // R3: no arbiter; its one set-up-and-data step (docs/interface.md §11.2).
        let top = spec.topo.levels() - 1;
        design
            .param("arbiter", "none")
            .param("algorithm", spec.net.algorithm.name())
            .param(
                "T_SRC_Hmax",
                spec.net
                    .step_len(lcanet_sim::lcan::cycle::network::Phase::Src, top)
                    .unwrap_or(0),
            );
        return;
    }
    design
        .param("arbiter", spec.policy())
        .param("algorithm", spec.net.algorithm.name());
    if !spec.net.setup().is_sequential() {
        design.param("setup", spec.net.setup());
    }
    design
        .param("T_UP", f.t_up)
        .param("T_DOWN", f.t_down)
        .param("T_PROBE", f.t_probe);
}

/// What `generate network` writes: the Verilog, the GTKWave files, the top's ports.
#[derive(Debug, Clone)]
pub struct NetArtifacts {
    /// The emitted Verilog.
    pub emitted: Emitted,
    /// The `.gtkw` save file and the translate filter files it references.
    pub gtkw: GtkwFiles,
    /// Ports of the top module: name and width.
    pub ports: Vec<(String, usize)>,
}

/// The whole network's artifacts.
pub fn network_artifacts(spec: &NetSpec) -> Result<NetArtifacts, NetGenError> {
    let design = network_design(spec)?;
    let emitted = design.emit()?;
    let top = design.module(design.top()).expect("the top exists");
    let ports = top
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
