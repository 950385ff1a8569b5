//! The commit of a routing step in each mode (`docs/protocol.md` §7): parse the received
//! packets, build the requests, arbitrate, close crosspoints and load the output registers.

use super::arbiter::{Decision, Need, Request};
use super::bits::{field, BitReg, PacketBits};
use super::params::SwitchTopology;
use super::route::{down_mask, up_mask};
use super::switch::SwitchModel;
use super::types::{Claim, SlotOutcome};

/// Need classes of the DOWN arbiter.
const UP_WIRE: usize = 0;
const DOWN_WIRE: usize = 1;

impl SwitchModel {
    fn level(&self) -> usize {
        usize::from(self.consts.level)
    }

    fn count_guards(&mut self, reqs: &[Request]) {
        self.guard_rejects += reqs.iter().filter(|r| !r.guard).count() as u64;
    }

    fn clear_tx(&mut self) {
        for r in self.tx_c.iter_mut().chain(self.tx_d.iter_mut()) {
            r.clear();
        }
    }

    fn down(&self, addr: u64) -> u64 {
        match (&self.table, self.params.topology) {
            (Some(t), _) => t.down(addr),
            (None, SwitchTopology::Table { .. }) => 0,
            (None, _) => down_mask(&self.params, &self.fmt, self.level(), addr),
        }
    }

    /// `up(X, c)` for a packet of LCA level `h` towards `t`.
    fn up_allowed(&self, h: u64, t: u64) -> u64 {
        match (&self.table, self.params.topology) {
            (Some(tab), _) => tab.up(h, t),
            (None, SwitchTopology::Table { .. }) => 0,
            (None, _) => up_mask(&self.params),
        }
    }

    fn key(&self, h: u64, s: u64) -> (i64, u64) {
        (self.params.levels as i64 - 1 - h as i64, s)
    }

    /// Mask of the wires of one side that are free: `A(x)` drives nothing / `C(x)` is not
    /// driven / `D(k)` is not driven.
    fn free_mask(&self, n: usize, offset: usize, inputs: bool) -> u64 {
        (0..n)
            .filter(|&i| {
                if inputs {
                    !self.xp.drives(offset + i)
                } else {
                    !self.xp.is_driven(offset + i)
                }
            })
            .fold(0, |m, i| m | 1 << i)
    }

    /// `UP`: R1 phase 1.
    pub(super) fn commit_up(&mut self) {
        let (d, f) = (self.params.d, self.fmt.clone());
        let mut reqs = Vec::new();
        let mut slots = Vec::new();
        let mut pkts = Vec::new();
        for x in 0..d {
            let r = &self.rx_a[x];
            if field(r, f.p1, 0, 1) == 0 {
                continue;
            }
            let c = Claim {
                h: field(r, f.p1, 1, f.hb),
                s: field(r, f.p1, 1 + f.hb, f.ab),
                t: field(r, f.p1, 1 + f.hb + f.ab, f.ab),
            };
            if c.h == self.level() as u64 {
                self.winners[x] = Some(c);
            } else {
                let need = Need {
                    class: 0,
                    allowed: self.up_allowed(c.h, c.t),
                };
                reqs.push(Request {
                    requester: x,
                    tier: 0,
                    key: (0, 0),
                    class_order: 1,
                    needs: vec![need],
                    guard: true,
                });
                slots.push(x);
                pkts.push(c);
            }
        }
        let mut free = [up_mask(&self.params)];
        let decisions = self.up.arbitrate(&reqs, &mut free);
        self.clear_tx();
        for ((dec, &x), c) in decisions.iter().zip(&slots).zip(&pkts) {
            if dec.granted {
                let k = dec.wires[0];
                let mut p = PacketBits::new();
                p.push(1, 1).push(c.h, f.hb).push(c.s, f.ab).push(c.t, f.ab);
                p.load_into(&mut self.tx_d[k], self.params.width);
                self.outcome.up[x] = SlotOutcome::Granted([Some(k), None]);
            } else {
                self.outcome.up[x] = SlotOutcome::Rejected;
            }
        }
    }

