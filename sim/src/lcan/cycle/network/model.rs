//! [`NetworkModel`]: the whole network, one bit-time per [`NetworkModel::step`]
//! (`docs/interface.md`), composed from [`SwitchModel`]s wired per the topology's numbering,
//! one [`Pe`] per PE and the [`Controller`].
//!
//! The model simulates the *canonical run* of `docs/interface.md` §3: `reset` in bit-time 0,
//! `start` in bit-time 1, the load inputs constant. Its top-level outputs in bit-time `t`
//! are read with [`NetworkModel::outputs`] (typed) or [`NetworkModel::output_words`] (one
//! word-level value per RTL port, in the order of [`NetworkModel::output_ports`]) *before*
//! calling `step` for bit-time `t`.

use super::super::params::ArbiterPolicy;
use super::super::switch::SwitchModel;
use super::super::types::ProtocolError;
use super::bitset::BitSet;
use super::controller::{Controller, PeSummary};
use super::fabric::Fabric;
use super::params::{NetParams, Phase};
use super::pe::{digit_lca, serial_encode, Pe};
use super::ports::{self, put_bits, CanonicalInputs, NetOutputs, PortSpec, PortWords};
use super::r3load::{r3_load, R3Load};
use crate::lcan::arbiter::{seed16, Policy};
use crate::lcan::routing::{Algorithm, Port, SwitchCrosspoints};
use crate::lcan::{Kind, Topology};
use std::sync::Arc;

/// Why a network model cannot be built or run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// The parameters were validated for another topology.
    #[error("the parameters are for a {pk} network of n = {pn}, the topology is a {tk} network of n = {tn}")]
    ParamsMismatch {
        /// Parameters' kind.
        pk: &'static str,
        /// Parameters' n.
        pn: usize,
        /// Topology's kind.
        tk: &'static str,
        /// Topology's n.
        tn: usize,
    },
    /// Wrong number of destinations or messages.
    #[error("{what}: expected one per PE (n = {n}), got {got}")]
    Count {
        /// `destinations` or `messages`.
        what: &'static str,
        /// PEs.
        n: usize,
        /// Entries given.
        got: usize,
    },
    /// A destination that does not fit the `dst` port.
    #[error(
        "PE {pe}: destination {dst} does not fit the {bits}-bit dst port (must be < 2^{bits})"
    )]
    DestinationTooWide {
        /// The PE.
        pe: usize,
        /// Its destination.
        dst: usize,
        /// `AB`.
        bits: usize,
    },
    /// A message wider than `M` bits.
    #[error("PE {pe}: message {msg:#x} does not fit in M = {m} bits")]
    MessageTooWide {
        /// The PE.
        pe: usize,
        /// Its message.
        msg: u64,
        /// `M`.
        m: usize,
    },
    /// A switch saw a protocol violation (a bug in the controller model).
    #[error("bit-time {t}: switch {g}: {err} (a bug in the network model)")]
    Protocol {
        /// Bit-time.
        t: u64,
        /// Global switch index.
        g: usize,
        /// The violation.
        err: ProtocolError,
    },
    /// The R3 schedule could not be computed or loaded.
    #[error("r3 schedule: {0}")]
    R3(String),
    /// `done` did not rise within the budget.
    #[error("done did not rise within {0} bit-times")]
    Timeout(u64),
    /// A mutation names something that does not exist.
    #[error("mutation: {0}")]
    Mutation(String),
}

/// A test-only mutation of the golden model, so that a co-simulation can prove that it
/// catches an injected bug (`#[doc(hidden)]` constructor [`NetworkModel::with_mutation`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mutation {
    /// Bit `bit` of the predicted value of output port `port` (an index into
    /// [`NetworkModel::output_ports`]) is inverted in bit-time `bit_time` only.
    FlipOutput {
        /// Port index.
        port: usize,
        /// Bit of the port.
        bit: usize,
        /// Bit-time.
        bit_time: u64,
    },
    /// PEs `a` and `b` swap their latched destinations (two connections are mis-routed).
    SwapDestinations {
        /// First PE.
        a: usize,
        /// Second PE.
        b: usize,
    },
}

