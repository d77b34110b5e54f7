//! Loading declaration inputs (`--decls PATH`, repeatable): the top of the
//! loader, [`Decls`], every declaration with where it came from.
//!
//! Which files a path stands for, read once, is [`crate::inputs::classify`]'s
//! to say. A named file is read by its extension: `.yaml`/`.yml` as
//! Kubernetes' `versioned_feature_list.yaml`, `.toml` as kompat TOML, `.rs`
//! as Rust (`#[derive(FeatureGates)]` enums are declarations; the reader is
//! `kompat-rust`). A directory contributes its feature lists, kompat TOML
//! files and Rust sources.

use std::path::PathBuf;

use kompat_engine::api::{ApiConfig, ApiDecl, ApiField, ApiProblem, ApiProblemKind, ApiSet};
use kompat_engine::{validate, FeatureDecl, Field, Validated};
use kompat_formats::api_toml::ApiFile;
use kompat_formats::FeatureFile;
use kompat_rust::RustScan;

use crate::error::{Error, Result};
#[cfg(feature = "go")]
use crate::go::GoScan;
use crate::inputs::{Input, Kind};
use crate::source::{Read, RustFiles, SourceFile};
use kompat_diag::{Diagnostic, Location};

/// Every declaration loaded from a set of inputs, with where each came from.
///
/// The fields are private and only grow together: a feature's index in
/// [`Decls::features`] is also its index in `origins`, and a source's index
/// in [`Decls::sources`] is its index in `feature_files` and the one
/// `api_files` names.
#[derive(Debug, Default)]
pub struct Decls {
    sources: Vec<SourceFile>,
    /// All feature declarations, in input order.
    features: Vec<FeatureDecl>,
    /// For each feature: its source and its index in that source's file.
    origins: Vec<(usize, usize)>,
    /// The parsed feature file of each source (spans), by source index.
    feature_files: Vec<Option<FeatureFile>>,
    /// API declarations: the source they came from and the parsed file.
    api_files: Vec<(usize, ApiFile)>,
    /// `[[stored_before_written]]` declarations with where they are written.
    stored_before_written: Vec<(kompat_engine::StoredBeforeWritten, Location)>,
    /// What the Rust sources among the inputs say (declarations are in
    /// `features`; references and suppressions here).
    rust: Option<RustScan>,
    /// What the Go sources among the inputs say besides declarations (the
    /// files and declaring packages references are looked for with).
    #[cfg(feature = "go")]
    go: Option<GoScan>,
    /// `(group, kind)` of every CustomResourceDefinition in the CRD
    /// manifests among the inputs.
    manifest_crds: std::collections::BTreeSet<(String, String)>,
}

impl Decls {
    /// Every source file read, in input order.
    pub fn sources(&self) -> &[SourceFile] {
        &self.sources
    }

    /// All feature declarations, in input order; an index here is what
    /// [`Decls::locate`] takes.
    pub fn features(&self) -> &[FeatureDecl] {
        &self.features
    }

    /// `[[stored_before_written]]` declarations with where they are written.
    pub fn stored_before_written(&self) -> &[(kompat_engine::StoredBeforeWritten, Location)] {
        &self.stored_before_written
    }

    /// What the Go sources among the inputs say besides declarations.
    #[cfg(feature = "go")]
    pub fn go(&self) -> Option<&GoScan> {
        self.go.as_ref()
    }

    /// What the Rust sources among the inputs say (their declarations are in
    /// [`Decls::features`]; references to gates and suppressions here).
    pub fn rust(&self) -> Option<&RustScan> {
        self.rust.as_ref()
    }

    /// The file feature declaration `decl` is written in.
    pub fn source_of(&self, decl: usize) -> Option<&SourceFile> {
        self.origins.get(decl).and_then(|&(source, _)| self.sources.get(source))
    }