    /// `DOWN`: R1 phase 2; `ctl_level` says whether the waiting winners are served.
    pub(super) fn commit_down(&mut self, ctl_level: u8) {
        let (d, u, f) = (self.params.d, self.params.u, self.fmt.clone());
        let serve_winners = ctl_level == self.consts.level;
        // (slot, request, claim)
        let mut reqs: Vec<(usize, Request, Claim)> = Vec::new();
        for k in 0..u {
            let r = &self.rx_b[k];
            let sbase = 1 + f.hb + f.ab;
            if field(r, f.p2, 0, 1) == 1 {
                let c = Claim {
                    h: field(r, f.p2, 1, f.hb),
                    s: field(r, f.p2, 1 + f.hb, f.ab),
                    t: 0,
                };
                let need = Need {
                    class: UP_WIRE,
                    allowed: self.down(c.s),
                };
                let guard = !self.xp.is_driven(d + k);
                let req = Request {
                    requester: k,
                    tier: 0,
                    key: self.key(c.h, c.s),
                    class_order: 0,
                    needs: vec![need],
                    guard,
                };
                reqs.push((k, req, c));
            }
            if field(r, f.p2, sbase, 1) == 1 {
                let c = Claim {
                    h: field(r, f.p2, sbase + 1, f.hb),
                    s: field(r, f.p2, sbase + 1 + f.hb, f.ab),
                    t: field(r, f.p2, sbase + 1 + f.hb + f.ab, f.ab),
                };
                let need = Need {
                    class: DOWN_WIRE,
                    allowed: self.down(c.t),
                };
                let guard = !self.xp.drives(d + k);
                let req = Request {
                    requester: k,
                    tier: 0,
                    key: self.key(c.h, c.s),
                    class_order: 1,
                    needs: vec![need],
                    guard,
                };
                reqs.push((u + d + k, req, c));
            }
        }
        if serve_winners {
            for x in 0..d {
                if let Some(c) = self.winners[x] {
                    let needs = vec![
                        Need {
                            class: UP_WIRE,
                            allowed: self.down(c.s),
                        },
                        Need {
                            class: DOWN_WIRE,
                            allowed: self.down(c.t),
                        },
                    ];
                    let req = Request {
                        requester: u + x,
                        tier: 1,
                        key: (0, 0),
                        class_order: 1,
                        needs,
                        guard: true,
                    };
                    reqs.push((u + x, req, c));
                }
            }
        }
        let mut free = [self.free_mask(d, 0, true), self.free_mask(d, 0, false)];
        let list: Vec<Request> = reqs.iter().map(|(_, r, _)| r.clone()).collect();
        let decisions = self.dn.arbitrate(&list, &mut free);
        self.count_guards(&list);
        let mut s_slot: Vec<Option<Claim>> = vec![None; d];
        let mut d_slot: Vec<Option<Claim>> = vec![None; d];
        for ((slot, req, c), dec) in reqs.iter().zip(&decisions) {
            let slot = *slot;
            if !dec.granted {
                self.outcome.down[slot] = SlotOutcome::Rejected;
                continue;
            }
            self.outcome.down[slot] = granted(req, dec);
            if slot < u {
                let x = dec.wires[0];
                self.xp.close(x, d + slot);
                s_slot[x] = Some(*c);
            } else if slot >= u + d {
                let x = dec.wires[0];
                self.xp.close(slot - u, x);
                d_slot[x] = Some(*c);
            } else {
                let (x1, x2) = (dec.wires[0], dec.wires[1]);
                self.xp.close(x1, x2);
                s_slot[x1] = Some(*c);
                d_slot[x2] = Some(*c);
            }
        }
        if serve_winners {
            self.winners.fill(None);
        }
        self.clear_tx();
        for x in 0..d {
            if s_slot[x].is_none() && d_slot[x].is_none() {
                continue;
            }
            let mut p = PacketBits::new();
            let s = s_slot[x].unwrap_or(Claim { h: 0, s: 0, t: 0 });
            p.push(u64::from(s_slot[x].is_some()), 1)
                .push(s.h, f.hb)
                .push(s.s, f.ab);
            let t = d_slot[x].unwrap_or(Claim { h: 0, s: 0, t: 0 });
            p.push(u64::from(d_slot[x].is_some()), 1)
                .push(t.h, f.hb)
                .push(t.s, f.ab);
            p.push(t.t, f.ab);
            p.load_into(&mut self.tx_c[x], self.params.width);
        }
    }

