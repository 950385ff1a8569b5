//! The route decoder (`docs/protocol.md` §1): for each of `n` addresses, the mask of
//! downers that lead to it from a switch of the given level — `down(Y, p)` of
//! `docs/routing.md` §1 — and, for a Π network, the masks of uppers `up(X, c)`.
//!
//! Two variants, chosen at generation:
//! - **digits** (tree, cb): a constant pattern per `(level, downer)` matched against the
//!   address's digit field; `up` is every upper (the switch does not ask).
//! - **table** (Π): the switch's ROM contents arrive on the inputs `tab_dn` (`down_rom[t]`,
//!   `n_pe × d` bits, `t·d + x`) and `tab_up` (`up_rom[h][t]`, `l × n_pe × u` bits,
//!   `(h·n_pe + t)·u + k`); the decoder compares each address with every PE number and ORs
//!   the selected rows. The ROM is a separate module per distinct table
//!   (`lca_net::rom`), so this block — and the whole switch — is one definition for every
//!   switch of the network.

use lcanet_sim::lcan::cycle::{PacketFormat, SwitchParams, SwitchTopology};
use rust_hdl::prelude::*;

/// `mask[a·d + x]` is set iff downer `x` leads to address `a`. Digits: the switch's level
/// is `j` (`level_is[j]`) and the digit-`j` field of the address equals `x` (cb, tree level
/// 0) or `⌊x/u⌋` (tree level ≥ 1); `care` marks the field's bits, `val` their required
/// values. Table: row `addr[a]` of `tab_dn`; `umask[x·u + k]` = bit `k` of row
/// `(uh[x], uaddr[x])` of `tab_up`.
#[derive(LogicBlock)]
pub struct RouteDecoder {
    /// One-hot level of the switch (digits only).
    pub level_is: Vec<Signal<In, Bit>>,
    /// Addresses, address `a` at bits `a·ab ..` (LSB first).
    pub addr: Vec<Signal<In, Bit>>,
    /// Downer masks, address `a` at `a·d ..`.
    pub mask: Vec<Signal<Out, Bit>>,
    /// Table only: `down_rom`, from the switch's ROM.
    pub tab_dn: Vec<Signal<In, Bit>>,
    /// Table only: `up_rom`, from the switch's ROM.
    pub tab_up: Vec<Signal<In, Bit>>,
    /// Table only: the destination of each downer's `UP` packet or probe (`ab` bits each).
    pub uaddr: Vec<Signal<In, Bit>>,
    /// Table only: the LCA level of each downer's packet (`hb` bits each).
    pub uh: Vec<Signal<In, Bit>>,
    /// Table only: allowed uppers of each downer's packet, `x·u + k`.
    pub umask: Vec<Signal<Out, Bit>>,
    care: Vec<Constant<Bit>>,
    val: Vec<Constant<Bit>>,
    c_t: Vec<Constant<Bit>>,
    c_h: Vec<Constant<Bit>>,
    hit: Signal<Local, Bit>,
    _n: usize,
    _l: usize,
    _d: usize,
    _ab: usize,
    _dig: usize,
    _pi: usize,
    _pes: usize,
    _lt: usize,
    _u: usize,
    _hb: usize,
}

fn v<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}

impl RouteDecoder {
    /// A decoder of `n` addresses for switches of `params`.
    pub fn new(params: &SwitchParams, fmt: &PacketFormat, n: usize) -> Self {
        let (l, d, u, ab, hb) = (params.levels, params.d, params.u, fmt.ab, fmt.hb);
        let pes = match params.topology {
            SwitchTopology::Table { pes } => pes,
            _ => 0,
        };
        let pi = usize::from(pes > 0);
        let ldig = if pi == 1 { 0 } else { l };
        let mut care = Vec::with_capacity(ldig * d * ab);
        let mut val = Vec::with_capacity(ldig * d * ab);
        for (j, &(off, w, _)) in fmt.digits.iter().enumerate().take(ldig) {
            for x in 0..d {
                let digit = match params.topology {
                    SwitchTopology::Tree if j > 0 => x / params.u,
                    _ => x,
                };
                for i in 0..ab {
                    let in_field = i >= off && i < off + w;
                    care.push(Constant::new(in_field));
                    val.push(Constant::new(in_field && (digit >> (i - off)) & 1 == 1));
                }
            }
        }
        let bits = |count: usize, width: usize| -> Vec<Constant<Bit>> {
            (0..count)
                .flat_map(|t| (0..width).map(move |i| Constant::new((t >> i) & 1 == 1)))
                .collect()
        };
        let lt = pi * l;
        RouteDecoder {
            level_is: v(ldig),
            addr: v(n * ab),
            mask: v(n * d),
            tab_dn: v(pes * d),
            tab_up: v(lt * pes * u),
            uaddr: v(pi * d * ab),
            uh: v(pi * d * hb),
            umask: v(pi * d * u),
            care,
            val,
            c_t: bits(pes, ab),
            c_h: bits(lt, hb),
            hit: Default::default(),
            _n: n,
            _l: ldig,
            _d: d,
            _ab: ab,
            _dig: 1 - pi,
            _pi: pi,
            _pes: pes,
            _lt: lt,
            _u: pi * u,
            _hb: hb,
        }
    }
}

impl Logic for RouteDecoder {
    #[hdl_gen]
    fn update(&mut self) {
        for _digits in 0..self._dig {
            self.hit.next = false;
        }
        for d in self._d..(self._d + 1) {
            for ab in self._ab..(self._ab + 1) {
                for a in 0..self._n {
                    for x in 0..self._d {
                        self.mask[a * d + x].next = false;
                        for j in 0..self._l {
                            self.hit.next = self.level_is[j].val();
                            for i in 0..self._ab {
                                self.hit.next = self.hit.val()
                                    & (!self.care[(j * d + x) * ab + i].val()
                                        | !(self.addr[a * ab + i].val()
                                            ^ self.val[(j * d + x) * ab + i].val()));
                            }
                            self.mask[a * d + x].next = self.mask[a * d + x].val() | self.hit.val();
                        }
                    }
                    // Table: OR of the rows whose PE number equals the address.
                    for t in 0..self._pes {
                        self.hit.next = true;
                        for i in 0..self._ab {
                            self.hit.next = self.hit.val()
                                & !(self.addr[a * ab + i].val() ^ self.c_t[t * ab + i].val());
                        }
                        for x in 0..self._d {
                            self.mask[a * d + x].next = self.mask[a * d + x].val()
                                | (self.hit.val() & self.tab_dn[t * d + x].val());
                        }
                    }
                }
                // Table: allowed uppers, row (h, t) of up_rom.
                for u in self._u..(self._u + 1) {
                    for hb in self._hb..(self._hb + 1) {
                        for pes in self._pes..(self._pes + 1) {
                            for x in 0..self._d {
                                for k in 0..self._u {
                                    self.umask[x * u + k].next = false;
                                }
                                for h in 0..self._lt {
                                    for t in 0..self._pes {
                                        self.hit.next = true;
                                        for i in 0..self._ab {
                                            self.hit.next = self.hit.val()
                                                & !(self.uaddr[x * ab + i].val()
                                                    ^ self.c_t[t * ab + i].val());
                                        }
                                        for i in 0..self._hb {
                                            self.hit.next = self.hit.val()
                                                & !(self.uh[x * hb + i].val()
                                                    ^ self.c_h[h * hb + i].val());
                                        }
                                        for k in 0..self._u {
                                            self.umask[x * u + k].next = self.umask[x * u + k]
                                                .val()
                                                | (self.hit.val()
                                                    & self.tab_up[(h * pes + t) * u + k].val());
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
