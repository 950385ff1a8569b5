//! Switch parameters and the widths and step lengths they imply (`docs/protocol.md` §1, §3).
//!
//! [`SwitchParams`] is validated once; everything downstream (the model, the RTL generator,
//! the traffic generator) takes it as given. [`SwitchParams::format`] derives the packet
//! layout and the step lengths `T_UP`, `T_DOWN`, `T_PROBE`.

use serde::Serialize;
use std::fmt;

/// Largest `d`, `u`, `W` and `l` a switch supports (the level ports are 4 bits wide).
pub const MAX_PARAM: usize = 16;
/// Largest step length: the step counter has 10 bits and saturates at this value.
pub const MAX_STEP: usize = 1023;

/// The topology a switch is generated for: it decides how addresses choose downers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SwitchTopology {
    /// T-LCAN, a (d/u)-ary tree whose edges are `u` parallel links (`u` must divide `d`).
    Tree,
    /// CB-LCAN, complete bipartite level interconnect (002 Definition 3).
    Cb,
    /// A general Π (a Π file): addresses are plain PE numbers of `⌈log2 pes⌉` bits and
    /// routes come from per-switch tables (`docs/protocol.md` §1, the route decoder).
    Table {
        /// PEs of the network.
        pes: usize,
    },
}

impl fmt::Display for SwitchTopology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwitchTopology::Tree => f.write_str("tree"),
            SwitchTopology::Cb => f.write_str("cb"),
            SwitchTopology::Table { pes } => write!(f, "pi{pes}"),
        }
    }
}

/// The contention arbiter's policy (`docs/routing.md` §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArbiterPolicy {
    /// Pointers always 0.
    Fixed,
    /// Pointers in registers, advanced after every arbitration with a grant.
    RoundRobin,
    /// Pointers drawn from a 16-bit Galois LFSR.
    Random,
}

impl fmt::Display for ArbiterPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ArbiterPolicy::Fixed => "fixed",
            ArbiterPolicy::RoundRobin => "round-robin",
            ArbiterPolicy::Random => "random",
        })
    }
}

/// How a switch resolves the contenders of a set-up step (`docs/protocol.md` §3, §13).
///
/// Both give exactly the same grants (the arbitration of `docs/routing.md` §2 is the same
/// function of the same packets and state); they differ only in the arbitration window `K`
/// of the step lengths `T = n(P) + K + 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SetupMode {
    /// One request per bit-time: `K = d` (UP), `2u + d` (DOWN), `u + d` (PROBE).
    #[default]
    Sequential,
    /// Every contender of a switch resolved in the commit bit-time: `K = 0`.
    Fast,
    /// At most `m ≥ 1` requests per arbiter decided per bit-time, the last `m` in the commit
    /// bit-time: `K = ⌈slots / m⌉ − 1` with `slots` = `d` (UP), `2u + d` (DOWN), `u + d`
    /// (PROBE); `m ≥ slots` is [`SetupMode::Fast`]'s timing.
    Chunked(usize),
}

impl SetupMode {
    /// Whether this is the default (sequential) set-up, which JSON summaries leave out.
    pub fn is_sequential(&self) -> bool {
        *self == SetupMode::Sequential
    }

    /// The arbitration window `K` of an arbiter with `slots` requests at most, whose
    /// sequential window is `sequential`.
    pub fn window(self, slots: usize, sequential: usize) -> usize {
        match self {
            SetupMode::Sequential => sequential,
            SetupMode::Fast => 0,
            SetupMode::Chunked(m) => slots.div_ceil(m.max(1)) - 1,
        }
    }
}

impl fmt::Display for SetupMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupMode::Sequential => f.write_str("sequential"),
            SetupMode::Fast => f.write_str("fast"),
            SetupMode::Chunked(m) => write!(f, "fast, {m} decisions per bit-time"),
        }
    }
}

