//! `lcanet`: generate RTL for interconnection networks and co-simulate it against
//! golden models. This file only parses arguments and maps outcomes to exit codes;
//! each subcommand lives in its own module under `cli/`.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    restore_sigpipe();
    let _ = cli::common::INVOCATION.set(
        std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
    );
    // clap exits with 2 on a usage error, which is this tool's "verification failed"
    // code; a bad command line is an error (1), as README states. Help and version go to
    // stdout with 0.
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(err) => {
            let _ = err.print();
            return if err.use_stderr() {
                ExitCode::from(cli::EXIT_ERROR)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli::run(args) {
        Ok(cli::Outcome::Success) => ExitCode::SUCCESS,
        Ok(cli::Outcome::Mismatch) => ExitCode::from(cli::EXIT_MISMATCH),
        Err(err) => {
            // Many errors already quote their cause in their own message (`…: {source}`);
            // a cause whose text the previous line contains is not repeated.
            let mut shown = err.to_string();
            eprintln!("error: {shown}");
            for cause in err.chain().skip(1) {
                let text = cause.to_string();
                if !shown.contains(&text) {
                    eprintln!("  caused by: {text}");
                }
                shown = text;
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
