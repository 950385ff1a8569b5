//! Hardware of the self-routing MINs and algorithm ATAPE (seed 004), as specified in
//! `docs/min.md` §3, word-level: the 2x2 bit-serial switch ([`switch()`]), the per-PE
//! ATAPE unit ([`unit()`]), the controller ([`controller()`]), and whole networks
//! assembled from them ([`network`]). Every multi-bit quantity is one vector (a unit's
//! destination and tag register, the controller's counters and decision strobes
//! `dec[m]`, a stage's output positions, the switches' settings and flags as rows of
//! the observation buses); each block is one module with one `always @(posedge clock)`.

pub mod control;
pub mod gtkw;
pub mod network;
pub mod switch;
pub mod unit;

pub use control::{controller, controller_name, DRAIN_BITS, POS_BITS};
pub use network::{build, stage_net, switch_instance, top_name, MinRtl, MinRtlError};
pub use switch::{switch, SWITCH_MODULE};
pub use unit::{unit, unit_name};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::style::check_files;
    use lcanet_sim::min::{Min, Network};

    #[test]
    fn every_network_validates_in_four_word_level_modules() {
        for net in Network::ALL {
            for m in 1..=6 {
                let min = Min::new(net, m).unwrap();
                let rtl = build(&min, 3).unwrap();
                let e = rtl.design.emit().unwrap();
                let names: Vec<&str> = e.modules.iter().map(|f| f.name.as_str()).collect();
                assert_eq!(names.len(), 4, "{min}: {names:?}");
                assert!(names.contains(&"min_switch_2x2.v"), "{names:?}");
                assert_eq!(*names.last().unwrap(), format!("{}.v", top_name(&min, 3)));
                let issues = check_files(
                    e.modules
                        .iter()
                        .map(|f| (f.name.as_str(), f.contents.as_str())),
                );
                assert!(issues.is_empty(), "{min}: {issues:?}");
                let top = &e.modules[3].contents;
                let last = min.switches_per_stage() - 1;
                assert!(top.contains(&format!(
                    "min_switch_2x2 {} (",
                    switch_instance(m - 1, last)
                )));
                assert!(top.contains(&format!(" pe{} (", min.n() - 1)));
            }
        }
    }

    #[test]
    fn bad_parameters_are_errors_not_panics() {
        let min = Min::new(Network::Omega, 3).unwrap();
        for bits in [0, 4097] {
            let err = build(&min, bits).unwrap_err();
            assert!(matches!(err, MinRtlError::Params(_)), "{err}");
            assert!(err.to_string().contains("1 ≤ bits ≤ 4096"), "{err}");
        }
    }
}
