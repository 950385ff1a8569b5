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

/// The switch sizes of every level of the network a switch serves, when they vary by level
/// (`docs/protocol.md` §1, "Per-level switch sizes"): they set the radix of every label
/// digit, a tree's downer groups, and (R3) the route field width. A network whose levels
/// all have one shape has none ([`SwitchParams::shapes`] is `None`), and its switches are
/// those of `docs/protocol.md` bit for bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LevelShapes {
    levels: u8,
    d: [u8; MAX_PARAM],
    u: [u8; MAX_PARAM],
}

impl LevelShapes {
    /// The shapes `(d_i, u_i)` of levels `0..ds.len()`; every value within the hardware
    /// limits (`2 ≤ d_i ≤ 16`, `1 ≤ u_i ≤ 16`, at most 16 levels).
    pub fn new(ds: &[usize], us: &[usize]) -> Result<Self, ParamError> {
        if ds.len() != us.len() || ds.is_empty() {
            return Err(ParamError::ShapeLengths {
                d: ds.len(),
                u: us.len(),
            });
        }
        if ds.len() > MAX_PARAM {
            return Err(ParamError::TooLarge {
                name: "levels",
                value: ds.len(),
                max: MAX_PARAM,
            });
        }
        let mut out = LevelShapes {
            levels: ds.len() as u8,
            d: [0; MAX_PARAM],
            u: [0; MAX_PARAM],
        };
        for (i, (&d, &u)) in ds.iter().zip(us).enumerate() {
            if d < 2 {
                return Err(ParamError::TooFewDowners(d));
            }
            if u == 0 {
                return Err(ParamError::Zero { name: "u" });
            }
            for (name, value) in [("d", d), ("u", u)] {
                if value > MAX_PARAM {
                    return Err(ParamError::TooLargeAt {
                        name,
                        level: i,
                        value,
                        max: MAX_PARAM,
                    });
                }
            }
            out.d[i] = d as u8;
            out.u[i] = u as u8;
        }
        Ok(out)
    }

    /// Levels.
    pub fn levels(&self) -> usize {
        self.levels as usize
    }
    /// `d_level`.
    pub fn d(&self, level: usize) -> usize {
        self.d[level] as usize
    }
    /// `u_level`.
    pub fn u(&self, level: usize) -> usize {
        self.u[level] as usize
    }
    /// `d_i` of every level, level 0 first.
    pub fn ds(&self) -> Vec<usize> {
        (0..self.levels()).map(|i| self.d(i)).collect()
    }
    /// `u_i` of every level, level 0 first.
    pub fn us(&self) -> Vec<usize> {
        (0..self.levels()).map(|i| self.u(i)).collect()
    }
    /// Whether every level has the shape `(d, u)`.
    pub fn all(&self, d: usize, u: usize) -> bool {
        (0..self.levels()).all(|i| self.d(i) == d && self.u(i) == u)
    }
}

impl Serialize for LevelShapes {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = ser.serialize_struct("LevelShapes", 2)?;
        st.serialize_field("d", &self.ds())?;
        st.serialize_field("u", &self.us())?;
        st.end()
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
    /// A per-level parameter above [`MAX_PARAM`].
    #[error("{name}_{level} = {value} is larger than the supported maximum {max} (level {level})")]
    TooLargeAt {
        /// The parameter's name.
        name: &'static str,
        /// The level.
        level: usize,
        /// Its value.
        value: usize,
        /// The limit.
        max: usize,
    },
    /// The per-level vectors have different lengths.
    #[error("per-level switch sizes: {d} values of d but {u} of u (one of each per level)")]
    ShapeLengths {
        /// Entries of `d`.
        d: usize,
        /// Entries of `u`.
        u: usize,
    },
    /// The per-level shapes do not describe the switch's network.
    #[error("per-level switch sizes: {0}")]
    Shapes(String),
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
    /// The switch sizes of every level of the network, when they vary by level
    /// ([`SwitchParams::per_level`]); `None` when every level has this switch's `d`, `u`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shapes: Option<LevelShapes>,
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
            shapes: None,
        };
        p.check_steps()
    }

    /// The switch of level `level` of a network whose switch sizes vary by level
    /// (`shapes`, one entry per level). Shapes equal at every level are no shapes: this is
    /// then [`SwitchParams::new`]. A tree needs `u_{i-1} | d_i` at every level (002
    /// Definition 2 level by level) instead of `u | d`.
    pub fn per_level(
        shapes: LevelShapes,
        level: usize,
        width: usize,
        topology: SwitchTopology,
        policy: ArbiterPolicy,
    ) -> Result<Self, ParamError> {
        let (l, d, u) = (shapes.levels(), shapes.d(level), shapes.u(level));
        if shapes.all(d, u) {
            return SwitchParams::new(d, u, width, l, topology, policy);
        }
        if topology == SwitchTopology::Tree {
            for i in 1..l {
                if !shapes.d(i).is_multiple_of(shapes.u(i - 1)) {
                    return Err(ParamError::Shapes(format!(
                        "topology tree needs d_{i} = {} to be a multiple of u_{} = {} (002 Definition 2, level by level)",
                        shapes.d(i),
                        i - 1,
                        shapes.u(i - 1)
                    )));
                }
            }
        }
        // The uniform checks with a stand-in `u` that divides `d`, then the real shape.
        let p = SwitchParams::new(d, 1, width, l, topology, policy)?;
        if u == 0 || u > MAX_PARAM {
            return Err(ParamError::TooLargeAt {
                name: "u",
                level,
                value: u,
                max: MAX_PARAM,
            });
        }
        SwitchParams {
            u,
            shapes: Some(shapes),
            ..p
        }
        .check_steps()
    }

    /// `d_level` of the network (this switch's `d` without shapes).
    pub fn d_at(&self, level: usize) -> usize {
        self.shapes.map_or(self.d, |s| s.d(level))
    }

    /// `u_level` of the network (this switch's `u` without shapes).
    pub fn u_at(&self, level: usize) -> usize {
        self.shapes.map_or(self.u, |s| s.u(level))
    }

    /// Whether this switch serves level `level`: the level exists and its switches have
    /// this switch's shape (every level below `l` without shapes).
    pub fn serves(&self, level: usize) -> bool {
        level < self.levels && self.d_at(level) == self.d && self.u_at(level) == self.u
    }

    /// The radix of label digit `j` (tree and cb): `d_0`, then `d_j/u_{j-1}` (tree) or
    /// `d_j` (cb).
    pub fn radix(&self, j: usize) -> usize {
        match self.topology {
            SwitchTopology::Tree if j > 0 => self.d_at(j) / self.u_at(j - 1),
            _ => self.d_at(j),
        }
    }

    /// Tree: the downers one value of digit `level ≥ 1` selects, `u_{level-1}` (the uppers
    /// of one child switch); 1 otherwise.
    pub fn group(&self, level: usize) -> usize {
        match self.topology {
            SwitchTopology::Tree if level > 0 => self.u_at(level - 1),
            _ => 1,
        }
    }

    /// R3: bits of an output-port field, the largest `max(1, ⌈log2(d_i + u_i)⌉)` of the
    /// network (`docs/protocol.md` §12.1): one field width for every switch of a network.
    pub fn route_field_bits(&self) -> usize {
        (0..self.levels)
            .map(|i| clog2(self.d_at(i) + self.u_at(i)).max(1))
            .max()
            .unwrap_or(1)
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
            let radix = p.radix(j);
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
