//! The m = 3 examples of 004, transcribed from the paper: the Latin squares L1, L2, L3
//! of eq. (15) and the eight switch-setting lines of Figs. 7, 8 and 9; and their reverse
//! counterparts (the paper names the reverse networks but gives no example): each
//! figure's settings mirrored (stage s ↔ stage m-1-s) on the reverse network realize the
//! inverse permutation, and each reverse network's Table 2 square consists of exactly the
//! inverses of the forward square's rows, each routed by its tags with uniform settings
//! whose mirror is the forward figure's line of the inverse.
//!
//! Errata of the text we have (OCR of the figures' captions), decided here:
//! - Fig. 7(c) reads "φ1 φ1 37152604" and 7(d) "I φ1 26043715": a stage label is lost in
//!   each; the Gray-code order of the captions (and Figs. 8–9, which have all three)
//!   gives "Iφ1φ1" and "Iφ1I", and those settings realize exactly these permutations.
//! - Fig. 7(e) reads "62407551", which is not a permutation (5 twice, 3 missing); row 4
//!   of L1 is 6 2 4 0 7 3 5 1, so the caption is "62407351".
//! - Fig. 8(e) reads "67452304" (4 twice, 1 missing); row 4 of L2 is 6 7 4 5 2 3 0 1,
//!   so the caption is "67452301".

use lcanet_sim::min::route::settings_label;
use lcanet_sim::min::{latin_square, Min, Network, SwitchSettings};
use lcanet_sim::perm::Permutation;

const L1: [[usize; 8]; 8] = [
    [0, 4, 2, 6, 1, 5, 3, 7],
    [1, 5, 3, 7, 0, 4, 2, 6],
    [3, 7, 1, 5, 2, 6, 0, 4],
    [2, 6, 0, 4, 3, 7, 1, 5],
    [6, 2, 4, 0, 7, 3, 5, 1],
    [7, 3, 5, 1, 6, 2, 4, 0],
    [5, 1, 7, 3, 4, 0, 6, 2],
    [4, 0, 6, 2, 5, 1, 7, 3],
];
const L2: [[usize; 8]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7],
    [1, 0, 3, 2, 5, 4, 7, 6],
    [3, 2, 1, 0, 7, 6, 5, 4],
    [2, 3, 0, 1, 6, 7, 4, 5],
    [6, 7, 4, 5, 2, 3, 0, 1],
    [7, 6, 5, 4, 3, 2, 1, 0],
    [5, 4, 7, 6, 1, 0, 3, 2],
    [4, 5, 6, 7, 0, 1, 2, 3],
];
const L3: [[usize; 8]; 8] = [
    [0, 2, 4, 6, 1, 3, 5, 7],
    [1, 3, 5, 7, 0, 2, 4, 6],
    [3, 1, 7, 5, 2, 0, 6, 4],
    [2, 0, 6, 4, 3, 1, 7, 5],
    [6, 4, 2, 0, 7, 5, 3, 1],
    [7, 5, 3, 1, 6, 4, 2, 0],
    [5, 7, 1, 3, 4, 6, 0, 2],
    [4, 6, 0, 2, 5, 7, 1, 3],
];

/// The reverse cube's square (Table 2 from its first row `τ⁻¹`, the one-bit right
/// rotation); the reverse baseline's is L1 and the reverse omega's L2 (same first rows:
/// `π⁻¹ = π`, `I`).
const LR3: [[usize; 8]; 8] = [
    [0, 4, 1, 5, 2, 6, 3, 7],
    [1, 5, 0, 4, 3, 7, 2, 6],
    [3, 7, 2, 6, 1, 5, 0, 4],
    [2, 6, 3, 7, 0, 4, 1, 5],
    [6, 2, 7, 3, 4, 0, 5, 1],
    [7, 3, 6, 2, 5, 1, 4, 0],
    [5, 1, 4, 0, 7, 3, 6, 2],
    [4, 0, 5, 1, 6, 2, 7, 3],
];

/// Figs. 7, 8, 9 (a)–(h): stage settings (stage 0 first) and the permutation realized.
const FIG7: [(&str, &str); 8] = [
    ("III", "04261537"),
    ("IIφ1", "15370426"),
    ("Iφ1φ1", "37152604"),
    ("Iφ1I", "26043715"),
    ("φ1φ1I", "62407351"),
    ("φ1φ1φ1", "73516240"),
    ("φ1Iφ1", "51734062"),
    ("φ1II", "40625173"),
];
const FIG8: [(&str, &str); 8] = [
    ("III", "01234567"),
    ("IIφ1", "10325476"),
    ("Iφ1φ1", "32107654"),
    ("Iφ1I", "23016745"),
    ("φ1φ1I", "67452301"),
    ("φ1φ1φ1", "76543210"),
    ("φ1Iφ1", "54761032"),
    ("φ1II", "45670123"),
];
const FIG9: [(&str, &str); 8] = [
    ("III", "02461357"),
    ("IIφ1", "13570246"),
    ("Iφ1φ1", "57134602"),
    ("Iφ1I", "46025713"),
    ("φ1φ1I", "64207531"),
    ("φ1φ1φ1", "75316420"),
    ("φ1Iφ1", "31752064"),
    ("φ1II", "20643175"),
];