    /// `PROBE`: R2, both arbiters.
    pub(super) fn commit_probe(&mut self) {
        let (d, u, f) = (self.params.d, self.params.u, self.fmt.clone());
        let probe = |r: &BitReg| -> Option<(u64, u64)> {
            (field(r, f.pr, 0, 1) == 1)
                .then(|| (field(r, f.pr, 1, f.hb), field(r, f.pr, 1 + f.hb, f.ab)))
        };
        let mut up_reqs = Vec::new();
        let mut up_slots = Vec::new();
        let mut dn: Vec<(usize, Request, (u64, u64))> = Vec::new();
        for x in 0..d {
            let Some((h, t)) = probe(&self.rx_a[x]) else {
                continue;
            };
            if h != self.level() as u64 {
                up_reqs.push(Request {
                    requester: x,
                    tier: 0,
                    key: (0, 0),
                    class_order: 1,
                    needs: vec![Need {
                        class: 0,
                        allowed: self.up_allowed(h, t),
                    }],
                    guard: !self.xp.drives(x),
                });
                up_slots.push((x, (h, t)));
            } else {
                let needs = vec![
                    Need {
                        class: UP_WIRE,
                        allowed: 1 << x,
                    },
                    Need {
                        class: DOWN_WIRE,
                        allowed: self.down(t),
                    },
                ];
                let req = Request {
                    requester: u + x,
                    tier: 0,
                    key: (0, 0),
                    class_order: 1,
                    needs,
                    guard: true,
                };
                dn.push((u + x, req, (h, t)));
            }
        }
        for k in 0..u {
            let Some((h, t)) = probe(&self.rx_b[k]) else {
                continue;
            };
            let needs = vec![Need {
                class: DOWN_WIRE,
                allowed: self.down(t),
            }];
            let guard = !self.xp.drives(d + k);
            let req = Request {
                requester: k,
                tier: 0,
                key: (0, 0),
                class_order: 1,
                needs,
                guard,
            };
            dn.push((u + d + k, req, (h, t)));
        }
        let mut up_free = [self.free_mask(u, d, false)];
        let up_dec = self.up.arbitrate(&up_reqs, &mut up_free);
        self.count_guards(&up_reqs);
        let mut dn_free = [self.free_mask(d, 0, true), self.free_mask(d, 0, false)];
        let list: Vec<Request> = dn.iter().map(|(_, r, _)| r.clone()).collect();
        let dn_dec = self.dn.arbitrate(&list, &mut dn_free);
        self.count_guards(&list);
        self.clear_tx();
        let w = self.params.width;
        let load = |reg: &mut BitReg, (h, t): (u64, u64)| {
            let mut p = PacketBits::new();
            p.push(1, 1).push(h, f.hb).push(t, f.ab);
            p.load_into(reg, w);
        };
        for (dec, &(x, pr)) in up_dec.iter().zip(&up_slots) {
            if dec.granted {
                let k = dec.wires[0];
                self.xp.close(x, d + k);
                load(&mut self.tx_d[k], pr);
                self.outcome.up[x] = SlotOutcome::Granted([Some(k), None]);
            } else {
                self.outcome.up[x] = SlotOutcome::Rejected;
            }
        }
        for ((slot, req, pr), dec) in dn.iter().zip(&dn_dec) {
            if !dec.granted {
                self.outcome.down[*slot] = SlotOutcome::Rejected;
                continue;
            }
            self.outcome.down[*slot] = granted(req, dec);
            let x_out = *dec.wires.last().expect("a DOWN probe has a down-wire need");
            // X(x) = u + x is input A(x); D(k) = u + d + k is input B(k) = d + k.
            let input = slot - u;
            self.xp.close(input, x_out);
            load(&mut self.tx_c[x_out], *pr);
        }
    }
}

/// The outcome of a granted request, wires sorted by need class.
fn granted(req: &Request, dec: &Decision) -> SlotOutcome {
    let mut wires = [None, None];
    for (need, &w) in req.needs.iter().zip(&dec.wires) {
        wires[need.class] = Some(w);
    }
    SlotOutcome::Granted(wires)
}
