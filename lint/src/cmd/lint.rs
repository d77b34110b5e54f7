//! `kompat lint`: every rule over the declarations, APIs and CRD manifests;
//! exit 1 when a finding is at error level.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use kompat_core::{validate, WindowPolicy};
use kompat_crd::{parse_conversions, parse_manifests, Crd};
use kompat_project::{Config, Decls, Error, Result, SourceFile};

use super::{flag_version, print_stdout};
use crate::cli::{LintArgs, LintFormat, WindowProfile};
use crate::lint::config::{apply_source_allows, LintConfig};
use crate::lint::rules::crd::CrdInput;
use crate::lint::sources::deploy;
use crate::lint::{output, rules, Context, Severity};

pub fn run(args: LintArgs) -> Result<ExitCode> {
    let config = Config::discover(args.config.as_deref())?;
    // Positional paths and --decls are both inputs; CRD manifests are told
    // apart by their content.
    let mut inputs: Vec<PathBuf> = args.paths.iter().chain(&args.decls).cloned().collect();
    if inputs.is_empty() {
        inputs = config.as_ref().map(|c| c.decls.clone()).unwrap_or_default();
    }
    if inputs.is_empty() {
        return Err(Error::msg("nothing to lint: pass PATH or --decls PATH, or set `decls` in kompat.toml"));
    }
    // Directories contribute their declaration files, CRD manifests, Rust
    // sources and deployment material; single files are told apart by
    // extension and content.
    let mut crd_paths = Vec::new();
    let mut decl_paths = Vec::new();
    let mut deploy_paths = Vec::new();
    for path in inputs {
        if path.is_dir() {
            for file in kompat_project::walk_files(&path)? {
                match classify(&file) {
                    Kind::Crd => crd_paths.push(file),
                    Kind::Rust => (), // loaded with the directory's declarations
                    Kind::Deploy => deploy_paths.push(file),
                    Kind::Decl | Kind::Other => (),
                }
            }
            decl_paths.push(path);
        } else {
            match classify(&path) {
                Kind::Crd => crd_paths.push(path),
                Kind::Rust => decl_paths.push(path),
                // A named YAML file that is not YAML at all is reported as
                // malformed, not skimmed for flags.
                Kind::Deploy if is_broken_yaml(&path) => decl_paths.push(path),
                Kind::Deploy => deploy_paths.push(path),
                Kind::Decl | Kind::Other => decl_paths.push(path),
            }
        }
    }
    let decls = if decl_paths.is_empty() { Decls::default() } else { kompat_project::load(&decl_paths)? };
    let rust = code_references(&decls)?;
    let mut settings = Vec::new();
    for path in &deploy_paths {
        settings.extend(deploy::scan(path)?);
    }

    let baseline_path = args.baseline.clone().or_else(|| config.as_ref().and_then(|c| c.baseline.clone()));
    let (baseline_decls, baseline_crds) = match &baseline_path {
        Some(path) if path.is_dir() => {
            let mut crds = Vec::new();
            for file in kompat_project::walk_files(path)?.into_iter().filter(|f| is_crd_manifest(f)) {
                crds.extend(read_crds(&file)?);
            }
            (Some(kompat_project::load(std::slice::from_ref(path))?), crds)
        }
        Some(path) if is_crd_manifest(path) => (None, read_crds(path)?),
        Some(path) => (Some(kompat_project::load(std::slice::from_ref(path))?), Vec::new()),
        None => (None, Vec::new()),
    };

    let mut crds = Vec::new();
    for path in &crd_paths {
        let source = SourceFile::read(path)?;
        let parsed = parse_crds(&source)?;
        crds.push(CrdInput {
            conversions: conversions_beside(path)?,
            source,
            crds: parsed,
            baseline: baseline_crds.clone(),
        });
    }

    let binary = match &args.binary_version {
        Some(v) => Some(flag_version("binary-version", v)?),
        None => config.as_ref().and_then(|c| c.binary_version),
    };
    let window = match args.profile {
        Some(WindowProfile::Kubernetes) => WindowPolicy::KUBERNETES,
        Some(WindowProfile::Default) => WindowPolicy::DEFAULT,
        None => config.as_ref().map_or(WindowPolicy::DEFAULT, |c| c.window),
    };
    let apis = if decls.has_apis() { Some(decls.api_set()?) } else { None };
    let validated = validate(&decls.features);
    let all_rules = rules::all();
    let lint_config = LintConfig::from_config(config.as_ref(), &all_rules)?;
    let cx = Context {
        decls: &decls,
        validated: &validated,
        baseline: baseline_decls.as_ref(),
        binary,
        window,
        apis: apis.as_ref(),
        crds: &crds,
        rust: rust.as_ref(),
        settings: &settings,
    };
    let mut diags = crate::lint::run(&cx);
    // `#[kompat(allow(code = ..., reason = ...))]` on a gate suppresses that
    // code for that gate.
    if let Some(rust) = &rust {
        diags = apply_source_allows(diags, &rust.allows, &all_rules);
    }
    let mut diags = lint_config.apply(diags);
    crate::lint::sort(&mut diags);

    let text = match args.format {
        LintFormat::Json => output::json(&diags).0,
        LintFormat::Sarif => output::sarif(&diags, &all_rules),
        LintFormat::Short => output::short(&diags),
        LintFormat::Human => {
            let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            output::human(&diags, color)
        }
    };
    print_stdout(&text)?;
    let summary = output::summary(&diags);
    if matches!(args.format, LintFormat::Human | LintFormat::Short) {
        eprintln!(
            "kompat lint: {} error{}, {} warning{}, {} note{}",
            summary.errors,
            plural(summary.errors),
            summary.warnings,
            plural(summary.warnings),
            summary.notes,
            plural(summary.notes)
        );
    }
    Ok(if diags.iter().any(|d| d.severity == Severity::Error) { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// What code says about gates, for the reference rules: the Rust scan, with
/// the Go references (read here, so that commands other than `lint` never pay
/// for them) added to it.
fn code_references(decls: &Decls) -> Result<Option<crate::lint::sources::RustScan>> {
    let mut scan = decls.rust.clone();
    if let Some(go) = &decls.go {
        let refs = kompat_project::go::references(go)?;
        let scan = scan.get_or_insert_with(Default::default);
        scan.files += go.files.len();
        scan.refs.extend(refs);
    }
    Ok(scan)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

enum Kind {
    Decl,
    Crd,
    Rust,
    Deploy,
    Other,
}

/// What a file is to the linter.
fn classify(path: &Path) -> Kind {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    match path.extension().and_then(|e| e.to_str()) {
        Some("rs") => return Kind::Rust,
        Some("toml") => return Kind::Decl,
        _ => (),
    }
    if is_crd_manifest(path) {
        return Kind::Crd;
    }
    if name == "versioned_feature_list.yaml" || name.ends_with(".features.yaml") || name.ends_with(".features.yml") {
        return Kind::Decl;
    }
    let yaml = matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
    // Any other YAML that is a feature list is declarations; the rest is
    // deployment material.
    if yaml
        && std::fs::read_to_string(path)
            .is_ok_and(|text| kompat_decls::parse_k8s_yaml(&text).is_ok_and(|f| !f.features.is_empty()))
    {
        return Kind::Decl;
    }
    if deploy::is_deployment_file(path) {
        return Kind::Deploy;
    }
    Kind::Other
}

fn is_broken_yaml(path: &Path) -> bool {
    let yaml = matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
    yaml && std::fs::read_to_string(path).is_ok_and(|text| kompat_decls::yaml::parse_documents(&text).is_err())
}

/// A YAML file declaring a CustomResourceDefinition (not a feature list).
fn is_crd_manifest(path: &Path) -> bool {
    let yaml = matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
    yaml && std::fs::read_to_string(path).is_ok_and(|text| text.contains("CustomResourceDefinition"))
}

pub fn read_crds(path: &Path) -> Result<Vec<Crd>> {
    parse_crds(&SourceFile::read(path)?)
}

fn parse_crds(source: &SourceFile) -> Result<Vec<Crd>> {
    parse_manifests(&source.text).map_err(|errors| source.parse_errors(errors))
}

/// `<name>.conversions.toml` next to `<name>.yaml`, when it exists.
fn conversions_beside(manifest: &Path) -> Result<Option<(SourceFile, kompat_crd::Conversions)>> {
    let path = manifest.with_extension("conversions.toml");
    if !path.is_file() {
        return Ok(None);
    }
    let source = SourceFile::read(&path)?;
    let conversions = parse_conversions(&source.text).map_err(|errors| source.parse_errors(errors))?;
    Ok(Some((source, conversions)))
}