    /// Where feature declaration `decl` (and optionally one of its specs and
    /// fields) is written.
    pub fn locate(&self, decl: usize, spec: Option<usize>, field: Field) -> Option<Location> {
        let &(source, local) = self.origins.get(decl)?;
        let file = self.feature_files.get(source)?.as_ref()?;
        let span = file.span_of(local, spec, field)?;
        Some(self.sources[source].locate(span.start, span.end))
    }

    /// Validates the features; registration problems are errors, located.
    /// Content problems (the linter's rules) are left to `kompat lint`.
    pub fn validate_strict(&self) -> Result<Validated> {
        let validated = validate(&self.features);
        let diagnostics: Vec<Diagnostic> = validated
            .problems
            .iter()
            .filter(|p| p.kind.is_registration())
            .map(|p| Diagnostic::error(p.message.clone()).at(self.locate(p.decl, p.spec, p.field)))
            .collect();
        if diagnostics.is_empty() {
            Ok(validated)
        } else {
            Err(Error { diagnostics })
        }
    }

    /// Every API declaration of every input, merged in input order.
    pub fn api_config(&self) -> ApiConfig {
        let mut merged = ApiConfig::default();
        for (_, file) in &self.api_files {
            merged.apis.extend(file.config().apis.iter().cloned());
            for (group, priority) in &file.config().priorities {
                merged.priorities.entry(group.clone()).or_insert_with(|| priority.clone());
            }
            for (key, version) in &file.config().storage_overrides {
                merged.storage_overrides.entry(key.clone()).or_insert_with(|| version.clone());
            }
            for (key, until) in &file.config().storage_override_until {
                merged.storage_override_until.entry(key.clone()).or_insert(*until);
            }
        }
        merged
    }

    /// Whether the kind is a CRD's: a kube-rs custom resource
    /// ([`kompat_rust::CustomResource`]) or a kind a CRD manifest among the
    /// inputs defines.
    pub fn is_crd(&self, group: &str, kind: &str) -> bool {
        self.manifest_crds.iter().any(|(g, k)| g == group && k == kind)
            || self.rust.as_ref().is_some_and(|r| r.custom_resources.iter().any(|c| c.group == group && c.kind == kind))
    }

    /// The API declarations kube-apiserver's rules apply to: every one but
    /// those of CRDs ([`Decls::is_crd`]), whose serving and storage are their
    /// manifest's (docs/crd.md). Group
    /// priorities and storage overrides of groups left without a declaration
    /// go with them.
    pub fn server_api_config(&self) -> ApiConfig {
        let mut config = self.api_config();
        config.apis.retain(|a| !self.is_crd(&a.group, &a.kind));
        let groups: std::collections::BTreeSet<String> = config.apis.iter().map(|a| a.group.clone()).collect();
        let group_of = |key: &str| key.rsplit_once('/').map_or(String::new(), |(g, _)| g.to_owned());
        config.priorities.retain(|g, _| groups.contains(g));
        config.storage_overrides.retain(|k, _| groups.contains(&group_of(k)));
        config.storage_override_until.retain(|k, _| groups.contains(&group_of(k)));
        config
    }

    /// True when some input declares APIs.
    pub fn has_apis(&self) -> bool {
        self.api_files.iter().any(|(_, f)| !f.is_empty())
    }

    /// Builds the API set of all inputs; every problem is located in the file
    /// that declares the offending entry, and any problem is an error. A group
    /// priority or storage override given in two files is one.
    pub fn api_set(&self) -> Result<ApiSet> {
        let (set, problems) = self.api_set_partial();
        if problems.is_empty() {
            Ok(set)
        } else {
            Err(Error { diagnostics: problems.into_iter().map(|(_, d)| d).collect() })
        }
    }