/// Why a switch parameterization is not supported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// `d` below 2.
    #[error("d = {0}: a switch needs at least 2 downers")]
    TooFewDowners(usize),
    /// `u`, `W` or `l` is 0.
    #[error("{name} = 0: it must be at least 1")]
    Zero {
        /// The parameter's name.
        name: &'static str,
    },
    /// A parameter above [`MAX_PARAM`].
    #[error("{name} = {value} is larger than the supported maximum {max}")]
    TooLarge {
        /// The parameter's name.
        name: &'static str,
        /// Its value.
        value: usize,
        /// The limit.
        max: usize,
    },
    /// A T-LCAN needs `u | d` (002 Definition 2).
    #[error(
        "topology tree needs d to be a multiple of u (002 Definition 2), got d = {d}, u = {u}"
    )]
    TreeNeedsMultiple {
        /// Downers.
        d: usize,
        /// Uppers.
        u: usize,
    },
    /// A table-routed switch needs `d ≤ pes ≤ 2^20`.
    #[error("a table-routed switch needs between d = {d} and 2^20 PEs, got {pes}")]
    TablePes {
        /// PEs.
        pes: usize,
        /// Downers.
        d: usize,
    },
    /// A step would be longer than the step counter can count.
    #[error("a {mode} step would last {len} bit-times, more than the supported {max}")]
    StepTooLong {
        /// The mode.
        mode: &'static str,
        /// Its length.
        len: usize,
        /// The limit.
        max: usize,
    },
}

/// A validated switch parameterization (`docs/protocol.md` §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct SwitchParams {
    /// Downers.
    pub d: usize,
    /// Uppers.
    pub u: usize,
    /// Link width in bits per bit-time.
    pub width: usize,
    /// Levels `l` of the network the switch serves (sets the address and level fields).
    pub levels: usize,
    /// Topology kind (address decoding).
    pub topology: SwitchTopology,
    /// Arbiter policy.
    pub policy: ArbiterPolicy,
    /// Set-up arbitration: sequential (default) or fast ([`SwitchParams::with_setup`]).
    #[serde(skip_serializing_if = "SetupMode::is_sequential")]
    pub setup: SetupMode,
}

impl SwitchParams {
    /// Validates a parameterization.
    pub fn new(
        d: usize,
        u: usize,
        width: usize,
        levels: usize,
        topology: SwitchTopology,
        policy: ArbiterPolicy,
    ) -> Result<Self, ParamError> {
        if d < 2 {
            return Err(ParamError::TooFewDowners(d));
        }
        for (name, value) in [("u", u), ("width", width), ("levels", levels)] {
            if value == 0 {
                return Err(ParamError::Zero { name });
            }
        }
        for (name, value) in [("d", d), ("u", u), ("width", width), ("levels", levels)] {
            if value > MAX_PARAM {
                return Err(ParamError::TooLarge {
                    name,
                    value,
                    max: MAX_PARAM,
                });
            }
        }
        if topology == SwitchTopology::Tree && !d.is_multiple_of(u) {
            return Err(ParamError::TreeNeedsMultiple { d, u });
        }
        if let SwitchTopology::Table { pes } = topology {
            if pes < d || pes > 1 << 20 {
                return Err(ParamError::TablePes { pes, d });
            }
        }
        let p = SwitchParams {
            d,
            u,
            width,
            levels,
            topology,
            policy,
            setup: SetupMode::Sequential,
        };
        p.check_steps()
    }

    /// The same parameters with set-up arbitration `setup` (`docs/protocol.md` §13).
    pub fn with_setup(self, setup: SetupMode) -> Result<Self, ParamError> {
        if let SetupMode::Chunked(m) = setup {
            if m == 0 {
                return Err(ParamError::Zero {
                    name: "decisions per bit-time",
                });
            }
            if m > 3 * MAX_PARAM {
                return Err(ParamError::TooLarge {
                    name: "decisions per bit-time",
                    value: m,
                    max: 3 * MAX_PARAM,
                });
            }
        }
        SwitchParams { setup, ..self }.check_steps()
    }

    /// Checks that every step length fits the step counter.
    fn check_steps(self) -> Result<Self, ParamError> {
        let p = self;
        let f = p.format();
        for (mode, len) in [("UP", f.t_up), ("DOWN", f.t_down), ("PROBE", f.t_probe)] {
            if len > MAX_STEP {
                return Err(ParamError::StepTooLong {
                    mode,
                    len,
                    max: MAX_STEP,
                });
            }
        }
        Ok(p)
    }

    /// The packet layout and step lengths of this switch.
    pub fn format(&self) -> PacketFormat {
        PacketFormat::new(self)
    }
}

