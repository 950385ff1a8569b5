//! The route decoder: which downers lead to an address, which uppers lead up
//! (`docs/protocol.md` §1, "Address encoding"; `docs/routing.md` §1 `down` and `up`).
//!
//! Tree and cb switches decode label digits ([`down_mask`], [`up_mask`]); a Π network's
//! switches look routes up in a per-switch [`RouteTable`] built from the topology's
//! reachability (`docs/protocol.md` §1, "Π networks: the table-driven decoder").

use super::params::{PacketFormat, SwitchParams, SwitchTopology};
use crate::lcan::Topology;

/// The route tables of one switch of a Π network: `down[t]` = `down(Y, t)` and
/// `up[h·n + t]` = the uppers whose parent reaches, going up, a switch from which PE `t` is
/// reachable at level `h` and at no lower level (`docs/routing.md` §1 `up`, `docs/protocol.md`
/// §1; 0 at or above level `h`). For a connection's real LCA level the "no lower level"
/// part always holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteTable {
    n: usize,
    down: Vec<u64>,
    up: Vec<u64>,
}

impl RouteTable {
    /// The tables of switch `(level, switch)` of `topo`.
    pub fn for_switch(topo: &Topology, level: usize, switch: usize) -> Self {
        let (n, l) = (topo.n(), topo.levels());
        let down = (0..n).map(|t| topo.down(level, switch, t)).collect();
        let mut up = vec![0u64; l * n];
        for h in level + 1..l {
            for t in 0..n {
                up[h * n + t] = topo.up_towards(level, switch, t, h);
            }
        }
        RouteTable { n, down, up }
    }

    /// `down(Y, t)` (0 for an address that is not a PE).
    pub fn down(&self, t: u64) -> u64 {
        self.down.get(t as usize).copied().unwrap_or(0)
    }

    /// The uppers towards an LCA switch at level `h` for destination `t` (0 if none).
    pub fn up(&self, h: u64, t: u64) -> u64 {
        if t as usize >= self.n {
            return 0;
        }
        self.up
            .get(h as usize * self.n + t as usize)
            .copied()
            .unwrap_or(0)
    }

    /// PEs the tables cover.
    pub fn pes(&self) -> usize {
        self.n
    }
}

/// `down(Y, p)` as a bit mask over downers, for a switch of level `level` and an encoded
/// address. Empty if the digit is not a legal digit, `level ≥ l`, or (sizes that vary by
/// level) the switch does not serve `level`.
pub fn down_mask(params: &SwitchParams, fmt: &PacketFormat, level: usize, addr: u64) -> u64 {
    let Some(digit) = fmt.digit(addr, level) else {
        return 0;
    };
    let radix = fmt.digits[level].2 as u64;
    if digit >= radix || !params.serves(level) {
        return 0;
    }
    match params.topology {
        SwitchTopology::Tree if level > 0 => {
            let g = params.group(level) as u64;
            ((1u64 << g) - 1) << (digit * g)
        }
        _ => 1u64 << digit,
    }
}

/// `up(X, c)` as a bit mask over uppers: every upper, for tree and cb (002 Lemma 2).
pub fn up_mask(params: &SwitchParams) -> u64 {
    (1u64 << params.u) - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcan::cycle::params::ArbiterPolicy;

    fn params(d: usize, u: usize, l: usize, t: SwitchTopology) -> SwitchParams {
        SwitchParams::new(d, u, 1, l, t, ArbiterPolicy::Fixed).unwrap()
    }

    #[test]
    fn tree_levels_choose_digit_groups() {
        // T-LCAN(4,2), l = 3: digit 0 base 4, digits 1,2 base 2; n = 16.
        let p = params(4, 2, 3, SwitchTopology::Tree);
        let f = p.format();
        assert_eq!(f.ab, 4);
        assert_eq!(f.pes(), 16);
        // PE 13 = digit0 1, digit1 1 (13/4 = 3 -> 3 mod 2 = 1), digit2 1.
        let a = f.encode_pe(13).unwrap();
        assert_eq!(down_mask(&p, &f, 0, a), 0b0010);
        assert_eq!(down_mask(&p, &f, 1, a), 0b1100);
        assert_eq!(down_mask(&p, &f, 2, a), 0b1100);
        // PE 6: digit0 2, digit1 1, digit2 0.
        let a = f.encode_pe(6).unwrap();
        assert_eq!(down_mask(&p, &f, 0, a), 0b0100);
        assert_eq!(down_mask(&p, &f, 1, a), 0b1100);
        assert_eq!(down_mask(&p, &f, 2, a), 0b0011);
        assert_eq!(
            down_mask(&p, &f, 3, a),
            0,
            "no digit 3 in a 3-level network"
        );
    }

    #[test]
    fn cb_levels_choose_one_downer_and_illegal_digits_choose_none() {
        // CB-LCAN(3,3), l = 2: two base-3 digits of 2 bits each.
        let p = params(3, 3, 2, SwitchTopology::Cb);
        let f = p.format();
        let a = f.encode_pe(7).unwrap(); // 7 = 2*3 + 1
        assert_eq!(down_mask(&p, &f, 0, a), 0b010);
        assert_eq!(down_mask(&p, &f, 1, a), 0b100);
        assert_eq!(down_mask(&p, &f, 0, 0b0011), 0, "digit 3 is not base 3");
        assert_eq!(f.decode_pe(0b0011), None);
    }

    #[test]
    fn encoding_is_monotone_and_round_trips() {
        for (d, u, t) in [(4, 2, SwitchTopology::Tree), (3, 2, SwitchTopology::Cb)] {
            let p = params(d, u, 3, t);
            let f = p.format();
            let mut last = None;
            for pe in 0..f.pes() {
                let a = f.encode_pe(pe).unwrap();
                assert_eq!(f.decode_pe(a), Some(pe));
                assert!(last.is_none_or(|l| l < a), "encoding must be increasing");
                last = Some(a);
            }
            assert_eq!(f.encode_pe(f.pes()), None);
        }
    }
}
