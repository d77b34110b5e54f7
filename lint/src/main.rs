//! The `kompat` binary: lint, gen, features, export, apis, storage, hash.
//!
//! `main` only parses arguments and maps the outcome to an exit code; all work
//! happens in `cmd::run`. The lint engine is this package's library
//! (`kompat_lint`); only this binary knows about terminals and output formats.

mod cli;
mod cmd;
mod output;
mod report;

/// The shared mutator of every parser's fuzz test, for the plan parser's.
#[cfg(test)]
#[path = "../../decls/tests/mutate/mod.rs"]
mod mutate;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cmd::run(args) {
        Ok(code) => code,
        Err(err) => {
            report::print_error(&err);
            ExitCode::from(2)
        }
    }
}