    /// The API set of everything well declared, and every problem with the
    /// declarations, located, with its kind: the linter reports them as
    /// findings of their rules and checks the rest.
    pub fn api_set_partial(&self) -> (ApiSet, Vec<(ApiProblemKind, Diagnostic)>) {
        let mut problems = Vec::new();
        let mut seen_priority: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        let mut seen_override: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for (source, file) in &self.api_files {
            for group in file.config().priorities.keys() {
                if let Some(first) = seen_priority.insert(group, *source) {
                    let problem = ApiProblem {
                        kind: ApiProblemKind::ApiUnusedPriority,
                        index: None,
                        field: ApiField::Priority { group: group.clone(), entry: None },
                        message: format!(
                            "group `{group}` has a version priority in {} already",
                            self.sources[first].path.display()
                        ),
                        first: None,
                    };
                    problems.push((problem.kind, self.api_failure(*source, file, &problem).with_subject(group)));
                }
            }
            for key in file.config().storage_overrides.keys() {
                if let Some(first) = seen_override.insert(key, *source) {
                    let problem = ApiProblem {
                        kind: ApiProblemKind::StorageOverrideInvalid,
                        index: None,
                        field: ApiField::StorageOverride { key: key.clone() },
                        message: format!(
                            "`{key}` has a storage override in {} already",
                            self.sources[first].path.display()
                        ),
                        first: None,
                    };
                    problems.push((problem.kind, self.api_failure(*source, file, &problem).with_subject(key)));
                }
            }
        }
        let config = self.api_config();
        let (set, found) = ApiSet::build_partial(&config);
        problems.extend(found.iter().map(|p| (p.kind, self.locate_api_problem(p))));
        // What each problem is about: the API (GROUP/VERSION/KIND), the
        // group of a priority, or the key of an override.
        for ((_, diag), problem) in problems.iter_mut().rev().zip(found.iter().rev()) {
            diag.subject = match (&problem.field, problem.index.and_then(|i| config.apis.get(i))) {
                (_, Some(d)) => {
                    Some(kompat_runtime::GroupVersionKind::new(&d.group, &d.version, &d.kind).to_string().into())
                }
                (ApiField::Priority { group, .. }, None) => Some(group.into()),
                (ApiField::StorageOverride { key }, None) => Some(key.into()),
                _ => None,
            };
        }
        (set, problems)
    }

    /// Where field `field` of API declaration `index` (its index in
    /// [`Decls::api_config`]) is written.
    pub fn locate_api(&self, index: usize, field: ApiField) -> Option<Location> {
        let problem = ApiProblem {
            kind: ApiProblemKind::ApiEmptyValue,
            index: Some(index),
            field,
            message: String::new(),
            first: None,
        };
        self.locate_api_problem_only(&problem).location
    }

    /// Where the storage override of `key` (`GROUP/RESOURCE`) is written.
    pub fn locate_override(&self, key: &str) -> Option<Location> {
        let problem = ApiProblem {
            kind: ApiProblemKind::StorageOverrideInvalid,
            index: None,
            field: ApiField::StorageOverride { key: key.to_owned() },
            message: String::new(),
            first: None,
        };
        self.locate_api_problem_only(&problem).location
    }

    /// Maps a problem of the merged API set to the file and span it is about;
    /// a duplicate names where the first declaration is written.
    fn locate_api_problem(&self, problem: &ApiProblem) -> Diagnostic {
        let mut failure = self.locate_api_problem_only(problem);
        if let Some(first) = problem.first {
            let at = self.locate_api(first, ApiField::Entry).and_then(|l| {
                l.line_col()?;
                Some(l.display())
            });
            match at {
                Some(at) => failure.message.push_str(&format!(" (first declared at {at})")),
                None => failure.message = problem.to_string().into(),
            }
        }
        failure
    }

    fn locate_api_problem_only(&self, problem: &ApiProblem) -> Diagnostic {
        match problem.index {
            Some(index) => {
                if let Some((source, file, local)) = self.api_origin(index) {
                    let local = ApiProblem { index: Some(local), ..problem.clone() };
                    return self.api_failure(source, file, &local);
                }
            }
            None => {
                if let Some((source, file)) = self.api_files.iter().find(|(_, f)| f.span_of(problem).is_some()) {
                    return self.api_failure(*source, file, problem);
                }
            }
        }
        Diagnostic::error(problem.message.clone())
    }

