//! Where R1's (and R2's) bit-times go, phase by phase, with the sequential and the fast
//! set-up (`docs/protocol.md` §3, §13; issue 14 item 3), from the network parameters'
//! length functions (`NetParams::step_len`, `pass_len`, `total_bit_times`) applied to the
//! passes of seeded random permutations — checked, for every permutation with
//! `n ≤ --check-n`, against the cycle-level network model run to `done` in both set-ups
//! (same passes and top levels, bit-times equal to the formula).
//!
//! ```sh
//! cargo run --release -p lcanet-testbench --example setup_phases -- [--perms 24] [--seed 1] [--check-n 256]
//! ```
//!
//! Prints two Markdown tables: R1's bit-times per pass split into phases (sequential
//! set-up), and per pass / per permutation before and after for R1 and R2. Permutation `i`
//! is `lcanet schedule --perm random --seed <seed + i>`'s; arbiters round-robin; `W = 1`,
//! `M = 8`.

use lcanet_sim::lcan::cycle::network::{NetParams, NetworkModel, Phase};
use lcanet_sim::lcan::cycle::{ArbiterPolicy, SetupMode};
use lcanet_sim::lcan::routing::{route, Algorithm, Config, Conflict};
use lcanet_sim::lcan::workload::{generate, Generator};
use lcanet_sim::lcan::{Size, Topology};

struct Opts {
    perms: u64,
    seed: u64,
    check_n: usize,
}

fn opts() -> Opts {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut o = Opts {
        perms: 24,
        seed: 1,
        check_n: 256,
    };
    let mut i = 0;
    while i < args.len() {
        let v = args
            .get(i + 1)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{} needs a number", args[i]));
        match args[i].as_str() {
            "--perms" => o.perms = v,
            "--seed" => o.seed = v,
            "--check-n" => o.check_n = v as usize,
            a => panic!("unknown argument {a}: --perms N, --seed S, --check-n N"),
        }
        i += 2;
    }
    o
}

/// The top levels of the passes of permutation `seed` on `topo` (from the step-level
/// router with the network's arbiters; when `check`, also from the cycle-level model in
/// both set-ups, whose bit-times must equal the formula).
fn tops(topo: &Topology, alg: Algorithm, seed: u64, check: bool) -> Vec<usize> {
    let seq = NetParams::new(topo, alg, ArbiterPolicy::RoundRobin, 1, 8).unwrap();
    let perm = generate(topo, Generator::Random, seed)
        .unwrap()
        .to_partial();
    let dst = perm.as_slice().to_vec();
    let msgs: Vec<u64> = (0..topo.n() as u64).map(|p| p & 0xFF).collect();
    let model = NetworkModel::new(topo, &seq, &dst, &msgs, seed).unwrap();
    let cfg = Config {
        algorithm: alg,
        policy: model.routing_policy(),
        conflict: Conflict::Wire,
        seed,
    };
    let sched = route(topo, &perm, &cfg).unwrap();
    let tops: Vec<usize> = sched.passes.iter().map(|p| p.top_level).collect();
    if check {
        for setup in [SetupMode::Sequential, SetupMode::Fast] {
            let np = seq.clone().with_setup(setup).unwrap();
            let mut m = NetworkModel::new(topo, &np, &dst, &msgs, seed).unwrap();
            let run = m.run_to_done(100_000_000).unwrap();
            let got: Vec<usize> = run.passes.iter().map(|p| p.top_level).collect();
            assert_eq!(got, tops, "{setup}: passes of seed {seed}");
            assert_eq!(run.bit_times as usize, np.total_bit_times(&tops), "{setup}");
        }
    }
    tops
}

/// Sums over passes of one phase's bit-times, split for set-up steps into receiving the
/// packet, the arbitration window and the commit bit-time.
#[derive(Default, Clone, Copy)]
struct Split {
    up: [usize; 3],
    down: [usize; 3],
    probe: [usize; 3],
    /// DELIV + DATA + ACK.
    data: usize,
    /// PLAN + ARM.
    ctrl: usize,
    /// LOAD + the DONE bit-time, per permutation.
    edges: usize,
}

impl Split {
    fn of(np: &NetParams, tops: &[usize]) -> Split {
        let f = &np.fmt;
        let mut s = Split {
            edges: np.t_load + 1,
            ..Split::default()
        };
        for &h in tops {
            let len = |p| np.step_len(p, h).unwrap_or(0);
            let part = |n: usize, t: usize, steps: usize| [steps * n, steps * (t - n - 1), steps];
            match np.algorithm {
                Algorithm::R1 => {
                    let add_up = part(f.n1, len(Phase::Up), h + 1);
                    let add_dn = part(f.n2, len(Phase::Down), h + 1);
                    for (acc, a) in s.up.iter_mut().zip(add_up) {
                        *acc += a;
                    }
                    for (acc, a) in s.down.iter_mut().zip(add_dn) {
                        *acc += a;
                    }
                }
                _ => {
                    let add = part(f.nr, len(Phase::Probe), 2 * h + 1);
                    for (acc, a) in s.probe.iter_mut().zip(add) {
                        *acc += a;
                    }
                }
            }
            s.data += len(Phase::Deliv) + len(Phase::Data) + len(Phase::Ack);
            s.ctrl += len(Phase::Plan) + len(Phase::Arm);
        }
        let setup: usize = s.up.iter().chain(&s.down).chain(&s.probe).sum();
        assert_eq!(
            setup + s.data + s.ctrl + s.edges,
            np.total_bit_times(tops),
            "the split adds up"
        );
        s
    }

