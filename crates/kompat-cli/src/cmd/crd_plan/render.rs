//! The CRD migration plan (`kompat_crd::MigrationPlan`) for people: Markdown
//! with a checklist per step, and plain text for terminals.

use std::fmt::Write as _;

use kompat_crd::{quoted_list, MigrationPlan, MigrationState};

fn heading(plan: &MigrationPlan) -> String {
    format!("Removing {} from `{}`", quoted_list(&plan.remove), plan.crd)
}

fn summary(plan: &MigrationPlan) -> String {
    let storage = match &plan.current {
        Some(current) if *current == plan.target => format!("the storage version is already `{current}`"),
        Some(current) => format!("the storage version is `{current}` and becomes `{}`", plan.target),
        None => format!("the storage version becomes `{}`", plan.target),
    };
    format!("Kind `{}`, group `{}`, resource `{}`; {storage}.", plan.kind, plan.group, plan.plural)
}

/// The plan as Markdown.
pub fn markdown(plan: &MigrationPlan) -> String {
    let mut out = format!("# {}\n\n{}\n", heading(plan), summary(plan));
    for (i, step) in plan.steps.iter().enumerate() {
        let done = if step.state == MigrationState::Done { " (done in the old manifest)" } else { "" };
        let _ = write!(out, "\n## {}. {}{done}\n\nDo:\n\n", i + 1, step.title);
        for action in &step.actions {
            let _ = writeln!(out, "- {}", action.text);
            if let Some(manifest) = &action.manifest {
                let _ = write!(out, "\n  ```yaml\n");
                for line in manifest.lines() {
                    let _ = writeln!(out, "  {line}");
                }
                out.push_str("  ```\n\n");
            }
        }
        out.push_str("\nVerify:\n\n");
        for check in &step.verify {
            let _ = writeln!(out, "- [ ] {check}");
        }
    }
    out
}

/// The plan as plain text, for terminals.
pub fn text(plan: &MigrationPlan) -> String {
    let strip = |s: &str| s.replace('`', "");
    let mut out = format!("{}\n{}\n", strip(&heading(plan)), strip(&summary(plan)));
    for (i, step) in plan.steps.iter().enumerate() {
        let done = if step.state == MigrationState::Done { " [done in the old manifest]" } else { "" };
        let _ = write!(out, "\nstep {}: {}{done}\n", i + 1, strip(&step.title));
        for action in &step.actions {
            let _ = writeln!(out, "  - {}", strip(&action.text));
            for line in action.manifest.iter().flat_map(|m| m.lines()) {
                let _ = writeln!(out, "      {line}");
            }
        }
        out.push_str("  verify:\n");
        for check in &step.verify {
            let _ = writeln!(out, "  - {}", strip(check));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use kompat_crd::{migration_plan, parse_manifests, Crd};

    use super::*;

    /// The one CRD of a fixture under `fixtures/crd/`.
    fn crd(rel: &str) -> Crd {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/crd").join(rel);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        match parse_manifests(&text).map(|mut crds| crds.pop()) {
            Ok(Some(crd)) => crd,
            Ok(None) => panic!("{rel}: no CRD"),
            Err(errors) => panic!("{rel}: {errors:?}"),
        }
    }

    fn plan(dir: &str) -> MigrationPlan {
        let (old, new) = (crd(&format!("upgrade/{dir}/old.yaml")), crd(&format!("upgrade/{dir}/new.yaml")));
        migration_plan(&old, &new).unwrap_or_else(|e| panic!("{dir}: {e}"))
    }

    #[test]
    fn removing_the_storage_version() {
        let plan = plan("remove-v1alpha1");
        insta::assert_snapshot!("remove_v1alpha1_markdown", markdown(&plan));
        insta::assert_snapshot!("remove_v1alpha1_text", text(&plan));
    }

    #[test]
    fn steps_already_taken_are_marked_done() {
        insta::assert_snapshot!("stored_version_removed_markdown", markdown(&plan("stored-version-removed")));
    }
}