/// One pass of a run, as the model saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetPass {
    /// `H`.
    pub top_level: usize,
    /// Connections `(src, dst)` acknowledged in this pass, by source.
    pub delivered: Vec<(usize, usize)>,
    /// PEs that sent a frame (R1: got an S-claim; R2: probed; R3: scheduled in this pass).
    pub senders: Vec<usize>,
    /// Closed crosspoints of every switch at the end of set-up (first `DELIV` bit-time;
    /// R3: first `ACK` bit-time), switches without any omitted, by global index.
    pub crosspoints: Vec<SwitchCrosspoints>,
    /// Bit-time of the pass's `PLAN`.
    pub start: u64,
    /// Bit-time of the pass's first `DELIV` (R3: `ACK`) bit-time.
    pub setup_end: u64,
}

/// A complete run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetRun {
    /// The passes.
    pub passes: Vec<NetPass>,
    /// The `bit_times` output at `done`.
    pub bit_times: u64,
    /// The bit-time in which `done` was first 1.
    pub done_at: u64,
    /// The `error` output at `done`.
    pub error: bool,
    /// Per PE: `(valid, rmsg)` at `done`.
    pub received: Vec<(bool, u64)>,
}

/// The golden model of a whole network (`docs/interface.md`).
#[derive(Debug, Clone)]
pub struct NetworkModel {
    np: NetParams,
    topo: Arc<Topology>,
    fabric: Fabric,
    pes: Vec<Pe>,
    ctrl: Controller,
    act: Vec<bool>,
    dst: Vec<u64>,
    msg: Vec<u64>,
    seed16: u16,
    t: u64,
    mutation: Option<Mutation>,
    /// Clock only the switches, and edge only the PEs, that have work (`fabric.rs`); off
    /// only to test that it changes nothing.
    fast: bool,
    /// PEs whose transmit register is not empty.
    talking: BitSet,
    /// The PEs edged in a bit-time (kept to reuse its allocation).
    edged: Vec<usize>,
    /// The PEs' output ports `valid`, `sent`, `rmsg` as of the last bit-time that could
    /// change them (the other ports of [`NetworkModel::output_ports`] are not kept).
    pe_words: PortWords,
    passes: Vec<NetPass>,
    /// R3: the schedule as load inputs (`docs/interface.md` §11.1).
    r3: Option<R3Load>,
}

fn policy_of(p: ArbiterPolicy) -> Policy {
    match p {
        ArbiterPolicy::Fixed => Policy::Fixed,
        ArbiterPolicy::RoundRobin => Policy::RoundRobin,
        ArbiterPolicy::Random => Policy::Random,
    }
}

impl NetworkModel {
    /// A network in its power-up state that will route `destinations` (`None`: the PE is not
    /// active, `act = 0`) carrying `messages` (`M` bits each), with the arbiters seeded from
    /// the run seed `seed` exactly as `routing::route` with `Config { seed, .. }`.
    ///
    /// Destinations `≥ n` (but `< 2^AB`) and repeated destinations are accepted: the
    /// hardware flags them (`error`, `docs/interface.md` §6) and so does the model.
    ///
    /// R3: the load inputs `pass`, `route`, `npass` are the R3 schedule of the permutation
    /// (`routing::route` with `Algorithm::R3` and `seed`) converted by
    /// [`r3_load`]; destinations that are not a partial permutation have no
    /// schedule and load `npass = 0`.
    pub fn new(
        topo: &Topology,
        np: &NetParams,
        destinations: &[Option<usize>],
        messages: &[u64],
        seed: u64,
    ) -> Result<Self, NetError> {
        let n = topo.n();
        if np.n != n || np.kind != topo.kind() || np.levels() != topo.levels() {
            return Err(NetError::ParamsMismatch {
                pk: np.kind.name(),
                pn: np.n,
                tk: topo.kind().name(),
                tn: n,
            });
        }
        for (what, got) in [
            ("destinations", destinations.len()),
            ("messages", messages.len()),
        ] {
            if got != n {
                return Err(NetError::Count { what, n, got });
            }
        }
        for (pe, d) in destinations.iter().enumerate() {
            if let Some(d) = *d {
                if (d as u64) >> np.abin != 0 {
                    return Err(NetError::DestinationTooWide {
                        pe,
                        dst: d,
                        bits: np.abin,
                    });
                }
            }
        }
        for (pe, &m) in messages.iter().enumerate() {
            if np.msg_bits < 64 && m >> np.msg_bits != 0 {
                return Err(NetError::MessageTooWide {
                    pe,
                    msg: m,
                    m: np.msg_bits,
                });
            }
        }
        let fmt = &np.fmt;
        let pes = (0..n)
            .map(|p| Pe::new(np, fmt.encode_pe(p as u64).unwrap_or(0)))
            .collect();
        let r3 = if np.algorithm == Algorithm::R3 {
            Some(schedule_r3(topo, np, destinations, seed)?)
        } else {
            None
        };
        Ok(NetworkModel {
            np: np.clone(),
            topo: Arc::new(topo.clone()),
            fabric: Fabric::new(topo, np),
            pes,
            ctrl: Controller::default(),
            act: destinations.iter().map(Option::is_some).collect(),
            dst: destinations.iter().map(|d| d.unwrap_or(0) as u64).collect(),
            msg: messages.to_vec(),
            seed16: seed16(seed),
            t: 0,
            mutation: None,
            fast: true,
            talking: BitSet::new(n),
            edged: Vec::with_capacity(n),
            pe_words: PortWords::new(&ports::output_ports(np)),
            passes: Vec::new(),
            r3,
        })
    }

