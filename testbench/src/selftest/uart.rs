//! Decoding the self-test's TX pin: 8N1 frames of `divisor` clocks per bit, sampled in the
//! middle of each bit, as a receiver on the board would.

/// An 8N1 receiver fed one pin value per clock.
#[derive(Debug, Clone)]
pub struct UartRx {
    divisor: u64,
    /// Clocks since the start bit's falling edge (`None`: waiting for one).
    at: Option<u64>,
    bits: u16,
}

/// What one clock's sample gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RxEvent {
    /// A byte with a valid stop bit.
    Byte(u8),
    /// A frame whose stop bit was 0 (or whose start bit did not last).
    FrameError,
}

impl UartRx {
    /// A receiver of `divisor` clocks per bit.
    pub fn new(divisor: u64) -> Self {
        UartRx {
            divisor,
            at: None,
            bits: 0,
        }
    }

    /// Whether the receiver waits for a start bit (the next low sample starts a frame).
    pub fn is_waiting(&self) -> bool {
        self.at.is_none()
    }

    /// The pin's value in the next clock.
    pub fn sample(&mut self, pin: bool) -> Option<RxEvent> {
        let Some(at) = self.at else {
            if !pin {
                self.at = Some(0);
                self.bits = 0;
            }
            return None;
        };
        let at = at + 1;
        self.at = Some(at);
        let mid = self.divisor / 2;
        if at < mid || !(at - mid).is_multiple_of(self.divisor) {
            return None;
        }
        let k = (at - mid) / self.divisor;
        match k {
            0 if pin => {
                self.at = None;
                Some(RxEvent::FrameError)
            }
            0 => None,
            1..=8 => {
                self.bits |= u16::from(pin) << (k - 1);
                None
            }
            _ => {
                self.at = None;
                Some(if pin {
                    RxEvent::Byte(self.bits as u8)
                } else {
                    RxEvent::FrameError
                })
            }
        }
    }
}
