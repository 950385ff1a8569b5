//! The MIN co-simulation's per-bit-time path (golden words, comparison of every port,
//! delivery check, stimulus, clock) allocates nothing: counted with a global allocator
//! over a whole ATAPE run and a single permutation with conflicts.

use lcanet_sim::min::{Min, Network, RunConfig};
use lcanet_sim::perm::Permutation;
use lcanet_testbench::artifact_dir;
use lcanet_testbench::min::cosim::{default_options, Session};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

struct Counting;
static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

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
        ALLOCS.store(0, Ordering::SeqCst);
        COUNTING.store(true, Ordering::SeqCst);
        let mut failed = false;
        while s.bit_time() < s.end() {
            failed |= s.step().is_err();
        }
        COUNTING.store(false, Ordering::SeqCst);
        assert!(!failed, "{name}: the run should match");
        assert_eq!(
            ALLOCS.load(Ordering::SeqCst),
            0,
            "{name}: allocations per bit-time"
        );
        let r = s.report(None, 1.0);
        assert!(r.matched, "{name}: {:?}", r.mismatch);
        assert_eq!(r.simulated_bit_times, r.bound + 4, "{name}");
    }
}
