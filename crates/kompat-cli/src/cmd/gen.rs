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
    // Validated by `render_outputs`, once.
    let decls = kompat_project::load_excluding(&config.decls, &config.exclude)?;
    let provenance = kompat_gen::cli_provenance(&config);
    let files = kompat_gen::render_outputs(&config, &decls, &provenance, None)?;
    let k8s_yaml = config
        .gen
        .as_ref()
        .is_some_and(|gen| gen.outputs.iter().any(|o| o.kind == kompat_project::config::OutputKind::K8sYaml));
    if let Some(note) = kompat_gen::k8s_yaml_note(&decls).filter(|_| k8s_yaml) {
        eprintln!("{note}");
    }

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
        if is_k8s_yaml(&config, &file.path) {
            // Kubernetes' verify-featuregates text, with the path as configured.
            out.push_str(&k8s_yaml_stale(&config, file));
            continue;
        }
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

fn is_k8s_yaml(config: &Config, path: &Path) -> bool {
    config.gen.as_ref().is_some_and(|gen| {
        gen.outputs.iter().any(|o| o.path == path && o.kind == kompat_project::config::OutputKind::K8sYaml)
    })
}

/// `detected diff in versioned feature list (PATH), diff: ` and the diff,
/// as Kubernetes' `feature-gates verify` reports a stale list.
fn k8s_yaml_stale(config: &Config, file: &kompat_gen::Stale) -> String {
    let written = config
        .gen
        .as_ref()
        .and_then(|gen| gen.outputs.iter().find(|o| o.path == file.path))
        .map_or_else(|| file.path.display().to_string(), |o| o.written.clone());
    format!("detected diff in versioned feature list ({written}), diff: \n{}", file.diff)
}

/// The command that regenerates the files, with `--config` as given.
fn fix_command(config: Option<&Path>) -> String {
    match config {
        Some(path) => format!("kompat gen --config {}", path.display()),
        None => "kompat gen".to_owned(),
    }
}
