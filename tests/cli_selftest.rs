//! `lcanet generate selftest [hypercube | min]` as a user runs it: the files and JSON
//! summary, `--run N` (Verilator against the golden model, the UART lines printed), the
//! hidden `--inject-fault` reported as FAIL lines, and bad parameters refused naming the
//! condition with nothing written.

mod common;
use common::{json, lcanet, rejects, scratch};

const NET: [&str; 8] = [
    "--topology",
    "tree",
    "--d",
    "2",
    "--u",
    "1",
    "--levels",
    "3",
];

fn args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec!["generate", "selftest"];
    a.extend(NET);
    a.extend(extra);
    a
}

#[test]
fn writes_the_top_the_network_and_a_file_list() {
    let dir = scratch("files");
    let out = dir.join("st");
    let v = json(&args(&[
        "--lfsr-seed",
        "99",
        "--report-every",
        "7",
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]));
    let top = v["top"].as_str().unwrap();
    assert_eq!(top, "selftest_lcan_tree_d2_u1_l3_w1_m8_r1_rr");
    assert_eq!(v["network_top"], "lcan_tree_d2_u1_l3_w1_m8_r1_rr");
    assert_eq!(v["lfsr_seed"], 99);
    assert_eq!(v["uart_divisor"], 104);
    assert_eq!(v["inject_fault"], false);
    let list = std::fs::read_to_string(out.join(format!("{top}.f"))).unwrap();
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.last(), Some(&format!("{top}.v").as_str()));
    assert!(lines.contains(&"lcan_tree_d2_u1_l3_w1_m8_r1_rr.v"));
    assert!(lines.contains(&format!("{top}_report.v").as_str()));
    let text = std::fs::read_to_string(out.join(format!("{top}.v"))).unwrap();
    assert!(text.contains("// Parameters: "));
    assert!(text.contains("lfsr_seed=99"));
    assert!(!text.contains("TEST-ONLY FAULT"));
}

#[test]
fn run_prints_the_predicted_lines_and_the_fault_fails() {
    let dir = scratch("run");
    let out = dir.join("st");
    let o = out.to_str().unwrap();
    let base = [
        "--report-every",
        "10",
        "--baud",
        "3000000",
        "--run",
        "20",
        "-o",
        o,
    ];
    let good = lcanet(&args(&base));
    let text = String::from_utf8_lossy(&good.stdout);
    assert!(
        good.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&good.stderr)
    );
    assert!(text.contains("\nPASS 10 perms, "), "{text}");
    assert!(text.contains("\nPASS 20 perms, "), "{text}");
    assert!(
        text.contains("co-simulation: 2 lines equal to the golden model's"),
        "{text}"
    );
    let mut bad_args = args(&base);
    bad_args.extend(["--inject-fault", "--json"]);
    let bad = lcanet(&bad_args);
    // The on-chip checker reports the fault, exactly as the golden model predicts.
    assert!(
        bad.status.success(),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&bad.stdout).unwrap();
    assert_eq!(v["inject_fault"], true);
    assert_eq!(v["run"]["matched"], true);
    let last = v["run"]["lines"][1]["text"].as_str().unwrap();
    assert!(last.starts_with("FAIL 20 perms, "), "{last}");
    assert!(last.ends_with(", 20 errors\r\n"), "{last}");
    assert_eq!(v["run"]["lines"][1]["leds"][1], true);
}

#[test]
fn bad_parameters_are_refused_and_nothing_is_written() {
    let dir = scratch("bad");
    let out = dir.join("never");
    let o = out.to_str().unwrap();
    for (extra, needle) in [
        (vec!["--lfsr-seed", "0"], "--lfsr-seed must be nonzero"),
        (vec!["--lfsr-seed", "4294967296"], "below 2^32"),
        (
            vec!["--report-every", "0"],
            "--report-every must be between 1",
        ),
        (vec!["--baud", "0"], "at least 2 clocks per UART bit"),
        (vec!["--baud", "9000000"], "at least 2 clocks per UART bit"),
        (vec!["--clock-hz", "18446744073709551615"], "at most 2^24"),
        (
            vec!["--clock-hz", "10000000", "--baud", "3000000"],
            "% off the baud rate",
        ),
        (vec!["--message-bits", "33"], "1 <= --message-bits <= 32"),
        (vec!["--algorithm", "r3"], "R3 loads an off-line schedule"),
        (
            vec!["--report-every", "50", "--run", "10"],
            "--run 10 must be at least --report-every 50",
        ),
    ] {
        let mut a = args(&extra);
        a.extend(["-o", o]);
        rejects(&a, &[needle]);
        assert!(!out.exists(), "{extra:?} wrote {o}");
    }
}

