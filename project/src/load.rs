//! Loading declaration inputs (`--decls PATH`, repeatable).
//!
//! A path is read by its extension: `.yaml`/`.yml` as Kubernetes'
//! `versioned_feature_list.yaml`, `.toml` as kompat TOML. A directory is
//! walked in sorted order (respecting `.gitignore`, skipping hidden entries):
//! it contributes every `versioned_feature_list.yaml` and `*.features.yaml`,
//! and every `.toml` file with a top-level `feature`, `api`, `groups` or
//! `storage_overrides` key.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use kompat_core::{validate, FeatureDecl, Field, Validated};
use kompat_decls::{FeatureFile, LineIndex, ParseError};

use crate::error::{io_reason, Error, Failure, Location, Result};

/// A file read from disk.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: Arc<str>,
    pub lines: LineIndex,
}

impl SourceFile {
    pub fn read(path: &Path) -> Result<SourceFile> {
        let bytes = std::fs::read(path).map_err(|err| Error::io(path, &err))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| Error::in_file(path, format!("{} is not valid UTF-8", path.display())))?;
        Ok(SourceFile::new(path.to_owned(), text))
    }

    pub fn new(path: PathBuf, text: String) -> SourceFile {
        let lines = LineIndex::new(&text);
        SourceFile { path, text: Arc::from(text), lines }
    }

    /// A location in this file for a byte span.
    pub fn locate(&self, start: usize, end: usize) -> Location {
        Location {
            path: self.path.clone(),
            text: Some(self.text.clone()),
            range: Some((start, end)),
            line_col: Some(self.lines.line_col(start)),
        }
    }

    /// A location for the file as a whole.
    pub fn whole(&self) -> Location {
        Location { path: self.path.clone(), text: None, range: None, line_col: None }
    }

    fn parse_failure(&self, err: ParseError) -> Failure {
        let location = match err.span {
            Some(span) => self.locate(span.start, span.end),
            None => self.whole(),
        };
        Failure { message: err.message, location: Some(location) }
    }
}

/// Every declaration loaded from a set of inputs, with where each came from.
#[derive(Debug, Default)]
pub struct Decls {
    pub sources: Vec<SourceFile>,
    /// All feature declarations, in input order.
    pub features: Vec<FeatureDecl>,
    /// For each feature: its source and its index in that source's file.
    origins: Vec<(usize, usize)>,
    /// The parsed feature file of each source (spans), by source index.
    feature_files: Vec<Option<FeatureFile>>,
}

impl Decls {
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
        let failures: Vec<Failure> = validated
            .problems
            .iter()
            .filter(|p| p.kind.is_registration())
            .map(|p| Failure { message: p.message.clone(), location: self.locate(p.decl, p.spec, p.field) })
            .collect();
        if failures.is_empty() {
            Ok(validated)
        } else {
            Err(Error { failures })
        }
    }

    fn add_source(&mut self, source: SourceFile) -> Result<()> {
        let parsed = match source.path.extension().and_then(|e| e.to_str()) {
            Some("yaml" | "yml") => kompat_decls::parse_k8s_yaml(&source.text),
            Some("toml") => kompat_decls::parse_toml(&source.text).map(|file| file.features),
            _ => {
                return Err(Error::in_file(
                    &source.path,
                    format!(
                        "cannot tell the format of {}: expected a .yaml, .yml or .toml file or a directory",
                        source.path.display()
                    ),
                ))
            }
        };
        let file = match parsed {
            Ok(file) => file,
            Err(errors) => {
                return Err(Error { failures: errors.into_iter().map(|e| source.parse_failure(e)).collect() })
            }
        };
        let idx = self.sources.len();
        for (local, feature) in file.features.iter().enumerate() {
            self.features.push(feature.clone());
            self.origins.push((idx, local));
        }
        self.feature_files.push(Some(file));
        self.sources.push(source);
        Ok(())
    }
}

/// Loads every input; all files are read and parsed, and every failure of
/// every file is reported together.
pub fn load(paths: &[PathBuf]) -> Result<Decls> {
    let mut decls = Decls::default();
    let mut failures = Vec::new();
    for path in paths {
        let files = match expand(path) {
            Ok(files) => files,
            Err(err) => {
                failures.extend(err.failures);
                continue;
            }
        };
        for file in files {
            let added = SourceFile::read(&file).and_then(|source| decls.add_source(source));
            if let Err(err) = added {
                failures.extend(err.failures);
            }
        }
    }
    if failures.is_empty() {
        Ok(decls)
    } else {
        Err(Error { failures })
    }
}

/// The declaration files a path stands for.
fn expand(path: &Path) -> Result<Vec<PathBuf>> {
    let meta = std::fs::metadata(path).map_err(|err| Error::io(path, &err))?;
    if !meta.is_dir() {
        return Ok(vec![path.to_owned()]);
    }
    let mut files = Vec::new();
    let walker = ignore::WalkBuilder::new(path).require_git(false).sort_by_file_name(|a, b| a.cmp(b)).build();
    for entry in walker {
        let entry = entry.map_err(|err| Error::in_file(path, format!("cannot walk {}: {err}", path.display())))?;
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let file = entry.path();
        if is_declaration_file(file)? {
            files.push(file.to_owned());
        }
    }
    Ok(files)
}

const DECL_TOML_KEYS: [&str; 4] = ["feature", "api", "groups", "storage_overrides"];

fn is_declaration_file(path: &Path) -> Result<bool> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    if name == "versioned_feature_list.yaml" || name.ends_with(".features.yaml") || name.ends_with(".features.yml") {
        return Ok(true);
    }
    if !name.ends_with(".toml") {
        return Ok(false);
    }
    let text = std::fs::read_to_string(path)
        .map_err(|err| Error::in_file(path, format!("cannot read {}: {}", path.display(), io_reason(&err))))?;
    // Only the top-level keys matter here; a file that is not TOML at all is
    // reported when it is parsed as a declaration file.
    match text.parse::<toml::Table>() {
        Ok(table) => Ok(DECL_TOML_KEYS.iter().any(|k| table.contains_key(*k))),
        Err(_) => Ok(!matches!(name, "Cargo.toml" | "kompat.toml" | "rustfmt.toml" | "clippy.toml" | "deny.toml")),
    }
}
