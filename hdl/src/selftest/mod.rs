//! The on-chip self-test (`docs/selftest.md`): a generated network — an LCA network, the
//! hypercube router or a MIN with its ATAPE units — unchanged, as the sub-module `net` of
//! `selftest_<network top>`, which adds a seeded stimulus generator, a checker, counters,
//! LEDs, a heartbeat and a UART that prints a report line every `report_every` rounds.
//!
//! - [`top`]: the parts every family shares: generator, sequencer, counters, LEDs,
//!   heartbeat.
//! - [`lca`], [`cube`], [`min`]: the per-family adapters: what a round drives into the
//!   network, when it is done, and how the checker reads back what arrived;
//!   `adapter.rs`: the interface between them and the top.
//! - [`report`]: the report line's template ROM, the binary → BCD converter, the UART.

mod adapter;
pub mod cube;
pub mod lca;
pub mod min;
pub mod report;
pub mod top;

use crate::hypercube::cube::{router_design, CubeError};
use crate::hypercube::Router;
use crate::hypercube::{hw_params, HwParamError};
use crate::lca_net::{network_design, NetGenError, NetSpec};
use crate::min::MinRtlError;
use crate::netlist::{elaborate, Design, Emitted, NetlistError};
use lcanet_sim::hypercube::timing::Algorithm as CubeAlgorithm;
use lcanet_sim::hypercube::CubeParams;
use lcanet_sim::min::Min;
use lcanet_sim::selftest::{heartbeat_clocks, uart_divisor, Dut, SelftestError, SelftestParams};

/// The network under test, as its generator takes it.
#[derive(Debug, Clone)]
pub enum DutSpec {
    /// An LCA network (R1 or R2).
    Lca(Box<NetSpec>),
    /// A k-cube running `semi` (Algorithm 1 on packings) or `full` (Algorithm 2).
    Cube {
        /// `k` and the payload width, within the generator's limits.
        params: CubeParams,
        /// `semi` or `full`.
        algorithm: CubeAlgorithm,
    },
    /// A MIN with ATAPE units.
    Min {
        /// The network.
        min: Min,
        /// Payload bits `B`.
        message_bits: u32,
    },
}

impl DutSpec {
    /// A k-cube within the generator's limits (`1 ≤ k ≤ 12`, `1 ≤ L ≤ 64`).
    pub fn cube(
        k: usize,
        payload_bits: usize,
        algorithm: CubeAlgorithm,
    ) -> Result<Self, HwParamError> {
        Ok(DutSpec::Cube {
            params: hw_params(k, payload_bits)?,
            algorithm,
        })
    }

    /// The golden model's description of the same network (the self-test's limits
    /// checked).
    pub fn golden(&self) -> Result<Dut, SelftestError> {
        match self {
            DutSpec::Lca(s) => Dut::lca(s.topo.clone(), s.net.clone()),
            DutSpec::Cube { params, algorithm } => Dut::cube(*params, *algorithm),
            DutSpec::Min { min, message_bits } => Dut::min(*min, *message_bits),
        }
    }

    /// The network's top module.
    pub fn network_name(&self) -> String {
        match self {
            DutSpec::Lca(s) => s.network_name(),
            DutSpec::Cube { params, algorithm } => {
                Router::for_algorithm(*algorithm).top_name(*params)
            }
            DutSpec::Min { min, message_bits } => crate::min::top_name(min, *message_bits),
        }
    }

    /// The network's design, from its own generator.
    fn design(&self) -> Result<Design, SelftestGenError> {
        Ok(match self {
            DutSpec::Lca(s) => network_design(s)?,
            DutSpec::Cube { params, algorithm } => {
                router_design(
                    Router::for_algorithm(*algorithm),
                    params.k(),
                    params.payload_bits(),
                )?
                .0
            }
            DutSpec::Min { min, message_bits } => crate::min::build(min, *message_bits)?.design,
        })
    }
}

