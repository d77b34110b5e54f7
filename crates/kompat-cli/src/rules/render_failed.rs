//! `render-failed`: a Helm chart or kustomize directory that `[render]`
//! configures a renderer for did not render (the renderer exited
//! unsuccessfully, ran past the time limit, wrote more than the output cap,
//! or the chart's dependencies are not built), so its objects were not
//! checked. Never an input error: a broken chart in a pull request is a
//! finding, not a stop.

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::{Diagnostic, Location};

declare_rule! {
    /// ### What it does
    ///
    /// Reports each Helm chart and kustomize directory whose render failed: `helm template` or `kubectl kustomize` (as `[render]` in kompat.toml configures them) exited unsuccessfully, ran longer than `timeout_seconds`, wrote more than `max_output_mib`, or rendered a CRD kompat cannot read; a chart whose `Chart.yaml` lists dependencies missing from its `charts/` directory is not rendered at all (`helm dependency build` needs the network, which renders never have). The finding is at the `Chart.yaml` or kustomization file, its notes the renderer's first lines of standard error. The subject is the directory.
    ///
    /// ### Why is this bad?
    ///
    /// Nothing the chart or overlay would deploy was checked: a removed API version in it passes unseen. A render that needs the network (a remote kustomize resource, an unbuilt dependency) is not reproducible in CI either.
    ///
    /// ### Example
    ///
    /// ```toml
    /// # config/default/kustomization.yaml
    /// resources:
    /// - https://github.com/example/widgets/config/crd?ref=v1.0.0
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # vendor the remote base into the repository
    /// resources:
    /// - ../crd
    /// ```
    pub RENDER_FAILED: Warning, "a Helm chart or kustomize directory did not render"
}

pub static PASS: Pass = Pass { rules: &[&RENDER_FAILED], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    findings(&cx.unrendered.failed, out);
}

/// One finding per failed render.
fn findings(failed: &[crate::RenderFailure], out: &mut Vec<Diagnostic>) {
    for failure in failed {
        let mut notes: Vec<String> = failure.stderr.iter().map(|line| format!("{}: {line}", failure.command)).collect();
        notes.push("its objects were not checked".to_owned());
        out.push(
            RENDER_FAILED
                .diag(
                    format!("`{}` did not render: {}", failure.dir.display(), failure.reason),
                    Some(Location::file(&failure.file)),
                )
                .with_subject(failure.dir.display().to_string())
                .with_notes(notes),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::check;

    #[test]
    fn a_chart_whose_dependencies_are_not_built() {
        check(
            r##"
//- kompat.toml
[render]
helm = "helm"
//- chart/Chart.yaml
#! warning[render-failed]: `chart` did not render: the chart's dependencies are not in its `charts/` directory (`postgresql`); kompat does not fetch them (`helm dependency build` needs the network)
apiVersion: v2
name: web
version: 0.1.0
dependencies:
  - name: postgresql
    version: 16.x.x
    repository: oci://registry.example.com/charts
//- chart/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
"##,
        );
    }

    #[test]
    fn each_failure_is_one_finding_with_the_renderers_lines() {
        let failed = [crate::RenderFailure {
            dir: "charts/web".into(),
            file: "charts/web/Chart.yaml".into(),
            command: "helm".to_owned(),
            reason: "it exited with status 1".to_owned(),
            stderr: vec!["Error: parse error at (web/templates/x.yaml:3)".to_owned()],
        }];
        let mut out = Vec::new();
        findings(&failed, &mut out);
        let shown: Vec<String> = out
            .iter()
            .map(|d| format!("{} {:?} {:?}", d.message, d.location.as_ref().map(|l| l.display()), d.notes))
            .collect();
        assert_eq!(
            shown,
            [
                r#"`charts/web` did not render: it exited with status 1 Some("charts/web/Chart.yaml") ["helm: Error: parse error at (web/templates/x.yaml:3)", "its objects were not checked"]"#
            ]
        );
    }
}
