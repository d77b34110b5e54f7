//! `kompat plan PLAN --decls APIS [--decls FEATURES]`: simulates an upgrade
//! plan of HA API servers step by step (storage agreement, data-loss risk,
//! migrations, the StorageState tracker, rollback safety, version skew and
//! feature-gate changes). Exit 0 when safe, 1 on an error-level finding, 2 on
//! malformed input. The plan format is documented in `docs/plan.md` and parsed
//! by `kompat_formats::plan`.

mod render;

use std::process::ExitCode;
use std::sync::Arc;

use kompat_diag::Diagnostic;
use kompat_engine::plan::simulate;
use kompat_project::{Error, Result, SourceFile};

use super::write_or_print;
use crate::cli::{PlanArgs, UpgradePlanFormat};

pub fn run(args: PlanArgs) -> Result<ExitCode> {
    let source = SourceFile::read(&args.plan)?;
    let parsed = kompat_formats::plan::parse_plan(&source.text).map_err(|errors| source.parse_errors(errors))?;
    if args.decls.is_empty() {
        return Err(Error::msg("no declarations: pass --decls PATH with the API declarations"));
    }
    let decls = kompat_project::load(&args.decls)?;
    if !decls.has_apis() {
        return Err(Error::msg(format!(
            "no API declarations in {}: `kompat plan` needs [[api]] entries",
            args.decls.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        )));
    }
    let apis = decls.api_set()?;
    let features = if decls.features().is_empty() { None } else { Some(Arc::new(decls.validate_strict()?.set)) };

    let known = apis.resources();
    let unknown: Vec<Diagnostic> = parsed
        .resources()
        .iter()
        .filter(|(gr, _)| !known.contains(gr))
        .map(|(gr, span)| {
            Diagnostic::error(format!("no API declaration serves resource `{gr}` (group `{}`)", gr.group))
                .at(Some(source.locate(span.start, span.end)))
        })
        .collect();
    if !unknown.is_empty() {
        return Err(Error { diagnostics: unknown });
    }

    // Each finding at its rule's severity, or at what `[lint.levels]` in
    // kompat.toml makes it.
    let config = kompat_project::Config::discover(None)?;
    let levels = kompat_cli::config::LintPolicy::from_config(config.as_ref(), &kompat_cli::rules::all())?;
    let report = render::Report::new(simulate(parsed.plan(), &apis, features.as_deref()), |kind| {
        levels.level(kompat_cli::rules::plan::rule_of(kind))
    });
    let name = args.plan.display().to_string();
    let text = match args.format {
        UpgradePlanFormat::Human => {
            let lines: Vec<String> = (0..parsed.plan().steps.len())
                .filter_map(|step| parsed.step_span(step))
                .map(|span| {
                    let (line, col) = source.lines().line_col(span.start);
                    format!("{line}:{col}")
                })
                .collect();
            render::human(&name, &report, &lines)
        }
        UpgradePlanFormat::Json => render::json(&name, &report)?,
        UpgradePlanFormat::Markdown => render::markdown(&name, &report),
    };
    write_or_print(args.output.as_deref(), text)?;
    Ok(if report.is_safe() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
