//! The GTKWave files of `lcanet generate hypercube` and `lcanet sim hypercube --vcd`: the
//! save file lists the generated files' phase filter, shows the controller's phase by name,
//! and every trace is a signal of the run's VCD (path and range).

mod common;
use common::{lcanet, scratch};

use std::path::PathBuf;
use std::process::Output;

fn json(o: &Output) -> serde_json::Value {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn generate_hypercube_writes_a_save_file_with_the_phase_by_name() {
    // The overlapped (default) controller's mode by name.
    let out = scratch("generate_overlapped").join("rtl");
    let j = json(&lcanet(&[
        "generate",
        "hypercube",
        "--k",
        "2",
        "--payload-bits",
        "3",
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]));
    let top = "hypercube_k2_l3";
    assert_eq!(j["gtkw"], format!("{top}.gtkw"));
    let gtkw = out.join(format!("{top}.gtkw"));
    let trace = format!("TOP.{top}.ctrl.mode[1:0]");
    common::check_named(&gtkw, &trace, "hc_mode.txt", 2, "full");
    // The sequential controller's phase by name.
    let out = scratch("generate").join("rtl");
    let j = json(&lcanet(&[
        "generate",
        "hypercube",
        "--k",
        "2",
        "--payload-bits",
        "3",
        "--router",
        "sequential",
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]));
    let top = "hypercube_seq_k2_l3";
    assert_eq!(j["gtkw"], format!("{top}.gtkw"));
    let files = j["files"].as_array().unwrap();
    for f in [
        format!("{top}.gtkw"),
        "hc_phase.txt".into(),
        format!("{top}.f"),
    ] {
        assert!(files.contains(&f.clone().into()), "{f}: {j}");
        assert!(out.join(&f).is_file(), "{f}");
    }
    let gtkw = out.join(format!("{top}.gtkw"));
    let trace = format!("TOP.{top}.ctrl.phase[2:0]");
    common::check_named(&gtkw, &trace, "hc_phase.txt", 7, "rdv");
    common::check_named(&gtkw, &trace, "hc_phase.txt", 3, "enum2");
    // A 2-cube has 4 nodes: each has its group; buffers are vectors of M = k + L bits.
    let text = std::fs::read_to_string(&gtkw).unwrap();
    assert_eq!(text.matches("@800200\n-node ").count(), 4, "{text}");
    assert!(
        text.contains(&format!("TOP.{top}.node3.a[4:0]\n")),
        "{text}"
    );
}

#[test]
fn sim_hypercube_writes_a_save_file_that_fits_its_vcd() {
    let dir = scratch("sim");
    let vcd = dir.join("run.vcd");
    let j = json(&lcanet(&[
        "sim",
        "hypercube",
        "--k",
        "2",
        "--payload-bits",
        "3",
        "--seed",
        "11",
        "--vcd",
        vcd.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(j["match"], true, "{j}");
    let gtkw = PathBuf::from(j["gtkw"].as_str().unwrap());
    assert_eq!(gtkw, std::fs::canonicalize(&dir).unwrap().join("run.gtkw"));
    let text = common::check_gtkw_fits_vcd(&gtkw, &vcd, 60);
    assert!(text.contains(&format!("[dumpfile] \"{}\"", vcd.display())));
    common::check_named(
        &gtkw,
        "TOP.hypercube_k2_l3.ctrl.mode[1:0]",
        "hc_mode.txt",
        1,
        "semi",
    );
}