    /// R3: [`NetworkModel::new`] with the load inputs given instead of computed (a host
    /// may load any schedule; the hardware follows it, `docs/protocol.md` §12 guards).
    pub fn with_r3_load(mut self, load: R3Load) -> Result<Self, NetError> {
        let n = self.pes.len();
        if self.np.algorithm != Algorithm::R3 || load.pass.len() != n || load.route.len() != n {
            return Err(NetError::R3(format!(
                "an r3 network and one pass and route per PE (n = {n}) needed"
            )));
        }
        let (fields, f) = (2 * self.np.levels() - 1, self.np.route_field_bits());
        if let Some(p) = (0..n)
            .find(|&p| load.route[p].len() > fields || load.route[p].iter().any(|&q| q >> f != 0))
        {
            return Err(NetError::R3(format!(
                "PE {p}: a route holds at most {fields} fields of {f} bits"
            )));
        }
        if load.npass >> (self.np.pass_bits() + 1) != 0
            || load.pass.iter().any(|&k| k >> self.np.pass_bits() != 0)
        {
            return Err(NetError::R3(format!(
                "pass numbers must fit {} bits and npass {} bits",
                self.np.pass_bits(),
                self.np.pass_bits() + 1
            )));
        }
        self.r3 = Some(load);
        Ok(self)
    }

    /// R3: the load inputs (`None` for R1/R2).
    pub fn r3_load(&self) -> Option<&R3Load> {
        self.r3.as_ref()
    }

    /// [`NetworkModel::new`] with a test-only [`Mutation`].
    #[doc(hidden)]
    pub fn with_mutation(
        topo: &Topology,
        np: &NetParams,
        destinations: &[Option<usize>],
        messages: &[u64],
        seed: u64,
        mutation: Mutation,
    ) -> Result<Self, NetError> {
        let mut m = NetworkModel::new(topo, np, destinations, messages, seed)?;
        match mutation {
            Mutation::FlipOutput { port, bit, .. }
                if m.output_ports().get(port).is_none_or(|p| bit >= p.width) =>
            {
                return Err(NetError::Mutation(format!(
                    "no output port {port} with a bit {bit}"
                )));
            }
            Mutation::SwapDestinations { a, b } if a >= m.pes.len() || b >= m.pes.len() => {
                return Err(NetError::Mutation(format!("no PE {a} or {b}")));
            }
            _ => {}
        }
        m.mutation = Some(mutation);
        Ok(m)
    }

    /// Turns the fast path off: every switch clocked and every PE edged in every bit-time
    /// (it changes nothing but speed; tests compare).
    #[doc(hidden)]
    pub fn without_fast_path(mut self) -> Self {
        self.fast = false;
        self
    }

    /// The parameters.
    pub fn params(&self) -> &NetParams {
        &self.np
    }

    /// The topology.
    pub fn topology(&self) -> &Topology {
        &self.topo
    }

    /// The current bit-time (the number of `step` calls so far).
    pub fn bit_time(&self) -> u64 {
        self.t
    }

    /// The controller's phase in this bit-time.
    pub fn phase(&self) -> Phase {
        self.ctrl.phase()
    }

    /// Whether this bit-time is the first of a `DELIV` step: the crosspoints are those at the
    /// end of the pass's set-up (`docs/interface.md` §8).
    pub fn is_setup_end(&self) -> bool {
        let end = match self.np.algorithm {
            Algorithm::R3 => Phase::Ack,
            _ => Phase::Deliv,
        };
        self.ctrl.phase() == end && self.ctrl.bt == 0
    }

