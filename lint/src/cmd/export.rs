//! `kompat export`: the declarations in one rendering.

use std::collections::HashSet;
use std::process::ExitCode;

use kompat_core::{FeatureDecl, WindowPolicy};
use kompat_project::config::OutputKind;
use kompat_project::{Diagnostic, Error, Result};
use serde::Serialize;

use super::{load_project, print_stdout, to_json, Project};
use crate::cli::{ExportArgs, ExportFormat};

#[derive(Serialize)]
struct JsonDecls<'a> {
    features: Vec<JsonFeature<'a>>,
}

#[derive(Serialize)]
struct JsonFeature<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    dependencies: Vec<&'a str>,
    specs: Vec<JsonSpec>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonSpec {
    version: Option<String>,
    stage: &'static str,
    default: bool,
    lock_to_default: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    min_compatibility_version: Option<String>,
}

pub fn run(args: ExportArgs) -> Result<ExitCode> {
    let project = load_project(&args.decls)?;
    project.decls.validate_strict()?;
    let features = unique(project.decls.features());
    let text = match args.format {
        ExportFormat::K8sYaml => kompat_decls::render_k8s_yaml(&features),
        ExportFormat::Json => to_json(&json(&features))?,
        ExportFormat::Markdown => generated(&project, &features, OutputKind::Markdown, "markdown")?,
        ExportFormat::Rust => generated(&project, &features, OutputKind::Rust, "rust")?,
    };
    print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// A `kompat gen` rendering on stdout. The window is the configuration's;
/// without a binary version there, the newest declared version (a spec's, or
/// an API's introduction) stands in.
fn generated(project: &Project, features: &[FeatureDecl], kind: OutputKind, name: &str) -> Result<String> {
    let config = project.config.as_ref();
    let spec_versions = features.iter().flat_map(|f| &f.specs).filter_map(|s| s.version.as_ref()?.as_major_minor());
    let api_config = project.decls.api_config();
    let introductions = api_config.apis.iter().filter_map(|a| a.introduced);
    let newest = spec_versions.chain(introductions).max();
    let Some(binary) = config.and_then(|c| c.binary_version).or(newest) else {
        return Err(Error::msg("no versions declared: nothing to export"));
    };
    let window = config.map_or(WindowPolicy::DEFAULT, |c| c.window);
    let unlocated =
        |messages: Vec<String>| Error { diagnostics: messages.into_iter().map(Diagnostic::error).collect() };
    let mut model = kompat_gen::Model::new(features, binary, window).map_err(unlocated)?;
    if project.decls.has_apis() {
        project.decls.api_set()?;
        model = model.with_apis(&api_config).map_err(unlocated)?;
    }
    let provenance = kompat_gen::Provenance { command: format!("`kompat export --format {name}`") };
    kompat_gen::render(kind, &model, &provenance).map_err(Error::msg)
}

/// Each feature once: validation has accepted repeated names only when the
/// declarations are identical.
fn unique(features: &[FeatureDecl]) -> Vec<FeatureDecl> {
    let mut seen = HashSet::new();
    features.iter().filter(|f| seen.insert(f.name.as_str())).cloned().collect()
}

fn json(features: &[FeatureDecl]) -> JsonDecls<'_> {
    let mut out: Vec<JsonFeature<'_>> = features
        .iter()
        .map(|f| JsonFeature {
            name: &f.name,
            description: f.description.as_deref(),
            dependencies: f.dependencies.iter().map(String::as_str).collect(),
            specs: f
                .specs
                .iter()
                .map(|s| JsonSpec {
                    version: s.version.as_ref().map(ToString::to_string),
                    stage: s.stage.name(),
                    default: s.default,
                    lock_to_default: s.lock_to_default,
                    min_compatibility_version: s.min_compatibility_version.as_ref().map(ToString::to_string),
                })
                .collect(),
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(b.name));
    JsonDecls { features: out }
}
