//! The `kompat` binary: lint, gen, features, export, apis, storage, hash.
//!
//! `main` only parses arguments and maps the outcome to an exit code; all work
//! happens in `cmd::run`. The lint engine is this package's library
//! (`kompat_cli`); only this binary knows about terminals and output formats.

mod cli;
mod cmd;
mod output;
mod report;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    // `--color always|never` overrides the environment; `auto` leaves the
    // choice to anstream (NO_COLOR, CLICOLOR, CLICOLOR_FORCE, terminal).
    match args.color {
        cli::ColorArg::Always => colorchoice::ColorChoice::Always.write_global(),
        cli::ColorArg::Never => colorchoice::ColorChoice::Never.write_global(),
        cli::ColorArg::Auto => {
            // CLICOLOR_FORCE forces colour only when it is not "0" (its
            // spec); anstream counts any non-empty value, so a "0" is
            // dropped before it looks.
            if std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| v == "0") {
                std::env::remove_var("CLICOLOR_FORCE");
            }
        }
    }
    match cmd::run(args) {
        Ok(code) => code,
        Err(err) => {
            report::print_error(&err);
            ExitCode::from(2)
        }
    }
}
