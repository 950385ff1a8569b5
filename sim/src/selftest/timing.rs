//! When each report line comes out (`docs/selftest.md` §5, "Timing"): the clock in which
//! the start bit of the line's last byte (`\n`) first drives `uart_tx` low, from each
//! round's generator draws and network bit-times and a clock-by-clock model of the report
//! block's printer and UART; and the heartbeat pin while the line is printed (§4: it
//! toggles in a round's `TALLY` clock once `heartbeat` clocks have passed since the last
//! toggle). Clock 1 is the first clock after power-up; edge `k` ends clock `k`.

use super::line::{ratio_x100, Counters, LineFormat, Piece};
use super::predict::RoundResult;
use super::Dut;

/// The printer's states (`docs/selftest.md` §5).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ps {
    Idle,
    Fetch,
    Conv,
    Digits,
    Div,
}

/// One template entry of the line.
#[derive(Clone, Copy)]
enum Item {
    Byte,
    Number(u32),
    Ratio(u32),
}

/// The template of a line whose counters are `c`: the 4 status characters and the
/// literal text as bytes, the counters as numbers, the ratio.
fn items(c: &Counters) -> Vec<Item> {
    let mut t = Vec::new();
    for piece in c.format.pieces() {
        match piece {
            Piece::Status => t.extend([Item::Byte; 4]),
            Piece::Text(s) => t.extend(s.bytes().map(|_| Item::Byte)),
            Piece::Number(k) => t.push(Item::Number(c.values[k])),
            Piece::Ratio => t.push(Item::Ratio(ratio_x100(c))),
        }
    }
    t
}

/// Runs the printer from the first `PRINT` clock `p0`; returns (clock of the last byte's
/// start bit, first clock of the next round).
fn print_line(c: &Counters, p0: u64, divisor: u64) -> (u64, u64) {
    let t = items(c);
    let last = t.len() - 1;
    let (mut ps, mut pos, mut cnt, mut di, mut started) = (Ps::Fetch, 0usize, 0u32, 9u32, false);
    let (mut fix, mut dot) = (false, false);
    let (mut tx_left, mut tx_div) = (0u32, 0u64);
    let mut digits = [0u32; 10];
    let mut last_start = 0;
    // Clock p0: the block sees `go` and goes to FETCH; the sequencer clears `go`.
    let mut k = p0 + 1;
    loop {
        let idle = tx_left == 0;
        if ps == Ps::Idle && idle {
            return (last_start, k + 1);
        }
        let digit = digits[di as usize];
        let dot_now = fix && di == 1 && !dot;
        let send = idle
            && match ps {
                Ps::Fetch => matches!(t[pos], Item::Byte),
                Ps::Digits => dot_now || digit != 0 || started || di == 0 || (fix && di <= 2),
                _ => false,
            };
        if !idle {
            if tx_div == 0 {
                tx_left -= 1;
                tx_div = divisor - 1;
            } else {
                tx_div -= 1;
            }
        } else if send {
            tx_left = 10;
            tx_div = divisor - 1;
            if ps == Ps::Fetch && pos == last {
                last_start = k + 1;
            }
        }
        match ps {
            Ps::Idle => {}
            Ps::Fetch => match t[pos] {
                Item::Number(v) | Item::Ratio(v) => {
                    for (i, d) in digits.iter_mut().enumerate() {
                        *d = v / 10u32.pow(i as u32) % 10;
                    }
                    cnt = 0;
                    fix = matches!(t[pos], Item::Ratio(_));
                    ps = if fix { Ps::Div } else { Ps::Conv };
                }
                Item::Byte if idle => {
                    if pos == last {
                        ps = Ps::Idle;
                    } else {
                        pos += 1;
                    }
                }
                Item::Byte => {}
            },
            Ps::Div => {
                cnt += 1;
                if cnt == 40 {
                    cnt = 0;
                    ps = Ps::Conv;
                }
            }
            Ps::Conv => {
                cnt += 1;
                if cnt == 32 {
                    ps = Ps::Digits;
                    di = 9;
                    started = false;
                    dot = false;
                }
            }
            Ps::Digits => {
                if idle && dot_now {
                    dot = true;
                } else if idle {
                    if digit != 0 {
                        started = true;
                    }
                    if di == 0 {
                        ps = Ps::Fetch;
                        pos += 1;
                    } else {
                        di -= 1;
                    }
                }
            }
        }
        k += 1;
    }
}

/// When a line comes out, and the heartbeat pin meanwhile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct LineTiming {
    /// The clock in which the start bit of the line's last byte first drives `uart_tx` low.
    pub last_byte_clock: u64,
    /// `heartbeat` while the line is printed.
    pub heartbeat: bool,
}

/// The shared timing parameters of a self-test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clocks {
    /// Clocks of the `CHECK` state (`n`).
    pub check: u64,
    /// Clocks per UART bit.
    pub divisor: u64,
    /// Clocks between heartbeat toggles ([`super::heartbeat_clocks`]).
    pub heartbeat: u64,
    /// Clocks from `START` to the network's `start` ([`Dut::start_delay`]).
    pub start_delay: u64,
}

impl Clocks {
    /// The clocks of `dut`'s self-test with `divisor` clocks per UART bit.
    pub fn new(dut: &Dut, divisor: u64, heartbeat: u64) -> Self {
        Clocks {
            check: dut.pes() as u64,
            divisor,
            heartbeat,
            start_delay: dut.start_delay(),
        }
    }
}

/// For every report line of `rounds` (one per `report_every` rounds), when its last byte
/// starts and the heartbeat pin meanwhile.
pub fn line_timing(
    format: LineFormat,
    rounds: &[RoundResult],
    report_every: u32,
    clocks: Clocks,
) -> Vec<LineTiming> {
    let mut clock = 1u64;
    let mut out = Vec::new();
    let mut c = Counters::new(format);
    // The heartbeat: its pin, and the edge that last cleared its counter (0: power-up).
    let (mut hb, mut hb_reset) = (false, 0u64);
    for (r, round) in rounds.iter().enumerate() {
        // MSG + SHUF (one clock per draw), START, WAIT0 (start_delay + 1 clocks), WAIT1
        // until `done` (START + start_delay + 1 + bit_times), CHECK; `tally` is the TALLY
        // clock.
        let tally = clock
            + round.draws
            + u64::from(round.bit_times)
            + clocks.check
            + clocks.start_delay
            + 2;
        // The counter reads min(clock − 1 − reset edge, heartbeat) in clock `tally`.
        if tally - 1 - hb_reset >= clocks.heartbeat {
            hb = !hb;
            hb_reset = tally;
        }
        clock = tally + 1;
        c.tally(round.add, round.bad);
        if (r as u64 + 1).is_multiple_of(u64::from(report_every)) {
            let (last_start, next) = print_line(&c, tally + 1, clocks.divisor);
            out.push(LineTiming {
                last_byte_clock: last_start,
                heartbeat: hb,
            });
            clock = next;
        }
    }
    out
}