    /// API declaration `index` of [`Decls::api_config`] as written, without
    /// building the merged configuration.
    pub fn api_decl(&self, index: usize) -> Option<&ApiDecl> {
        let (_, file, local) = self.api_origin(index)?;
        file.config().apis.get(local)
    }

    /// The source, file and position in that file of merged API entry `index`.
    fn api_origin(&self, index: usize) -> Option<(usize, &ApiFile, usize)> {
        let mut offset = 0;
        for (source, file) in &self.api_files {
            let count = file.config().apis.len();
            if index < offset + count {
                return Some((*source, file, index - offset));
            }
            offset += count;
        }
        None
    }

    fn api_failure(&self, source: usize, file: &ApiFile, problem: &ApiProblem) -> Diagnostic {
        let location = match file.span_of(problem) {
            Some(span) => self.sources[source].locate(span.start, span.end),
            None => self.sources[source].whole(),
        };
        Diagnostic::error(problem.message.clone()).at(Some(location))
    }

    /// Adds declarations parsed elsewhere (e.g. from Rust sources) with their
    /// source, so that their problems are located like any other.
    pub fn add_parsed(&mut self, source: SourceFile, features: FeatureFile, apis: ApiFile) {
        let idx = self.sources.len();
        for (local, feature) in features.features().iter().enumerate() {
            self.features.push(feature.clone());
            self.origins.push((idx, local));
        }
        self.feature_files.push(Some(features));
        if !apis.is_empty() {
            self.api_files.push((idx, apis));
        }
        self.sources.push(source);
    }

    /// Parses inputs already read and classified as declarations; every
    /// failure of every input is reported together.
    pub fn from_inputs(inputs: impl IntoIterator<Item = Input>, go_sources: &[PathBuf]) -> Result<Decls> {
        let mut decls = Decls::default();
        let mut failures = Vec::new();
        let mut rust_files = Vec::new();
        for input in inputs {
            match (input.kind, input.file) {
                (Kind::Rust, file) => rust_files.push(file),
                // Not declarations: what they say is which kinds are CRDs.
                (Kind::CrdManifest, Read::Held(source)) => decls.manifest_crds.extend(crd_kinds(&source.text)),
                (_, Read::Held(source)) => {
                    if let Err(err) = decls.add_source(source) {
                        failures.extend(err.diagnostics);
                    }
                }
                // Only a Rust file is ever released.
                (_, Read::Released(_)) => {}
            }
        }
        if !rust_files.is_empty() {
            let mut files = RustFiles(rust_files);
            match kompat_rust::scan(&mut files) {
                Ok(found) => {
                    for declared in found.declared {
                        match files.0.get(declared.file) {
                            Some(Read::Held(source)) => {
                                decls.add_parsed(source.clone(), declared.features, declared.apis)
                            }
                            _ => failures.push(Diagnostic::error("internal error: declarations of a file not read")),
                        }
                    }
                    decls.rust = Some(found.scan);
                }
                Err(failed) => failures.extend(failed),
            }
        }
        #[cfg(not(feature = "go"))]
        failures.extend(go_sources.iter().filter_map(|path| without_go(path)));
        #[cfg(feature = "go")]
        if !go_sources.is_empty() {
            match crate::go::scan(go_sources) {
                Ok((mut scan, declared)) => {
                    for file in declared {
                        // Declarations' indices are their order in `decls`.
                        let first = decls.features().len();
                        scan.add_beyond_tool(first + file.read_by_tool..first + file.features.len());
                        decls.add_parsed(file.source, file.features, ApiFile::default());
                    }
                    decls.go = Some(scan);
                }
                Err(err) => failures.extend(err.diagnostics),
            }
        }
        if failures.is_empty() {
            Ok(decls)
        } else {
            Err(Error { diagnostics: failures })
        }
    }

