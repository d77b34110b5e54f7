//! `kompat features`: every declared feature resolved at (emulation,
//! min-compatibility), with `--feature-gates` applied.

use std::process::ExitCode;
use std::sync::Arc;

use kompat_core::{FeatureGate, Version, WindowPolicy};
use kompat_project::{Error, Result};
use serde::Serialize;

use super::{flag_version, load_project, print_stdout, to_json};
use crate::cli::{FeaturesArgs, FeaturesFormat, VersionArgs};

#[derive(Serialize)]
struct Row<'a> {
    name: &'a str,
    stage: &'static str,
    default: bool,
    locked: bool,
    enabled: bool,
}

pub fn run(args: FeaturesArgs) -> Result<ExitCode> {
    let project = load_project(&args.decls)?;
    let validated = project.decls.validate_strict()?;
    let config_binary = project.config.as_ref().and_then(|c| c.binary_version);
    let window = project.config.as_ref().map_or(WindowPolicy::DEFAULT, |c| c.window);
    let (emulation, min_compat) = effective_versions(&args.versions, config_binary, window)?;

    let mut gate = FeatureGate::new(Arc::new(validated.set), emulation, Some(min_compat));
    for value in &args.feature_gates {
        let warnings = gate.set(value).map_err(|err| Error::msg(err.to_string()))?;
        for warning in warnings {
            eprintln!("warning: {warning}");
        }
    }

    let mut rows: Vec<Row<'_>> = gate
        .feature_set()
        .features()
        .iter()
        .enumerate()
        .map(|(idx, feature)| {
            let state = gate.state(idx);
            Row {
                name: &feature.name,
                stage: state.spec.stage.name(),
                default: state.spec.default,
                locked: state.spec.lock_to_default,
                enabled: state.enabled,
            }
        })
        .collect();
    rows.sort_by(|a, b| a.name.cmp(b.name));

    let text = match args.format {
        FeaturesFormat::Json => to_json(&rows)?,
        FeaturesFormat::Table => table(&rows),
    };
    print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// Emulation and min-compatibility versions from the flags, validated against
/// the window when a binary version is known.
pub fn effective_versions(
    args: &VersionArgs,
    config_binary: Option<Version>,
    window: WindowPolicy,
) -> Result<(Version, Version)> {
    let parse = |flag, value: &Option<String>| value.as_deref().map(|v| flag_version(flag, v)).transpose();
    let emulation = parse("emulation-version", &args.emulation_version)?;
    let min_compat = parse("min-compatibility-version", &args.min_compatibility_version)?;
    let binary = parse("binary-version", &args.binary_version)?.or(config_binary);
    match binary {
        Some(binary) => {
            let effective = window
                .resolve(binary, emulation, min_compat)
                .map_err(|errors| Error { failures: errors.into_iter().map(failure).collect() })?;
            Ok((effective.emulation, effective.min_compatibility))
        }
        None => {
            let emulation = emulation.ok_or_else(|| {
                Error::msg("missing --emulation-version (or a binary version from --binary-version or kompat.toml)")
            })?;
            Ok((emulation, min_compat.unwrap_or_else(|| emulation.subtract_minor(1))))
        }
    }
}

fn failure(message: String) -> kompat_project::Failure {
    kompat_project::Failure { message, location: None }
}

fn table(rows: &[Row<'_>]) -> String {
    let header = ["NAME", "STAGE", "DEFAULT", "LOCKED", "ENABLED"];
    let cells: Vec<[String; 5]> = rows
        .iter()
        .map(|r| {
            [r.name.to_owned(), r.stage.to_owned(), r.default.to_string(), r.locked.to_string(), r.enabled.to_string()]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &cells {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let mut out = String::new();
    let mut line = |cols: [&str; 5]| {
        let padded: Vec<String> = cols.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
        out.push_str(padded.join("  ").trim_end());
        out.push('\n');
    };
    line(header);
    for row in &cells {
        line([&row[0], &row[1], &row[2], &row[3], &row[4]]);
    }
    out
}
