//! The on-chip self-test of an LCA network (`docs/selftest.md`): the generated network top,
//! unchanged, as a sub-module of `selftest_<network top>`, which adds a seeded stimulus
//! generator, a checker, counters, LEDs and a UART that prints a report line every
//! `report_every` permutations.
//!
//! - [`top`]: generator, sequencer, checker, counters.
//! - [`report`]: the report line's template ROM, the binary → BCD converter, the UART.

pub mod report;
pub mod top;

use crate::lca_net::{network_design, NetGenError, NetSpec};
use crate::netlist::{elaborate, Design, Emitted, NetlistError};
use lcanet_sim::selftest::{uart_divisor, SelftestError, SelftestParams};

/// A self-test to generate.
#[derive(Debug, Clone)]
pub struct SelftestSpec {
    /// The network under test.
    pub net: NetSpec,
    /// Seed, report interval, fault (shared with the golden model).
    pub params: SelftestParams,
    /// Clock frequency the UART divisor is computed for, Hz.
    pub clock_hz: u64,
    /// UART baud rate.
    pub baud: u64,
    /// Clocks per UART bit (`clock_hz / baud`, rounded).
    pub divisor: u64,
    /// LED outputs are active low (iCEBreaker), otherwise active high (HX8K breakout).
    pub active_low_leds: bool,
}

impl SelftestSpec {
    /// Validates the combination (the error names the violated condition).
    pub fn new(
        net: NetSpec,
        seed: u64,
        report_every: u64,
        clock_hz: u64,
        baud: u64,
        fault: bool,
    ) -> Result<Self, SelftestError> {
        let params = SelftestParams::new(&net.net, seed, report_every, fault)?;
        let divisor = uart_divisor(clock_hz, baud)?;
        Ok(SelftestSpec {
            net,
            params,
            clock_hz,
            baud,
            divisor,
            active_low_leds: false,
        })
    }

    /// The same self-test with active-low LED outputs.
    pub fn with_active_low_leds(mut self, on: bool) -> Self {
        self.active_low_leds = on;
        self
    }

    /// The top module: `selftest_<network top>`.
    pub fn top_name(&self) -> String {
        format!("selftest_{}", self.net.network_name())
    }

    /// The report block: `<top>_report`.
    pub fn report_name(&self) -> String {
        format!("{}_report", self.top_name())
    }

    /// `seed16` driven into a network with random arbiters: the network model's
    /// derivation from the run seed (the xorshift32 seed), `docs/interface.md` §7.
    pub fn arbiter_seed16(&self) -> u16 {
        lcanet_sim::lcan::arbiter::seed16(u64::from(self.params.seed))
    }
}

/// The self-test design: the network's modules, the report block, the top.
pub fn selftest_design(spec: &SelftestSpec) -> Result<Design, NetGenError> {
    let net = network_design(&spec.net)?;
    elaborate(&format!("self-test `{}`", spec.top_name()), || {
        let mut d = Design::new(spec.top_name());
        for (k, v) in net.params() {
            d.param(k.clone(), v);
        }
        d.param("lfsr_seed", spec.params.seed)
            .param("report_every", spec.params.report_every)
            .param("clock_hz", spec.clock_hz)
            .param("baud", spec.baud)
            .param("uart_divisor", spec.divisor)
            .param("active_low_leds", spec.active_low_leds)
            .param("inject_fault", spec.params.fault);
        for m in net.modules() {
            d.add_module(m.clone())?;
        }
        let net_top = net.module(net.top()).expect("the network top exists");
        let report = report::report_module(&spec.report_name(), spec.divisor);
        let top = top::top_module(spec, net_top, &report);
        d.add_module(report)?;
        d.add_module(top)?;
        Ok::<_, NetlistError>(d)
    })?
    .map_err(NetGenError::from)
}

/// The emitted self-test (validated).
pub fn selftest_emit(spec: &SelftestSpec) -> Result<Emitted, NetGenError> {
    Ok(selftest_design(spec)?.emit()?)
}

#[cfg(test)]
mod tests;