    /// Every switch, by global index.
    pub fn switches(&self) -> &[SwitchModel] {
        self.fabric.switches()
    }

    /// The `seed16` the co-simulation drives on `seed` (random policy).
    pub fn seed16(&self) -> u16 {
        self.seed16
    }

    /// The typed top-level outputs of this bit-time.
    pub fn outputs(&self) -> NetOutputs {
        NetOutputs {
            done: self.ctrl.phase() == Phase::Done,
            error: self.ctrl.error,
            phase: self.ctrl.phase().code() as u8,
            passes: self.ctrl.passes,
            bit_times: self.ctrl.bit_times,
            valid: self.pes.iter().map(Pe::valid).collect(),
            sent: self.pes.iter().map(|p| p.sent).collect(),
            rmsg: self.pes.iter().map(|p| p.rmsg_value()).collect(),
        }
    }

    /// The top-level output ports (`docs/interface.md` §2), one per quantity.
    pub fn output_ports(&self) -> Vec<PortSpec> {
        ports::output_ports(&self.np)
    }

    /// The output values of this bit-time, in the order of [`NetworkModel::output_ports`]
    /// (with a [`Mutation::FlipOutput`] applied), into `out` (made by
    /// `PortWords::new(&self.output_ports())`; no allocation).
    pub fn output_words(&self, out: &mut PortWords) {
        use ports::out::*;
        let c = &self.ctrl;
        out.set(DONE, u64::from(c.phase() == Phase::Done));
        out.set(ERROR, u64::from(c.error));
        out.set(PHASE, c.phase().code());
        out.set(PASSES, u64::from(c.passes));
        out.set(BIT_TIMES, u64::from(c.bit_times));
        for port in [VALID, SENT, RMSG] {
            out.get_mut(port).copy_from_slice(self.pe_words.get(port));
        }
        if let Some(Mutation::FlipOutput {
            port,
            bit,
            bit_time,
        }) = self.mutation
        {
            if bit_time == self.t {
                out.flip(port, bit);
            }
        }
    }

    /// The top-level input ports except `clock`, one per quantity.
    pub fn input_ports(&self) -> Vec<PortSpec> {
        ports::input_ports(&self.np)
    }

    /// The canonical run's inputs (`CanonicalInputs::at(t)` gives bit-time `t`'s values,
    /// in the order of [`NetworkModel::input_ports`]).
    pub fn canonical_inputs(&self) -> CanonicalInputs {
        let c = CanonicalInputs::new(&self.np, &self.act, &self.dst, &self.msg, self.seed16);
        match &self.r3 {
            Some(load) => c.with_r3(&self.np, load),
            None => c,
        }
    }

    /// The crosspoint vectors of switch `g` as the RTL keeps them (`docs/protocol.md`
    /// §11): `which` = 0 `xp_ac` (bit `x·d + x'`), 1 `xp_ad` (`x·u + k`), 2 `xp_bc`
    /// (`k·d + x`), 3 `xp_bd` (`k·u + k'`); written into `out` (zeroed first, at least
    /// `⌈bits/64⌉` words).
    pub fn crosspoint_words(&self, g: usize, which: usize, out: &mut [u64]) {
        self.crosspoint_rows(g..g + 1, which, out);
    }

    /// Crosspoint vector `which` (as [`NetworkModel::crosspoint_words`]) of the switches
    /// with global indices `gs`, side by side: switch `gs.start + j` at row `j` (the layout
    /// of a level written as rows).
    pub fn crosspoint_rows(&self, gs: std::ops::Range<usize>, which: usize, out: &mut [u64]) {
        if gs.start >= self.fabric.len() {
            out.fill(0);
            return;
        }
        let first = self.fabric.get(gs.start);
        let (d, u) = (first.params().d, first.params().u);
        let (rows, cols, i0, o0) = match which {
            0 => (d, d, 0, 0),
            1 => (d, u, 0, d),
            2 => (u, d, d, 0),
            _ => (u, u, d, d),
        };
        out.fill(0);
        let per = rows * cols;
        for (j, g) in gs.enumerate() {
            let xp = self.fabric.get(g).crosspoints();
            for r in 0..rows {
                for c in 0..cols {
                    if xp.is_closed(i0 + r, o0 + c) {
                        let bit = j * per + r * cols + c;
                        out[bit / 64] |= 1 << (bit % 64);
                    }
                }
            }
        }
    }

