//! Parameters of a self-test and their limits (`docs/selftest.md` §1): the generator seed,
//! the report interval and the test-only fault, shared by the three families; the UART
//! divisor and the heartbeat's period, which change timing, not the text.

/// Largest message width the self-test supports: a message is the low `M` bits of one
/// 32-bit generator state.
pub const MAX_MSG_BITS: usize = 32;

/// Largest MIN the self-test generates: `m ≤ 7` (n = 128 PEs). Its `n²` messages are in
/// `n` block-RAM banks, but its checker keeps two `n × n` bitmaps in flip-flops: 32,768 of
/// them at m = 7, a third of an LFE5U-85F.
pub const MAX_MIN_M: u32 = 7;

/// Why a self-test cannot be built with these parameters.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SelftestError {
    /// xorshift32 stays at 0 forever.
    #[error("--lfsr-seed must be nonzero and below 2^32 (xorshift32 stays at 0 forever); got {0}")]
    Seed(u64),
    /// A report every 0 permutations.
    #[error("--report-every must be between 1 and 4294967295 rounds; got {0}")]
    ReportEvery(u64),
    /// Messages wider than one generator state.
    #[error("the self-test needs 1 <= {flag} <= {MAX_MSG_BITS} (a message is the low bits of one 32-bit xorshift32 state); got {bits}")]
    MsgBits {
        /// The flag that sets the width (`--message-bits`, `--payload-bits`).
        flag: &'static str,
        /// The width asked for.
        bits: usize,
    },
    /// A network with one PE has nothing to permute.
    #[error("the self-test needs n >= 2 PEs; got {0}")]
    TooFewPes(usize),
    /// R3 needs an off-line schedule per permutation.
    #[error("the self-test runs R1 and R2 networks (--algorithm r1|r2): R3 loads an off-line schedule computed from the whole permutation, which the on-chip stimulus cannot compute")]
    R3,
    /// A MIN whose message table (n² messages) the self-test does not generate.
    #[error("the MIN self-test needs 1 <= m <= {MAX_MIN_M} (its checker keeps two n×n bitmaps of flip-flops); got m = {0}")]
    MinTooLarge(u32),
    /// The clock and baud rate give no usable divisor.
    #[error("--clock-hz / --baud must be at least 2 clocks per UART bit and at most 2^24; got {clock_hz} / {baud}")]
    Divisor {
        /// Clock frequency, Hz.
        clock_hz: u64,
        /// Baud rate.
        baud: u64,
    },
    /// The rounded divisor misses the baud rate by more than 2 %.
    #[error("--clock-hz {clock_hz} / --baud {baud} rounds to a divisor of {divisor}, {error_pct:.2} % off the baud rate (more than the 2 % an 8N1 receiver tolerates with margin)")]
    BaudError {
        /// Clock frequency, Hz.
        clock_hz: u64,
        /// Baud rate.
        baud: u64,
        /// The rounded divisor.
        divisor: u64,
        /// Relative error, percent.
        error_pct: f64,
    },
    /// The golden model of the network under test refused a round (a bug in lcanet: the
    /// self-test only generates valid rounds).
    #[error("golden model: {0}")]
    Model(String),
}

/// The parameters the golden model needs besides the network (the UART divisor and the
/// heartbeat's period change timing, not the text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct SelftestParams {
    /// Initial state of the xorshift32 generator (nonzero).
    pub seed: u32,
    /// One report line per this many rounds.
    pub report_every: u32,
    /// Test-only fault: the checker expects bit 0 of PE 0's message(s) inverted.
    pub fault: bool,
}

impl SelftestParams {
    /// Validates the seed and the report interval.
    pub fn new(seed: u64, report_every: u64, fault: bool) -> Result<Self, SelftestError> {
        if seed == 0 || seed > u64::from(u32::MAX) {
            return Err(SelftestError::Seed(seed));
        }
        if report_every == 0 || report_every > u64::from(u32::MAX) {
            return Err(SelftestError::ReportEvery(report_every));
        }
        Ok(SelftestParams {
            seed: seed as u32,
            report_every: report_every as u32,
            fault,
        })
    }
}

/// Clocks per UART bit: `clock_hz / baud` rounded to the nearest integer, at least 2, at
/// most 2^24, within 2 % of the requested baud rate.
pub fn uart_divisor(clock_hz: u64, baud: u64) -> Result<u64, SelftestError> {
    let bad = SelftestError::Divisor { clock_hz, baud };
    if baud == 0 {
        return Err(bad);
    }
    // Rounded to the nearest integer without overflow: q + (remainder ≥ baud / 2).
    let (q, r) = (clock_hz / baud, clock_hz % baud);
    let divisor = q + u64::from(r >= baud - r);
    if !(2..=1 << 24).contains(&divisor) {
        return Err(bad);
    }
    let actual = clock_hz as f64 / divisor as f64;
    let error_pct = (actual - baud as f64).abs() / baud as f64 * 100.0;
    if error_pct > 2.0 {
        return Err(SelftestError::BaudError {
            clock_hz,
            baud,
            divisor,
            error_pct,
        });
    }
    Ok(divisor)
}

/// Clocks between heartbeat toggles: a quarter of a second at `clock_hz` (at least 1), so
/// the LED blinks at about 2 Hz (`docs/selftest.md` §4). The toggle waits for the next
/// round's `TALLY`, so a stopped sequencer stops the blinking.
pub fn heartbeat_clocks(clock_hz: u64) -> u64 {
    (clock_hz / 4).max(1)
}
