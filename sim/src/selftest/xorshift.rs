//! The self-test's random source: Marsaglia's xorshift32 with the shift triple (13, 17, 5),
//! `x ^= x << 13; x ^= x >> 17; x ^= x << 5` (all on 32 bits). It is a linear feedback
//! shift register over GF(2) in xor-shift form: every state but 0 lies on one cycle of
//! length 2³² − 1, so the seed must be nonzero. The hardware computes the next state with
//! three xor-shift wires and loads it in one clock.

/// The xorshift32 generator; `state` is what the hardware's `rng` register holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Xorshift32 {
    /// The current state (never 0).
    pub state: u32,
}

impl Xorshift32 {
    /// A generator starting at `seed` (nonzero; 0 is a fixed point, refused by
    /// [`super::SelftestParams::new`]).
    pub fn new(seed: u32) -> Self {
        Xorshift32 { state: seed }
    }

    /// The state after one step.
    pub fn next_state(x: u32) -> u32 {
        let a = x ^ (x << 13);
        let b = a ^ (a >> 17);
        b ^ (b << 5)
    }

    /// Returns the current state, then steps (the hardware uses the register's value in
    /// the clock that loads the next one).
    pub fn draw(&mut self) -> u32 {
        let v = self.state;
        self.state = Self::next_state(v);
        v
    }
}
