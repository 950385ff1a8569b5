//! The R3 switch's source-routed set-up, mode `SRC` (`docs/protocol.md` §12): per input a
//! small parser (`sc`, `sf`) that waits for the header bit-time `V`, collects the
//! `nf`-bit-time output-port field, and requests that output; the requests of one edge are
//! decided together by the guard rules of §12.3 (range, direction, free output, lowest input
//! wins a tie). A granted request closes its crosspoint and starts the output with a fresh
//! `V`; the datapath then forwards the rest of the stream (the `PASS` rule).

use super::params::{clog2, SwitchParams};
use super::switch::SwitchModel;
use super::types::{Mode, SwitchConsts};

/// Bits of an output-port field: `f = max(1, ⌈log2(d + u)⌉)`.
pub fn route_field_bits(d: usize, u: usize) -> usize {
    clog2(d + u).max(1)
}

/// Bit-times of an output-port field on a `w`-lane link: `nf = ⌈f / W⌉`.
pub fn field_bit_times(d: usize, u: usize, w: usize) -> usize {
    route_field_bits(d, u).div_ceil(w)
}

fn mask(bits: usize) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

impl SwitchModel {
    /// The R3 switch (`docs/protocol.md` §12) in its power-up state: modes `IDLE`,
    /// `PASS`, `REV`, `SRC`; the arbitration modes behave as `IDLE`.
    pub fn r3(params: SwitchParams, consts: SwitchConsts) -> Self {
        SwitchModel {
            src: true,
            ..SwitchModel::new(params, consts)
        }
    }

    /// Whether this is the R3 switch.
    pub fn is_r3(&self) -> bool {
        self.src
    }

    /// The `SRC` parse state of every input (`A(0..d)`, then `B(0..u)`): `(sc, sf)`.
    pub fn src_state(&self) -> (&[u8], &[u64]) {
        (&self.sc, &self.sf)
    }

    /// The mode this switch actually runs for `ctl_mode` = `raw`: the R1/R2 switch treats
    /// the reserved `SRC` code as `IDLE`, the R3 switch the arbitration modes.
    pub(super) fn effective_mode(&self, raw: Mode) -> Mode {
        match (self.src, raw) {
            (false, Mode::Src) => Mode::Idle,
            (true, Mode::Up | Mode::Down | Mode::Probe) => Mode::Idle,
            (_, m) => m,
        }
    }

    /// Steps 2 and 3 of `docs/protocol.md` §12.3 (the forwarding of step 1 is done):
    /// parse every input's lanes, then decide this edge's requests together.
    pub(super) fn src_edge(&mut self, a: &[u64], b: &[u64]) {
        let (d, u, w) = (self.params.d, self.params.u, self.params.width);
        let ports = d + u;
        let f = self.params.route_field_bits();
        let nf = f.div_ceil(w);
        let lane_mask = mask(w);
        let mut requests: Vec<(usize, usize)> = Vec::new();
        for i in 0..ports {
            let lanes = if i < d { a[i] } else { b[i - d] } & lane_mask;
            let s = self.sc[i] as usize;
            if s == 0 {
                if !self.xp.drives(i) && (lanes >> (w - 1)) & 1 == 1 {
                    self.sc[i] = 1;
                    self.sf[i] = 0;
                }
            } else if s <= nf {
                self.sf[i] = ((self.sf[i] << w) | lanes) & mask(nf * w);
                self.sc[i] = (s + 1) as u8;
                if s == nf {
                    requests.push((i, (self.sf[i] & mask(f)) as usize));
                }
            }
        }
        if requests.is_empty() {
            return;
        }
        let driven: Vec<bool> = (0..ports).map(|o| self.xp.is_driven(o)).collect();
        let mut claimed = vec![false; ports];
        // Inputs in increasing order: the lowest legal request for an output wins it.
        for (i, q) in requests {
            let legal = q < ports && (i < d || q < d);
            if legal && !claimed[q] && !driven[q] {
                self.xp.close(i, q);
                let r = if q < d {
                    &mut self.tx_c[q]
                } else {
                    &mut self.tx_d[q - d]
                };
                r.clear();
                let len = r.len();
                r.set(len - 1, true);
            } else {
                self.guard_rejects += 1;
            }
            if legal {
                claimed[q] = true;
            }
        }
    }
}
