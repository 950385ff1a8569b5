//! `lcanet`: generate RTL for interconnection networks and co-simulate it against
//! golden models. This file only parses arguments and maps outcomes to exit codes;
//! each subcommand lives in its own module under `cli/`.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    restore_sigpipe();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(cli::Outcome::Success) => ExitCode::SUCCESS,
        Ok(cli::Outcome::Mismatch) => ExitCode::from(cli::EXIT_MISMATCH),
        Err(err) => {
            eprintln!("error: {err}");
            for cause in err.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
            ExitCode::from(cli::EXIT_ERROR)
        }
    }
}

/// Rust ignores SIGPIPE, so printing into a closed pipe (`lcanet schedule ... | head`)
/// would panic; restore the default disposition so the process ends quietly, like other
/// command-line tools.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
