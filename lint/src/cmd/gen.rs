//! `kompat gen`: writes every output configured in `kompat.toml`, or with
//! `--check` compares them with the files on disk and exits 1 when one is
//! stale, printing its diff and the command that fixes it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use kompat_project::{Config, Result};

use super::print_stdout;
use crate::cli::GenArgs;

pub fn run(args: GenArgs) -> Result<ExitCode> {
    let config_path: PathBuf = args.config.clone().unwrap_or_else(|| PathBuf::from(kompat_project::config::FILE_NAME));
    let config = Config::load(&config_path)?;
    for path in config.outside_project(&config.decls) {
        eprintln!("note: reading declarations from outside the project: {}", path.display());
    }
    let decls = kompat_project::load(&config.decls)?;
    decls.validate_strict()?;
    let provenance = kompat_gen::cli_provenance(&config);
    let files = kompat_gen::render_outputs(&config, &decls, &provenance, None)?;

    if !args.check {
        let report = kompat_gen::write_files(&files).map_err(kompat_gen::file_error)?;
        for path in &report.written {
            eprintln!("wrote {}", path.display());
        }
        return Ok(ExitCode::SUCCESS);
    }

    let stale = kompat_gen::check_files(&files).map_err(kompat_gen::file_error)?;
    if stale.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = String::new();
    for file in &stale {
        let state = if file.missing { "missing" } else { "stale" };
        out.push_str(&format!("{} is {state}:\n{}", file.path.display(), file.diff));
    }
    print_stdout(&out)?;
    let count = match stale.len() {
        1 => "1 generated file is".to_owned(),
        n => format!("{n} generated files are"),
    };
    eprintln!("error: {count} out of date; run `{}` and commit the result", fix_command(args.config.as_deref()));
    Ok(ExitCode::from(1))
}

/// The command that regenerates the files, with `--config` as given.
fn fix_command(config: Option<&Path>) -> String {
    match config {
        Some(path) => format!("kompat gen --config {}", path.display()),
        None => "kompat gen".to_owned(),
    }
}
