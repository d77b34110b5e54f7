//! `kompat crd-plan OLD NEW`: the steps that remove CRD versions safely
//! (add the new version, flip storage to it, migrate objects and prune
//! `status.storedVersions`, then stop serving and remove the old one).
//! `kompat-crd` plans; the renderings are here (`render`).
//!
//! OLD and NEW are manifests or directories of them (read as `lint
//! --baseline` reads a directory), and must hold the same CRDs (paired by
//! `<plural>.<group>`): a CRD in one and not the other is an input error
//! (exit 2), located at its name.
//! When NEW still serves every version of OLD there is nothing to plan: one
//! line says so and the exit code is 0.

use std::path::Path;
use std::process::ExitCode;

mod render;

use kompat_crd::{migration_plan, Crd, PlanError};
use kompat_diag::Diagnostic;
use kompat_project::inputs::Kind;
use kompat_project::{Error, Result, SourceFile};

use super::write_or_print;
use crate::cli::{CrdPlanArgs, PlanFormat};

pub fn run(args: CrdPlanArgs) -> Result<ExitCode> {
    let (old_files, new_files) = (read_crds(&args.old)?, read_crds(&args.new)?);
    let (old, new) = (by_crd(&old_files), by_crd(&new_files));
    unpaired(&new, &old, "new")?;
    unpaired(&old, &new, "old")?;
    let mut plans = Vec::new();
    let mut unchanged = Vec::new();
    for (new_source, crd) in &new {
        let Some((_, before)) = old.iter().find(|(_, o)| o.id() == crd.id()) else { continue };
        match migration_plan(before, crd) {
            Ok(plan) => plans.push(plan),
            Err(PlanError::NothingToRemove { crd }) => unchanged.push(crd),
            Err(err) => return Err(Error::at(at_name(new_source, crd), err.to_string())),
        }
    }
    let mut text: Vec<String> = plans
        .iter()
        .map(|plan| match args.format {
            PlanFormat::Text => render::text(plan),
            PlanFormat::Markdown => render::markdown(plan),
        })
        .collect();
    for crd in unchanged {
        text.push(format!(
            "nothing to remove: `{crd}` in {} still serves every version it serves in {}\n",
            args.new.display(),
            args.old.display()
        ));
    }
    write_or_print(args.output.as_deref(), text.join("\n"))?;
    Ok(ExitCode::SUCCESS)
}

/// Refuses a CRD of `these` (the `which` manifest) that `others` does not
/// have: the plan is for two releases of the same CRDs.
fn unpaired(these: &[(&SourceFile, &Crd)], others: &[(&SourceFile, &Crd)], which: &str) -> Result<()> {
    let Some((source, crd)) = these.iter().find(|(_, c)| !others.iter().any(|(_, o)| o.id() == c.id())) else {
        return Ok(());
    };
    let ids: Vec<String> = others.iter().map(|(_, c)| c.id()).collect();
    let other = if which == "new" { "old" } else { "new" };
    let mut diag = Diagnostic::error(format!(
        "the {which} manifest's `{}` is not in the {other} manifest, which holds {}: `kompat crd-plan` compares two releases of the same CRD",
        crd.id(),
        kompat_crd::quoted_list(&ids)
    ))
    .at(at_name(source, crd));
    if let Some((other_source, first)) = others.first() {
        diag = diag.with_label(at_name(other_source, first), format!("the {other} manifest's CRD"));
    }
    Err(Error { diagnostics: vec![diag] })
}

/// The CRD's `metadata.name` (the document when it has none).
fn at_name(source: &SourceFile, crd: &Crd) -> kompat_diag::Location {
    source.locate(crd.name.span.start, crd.name.span.end)
}

/// Every CRD with its file.
fn by_crd(files: &[(SourceFile, Vec<Crd>)]) -> Vec<(&SourceFile, &Crd)> {
    files.iter().flat_map(|(source, crds)| crds.iter().map(move |crd| (source, crd))).collect()
}

/// The CRDs of a manifest, or of every CRD manifest under a directory (as
/// `lint --baseline` finds them), by file.
fn read_crds(path: &Path) -> Result<Vec<(SourceFile, Vec<Crd>)>> {
    let mut sources = Vec::new();
    if path.is_dir() {
        let classified = kompat_project::inputs::classify(std::slice::from_ref(&path.to_owned()))?;
        for input in classified.inputs {
            if input.kind == Kind::CrdManifest {
                sources.extend(input.into_source());
            }
        }
    } else {
        sources.push(SourceFile::read(path)?);
    }
    let mut out = Vec::new();
    for source in sources {
        let crds = kompat_crd::parse_manifests(&source.text).map_err(|errors| source.parse_errors(errors))?;
        out.push((source, crds));
    }
    if out.iter().all(|(_, crds)| crds.is_empty()) {
        return Err(Error::in_file(path, format!("{} holds no CustomResourceDefinition", path.display())));
    }
    Ok(out)
}