    /// The passes seen so far.
    pub fn passes(&self) -> &[NetPass] {
        &self.passes
    }

    /// One bit-time of the canonical run.
    pub fn step(&mut self) -> Result<(), NetError> {
        let (reset, start) = (self.t == 0, self.t == 1);
        let np = &self.np;
        let w = np.width();
        let ctl = self.ctrl.control(np);
        let pectl = self.ctrl.pe_ctl(np);
        // Bookkeeping before the edge.
        if self.ctrl.phase() == Phase::Plan && !self.ctrl.error && self.pes.iter().any(Pe::pending)
        {
            self.passes.push(NetPass {
                top_level: 0,
                delivered: Vec::new(),
                senders: Vec::new(),
                crosspoints: Vec::new(),
                start: self.t,
                setup_end: 0,
            });
        }
        if self.is_setup_end() {
            let xps = self.crosspoint_lists();
            if let Some(p) = self.passes.last_mut() {
                p.top_level = self.ctrl.top;
                p.crosspoints = xps;
                p.setup_end = self.t;
            }
        }
        let sending = match np.algorithm {
            Algorithm::R3 => Phase::Src,
            _ => Phase::Data,
        };
        if self.ctrl.phase() == sending && self.ctrl.bt == 0 {
            let senders = (0..self.pes.len()).filter(|&p| self.pes[p].snd).collect();
            if let Some(p) = self.passes.last_mut() {
                p.senders = senders;
            }
        }
        // The switches (their outputs are registers: the PEs read them below). Only a PE
        // with a nonzero transmit register drives its up-wire.
        let pes = &self.pes;
        let ups = self.talking.iter().map(|p| (p, pes[p].up_lanes(w)));
        self.fabric
            .clock(&ctl, self.ctrl.seed16, ups, !self.fast, self.t)?;
        // PEs and controller.
        let fresh_pes = reset || (start && self.ctrl.takes_start());
        if reset {
            self.ctrl.reset();
            for pe in &mut self.pes {
                let s_enc = pe.s_enc;
                *pe = Pe::new(np, s_enc);
            }
        } else if start && self.ctrl.takes_start() {
            self.ctrl
                .start(self.seed16, self.r3.as_ref().map_or(0, |l| l.npass));
            self.passes.clear();
            let mut dst = self.dst.clone();
            if let Some(Mutation::SwapDestinations { a, b }) = self.mutation {
                dst.swap(a, b);
            }
            for (p, pe) in self.pes.iter_mut().enumerate() {
                let t = dst[p];
                let in_range = (t as usize) < np.n;
                // docs/interface.md §5.2: the serial conversion (or the bits themselves).
                let enc = if np.convert {
                    serial_encode(&np.fmt, np.abin, t).0
                } else {
                    t
                };
                let h = match (in_range, np.kind) {
                    (false, _) => 0,
                    (true, Kind::File) => self.topo.lca_level(p, t as usize),
                    (true, _) => digit_lca(&np.fmt, pe.s_enc, enc),
                };
                pe.start(self.act[p], t, self.msg[p], enc, h);
                if let Some(load) = &self.r3 {
                    pe.start_r3(load.pass[p], &load.route[p]);
                }
            }
        } else {
            let summary = if self.ctrl.reads_summary(np) {
                self.summary()
            } else {
                PeSummary::default()
            };
            let mut dup = false;
            // In most bit-times an edge only shifts the transmit register: only the PEs
            // whose register is not empty need it.
            let every = !self.fast || !pectl.only_shifts();
            self.edged.clear();
            if every {
                self.edged.extend(0..self.pes.len());
            } else {
                self.edged.extend(self.talking.iter());
            }
            for &p in &self.edged {
                let pe = &mut self.pes[p];
                let ev = pe.edge(np, &pectl, self.fabric.down(p));
                self.talking.put(p, !pe.tx.is_zero());
                dup |= ev.dup;
                if ev.delivered {
                    if let Some(pass) = self.passes.last_mut() {
                        pass.delivered.push((p, pe.dst as usize));
                    }
                }
            }
            self.ctrl.edge(np, &PeSummary { dup, ..summary });
            if every {
                self.refresh_pe_words();
            }
        }
        if fresh_pes {
            // Reset and start empty every transmit register.
            self.talking = BitSet::new(self.pes.len());
            self.refresh_pe_words();
        }
        self.t += 1;
        Ok(())
    }