fn parse_label(label: &str) -> Vec<bool> {
    let mut crossed = Vec::new();
    let mut rest = label;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("φ1") {
            crossed.push(true);
            rest = r;
        } else if let Some(r) = rest.strip_prefix('I') {
            crossed.push(false);
            rest = r;
        } else {
            panic!("bad label {label}");
        }
    }
    crossed
}

fn digits(p: &[usize]) -> String {
    p.iter().map(|d| d.to_string()).collect()
}

#[test]
fn latin_squares_equal_eq_15() {
    for (net, want) in [
        (Network::Baseline, L1),
        (Network::Omega, L2),
        (Network::Cube, L3),
    ] {
        let sq = latin_square(&Min::new(net, 3).unwrap());
        let want: Vec<Vec<usize>> = want.iter().map(|r| r.to_vec()).collect();
        assert_eq!(sq.rows, want, "{net}");
    }
}

#[test]
fn figure_settings_realize_the_listed_permutations() {
    for (net, fig) in [
        (Network::Baseline, FIG7),
        (Network::Omega, FIG8),
        (Network::Cube, FIG9),
    ] {
        let min = Min::new(net, 3).unwrap();
        for (label, perm) in fig {
            let crossed = parse_label(label);
            assert_eq!(settings_label(&crossed), label);
            let p = min.realize(&SwitchSettings::uniform(&min, &crossed));
            assert_eq!(digits(p.as_slice()), perm, "{net} {label}");
        }
    }
}

#[test]
fn self_routing_each_latin_row_sets_the_figure_settings() {
    // "The corresponding Latin square is L_k": the eight figure permutations are the
    // rows, and routing a row by its tags sets the switches exactly as in the figure.
    for (net, fig) in [
        (Network::Baseline, FIG7),
        (Network::Omega, FIG8),
        (Network::Cube, FIG9),
    ] {
        let min = Min::new(net, 3).unwrap();
        let sq = latin_square(&min);
        let mut rows: Vec<String> = sq.rows.iter().map(|r| digits(r)).collect();
        let mut figs: Vec<String> = fig.iter().map(|(_, p)| p.to_string()).collect();
        for (i, row) in sq.rows.iter().enumerate() {
            let t = min.transit(&sq.row(i));
            assert!(t.conflicts.is_empty());
            let label = settings_label(&t.settings.as_uniform().unwrap());
            let (_, perm) = fig.iter().find(|(l, _)| *l == label).unwrap();
            assert_eq!(*perm, digits(row), "{net} row {i}");
        }
        rows.sort();
        figs.sort();
        assert_eq!(rows, figs, "{net}");
    }
    // Baseline and omega list the rows in square order; the cube does not (its
    // figure order is the same Gray code of settings, which permutes the rows).
    let sq = latin_square(&Min::new(Network::Baseline, 3).unwrap());
    for (i, (_, p)) in FIG7.iter().enumerate() {
        assert_eq!(digits(&sq.rows[i]), *p);
    }
}

fn inverse_digits(p: &str) -> String {
    let dst: Vec<usize> = p.bytes().map(|b| (b - b'0') as usize).collect();
    digits(Permutation::new(dst).unwrap().inverse().as_slice())
}

fn mirrored(label: &str) -> String {
    let mut crossed = parse_label(label);
    crossed.reverse();
    settings_label(&crossed)
}

#[test]
fn mirrored_figure_settings_realize_the_inverses_on_the_reverse_networks() {
    for (net, fig) in [
        (Network::Baseline, FIG7),
        (Network::Omega, FIG8),
        (Network::Cube, FIG9),
    ] {
        let rev = Min::new(net.reverse(), 3).unwrap();
        for (label, perm) in fig {
            let crossed = parse_label(&mirrored(label));
            let p = rev.realize(&SwitchSettings::uniform(&rev, &crossed));
            assert_eq!(digits(p.as_slice()), inverse_digits(perm), "{net} {label}");
        }
    }
}

#[test]
fn reverse_squares_are_the_inverses_of_l1_l2_l3() {
    for (net, forward, fig, want) in [
        (Network::ReverseBaseline, L1, FIG7, L1),
        (Network::ReverseOmega, L2, FIG8, L2),
        (Network::ReverseCube, L3, FIG9, LR3),
    ] {
        let min = Min::new(net, 3).unwrap();
        let sq = latin_square(&min);
        sq.check_latin().unwrap();
        let want: Vec<Vec<usize>> = want.iter().map(|r| r.to_vec()).collect();
        assert_eq!(sq.rows, want, "{net}");
        let mut rows: Vec<String> = sq.rows.iter().map(|r| digits(r)).collect();
        let mut inverses: Vec<String> =
            forward.iter().map(|r| inverse_digits(&digits(r))).collect();
        rows.sort();
        inverses.sort();
        assert_eq!(
            rows, inverses,
            "{net}: rows = inverses of the forward square's rows"
        );
        for (i, row) in sq.rows.iter().enumerate() {
            let t = min.transit(&sq.row(i));
            assert!(t.conflicts.is_empty(), "{net} row {i}");
            let label = settings_label(&t.settings.as_uniform().unwrap());
            // The forward figure's line with the mirrored settings realizes the inverse.
            let (_, perm) = fig.iter().find(|(l, _)| *l == mirrored(&label)).unwrap();
            assert_eq!(inverse_digits(perm), digits(row), "{net} row {i}");
        }
    }
}
