//! One module per subcommand; `run` dispatches.

mod export;
mod features;
mod gen;

use std::path::PathBuf;
use std::process::ExitCode;

use kompat_core::Version;
use kompat_project::{Config, Decls, Error, Result};

use crate::cli::{Cli, Command, DeclArgs};

pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Features(args) => features::run(args),
        Command::Export(args) => export::run(args),
        Command::Gen(args) => gen::run(args),
    }
}

/// The configuration and declarations a command works on.
pub struct Project {
    pub config: Option<Config>,
    pub decls: Decls,
}

/// Loads the configuration, then the declarations named on the command line
/// or, failing that, in the configuration.
pub fn load_project(args: &DeclArgs) -> Result<Project> {
    let config = Config::discover(args.config.as_deref())?;
    let paths: Vec<PathBuf> = if !args.decls.is_empty() {
        args.decls.clone()
    } else if let Some(c) = config.as_ref().filter(|c| !c.decls.is_empty()) {
        c.decls.clone()
    } else {
        return Err(Error::msg("no declarations: pass --decls PATH or set `decls` in kompat.toml"));
    };
    let decls = kompat_project::load(&paths)?;
    Ok(Project { config, decls })
}

/// Parses a version given in a flag (`1.31`, `v1.31`, `1.31.0`).
pub fn flag_version(flag: &str, value: &str) -> Result<Version> {
    Version::parse_flag(value).map_err(|err| Error::msg(format!("invalid value for --{flag}: {err}")))
}

/// Writes `text` to stdout; a closed pipe is not an error.
pub fn print_stdout(text: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(err) => Err(Error::msg(format!("cannot write to stdout: {err}"))),
    }
}

/// Renders a value as the deterministic JSON the contract asks for.
pub fn to_json<T: serde::Serialize>(value: &T) -> Result<String> {
    let mut text =
        serde_json::to_string_pretty(value).map_err(|err| Error::msg(format!("cannot render JSON: {err}")))?;
    text.push('\n');
    Ok(text)
}
