//! The `kompat` binary: lint, gen, features, export, apis, storage, hash.
//!
//! `main` only parses arguments and maps the outcome to an exit code; all work
//! happens in `run`. Only this crate knows about terminals, files and output
//! formats.

mod cli;
mod cmd;
mod lint;
mod report;

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
