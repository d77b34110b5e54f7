//! One module per subcommand; `run` dispatches.

mod api;
mod complete;
mod crd_plan;
mod diff;
pub mod explain;
mod export;
mod features;
mod findings;
mod gen;
mod init;
mod lint;
mod plan;

use std::path::PathBuf;
use std::process::ExitCode;

use kompat_diag::Diagnostic;
use kompat_project::{Config, Decls, Error, Result};
use kompat_runtime::{Version, WindowPolicy};

use kompat_cli::io::{
    flag_range, flag_version, print_stdout, print_stdout_with, write_file, write_file_with, write_or_print,
};

use crate::cli::{Cli, Command, DeclArgs, VersionArgs};

pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Features(args) => features::run(args),
        Command::Export(args) => export::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Apis(args) => api::run_apis(args),
        Command::Storage(args) => api::run_storage(args),
        Command::Hash(args) => api::run_hash(args),
        Command::CrdPlan(args) => crd_plan::run(args),
        Command::Plan(args) => plan::run(args),
        Command::Lint(args) => lint::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Explain(args) if args.list => explain::list(),
        Command::Explain(args) => explain::run(args),
        Command::Completions(args) => complete::completions(args),
        Command::Manpage(args) => complete::manpage(args),
        Command::Init(args) => init::run(args),
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
    let exclude = exclude(config.as_ref(), &args.exclude)?;
    let decls = kompat_project::load_excluding(&paths, &exclude)?;
    Ok(Project { config, decls })
}

/// The paths walks leave out: `exclude` in kompat.toml (relative to its
/// directory) and `--exclude` (relative to the working directory).
pub fn exclude(config: Option<&Config>, globs: &[String]) -> Result<kompat_project::Exclude> {
    let mut exclude = config.map(|c| c.exclude.clone()).unwrap_or_default();
    exclude
        .add(std::path::Path::new("."), globs.iter().map(String::as_str))
        .map_err(|(glob, why)| Error::msg(format!("bad glob `{glob}` in --exclude: {why}")))?;
    Ok(exclude)
}

/// Renders a value as the deterministic JSON the contract asks for.
pub fn to_json<T: serde::Serialize>(value: &T) -> Result<String> {
    let mut text =
        serde_json::to_string_pretty(value).map_err(|err| Error::msg(format!("cannot render JSON: {err}")))?;
    text.push('\n');
    Ok(text)
}

/// Left-aligned columns separated by two spaces, no trailing blanks.
pub fn render_table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cols: Vec<&str>| {
        let padded: Vec<String> = cols.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        out.push_str(padded.join("  ").trim_end());
        out.push('\n');
    };
    line(header.to_vec());
    for row in rows {
        line(row.iter().map(String::as_str).collect());
    }
    out
}

/// The versions a command works at.
pub struct Versions {
    pub binary: Option<Version>,
    pub emulation: Version,
    pub min_compatibility: Version,
}

/// Emulation and min-compatibility versions from the flags. With a binary
/// version (flag, or kompat.toml) the window is enforced with Kubernetes'
/// messages and emulation defaults to the binary version; without one the
/// emulation version is required and min-compatibility defaults to it - 1.
pub fn resolve_versions(config: Option<&Config>, args: &VersionArgs) -> Result<Versions> {
    let parse = |flag, value: &Option<String>| value.as_deref().map(|v| flag_version(flag, v)).transpose();
    let emulation = parse("emulation-version", &args.emulation_version)?;
    let min_compat = parse("min-compatibility-version", &args.min_compatibility_version)?;
    let binary = parse("binary-version", &args.binary_version)?.or(config.and_then(|c| c.binary_version));
    let window = config.map_or(WindowPolicy::DEFAULT, |c| c.window);
    match binary {
        Some(binary) => {
            let effective = window
                .resolve(binary, emulation, min_compat)
                .map_err(|errors| Error { diagnostics: errors.into_iter().map(Diagnostic::error).collect() })?;
            Ok(Versions {
                binary: Some(binary),
                emulation: effective.emulation,
                min_compatibility: effective.min_compatibility,
            })
        }
        None => {
            let emulation = emulation.ok_or_else(|| {
                Error::msg("missing --emulation-version (or a binary version from --binary-version or kompat.toml)")
            })?;
            Ok(Versions {
                binary: None,
                emulation,
                min_compatibility: min_compat.unwrap_or_else(|| emulation.subtract_minor(1)),
            })
        }
    }
}

/// `n word` or `n words`, for the summaries people read.
pub fn count(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}
