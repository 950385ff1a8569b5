//! When each report line comes out (`docs/selftest.md` §5, "Timing"): the clock in which
//! the start bit of the line's last byte (`\n`) first drives `uart_tx` low, from each
//! round's generator draws and network bit-times and a clock-by-clock model of the report
//! block's printer and UART. Clock 1 is the first clock after power-up; edge `k` ends
//! clock `k`.

use super::predict::{ratio_x100, Counters, RoundResult};

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

/// The template of a line whose counters are `c`: 4 status characters and the literal
/// text as bytes, the counters as numbers, the passes per permutation as the ratio.
fn items(c: &Counters) -> Vec<Item> {
    let mut t = vec![Item::Byte; 5];
    let parts: [(Item, &str); 5] = [
        (Item::Number(c.perms), " perms, "),
        (Item::Ratio(ratio_x100(c)), " passes/perm, "),
        (Item::Number(c.passes), " passes, "),
        (Item::Number(c.bit_times), " bit-times, "),
        (Item::Number(c.errors), " errors\r\n"),
    ];
    for (v, s) in parts {
        t.push(v);
        t.extend(s.bytes().map(|_| Item::Byte));
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

/// For every report line of `rounds` (one per `report_every` rounds): the clock in which
/// the start bit of its last byte first drives `uart_tx` low.
pub fn line_clocks(n: usize, rounds: &[RoundResult], report_every: u32, divisor: u64) -> Vec<u64> {
    let n = n as u64;
    let mut clock = 1u64;
    let mut out = Vec::new();
    let mut c = Counters::default();
    for (r, round) in rounds.iter().enumerate() {
        // MSG + SHUF (one clock per draw), START, WAIT0, WAIT1 until `done` (bit-time
        // 2 + bit_times of the canonical run whose bit-time 1 is START), CHECK, TALLY.
        clock += round.draws + u64::from(round.bit_times) + n + 3;
        c.perms = c.perms.wrapping_add(1);
        c.passes = c.passes.wrapping_add(u32::from(round.passes));
        c.bit_times = c.bit_times.wrapping_add(round.bit_times);
        c.errors = c.errors.wrapping_add(u32::from(round.bad));
        if (r as u64 + 1).is_multiple_of(u64::from(report_every)) {
            let (last_start, next) = print_line(&c, clock, divisor);
            out.push(last_start);
            clock = next;
        }
    }
    out
}
