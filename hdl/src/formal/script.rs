//! The Yosys scripts that prove one property of a switch with its harness
//! ([`super::harness()`]). Both read the switch's Verilog as `generate switch` writes it,
//! make the internal signals the harness reads ports of the switch (`expose`), read the
//! harness with `-formal` and the property's macro, and flatten:
//!
//! - [`induction_script`]: `sat -tempinduct` proves the property and the auxiliary
//!   invariants (macro `AUX`) together by k-induction, k = 1 … `max_k`, from the power-up
//!   state (every register of the switch and of the harness powers up at zero:
//!   `-set-init-zero`);
//! - [`bmc_script`]: `sat -seq` looks for a counterexample to the property alone within
//!   `depth` bit-times of power-up and writes it as a VCD.

use super::harness::{Property, EXPOSED};

/// The files a script reads and writes, relative to the directory Yosys runs in.
#[derive(Debug, Clone)]
pub struct ScriptFiles {
    /// The switch's Verilog file.
    pub switch_file: String,
    /// The switch module's name.
    pub switch_top: String,
    /// The harness file.
    pub harness_file: String,
    /// The harness module's name.
    pub harness_top: String,
    /// Where `sat` writes a counterexample.
    pub vcd: String,
}

fn prologue(f: &ScriptFiles, defines: &[&str]) -> String {
    let exposed: Vec<String> = EXPOSED
        .iter()
        .map(|n| format!("{}/{n}", f.switch_top))
        .collect();
    let defs: Vec<String> = defines.iter().map(|d| format!("-D{d}")).collect();
    format!(
        "read_verilog {sw}\n\
         hierarchy -top {top}\n\
         proc\n\
         expose {exposed}\n\
         read_verilog -formal {defs} {harness}\n\
         prep -flatten -top {htop}\n",
        sw = f.switch_file,
        top = f.switch_top,
        exposed = exposed.join(" "),
        defs = defs.join(" "),
        harness = f.harness_file,
        htop = f.harness_top,
    )
}

/// The k-induction proof of `prop` with the auxiliary invariants.
pub fn induction_script(f: &ScriptFiles, prop: Property, max_k: usize) -> String {
    format!(
        "{}sat -tempinduct -prove-asserts -set-assumes -set-init-zero -maxsteps {max_k} -show-public -dump_vcd {}\n",
        prologue(f, &[prop.define(), "AUX"]),
        f.vcd
    )
}

/// The search for a witness (harness macro `CHECK_WITNESS`), `depth` bit-times deep: a
/// trace the assumptions allow in which crosspoints of every kind close, a commit
/// forwards a granted packet and `PASS` carries data. Found means the assumptions are not
/// vacuous.
pub fn witness_script(f: &ScriptFiles, depth: usize) -> String {
    format!(
        "{}sat -seq {depth} -prove-asserts -set-assumes -set-init-zero -show-public -dump_vcd {}\n",
        prologue(f, &["CHECK_WITNESS"]),
        f.vcd
    )
}

/// The bounded search for a counterexample to `prop` alone, `depth` bit-times deep.
pub fn bmc_script(f: &ScriptFiles, prop: Property, depth: usize) -> String {
    format!(
        "{}sat -seq {depth} -prove-asserts -set-assumes -set-init-zero -show-public -dump_vcd {}\n",
        prologue(f, &[prop.define()]),
        f.vcd
    )
}
