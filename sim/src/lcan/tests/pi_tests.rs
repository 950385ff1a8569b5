//! Π files: every malformed or invalid file is rejected with its line and the violated
//! condition; the documented example parses.

use crate::lcan::*;

fn err(text: &str) -> String {
    Topology::from_pi_text(text).expect_err(text).to_string()
}

/// The example of docs/pi-file.md: CB-LCAN(2,2) with 4 PEs, written out.
const EXAMPLE: &str = "\
# CB-LCAN(2,2) with 4 PEs: two levels of two switches.
lcan d=2 u=2 levels=2 n=4
level 0
0.0 -> 0.0   # upper 0 of level-0 switch 0 meets downer 0 of level-1 switch 0
0.1 -> 1.0
1.0 -> 0.1
1.1 -> 1.1
";

#[test]
fn documented_example_parses() {
    let t = Topology::from_pi_text(EXAMPLE).unwrap();
    let cb = Topology::complete_bipartite(2, 2, Size::Levels(2)).unwrap();
    assert_eq!(
        (t.n(), t.levels(), t.switches_per_level()),
        (4, 2, &[2usize, 2][..])
    );
    for s in 0..4 {
        for d in 0..4 {
            assert_eq!(t.lca_switches(s, d), cb.lca_switches(s, d));
        }
    }
    let body = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let again = Topology::from_pi_text(&cb.to_pi_text())
        .unwrap()
        .to_pi_text();
    assert_eq!(body(&again), body(&cb.to_pi_text()));
    assert_eq!(
        body(&again),
        body(EXAMPLE).replace(
            "   # upper 0 of level-0 switch 0 meets downer 0 of level-1 switch 0",
            ""
        )
    );
}

#[test]
fn errors_name_the_line_and_condition() {
    let cases = [
        ("level 0\n", "line 1: the first line must be the header"),
        ("lcan d=2 u=2 levels=2\n", "line 1: the header lacks n="),
        ("lcan d=2 u=2 levels=2 n=4 w=3\n", "line 1: unknown key 'w'"),
        ("lcan d=2 u=2 levels=2 n=x\n", "line 1: n=x: not a non-negative integer"),
        ("lcan d=4 u=3 levels=2 n=8\n", "S_1 = S_0·u/d = 6/4 is not an integer"),
        ("lcan d=2 u=2 levels=2 n=5\n", "S_0 = n/d = 5/2 is not an integer"),
        ("lcan d=6 u=4 levels=0 n=12\n", "levels = 0 is out of range"),
        ("lcan d=2 u=1 levels=2 n=4096\n", "n = 4096 exceeds the limit 1024 for Π files"),
        ("# c\nlcan d=2 u=2 levels=2 n=4\n0.0 -> 0.0\n", "line 3: a link line before any 'level I' section"),
        (
            "lcan d=2 u=2 levels=2 n=4\nlevel 0\n0.0 -> 0.0\n0.1 -> 1.0\n1.0 -> 0.1\n1.1 -> 1.1\nlevel 1\n",
            "line 7: unexpected 'level 1'",
        ),
        ("lcan d=2 u=2 levels=3 n=8\nlevel 1\n", "line 2: expected 'level 0'"),
        ("lcan d=2 u=2 levels=2 n=4\nlevel 0\n0.0 -> 0\n", "line 3: '0' is not a downer written SWITCH.PORT"),
        ("lcan d=2 u=2 levels=2 n=4\nlevel 0\n0.0 0.0\n", "line 3: a link line is 'SWITCH.UPPER -> SWITCH.DOWNER'"),
        ("lcan d=2 u=2 levels=2 n=4\nlevel 0\n2.0 -> 0.0\n", "line 3: upper 0 of level-0 switch 2 does not exist (S_0 = 2, u = 2)"),
        ("lcan d=2 u=2 levels=2 n=4\nlevel 0\n0.0 -> 0.2\n", "line 3: downer 2 of level-1 switch 0 does not exist (S_1 = 2, d = 2)"),
        (
            "lcan d=2 u=2 levels=2 n=4\nlevel 0\n0.0 -> 0.0\n0.0 -> 1.0\n",
            "line 4: upper 0 of level-0 switch 0 is connected twice (Π is one-to-one)",
        ),
        (
            "lcan d=2 u=2 levels=2 n=4\nlevel 0\n0.0 -> 0.0\n0.1 -> 0.0\n",
            "line 4: downer 0 of level-1 switch 0 is connected twice (first on line 3; Π is one-to-one)",
        ),
        (
            "lcan d=2 u=2 levels=2 n=4\nlevel 0\n0.0 -> 0.0\n0.1 -> 1.0\n1.0 -> 0.1\n",
            "unused connector: upper 1 of level-0 switch 1 has no line in section 'level 0'",
        ),
        ("lcan d=2 u=2 levels=3 n=8\nlevel 0\n", "unused connector: upper 0 of level-0 switch 0"),
        ("lcan d=2 u=1 levels=3 n=8\n", "unused connector: every upper of level 0 (the file has no 'level 0' section)"),
        ("", "no header"),
        (
            // Two separate binary trees under two top switches.
            "lcan d=2 u=1 levels=2 n=8\nlevel 0\n0.0 -> 0.0\n1.0 -> 0.1\n2.0 -> 1.0\n3.0 -> 1.1\n",
            "PEs 0 and 4 are not connected",
        ),
    ];
    for (text, msg) in cases {
        let e = err(text);
        assert!(
            e.contains(msg),
            "'{e}' does not contain '{msg}' for:\n{text}"
        );
    }
}
