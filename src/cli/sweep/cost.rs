//! What a configuration of the sweep costs, from the records' measured seconds: the
//! estimates behind `--submit`'s time and memory requests, and the size classes the
//! report and the docs use.
//!
//! A record's cost is its CPU seconds (build: this process and its Verilator, make and g++
//! children; run: this process) where it carries them, else its wall-clock seconds (older
//! records; an upper bound, since the machine was shared). A configuration with a record —
//! current or stale, since a stale record still measured a network of that size — is
//! estimated by it; any other by its size class: the mean cost per switch of the class's
//! records times its switches, and at least the class's mean. With no records at all, the
//! classes fall back to [`BUILTIN`].

/// Upper bounds (exclusive) of the size classes, in switches, and their names.
pub const CLASSES: [(usize, &str); 5] = [
    (10, "< 10"),
    (50, "10–49"),
    (200, "50–199"),
    (1000, "200–999"),
    (usize::MAX, "≥ 1,000"),
];

/// Mean build and run CPU seconds per configuration of each class in the 332 records of
/// `docs/sweep/n256` that carry CPU seconds (shards 36–43, 100 permutations each, measured
/// 2026-11-27 at `e28afed`), and the mean switch count of those records: what `--submit`
/// assumes of a class with no record in the results directory yet. The run part scales
/// with the permutation count.
pub const BUILTIN: [Class; 5] = [
    Class {
        build: 6.2,
        run: 0.1,
        switches: 2.1,
    },
    Class {
        build: 16.7,
        run: 3.0,
        switches: 21.4,
    },
    Class {
        build: 18.3,
        run: 8.5,
        switches: 122.2,
    },
    Class {
        build: 47.0,
        run: 34.5,
        switches: 329.6,
    },
    Class {
        build: 107.7,
        run: 339.9,
        switches: 2703.9,
    },
];
/// The permutation count of [`BUILTIN`]'s records.
const BUILTIN_PERMS: f64 = 100.0;

/// Mean seconds per configuration of one size class.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Class {
    /// Building (generation, Verilator, g++).
    pub build: f64,
    /// Co-simulating every permutation.
    pub run: f64,
    /// Mean switches of the configurations measured.
    pub switches: f64,
}

/// The size class of a network with `switches` switches (an index into [`CLASSES`]).
pub fn class(switches: usize) -> usize {
    CLASSES
        .iter()
        .position(|&(below, _)| switches < below)
        .unwrap_or(CLASSES.len() - 1)
}

/// Seconds one record spent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spent {
    /// Building.
    pub build: f64,
    /// Co-simulating.
    pub run: f64,
    /// CPU seconds (true) or wall-clock seconds (false: a record from before CPU times).
    pub cpu: bool,
}

impl Spent {
    /// Build plus run.
    pub fn total(&self) -> f64 {
        self.build + self.run
    }
}

/// Per-class means of a set of records, for estimates.
#[derive(Debug, Clone)]
pub struct Model {
    classes: [Option<Class>; 5],
    perms: usize,
}

impl Model {
    /// The means of `records` (switch count, seconds spent), all of `perms` permutations.
    pub fn new(records: impl IntoIterator<Item = (usize, Spent)>, perms: usize) -> Model {
        let mut sums = [(0.0, 0.0, 0.0, 0usize); 5];
        for (switches, s) in records {
            let e = &mut sums[class(switches)];
            e.0 += s.build;
            e.1 += s.run;
            e.2 += switches as f64;
            e.3 += 1;
        }
        let classes = sums.map(|(b, r, sw, k)| {
            (k > 0).then(|| Class {
                build: b / k as f64,
                run: r / k as f64,
                switches: sw / k as f64,
            })
        });
        Model { classes, perms }
    }

    /// The class means used for a network of `switches` switches: the records', or
    /// [`BUILTIN`] with the run scaled to this model's permutation count.
    pub fn class_of(&self, switches: usize) -> Class {
        let k = class(switches);
        self.classes[k].unwrap_or_else(|| {
            let b = BUILTIN[k];
            Class {
                run: b.run * self.perms as f64 / BUILTIN_PERMS,
                ..b
            }
        })
    }

    /// Estimated seconds of a configuration of `switches` switches with no record.
    pub fn estimate(&self, switches: usize) -> f64 {
        let c = self.class_of(switches);
        let mean = c.build + c.run;
        (mean * switches as f64 / c.switches.max(1.0)).max(mean)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_split_at_their_bounds() {
        assert_eq!(class(1), 0);
        assert_eq!(class(9), 0);
        assert_eq!(class(10), 1);
        assert_eq!(class(999), 3);
        assert_eq!(class(1000), 4);
        assert_eq!(class(usize::MAX), 4);
    }

    #[test]
    fn estimates_scale_with_switches_from_the_class_mean_and_fall_back_to_the_builtin_means() {
        let spent = |build, run| Spent {
            build,
            run,
            cpu: true,
        };
        let m = Model::new([(20, spent(10.0, 2.0)), (40, spent(30.0, 6.0))], 100);
        let c = m.class_of(30);
        assert_eq!((c.build, c.run, c.switches), (20.0, 4.0, 30.0));
        // Mean 24 s at 30 switches: 36 s at 45 (same class), never less than the mean.
        assert!((m.estimate(45) - 36.0).abs() < 1e-9);
        assert!((m.estimate(10) - 24.0).abs() < 1e-9);
        // No record of 1,000 switches or more: the built-in means, the run scaled from
        // 100 permutations to 10.
        let m = Model::new([(20, spent(10.0, 2.0))], 10);
        let b = m.class_of(5000);
        assert_eq!(b.build, BUILTIN[4].build);
        assert!((b.run - BUILTIN[4].run / 10.0).abs() < 1e-9);
    }
}
