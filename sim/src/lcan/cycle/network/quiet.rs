//! The network model's fast path for quiet switches: a switch whose receive and output
//! registers are all zero, whose inputs are zero and whose bit-time is neither a commit
//! (`ctl_last`) nor `ctl_init`/`ctl_clear` only counts the bit-time — receiving zeros into
//! zero registers, shifting zero output registers and passing zero inputs through closed
//! crosspoints change nothing — so [`NetworkModel::step`](super::NetworkModel::step) does
//! exactly that instead of the full [`SwitchModel::clock`], and knows its outputs are 0.
//! Most switches are quiet in most bit-times (a set-up step moves packets at one level);
//! the behaviour is the same bit for bit (`tests::quiet_fast_path_changes_nothing`).

use super::super::params::MAX_STEP;
use super::super::switch::SwitchModel;
use super::super::types::{Control, Mode};

impl SwitchModel {
    /// Every receive and output register is zero.
    pub(super) fn registers_zero(&self) -> bool {
        self.rx_a
            .iter()
            .chain(&self.rx_b)
            .chain(&self.tx_c)
            .chain(&self.tx_d)
            .all(|r| r.is_zero())
            && self.sc.iter().all(|&s| s == 0)
    }

    /// What [`SwitchModel::clock`] does for a quiet switch (see the module documentation):
    /// the step bookkeeping only.
    pub(super) fn tick_quiet(&mut self, ctl: &Control) {
        debug_assert!(!ctl.init && !ctl.last && !ctl.clear);
        if self.bt == 0 {
            self.step_mode = Mode::from_code(ctl.mode);
            self.step_level = ctl.level;
        }
        self.bt = (self.bt + 1).min(MAX_STEP);
    }
}

/// Whether a bit-time's control lets quiet switches take the fast path.
pub(super) fn quiet_allowed(ctl: &Control) -> bool {
    !ctl.init && !ctl.last && !ctl.clear
}
