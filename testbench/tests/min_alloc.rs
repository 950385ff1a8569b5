//! The MIN co-simulation's per-bit-time path (golden words, comparison of every port,
//! delivery check, stimulus, clock) allocates nothing: counted with a global allocator
//! over a whole ATAPE run and a single permutation with conflicts.

mod counting;

use lcanet_sim::min::{Min, Network, RunConfig};
use lcanet_sim::perm::Permutation;
use lcanet_testbench::artifact_dir;
use lcanet_testbench::min::cosim::{default_options, Session};

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

#[test]
fn per_bit_time_path_does_not_allocate() {
    let min = Min::new(Network::Cube, 3).unwrap();
    // 70 payload bits: messages span two 64-bit words.
    let atape = RunConfig::atape(min, 70, 5).unwrap();
    let crafted = Permutation::new(vec![0, 1, 4, 5, 2, 3, 6, 7]).unwrap();
    let single = RunConfig::single(min, crafted, 3, 5).unwrap();
    for (name, cfg) in [("atape", atape), ("single", single)] {
        let dir = artifact_dir!(name).unwrap();
        let mut s = Session::new(&cfg, &default_options(dir.path(), false)).unwrap();
        counting::start();
        let mut failed = false;
        while s.bit_time() < s.end() {
            failed |= s.step().is_err();
        }
        let allocs = counting::stop();
        assert!(!failed, "{name}: the run should match");
        assert_eq!(allocs, 0, "{name}: allocations per bit-time");
        let r = s.report(None, 1.0);
        assert!(r.matched, "{name}: {:?}", r.mismatch);
        assert_eq!(r.simulated_bit_times, r.bound + 4, "{name}");
    }
}