/// `⌈log2 x⌉` for `x ≥ 1` (0 for `x = 1`).
pub fn clog2(x: usize) -> usize {
    let mut b = 0;
    while (1usize << b) < x {
        b += 1;
    }
    b
}

/// Field widths, packet sizes and step lengths (`docs/protocol.md` §1 and §3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PacketFormat {
    /// Bits of an LCA-level field.
    pub hb: usize,
    /// Bits of a PE address.
    pub ab: usize,
    /// Per digit `j`: (bit offset from the least significant end, width, radix).
    pub digits: Vec<(usize, usize, usize)>,
    /// Phase-1 packet bits.
    pub p1: usize,
    /// Phase-2 packet bits.
    pub p2: usize,
    /// Probe bits.
    pub pr: usize,
    /// Bit-times to send `P1`, `P2`, `PR`.
    pub n1: usize,
    /// See `n1`.
    pub n2: usize,
    /// See `n1`.
    pub nr: usize,
    /// Step length in `UP`, `DOWN` and `PROBE` modes.
    pub t_up: usize,
    /// See `t_up`.
    pub t_down: usize,
    /// See `t_up`.
    pub t_probe: usize,
}

impl PacketFormat {
    fn new(p: &SwitchParams) -> Self {
        let hb = clog2(p.levels).max(1);
        let mut digits = Vec::with_capacity(p.levels);
        let mut off = 0;
        if let SwitchTopology::Table { pes } = p.topology {
            // One "digit": the whole PE number in binary.
            off = clog2(pes).max(1);
            digits.push((0, off, pes));
        }
        let label_levels = match p.topology {
            SwitchTopology::Table { .. } => 0,
            _ => p.levels,
        };
        for j in 0..label_levels {
            let radix = match p.topology {
                SwitchTopology::Tree if j > 0 => p.d / p.u,
                _ => p.d,
            };
            let w = clog2(radix);
            digits.push((off, w, radix));
            off += w;
        }
        let ab = off;
        let (p1, p2, pr) = (1 + hb + 2 * ab, 2 + 2 * hb + 3 * ab, 1 + hb + ab);
        let n = |bits: usize| bits.div_ceil(p.width);
        let (n1, n2, nr) = (n(p1), n(p2), n(pr));
        // The arbitration windows K (docs/protocol.md §3): none with the fast set-up.
        let (k_up, k_down, k_probe) = (
            p.setup.window(p.d, p.d),
            p.setup.window(2 * p.u + p.d, 2 * p.u + p.d),
            p.setup.window(p.u + p.d, p.u + p.d),
        );
        PacketFormat {
            hb,
            ab,
            digits,
            p1,
            p2,
            pr,
            n1,
            n2,
            nr,
            t_up: n1 + k_up + 1,
            t_down: n2 + k_down + 1,
            t_probe: nr + k_probe + 1,
        }
    }

    /// Encodes PE `pe` as label digits (`docs/protocol.md` §1); `None` if `pe` has no label
    /// with these digits (it is not a PE of the network).
    pub fn encode_pe(&self, pe: u64) -> Option<u64> {
        let mut rest = pe;
        let mut enc = 0u64;
        for &(off, _, radix) in &self.digits {
            let r = radix as u64;
            enc |= (rest % r) << off;
            rest /= r;
        }
        (rest == 0).then_some(enc)
    }

    /// Decodes label digits back to a PE number; `None` if some digit is not legal.
    pub fn decode_pe(&self, enc: u64) -> Option<u64> {
        let mut pe = 0u64;
        for &(off, w, radix) in self.digits.iter().rev() {
            let digit = (enc >> off) & ((1u64 << w) - 1);
            if digit >= radix as u64 {
                return None;
            }
            pe = pe * radix as u64 + digit;
        }
        Some(pe)
    }

    /// Number of PEs the address space describes (`∏ radix`, saturating at `u64::MAX`).
    pub fn pes(&self) -> u64 {
        self.digits
            .iter()
            .fold(1u64, |acc, &(_, _, r)| acc.saturating_mul(r as u64))
    }

    /// Digit `j` of an encoded address (`None` if `j ≥ l`; a table-routed network has
    /// a single "digit", the PE number).
    pub fn digit(&self, enc: u64, j: usize) -> Option<u64> {
        let &(off, w, _) = self.digits.get(j)?;
        Some((enc >> off) & ((1u64 << w) - 1))
    }
}
