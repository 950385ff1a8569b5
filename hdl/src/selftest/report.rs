//! The report block (`docs/selftest.md` §5): on `go`, prints one line built from a
//! template ROM — literal bytes, the status word (`PASS` while the error counter is 0,
//! else `FAIL`), the four 32-bit counters in decimal without leading zeros and the ratio
//! `counter 1 / counter 0` with two decimals — through an 8N1 UART transmitter of
//! `divisor` clocks per bit. A counter is converted by a sequential double-dabble (32
//! clocks: add 3 to every BCD digit ≥ 5, shift in the next bit), then its ten digits are
//! sent from the most significant, skipping leading zeros. The ratio is
//! `⌊100·counter 1 / counter 0⌋`, from a sequential restoring divider (40 clocks), printed
//! the same way with a `.` before the last two digits. `busy` is 1 from the clock after
//! `go` until the last stop bit is out. The text comes from the family's
//! [`LineFormat`]; the block is the same for every family.

use crate::netlist::{cat, index_bits, lit, lit_words, zero, Module, ModuleBuilder, V};
use lcanet_sim::selftest::{LineFormat, Piece};

/// A template entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// A literal ASCII byte (below 0x80).
    Byte(u8),
    /// Character `k` (0..=3) of the status word.
    Status(u8),
    /// Counter `k` (0..=3).
    Number(u8),
    /// `⌊100·counter 1 / counter 0⌋` with two decimals.
    Ratio,
}

/// The line of `format`, entry by entry.
pub fn template(format: &LineFormat) -> Vec<Item> {
    let mut t = Vec::new();
    for piece in format.pieces() {
        match piece {
            Piece::Status => t.extend((0..4).map(Item::Status)),
            Piece::Text(s) => t.extend(s.bytes().map(Item::Byte)),
            Piece::Number(k) => t.push(Item::Number(k as u8)),
            Piece::Ratio => t.push(Item::Ratio),
        }
    }
    t
}

/// The ROM byte of an item: literal bytes as they are, `0x90 | k` a status character,
/// `0x80 | k` a counter, `0xa0` the ratio.
pub fn rom_byte(item: Item) -> u8 {
    match item {
        Item::Byte(b) => b,
        Item::Status(k) => 0x90 | k,
        Item::Number(k) => 0x80 | k,
        Item::Ratio => 0xa0,
    }
}

/// `s` (4 ASCII bytes) as a 32-bit constant, character 0 in the low byte.
fn word(s: &[u8; 4]) -> V {
    lit(32, u64::from(u32::from_le_bytes(*s)))
}

/// Printer states.
const IDLE: u64 = 0;
const FETCH: u64 = 1;
const CONV: u64 = 2;
const DIGITS: u64 = 3;
const DIV: u64 = 4;

