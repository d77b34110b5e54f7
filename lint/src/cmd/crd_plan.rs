//! `kompat crd-plan OLD NEW`: the steps that remove CRD versions safely
//! (add the new version, flip storage to it, migrate objects and prune
//! `status.storedVersions`, then stop serving and remove the old one).
//! `kompat-crd` plans; the renderings are here (`render`).

use std::path::Path;
use std::process::ExitCode;

mod render;

use kompat_crd::{migration_plan, Crd, PlanError};
use kompat_project::{Error, Result};

use super::print_stdout;
use crate::cli::{CrdPlanArgs, PlanFormat};

pub fn run(args: CrdPlanArgs) -> Result<ExitCode> {
    let old = read_crds(&args.old)?;
    let new = read_crds(&args.new)?;
    let mut plans = Vec::new();
    for crd in &new {
        // Pair by name, then by kind, so that a renamed group or plural still pairs.
        let Some(before) =
            old.iter().find(|o| o.id() == crd.id()).or_else(|| old.iter().find(|o| o.kind.value == crd.kind.value))
        else {
            continue;
        };
        match migration_plan(before, crd) {
            Ok(plan) => plans.push(plan),
            Err(PlanError::NothingToRemove { .. }) => (),
            Err(err) => return Err(Error::in_file(&args.new, err.to_string())),
        }
    }
    if plans.is_empty() {
        return Err(Error::msg(format!(
            "nothing to remove: every version {} serves is still served by {}",
            args.old.display(),
            args.new.display()
        )));
    }
    let text: Vec<String> = plans
        .iter()
        .map(|plan| match args.format {
            PlanFormat::Text => render::text(plan),
            PlanFormat::Markdown => render::markdown(plan),
        })
        .collect();
    print_stdout(&text.join("\n"))?;
    Ok(ExitCode::SUCCESS)
}

fn read_crds(path: &Path) -> Result<Vec<Crd>> {
    let crds = super::lint::read_crds(path)?;
    if crds.is_empty() {
        return Err(Error::in_file(path, format!("{} holds no CustomResourceDefinition", path.display())));
    }
    Ok(crds)
}