    fn setup(&self) -> usize {
        self.up.iter().chain(&self.down).chain(&self.probe).sum()
    }

    fn total(&self) -> usize {
        self.setup() + self.data + self.ctrl + self.edges
    }
}

fn main() {
    let o = opts();
    println!(
        "seed {} (permutation i: seed + i), {} permutations, model check for n ≤ {}",
        o.seed, o.perms, o.check_n
    );
    type Make = fn(usize) -> Topology;
    let nets: [(&str, Make); 4] = [
        ("CB(2,2)", |n| {
            Topology::complete_bipartite(2, 2, Size::Pes(n)).unwrap()
        }),
        ("T(2,1)", |n| Topology::tree(2, 1, Size::Pes(n)).unwrap()),
        ("T(4,2)", |n| Topology::tree(4, 2, Size::Pes(n)).unwrap()),
        ("CB(4,4)", |n| {
            Topology::complete_bipartite(4, 4, Size::Pes(n)).unwrap()
        }),
    ];
    let mut phase_rows = Vec::new();
    let mut cmp_rows = Vec::new();
    for (name, make) in nets {
        for n in [16usize, 64, 256, 1024] {
            let topo = make(n);
            let check = n <= o.check_n;
            let mut cmp = format!("| {name} | {n} |");
            for alg in [Algorithm::R1, Algorithm::R2] {
                let seq = NetParams::new(&topo, alg, ArbiterPolicy::RoundRobin, 1, 8).unwrap();
                let fast = seq.clone().with_setup(SetupMode::Fast).unwrap();
                let (mut passes, mut s_seq, mut s_fast) = (0usize, Vec::new(), Vec::new());
                for i in 0..o.perms {
                    let t = tops(&topo, alg, o.seed + i, check);
                    passes += t.len();
                    s_seq.push(Split::of(&seq, &t));
                    s_fast.push(Split::of(&fast, &t));
                }
                let p = passes as f64;
                let k = o.perms as f64;
                let sum = |v: &[Split], f: &dyn Fn(&Split) -> usize| {
                    v.iter().map(f).sum::<usize>() as f64
                };
                if alg == Algorithm::R1 {
                    let per = |f: &dyn Fn(&Split) -> usize| sum(&s_seq, f) / p;
                    let total = sum(&s_seq, &|s| s.total());
                    let arb = sum(&s_seq, &|s| s.up[1] + s.down[1]);
                    phase_rows.push(format!(
                        "| {name} | {n} | {} | {:.2} | {:.0} / {:.0} / {:.0} | {:.0} / {:.0} / {:.0} | {:.0} | {:.0} | {:.1} | {:.0} | {:.0} % | {:.0} % |",
                        topo.levels(),
                        p / k,
                        per(&|s| s.up[0]),
                        per(&|s| s.up[1]),
                        per(&|s| s.up[2]),
                        per(&|s| s.down[0]),
                        per(&|s| s.down[1]),
                        per(&|s| s.down[2]),
                        per(&|s| s.data),
                        per(&|s| s.ctrl),
                        sum(&s_seq, &|s| s.edges) / k,
                        total / k,
                        100.0 * sum(&s_seq, &|s| s.setup()) / total,
                        100.0 * arb / total,
                    ));
                }
                let (ts, tf) = (sum(&s_seq, &|s| s.total()), sum(&s_fast, &|s| s.total()));
                cmp += &format!(
                    " {:.2} | {:.0} → {:.0} | {:.0} → {:.0} ({:.0} %) |",
                    p / k,
                    ts / p,
                    tf / p,
                    ts / k,
                    tf / k,
                    100.0 * (tf - ts) / ts
                );
            }
            cmp_rows.push(cmp);
        }
    }
    println!("\nR1, sequential set-up: mean bit-times per pass by phase (UP, DOWN: receive / arbitration window / commit), per permutation\n");
    println!("| network | n | l | passes | UP | DOWN | DELIV+DATA+ACK | PLAN+ARM | LOAD+DONE (per perm.) | total per perm. | set-up share | arbitration share |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in phase_rows {
        println!("{r}");
    }
    println!("\nBefore → after (sequential → fast set-up), same permutations and seeds: mean bit-times per pass and per permutation\n");
    println!("| network | n | R1 passes | R1 per pass | R1 per perm. | R2 passes | R2 per pass | R2 per perm. |");
    println!("|---|---|---|---|---|---|---|---|");
    for r in cmp_rows {
        println!("{r}");
    }
}