/// A self-test to generate.
#[derive(Debug, Clone)]
pub struct SelftestSpec {
    /// The network under test.
    pub dut: DutSpec,
    /// The same network for the golden model.
    pub golden: Dut,
    /// Seed, report interval, fault (shared with the golden model).
    pub params: SelftestParams,
    /// Clock frequency the UART divisor and the heartbeat are computed for, Hz.
    pub clock_hz: u64,
    /// UART baud rate.
    pub baud: u64,
    /// Clocks per UART bit (`clock_hz / baud`, rounded).
    pub divisor: u64,
    /// Clocks between heartbeat toggles (a quarter second).
    pub heartbeat: u64,
    /// LED outputs are active low (iCEBreaker), otherwise active high (HX8K breakout).
    pub active_low_leds: bool,
}

impl SelftestSpec {
    /// Validates the combination (the error names the violated condition).
    pub fn new(
        dut: DutSpec,
        seed: u64,
        report_every: u64,
        clock_hz: u64,
        baud: u64,
        fault: bool,
    ) -> Result<Self, SelftestError> {
        let golden = dut.golden()?;
        let params = SelftestParams::new(seed, report_every, fault)?;
        let divisor = uart_divisor(clock_hz, baud)?;
        Ok(SelftestSpec {
            dut,
            golden,
            params,
            clock_hz,
            baud,
            divisor,
            heartbeat: heartbeat_clocks(clock_hz),
            active_low_leds: false,
        })
    }

    /// The same self-test with active-low LED outputs.
    pub fn with_active_low_leds(mut self, on: bool) -> Self {
        self.active_low_leds = on;
        self
    }

    /// The top module: `selftest_<network top>` (`_semi` added for the cube's
    /// Algorithm 1, whose network module is the same).
    pub fn top_name(&self) -> String {
        let semi = matches!(
            self.dut,
            DutSpec::Cube {
                algorithm: CubeAlgorithm::Semi,
                ..
            }
        );
        format!(
            "selftest_{}{}",
            self.dut.network_name(),
            if semi { "_semi" } else { "" }
        )
    }

    /// The report block: `<top>_report`.
    pub fn report_name(&self) -> String {
        format!("{}_report", self.top_name())
    }
}

/// Why a self-test could not be generated.
#[derive(Debug, thiserror::Error)]
pub enum SelftestGenError {
    /// The LCA network's generator failed.
    #[error(transparent)]
    Lca(#[from] NetGenError),
    /// The cube's generator failed.
    #[error(transparent)]
    Cube(#[from] CubeError),
    /// The MIN's generator failed.
    #[error(transparent)]
    Min(#[from] MinRtlError),
    /// The self-test's netlist was rejected (a bug in lcanet).
    #[error(transparent)]
    Netlist(#[from] NetlistError),
}

/// The self-test design: the network's modules, the report block, the top.
pub fn selftest_design(spec: &SelftestSpec) -> Result<Design, SelftestGenError> {
    let net = spec.dut.design()?;
    let d = elaborate(&format!("self-test `{}`", spec.top_name()), || {
        let mut d = Design::new(spec.top_name());
        for (k, v) in net.params() {
            d.param(k.clone(), v);
        }
        if let DutSpec::Cube { algorithm, .. } = &spec.dut {
            d.param("algorithm", format!("{algorithm:?}").to_lowercase());
        }
        d.param("lfsr_seed", spec.params.seed)
            .param("report_every", spec.params.report_every)
            .param("clock_hz", spec.clock_hz)
            .param("baud", spec.baud)
            .param("uart_divisor", spec.divisor)
            .param("heartbeat_clocks", spec.heartbeat)
            .param("active_low_leds", spec.active_low_leds)
            .param("inject_fault", spec.params.fault);
        for m in net.modules() {
            d.add_module(m.clone())?;
        }
        let net_top = net.module(net.top()).expect("the network top exists");
        let report = report::report_module(&spec.report_name(), spec.divisor, &spec.golden.line());
        let (top, parts) = top::top_module(spec, net_top, &report);
        d.add_module(report)?;
        for m in parts {
            d.add_module(m)?;
        }
        d.add_module(top)?;
        Ok::<_, NetlistError>(d)
    })??;
    Ok(d)
}

/// The emitted self-test (validated).
pub fn selftest_emit(spec: &SelftestSpec) -> Result<Emitted, SelftestGenError> {
    Ok(selftest_design(spec)?.emit()?)
}

#[cfg(test)]
mod tests;
