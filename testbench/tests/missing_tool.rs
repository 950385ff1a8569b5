//! A missing or wrong tool is an error that says "run scripts/setup" (never a silent pass).
//! One test in its own binary: it changes process environment variables.

use std::os::unix::fs::PermissionsExt;

use lcanet_testbench::tools::{locate, Tool, ToolError};

#[test]
fn missing_or_wrong_tools_say_run_scripts_setup() {
    let dir = tempfile::tempdir().unwrap();
    // SAFETY (edition 2021: safe fn): this binary runs this single test, no other thread.
    std::env::set_var("LCANET_YOSYS", dir.path().join("no-yosys"));
    let err = locate(Tool::Yosys).unwrap_err();
    assert!(matches!(err, ToolError::Missing { tool: "yosys", .. }));
    assert!(err.to_string().ends_with("run scripts/setup"), "{err}");
    let err = lcanet_testbench::tools::yosys::synth(&["x.v"], "x").unwrap_err();
    assert!(err.to_string().contains("run scripts/setup"), "{err}");
    std::env::remove_var("LCANET_YOSYS");

    let fake = dir.path().join("verilator");
    std::fs::write(&fake, "#!/bin/sh\necho 'Verilator 5.006 2023-01-22'\n").unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::env::set_var("LCANET_VERILATOR", &fake);
    let err = locate(Tool::Verilator).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, ToolError::WrongVersion { .. }), "{msg}");
    assert!(
        msg.contains("Verilator 5.006") && msg.contains("Verilator 5.048"),
        "{msg}"
    );
    assert!(msg.contains("run scripts/setup"), "{msg}");
    std::env::set_var("LCANET_VERILATOR", dir.path().join("absent"));
    let err = lcanet_testbench::tools::lint::lint(&["x.v"], "x").unwrap_err();
    assert!(err.to_string().contains("run scripts/setup"), "{err}");
    std::env::remove_var("LCANET_VERILATOR");
    // The pinned one is found again.
    locate(Tool::Verilator).unwrap();
}