/// The hypercube and a MIN with the injected fault: `--run` matches the golden model,
/// whose lines say FAIL (every round for Algorithm 2 and ATAPE, PE 0's messages not
/// counted). The parameters are those of the test bench's own fault test
/// (`lcanet_testbench::selftest::tests`), so the Verilated models come from the cache.
#[test]
fn hypercube_and_min_run_and_the_fault_fails() {
    let dir = scratch("families");
    for (family, count, messages) in [
        (
            &["hypercube", "--k", "2", "--payload-bits", "4"][..],
            "perms",
            "30 messages",
        ),
        (
            &[
                "hypercube",
                "--k",
                "2",
                "--payload-bits",
                "4",
                "--router",
                "sequential",
            ][..],
            "perms",
            "30 messages",
        ),
        (
            &[
                "hypercube",
                "--k",
                "2",
                "--payload-bits",
                "4",
                "--router",
                "sort",
            ][..],
            "perms",
            "30 messages",
        ),
        (
            &[
                "min",
                "--network",
                "baseline",
                "--m",
                "2",
                "--message-bits",
                "8",
            ][..],
            "exchanges",
            "120 messages",
        ),
    ] {
        let out = dir.join(family.join("_"));
        let mut a = vec!["generate", "selftest"];
        a.extend(family);
        a.extend([
            "--lfsr-seed",
            "305419896",
            "--report-every",
            "5",
            "--clock-hz",
            "300000",
            "--baud",
            "75000",
            "--inject-fault",
            "--run",
            "10",
            "--json",
            "-o",
            out.to_str().unwrap(),
        ]);
        let v = json(&a);
        assert_eq!(v["inject_fault"], true);
        assert_eq!(v["run"]["matched"], true, "{family:?}: {v}");
        let last = v["run"]["lines"][1]["text"].as_str().unwrap();
        assert!(
            last.starts_with(&format!("FAIL 10 {count}, ")),
            "{family:?}: {last}"
        );
        assert!(
            last.ends_with(&format!(", {messages}, 10 errors\r\n")),
            "{last}"
        );
        assert_eq!(v["run"]["lines"][1]["leds"][1], true);
        let top = v["top"].as_str().unwrap();
        assert!(out.join(format!("{top}.v")).exists());
        let net = v["network_top"].as_str().unwrap();
        assert!(out.join(format!("{net}.v")).exists());
    }
}

#[test]
fn hypercube_and_min_bad_parameters_are_refused() {
    let dir = scratch("families_bad");
    let out = dir.join("never");
    let o = out.to_str().unwrap();
    for (args, needle) in [
        (&["hypercube", "--k", "13"][..], "1 <= k <= 12"),
        (&["hypercube", "--k", "0"][..], "1 <= k <= 12"),
        (
            &["hypercube", "--k", "3", "--payload-bits", "33"][..],
            "1 <= --payload-bits <= 32",
        ),
        (
            &["hypercube", "--k", "3", "--payload-bits", "0"][..],
            "payload width 0 is out of range",
        ),
        (
            &["hypercube", "--k", "3", "--algorithm", "r1"][..],
            "invalid value 'r1' for '--algorithm",
        ),
        (
            &["hypercube", "--k", "3", "--topology", "tree"][..],
            "unexpected argument '--topology'",
        ),
        (
            &["hypercube", "--k", "3", "--router", "quadratic"][..],
            "the batched cubes (quadratic, quadratic-sort) have no self-test",
        ),
        (
            &[
                "hypercube",
                "--k",
                "3",
                "--algorithm",
                "semi",
                "--router",
                "sort",
            ][..],
            "--router sort applies to --algorithm full only",
        ),
        (
            &["min", "--network", "omega", "--m", "8"][..],
            "1 <= m <= 7",
        ),
        (&["min", "--network", "omega", "--m", "13"][..], "m ≤ 12"),
        (
            &[
                "min",
                "--network",
                "omega",
                "--m",
                "3",
                "--message-bits",
                "0",
            ][..],
            "1 <= --message-bits <= 32",
        ),
        (
            &["min", "--network", "butterfly", "--m", "3"][..],
            "unknown network 'butterfly'",
        ),
        (
            &["min", "--network", "omega", "--m", "3", "--lfsr-seed", "0"][..],
            "--lfsr-seed must be nonzero",
        ),
        (
            &["min", "--network", "omega", "--m", "3", "--run", "5"][..],
            "--run 5 must be at least --report-every 1000",
        ),
        (
            &["hypercube", "--k", "3", "--baud", "0"][..],
            "at least 2 clocks per UART bit",
        ),
    ] {
        let mut a = vec!["generate", "selftest"];
        a.extend(args);
        a.extend(["-o", o]);
        rejects(&a, &[needle]);
        assert!(!out.exists(), "{args:?} wrote {o}");
    }
}
