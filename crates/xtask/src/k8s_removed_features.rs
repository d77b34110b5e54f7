//! `cargo xtask k8s-removed-features`: generates the table of Kubernetes' removed
//! feature gates from its gates release by release (`--release 1.34=DIR`,
//! each read as `--decls` reads declarations: a directory of Kubernetes' Go
//! feature files goes through the Go reader). Unlike `--decls`, a release's
//! Go files are also read for unversioned `featuregate.FeatureSpec` maps
//! (`kompat_go::parse_file_at_release`), where Kubernetes declared most gates
//! before 1.32: each such spec is the gate's state at that release.
//!
//! This module does the file access; comparing the releases and rendering
//! the table are `kompat_k8s::removed`'s. Nothing is written unless every
//! release reads cleanly.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use kompat_engine::FeatureDecl;
use kompat_k8s::removed::{add_unversioned, removed_gates, render, Release};
use kompat_project::{Error, Result, SourceFile};
use kompat_runtime::VersionLit;

use crate::K8sRemovedFeaturesArgs;
use kompat_cli::io::{flag_version, try_each, write_or_print};

pub fn run(args: K8sRemovedFeaturesArgs) -> Result<ExitCode> {
    let releases = try_each(&args.release, |arg| read_release(arg))?;
    let gates = removed_gates(&releases).map_err(|problem| Error::msg(format!("--release: {problem}")))?;
    let text = render(&releases, &gates);
    for release in &releases {
        eprintln!(
            "xtask k8s-removed-features: {}: {} gates ({})",
            release.version,
            release.features.len(),
            release.source
        );
    }
    eprintln!("xtask k8s-removed-features: {} removed gates", gates.len());
    write_or_print(args.output.as_deref(), text)?;
    Ok(ExitCode::SUCCESS)
}

/// `VERSION=PATH`: the release's gates, each once. The lists are read as
/// they were released, not validated against today's registration rules (a
/// 1.32 gate introduced as Deprecated without a 1.0 entry is a fact of 1.32);
/// a gate declared twice with different specs is an error. Gates of
/// unversioned maps are added, at the release, unless a versioned map of the
/// release declares them.
fn read_release(arg: &str) -> Result<Release> {
    let Some((version, path)) = arg.split_once('=') else {
        return Err(Error::msg(format!("invalid value for --release: {arg:?} is not VERSION=PATH")));
    };
    let version = flag_version("release", version)?;
    let path = PathBuf::from(path);
    let decls = kompat_project::load(std::slice::from_ref(&path))?;
    let mut seen: HashMap<&str, &FeatureDecl> = HashMap::new();
    let mut features = Vec::new();
    // The versioned maps as Kubernetes' tool reads them; the unversioned
    // ones are read below, at the release.
    let read_by_tool = |idx: usize| decls.go().is_none_or(|go| !go.is_beyond_tool(idx));
    for (_, feature) in decls.features().iter().enumerate().filter(|(idx, _)| read_by_tool(*idx)) {
        match seen.get(feature.name.as_str()) {
            Some(first) if first.specs != feature.specs => {
                return Err(Error::in_file(
                    &path,
                    format!("release {version}: feature gate {} is declared twice with different specs", feature.name),
                ));
            }
            Some(_) => {}
            None => {
                seen.insert(&feature.name, feature);
                features.push(feature.clone());
            }
        }
    }
    let unversioned = read_unversioned(&path, &version.to_string())?;
    add_unversioned(&mut features, unversioned).map_err(|name| {
        Error::in_file(&path, format!("release {version}: feature gate {name} is declared twice with different specs"))
    })?;
    let source = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    Ok(Release { version, source, features })
}

/// The gates of the unversioned `FeatureSpec` maps in the Go sources under
/// `path` (the files `--decls` reads), each with one spec at `release`.
fn read_unversioned(path: &Path, release: &str) -> Result<Vec<FeatureDecl>> {
    let release = VersionLit::parse(release).map_err(|err| Error::msg(format!("--release: {err}")))?;
    let files = kompat_project::walk_files(path)?;
    let mut features = Vec::new();
    let mut diagnostics = Vec::new();
    for file in files {
        if !kompat_project::inputs::is_go_source(&file) || kompat_project::inputs::is_skipped_dir(path, &file) {
            continue;
        }
        let source = SourceFile::read(&file)?;
        if !kompat_go::mentions_featuregate(source.text.as_bytes()) {
            continue;
        }
        match kompat_go::parse_file_at_release(&source.text, &release) {
            Ok(go) => features.extend(go.unversioned.into_features()),
            Err(errors) => diagnostics.extend(source.parse_errors(errors).diagnostics),
        }
    }
    if diagnostics.is_empty() {
        Ok(features)
    } else {
        Err(Error { diagnostics })
    }
}