    /// The PEs' `valid`, `sent` and `rmsg` into `pe_words` (after a
    /// bit-time that may have changed them).
    fn refresh_pe_words(&mut self) {
        use ports::out::{RMSG, SENT, VALID};
        let out = &mut self.pe_words;
        for port in [VALID, SENT, RMSG] {
            out.get_mut(port).fill(0);
        }
        let m = self.np.msg_bits;
        for (p, pe) in self.pes.iter().enumerate() {
            if pe.valid() {
                put_bits(out.get_mut(VALID), p, 1, 1);
            }
            if pe.sent {
                put_bits(out.get_mut(SENT), p, 1, 1);
            }
            let r = pe.rmsg_value();
            if r != 0 {
                put_bits(out.get_mut(RMSG), p * m, m, r);
            }
        }
    }

    /// What the controller reads of the PEs at the end of `LOAD` and `PLAN`.
    fn summary(&self) -> PeSummary {
        let pes = &self.pes;
        PeSummary {
            any_pending: pes.iter().any(Pe::pending),
            max_h: pes
                .iter()
                .filter(|p| p.pending() && (self.r3.is_none() || p.pass == self.ctrl.pk))
                .map(|p| p.h)
                .max()
                .unwrap_or(0),
            range_error: pes.iter().any(|p| p.act && p.dst >= self.np.n as u64),
            dup: false,
        }
    }

    /// The closed crosspoints of every switch now, in `routing`'s format.
    pub fn crosspoint_lists(&self) -> Vec<SwitchCrosspoints> {
        (0..self.fabric.len())
            .filter_map(|g| {
                let sw = self.fabric.get(g);
                let d = sw.params().d;
                let port_in = |i: usize| if i < d { Port::A(i) } else { Port::B(i - d) };
                let port_out = |o: usize| if o < d { Port::C(o) } else { Port::D(o - d) };
                let mut closed: Vec<(Port, Port)> = sw
                    .crosspoints()
                    .closed_pairs()
                    .into_iter()
                    .map(|(i, o)| (port_in(i), port_out(o)))
                    .collect();
                if closed.is_empty() {
                    return None;
                }
                closed.sort();
                let (level, switch) = self.topo.from_global(g);
                Some(SwitchCrosspoints {
                    global: g,
                    level,
                    switch,
                    closed,
                })
            })
            .collect()
    }

    /// Steps until `done` is 1 (at most `budget` bit-times in all) and reports the run.
    pub fn run_to_done(&mut self, budget: u64) -> Result<NetRun, NetError> {
        while self.ctrl.phase() != Phase::Done || self.t < 2 {
            if self.t >= budget {
                return Err(NetError::Timeout(budget));
            }
            self.step()?;
        }
        let o = self.outputs();
        Ok(NetRun {
            passes: self.passes.clone(),
            bit_times: u64::from(o.bit_times),
            done_at: self.t,
            error: o.error,
            received: o.valid.into_iter().zip(o.rmsg).collect(),
        })
    }

    /// The arbiter policy in `routing`'s terms.
    pub fn routing_policy(&self) -> Policy {
        policy_of(self.np.policy())
    }

    /// Whether this is a Π-file network.
    pub fn is_pi(&self) -> bool {
        self.np.kind == Kind::File
    }
}

/// R3: the schedule of `destinations` (a partial permutation) as load inputs; no schedule
/// (`npass = 0`) for anything else.
fn schedule_r3(
    topo: &Topology,
    np: &NetParams,
    destinations: &[Option<usize>],
    seed: u64,
) -> Result<R3Load, NetError> {
    let n = topo.n();
    let perm = match crate::perm::PartialPermutation::new(destinations.to_vec()) {
        Ok(p) => p,
        Err(_) => {
            return Ok(R3Load {
                npass: 0,
                pass: vec![0; n],
                route: vec![Vec::new(); n],
            })
        }
    };
    let cfg = crate::lcan::routing::Config {
        algorithm: Algorithm::R3,
        policy: Policy::Fixed,
        conflict: crate::lcan::routing::Conflict::Wire,
        seed,
    };
    let schedule =
        crate::lcan::routing::route(topo, &perm, &cfg).map_err(|e| NetError::R3(e.to_string()))?;
    r3_load(topo, np, &schedule).map_err(|e| NetError::R3(e.to_string()))
}
