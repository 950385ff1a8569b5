//! The Yosys scripts that prove one property of a block with its harness. Each reads the
//! block's Verilog as the generator writes it, makes the internal signals the harness
//! reads ports of the block (`expose`), reads the harness with `-formal` and the
//! property's macro, and flattens:
//!
//! - [`induction_script`]: `sat -tempinduct` proves the property and the auxiliary
//!   invariants (macro `AUX`) together by k-induction, k = 1 … `max_k`, from the power-up
//!   state (every register of the block and of the harness powers up at zero:
//!   `-set-init-zero`);
//! - [`bmc_script`]: `sat -seq` looks for a counterexample to the property alone within
//!   `depth` bit-times of power-up and writes it as a VCD;
//! - [`witness_script`]: the same search for the harness's witness (`CHECK_WITNESS`).

/// The files a script reads and writes, relative to the directory Yosys runs in.
#[derive(Debug, Clone)]
pub struct ScriptFiles {
    /// The block's Verilog files (its module and any it instantiates).
    pub block_files: Vec<String>,
    /// The block module's name.
    pub block_top: String,
    /// Internal signals of the block module the harness reads (made ports).
    pub exposed: Vec<String>,
    /// Verilog files of modules the harness instantiates beside the block (read after
    /// the block's signals are exposed; the hypercube node's controller).
    pub support_files: Vec<String>,
    /// The harness file.
    pub harness_file: String,
    /// The harness module's name.
    pub harness_top: String,
    /// Where `sat` writes a counterexample.
    pub vcd: String,
}

fn prologue(f: &ScriptFiles, defines: &[&str]) -> String {
    let exposed: Vec<String> = f
        .exposed
        .iter()
        .map(|n| format!("{}/{n}", f.block_top))
        .collect();
    let expose = if exposed.is_empty() {
        String::new()
    } else {
        format!("expose {}\n", exposed.join(" "))
    };
    let support = if f.support_files.is_empty() {
        String::new()
    } else {
        format!("read_verilog {}\n", f.support_files.join(" "))
    };
    let defs: Vec<String> = defines.iter().map(|d| format!("-D{d}")).collect();
    format!(
        "read_verilog {files}\n\
         hierarchy -top {top}\n\
         proc\n\
         {expose}\
         {support}\
         read_verilog -formal {defs} {harness}\n\
         prep -flatten -top {htop}\n",
        files = f.block_files.join(" "),
        top = f.block_top,
        defs = defs.join(" "),
        harness = f.harness_file,
        htop = f.harness_top,
    )
}

/// The k-induction proof of the property enabled by `define`, with the auxiliary
/// invariants.
pub fn induction_script(f: &ScriptFiles, define: &str, max_k: usize) -> String {
    format!(
        "{}sat -tempinduct -prove-asserts -set-assumes -set-init-zero -maxsteps {max_k} -show-public -dump_vcd {}\n",
        prologue(f, &[define, "AUX"]),
        f.vcd
    )
}

/// The search for a witness (harness macro `CHECK_WITNESS`), `depth` bit-times deep: a
/// trace the assumptions allow in which the block does what its properties speak about.
/// Found means the assumptions are not vacuous.
pub fn witness_script(f: &ScriptFiles, depth: usize) -> String {
    format!(
        "{}sat -seq {depth} -prove-asserts -set-assumes -set-init-zero -show-public -dump_vcd {}\n",
        prologue(f, &["CHECK_WITNESS"]),
        f.vcd
    )
}

/// The bounded search for a counterexample to the assertions the macros `defines` enable
/// (a property alone; with `AUX` too, a bounded proof of the property and its invariants
/// together), `depth` bit-times deep.
pub fn bmc_script(f: &ScriptFiles, defines: &[&str], depth: usize) -> String {
    format!(
        "{}sat -seq {depth} -prove-asserts -set-assumes -set-init-zero -show-public -dump_vcd {}\n",
        prologue(f, defines),
        f.vcd
    )
}