/// The report block for lines of `format` with a UART of `divisor` clocks per bit
/// (`divisor ≥ 2`); its counter inputs are named by the format's keys.
pub fn report_module(name: &str, divisor: u64, format: &LineFormat) -> Module {
    let items = template(format);
    let len = items.len();
    let pw = index_bits(len);
    let dw = index_bits(divisor as usize);
    let mut m = ModuleBuilder::new(name);
    let clock = m.clock();
    let go = m.input("go", 1);
    let counters: Vec<V> = format.keys().iter().map(|c| m.input(c, 32)).collect();
    let busy = m.output("busy", 1);
    let tx = m.output("tx", 1);
    let _ = &clock;

    m.comment(
        "Printer: ps 0 idle, 1 fetch a template byte, 2 convert to BCD, 3 send the digits, 4 divide",
    );
    let ps = m.reg("ps", 3);
    let pos = m.reg("pos", pw);
    let src = m.reg("src", 32);
    let bcd = m.reg("bcd", 40);
    let cnt = m.reg("cnt", 6);
    let di = m.reg("di", 4);
    let started = m.reg("started", 1);
    let fix = m.reg("fix", 1);
    let dot = m.reg("dot", 1);
    m.comment("Divider: dividend shifting out / quotient shifting in, partial remainder");
    let dvd = m.reg("dvd", 40);
    let rem = m.reg("rem", 32);
    m.comment("UART: frame shift register (bit 0 on the line), bits left, clocks left in the bit");
    let tx_bits = m.reg_init("tx_bits", 10, 0x3ff);
    let tx_left = m.reg("tx_left", 4);
    let tx_div = m.reg("tx_div", dw);

    let mut words = vec![0u64; (len * 8).div_ceil(64)];
    for (i, &it) in items.iter().enumerate() {
        words[i * 8 / 64] |= u64::from(rom_byte(it)) << (i * 8 % 64);
    }
    let tmpl = m.def("tmpl", lit_words(len * 8, words));
    let tb = m.def("tb", tmpl.row_at(&pos, 8));
    let is_num = m.def("is_num", tb.bit(7) & !tb.bit(4));
    let is_ratio = m.def("is_ratio", tb.bit(5));
    let ok = counters[3].is(0);
    let status = m.def("status", ok.select(word(b"PASS"), word(b"FAIL")));
    let status_char = m.def("status_char", status.row_at(&tb.bits(1, 0), 8));
    let k = tb.bits(1, 0);
    let num = m.def(
        "num",
        k.is(0).select(
            counters[0].clone(),
            k.is(1).select(
                counters[1].clone(),
                k.is(2).select(counters[2].clone(), counters[3].clone()),
            ),
        ),
    );
    let p40 = counters[1].zext(40);
    let hundred = m.def("num_x100", p40.shl(6) + p40.shl(5) + p40.shl(2));
    let trial = m.def("div_trial", cat([rem.clone(), dvd.bit(39)]));
    let fits = m.def("div_fits", trial.ge(&counters[0].zext(33)));
    let diff = m.def("div_diff", trial.clone() - counters[0].zext(33));
    m.allow_unread("div_diff");
    let adj = m.def(
        "bcd_adj",
        cat((0..10).rev().map(|i| {
            let dgt = bcd.row(i, 4);
            dgt.ge(&lit(4, 5)).select(dgt.plus(3), dgt.clone())
        })),
    );
    m.allow_unread("bcd_adj");
    let digit = m.def("digit", bcd.row_at(&di, 4));
    let tx_idle = m.def("tx_idle", tx_left.is(0));
    let fetch = ps.is(FETCH);
    let digits = ps.is(DIGITS);
    let dot_now = m.def("dot_now", fix.clone() & di.is(1) & !dot.clone());
    let show = m.def(
        "show",
        dot_now.clone()
            | digit.is_not(0)
            | started.clone()
            | di.is(0)
            | (fix.clone() & di.le(&lit(4, 2))),
    );
    let send = m.def(
        "send",
        tx_idle.clone() & ((fetch.clone() & !is_num.clone()) | (digits.clone() & show)),
    );
    let tx_byte = m.def(
        "tx_byte",
        fetch.select(
            tb.bit(7).select(status_char, tb.clone()),
            dot_now.select(lit(8, u64::from(b'.')), cat([lit(4, 3), digit.clone()])),
        ),
    );
    m.assign(&busy, ps.is_not(IDLE) | !tx_idle.clone());
    m.assign(&tx, tx_bits.bit(0));

    let last = len as u64 - 1;
    m.always(|p| {
        p.comment("UART: shift one bit every `divisor` clocks; load a frame when idle");
        p.if_(!tx_idle.clone(), |p| {
            p.if_(tx_div.is(0), |p| {
                p.load(&tx_bits, cat([lit(1, 1), tx_bits.bits(9, 1)]));
                p.load(&tx_left, tx_left.minus(1));
                p.load(&tx_div, lit(dw, divisor - 1));
            })
            .else_(|p| p.load(&tx_div, tx_div.minus(1)));
        })
        .elif(send.clone(), |p| {
            p.load(&tx_bits, cat([lit(1, 1), tx_byte.clone(), lit(1, 0)]));
            p.load(&tx_left, lit(4, 10));
            p.load(&tx_div, lit(dw, divisor - 1));
        });
        p.case(&ps, |c| {
            c.arm(&[IDLE], |p| {
                p.if_(go.clone(), |p| {
                    p.load(&pos, zero(pw));
                    p.load(&ps, lit(3, FETCH));
                });
            });
            c.arm(&[FETCH], |p| {
                p.if_(is_num.clone() & is_ratio.clone(), |p| {
                    p.load(&dvd, hundred.clone());
                    p.load(&rem, zero(32));
                    p.load(&cnt, zero(6));
                    p.load(&fix, lit(1, 1));
                    p.load(&ps, lit(3, DIV));
                })
                .elif(is_num.clone(), |p| {
                    p.load(&src, num.clone());
                    p.load(&bcd, zero(40));
                    p.load(&cnt, zero(6));
                    p.load(&fix, lit(1, 0));
                    p.load(&ps, lit(3, CONV));
                })
                .elif(tx_idle.clone(), |p| {
                    p.if_(pos.is(last), |p| p.load(&ps, lit(3, IDLE)))
                        .else_(|p| p.load(&pos, pos.plus(1)));
                });
            });
            c.arm(&[DIV], |p| {
                p.comment("Restoring division of dvd by perms, one quotient bit per clock");
                p.load(&dvd, cat([dvd.bits(38, 0), fits.clone()]));
                p.if_(fits.clone(), |p| p.load(&rem, diff.bits(31, 0)))
                    .else_(|p| p.load(&rem, trial.bits(31, 0)));
                p.load(&cnt, cnt.plus(1));
                p.if_(cnt.is(39), |p| {
                    p.load(&src, cat([dvd.bits(30, 0), fits.clone()]));
                    p.load(&bcd, zero(40));
                    p.load(&cnt, zero(6));
                    p.load(&ps, lit(3, CONV));
                });
            });
            c.arm(&[CONV], |p| {
                p.load(&bcd, cat([adj.bits(38, 0), src.bit(31)]));
                p.load(&src, src.shl(1));
                p.load(&cnt, cnt.plus(1));
                p.if_(cnt.is(31), |p| {
                    p.load(&ps, lit(3, DIGITS));
                    p.load(&di, lit(4, 9));
                    p.load(&started, lit(1, 0));
                    p.load(&dot, lit(1, 0));
                });
            });
            c.default(|p| {
                p.if_(tx_idle.clone(), |p| {
                    p.if_(dot_now.clone(), |p| p.load(&dot, lit(1, 1)))
                        .else_(|p| {
                            p.if_(digit.is_not(0), |p| p.load(&started, lit(1, 1)));
                            p.if_(di.is(0), |p| {
                                p.load(&ps, lit(3, FETCH));
                                p.load(&pos, pos.plus(1));
                            })
                            .else_(|p| p.load(&di, di.minus(1)));
                        });
                });
            });
        });
    });
    m.build()
}