    fn add_source(&mut self, source: SourceFile) -> Result<()> {
        let idx = self.sources.len();
        let parsed = match source.path.extension().and_then(|e| e.to_str()) {
            Some("yaml" | "yml") => kompat_formats::parse_k8s_yaml(&source.text),
            Some("toml") => kompat_formats::parse_toml(&source.text).map(|file| {
                for (item, span) in file.stored_before_written {
                    self.stored_before_written.push((item, source.locate(span.start, span.end)));
                }
                if !file.apis.is_empty() {
                    self.api_files.push((idx, file.apis));
                }
                file.features
            }),
            _ => {
                return Err(Error::in_file(
                    &source.path,
                    format!(
                        "cannot tell the format of {}: expected a .yaml, .yml, .toml or .rs file or a directory",
                        source.path.display()
                    ),
                ))
            }
        };
        let file = match parsed {
            Ok(file) => file,
            Err(errors) => return Err(source.parse_errors(errors)),
        };
        for (local, feature) in file.features().iter().enumerate() {
            self.features.push(feature.clone());
            self.origins.push((idx, local));
        }
        self.feature_files.push(Some(file));
        self.sources.push(source);
        Ok(())
    }
}

/// `(group, kind)` of the CustomResourceDefinitions of a manifest (a `List`'s
/// items included); a manifest that does not parse has none here (`kompat
/// lint` reports its errors).
fn crd_kinds(text: &str) -> Vec<(String, String)> {
    use kompat_formats::yaml::{parse_documents, Node};
    let Ok(docs) = parse_documents(text) else { return Vec::new() };
    let mut pending: Vec<&Node> = docs.iter().collect();
    let mut out = Vec::new();
    while let Some(doc) = pending.pop() {
        match doc.get("kind").and_then(Node::as_str) {
            Some("List") => pending.extend(doc.get("items").and_then(Node::as_seq).unwrap_or_default()),
            Some("CustomResourceDefinition") => {
                let spec = doc.get("spec");
                let group = spec.and_then(|s| s.get("group")).and_then(Node::as_str);
                let kind = spec.and_then(|s| s.get("names")).and_then(|n| n.get("kind")).and_then(Node::as_str);
                if let (Some(group), Some(kind)) = (group, kind) {
                    out.push((group.to_owned(), kind.to_owned()));
                }
            }
            _ => {}
        }
    }
    out
}

/// Loads every input; all files are read ([`crate::inputs::classify`]) and
/// parsed, and every failure of every file is reported together.
pub fn load(paths: &[PathBuf]) -> Result<Decls> {
    load_excluding(paths, &Default::default())
}

/// [`load`], leaving out what `exclude` matches below each directory.
pub fn load_excluding(paths: &[PathBuf], exclude: &crate::inputs::Exclude) -> Result<Decls> {
    let (classified, mut failures) = crate::inputs::classify_each(paths, exclude);
    let inputs = classified.inputs.into_iter().filter(|i| i.is_loaded() || i.kind == Kind::CrdManifest);
    match Decls::from_inputs(inputs, &classified.go_sources) {
        Ok(decls) if failures.is_empty() => Ok(decls),
        Ok(_) => Err(Error { diagnostics: failures }),
        Err(err) => {
            failures.extend(err.diagnostics);
            Err(Error { diagnostics: failures })
        }
    }
}

/// Without the `go` feature, a Go source that names the featuregate package
/// may declare gates this build cannot read: an error, never a silent pass.
#[cfg(not(feature = "go"))]
fn without_go(path: &std::path::Path) -> Option<Diagnostic> {
    let text = std::fs::read(path).ok()?;
    memchr::memmem::find(&text, b"k8s.io/component-base/featuregate")?;
    Some(Diagnostic::error(format!(
        "{} declares feature gates in Go, which this build of kompat-project reads only with its `go` feature",
        path.display()
    )))
}
