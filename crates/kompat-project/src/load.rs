//! Loading declaration inputs (`--decls PATH`, repeatable).
//!
//! Which files a path stands for, read once, is [`crate::inputs::classify`]'s
//! to say. A named file is read by its extension: `.yaml`/`.yml` as
//! Kubernetes' `versioned_feature_list.yaml`, `.toml` as kompat TOML, `.rs`
//! as Rust (`#[derive(FeatureGates)]` enums are declarations; see
//! [`crate::rust`]). A directory contributes its feature lists, kompat TOML
//! files and Rust sources.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use kompat_engine::api::{ApiConfig, ApiDecl, ApiField, ApiProblem, ApiProblemKind, ApiSet};
use kompat_engine::{validate, FeatureDecl, Field, Validated};
use kompat_formats::api_toml::ApiFile;
use kompat_formats::{FeatureFile, ParseError};
use kompat_span::LineIndex;

use crate::error::{Error, Result};
use crate::inputs::{Input, Kind};
use kompat_diag::{Diagnostic, Location};

/// A file read from disk.
///
/// A Rust file found in a directory that cannot declare or reference
/// anything by itself (see `rust::first_read`) is *released* after its
/// first read: its text is empty and [`SourceFile::is_released`] says so.
/// The first read also searched it for the derived enums' names the reads
/// of its directory had met by then (`rust::EarlyNames`), and the file
/// records those it was found not to refer to; the Rust reader reads it again (through
/// `search_texts`) only for a derived enum's name (or an alias's) outside
/// that set (`SourceFile::needs_search`).
#[derive(Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: Arc<str>,
    /// Built the first time a location in the file is needed: most files
    /// of a linted tree are never located in.
    lines: OnceLock<LineIndex>,
    /// Read, checked and let go (`text` is empty): the names its first
    /// read ruled out, shared by the files released while the walk knew
    /// the same names. `None` for a file whose text is held.
    released: Option<Arc<Names>>,
}

/// A set of derived enums' names (see [`SourceFile::needs_search`]).
pub(crate) type Names = std::collections::BTreeSet<String>;

/// What the first read of a file decides of its text.
pub(crate) enum Keep {
    /// The text is held.
    Text,
    /// The text is let go; the first read ruled out references to these
    /// names (see [`SourceFile::needs_search`]).
    Release(Arc<Names>),
}

impl std::fmt::Debug for SourceFile {
    /// The path and text; the line index follows from the text.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = f.debug_struct("SourceFile");
        out.field("path", &self.path).field("text", &self.text);
        if self.released.is_some() {
            out.field("released", &true);
        }
        out.finish_non_exhaustive()
    }
}

/// The largest file kompat reads: 16 MiB. Real inputs are far smaller (the
/// largest CRD bundles are a few MB; Kubernetes itself refuses request bodies
/// over 3 MiB); the limit keeps a stray multi-gigabyte file from exhausting
/// memory.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The name standard input is shown under (`kompat lint -`).
pub const STDIN_NAME: &str = "<stdin>";

/// The longest line kompat reads: 1 MiB. Diagnostics show whole lines.
pub const MAX_LINE_BYTES: usize = 1 << 20;

impl SourceFile {
    /// Reads a UTF-8 text file of at most [`MAX_FILE_BYTES`] with no line
    /// longer than [`MAX_LINE_BYTES`]. Anything that is not a regular file
    /// (a FIFO, a device, a socket) is refused before it is opened, so
    /// reading never blocks.
    pub fn read(path: &Path) -> Result<SourceFile> {
        let size = regular_file_size(path)?;
        let file = std::fs::File::open(path).map_err(|err| Error::io(path, &err))?;
        SourceFile::read_open(path, file, size, |_| Keep::Text)
    }

    /// Reads `file`, opened from `path` and expected to hold `size` bytes,
    /// keeping the text only when `keep` says so of it; otherwise the file is
    /// released (its checks are done all the same).
    fn read_open(path: &Path, file: std::fs::File, size: u64, keep: impl FnOnce(&str) -> Keep) -> Result<SourceFile> {
        let read = with_text(path, file, size, |text| match keep(text) {
            Keep::Text => Ok(Arc::from(text)),
            Keep::Release(names) => Err(names),
        })?;
        Ok(match read {
            Ok(text) => SourceFile::held(path.to_owned(), text),
            Err(names) => {
                // One empty text for all: no allocation per released file.
                static EMPTY: std::sync::LazyLock<Arc<str>> = std::sync::LazyLock::new(|| Arc::from(""));
                let text = Arc::clone(&EMPTY);
                SourceFile { path: path.to_owned(), text, lines: OnceLock::new(), released: Some(names) }
            }
        })
    }

    fn held(path: PathBuf, text: Arc<str>) -> SourceFile {
        SourceFile { path, text, lines: OnceLock::new(), released: None }
    }

    /// [`SourceFile::read`] for a file found by walking a directory: one
    /// removed since it was listed is reported as such.
    pub(crate) fn read_found(path: &Path) -> Result<SourceFile> {
        SourceFile::read_found_keeping(path, |_| Keep::Text)
    }

    /// [`SourceFile::read_found`], releasing the file unless `keep` says
    /// its text is needed.
    pub(crate) fn read_found_keeping(path: &Path, keep: impl FnOnce(&str) -> Keep) -> Result<SourceFile> {
        let (file, size) = open_found(path)?;
        SourceFile::read_open(path, file, size, keep).map_err(|err| match std::fs::symlink_metadata(path) {
            Err(gone) if gone.kind() == std::io::ErrorKind::NotFound => removed(path),
            _ => err,
        })
    }

    /// Whether the file's text was let go after its first read (see
    /// [`SourceFile`]).
    pub fn is_released(&self) -> bool {
        self.released.is_some()
    }

    /// Whether a search for references to `names` must look at this file:
    /// always when its text is held; when it is released, only if one of
    /// `names` is not among those its first read ruled out (the first read
    /// searched the same bytes for them, so a second read of those could not
    /// match).
    pub(crate) fn needs_search(&self, names: &Names) -> bool {
        match &self.released {
            None => true,
            Some(ruled_out) => names.iter().any(|name| !ruled_out.contains(name)),
        }
    }

    /// Records that a search of this released file for `names` (read again)
    /// found no reference: they are ruled out from now on too.
    pub(crate) fn rule_out(&mut self, names: &Names) {
        if let Some(ruled_out) = &mut self.released {
            if !names.is_subset(ruled_out) {
                Arc::make_mut(ruled_out).extend(names.iter().cloned());
            }
        }
    }

    /// Reads standard input (`kompat lint -`) under the same limits as
    /// [`SourceFile::read`]; it is shown as [`STDIN_NAME`] in messages.
    pub fn read_stdin() -> Result<SourceFile> {
        let path = Path::new(STDIN_NAME);
        let text = with_text(path, std::io::stdin().lock(), 0, |text| Arc::from(text))?;
        Ok(SourceFile::held(path.to_owned(), text))
    }

    pub fn new(path: PathBuf, text: String) -> SourceFile {
        // One copy of the text, shared by the line index.
        SourceFile::held(path, Arc::from(text))
    }

    /// The file's line index, built on first use.
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::shared(self.text.clone()))
    }

    /// A location in this file for a byte span.
    pub fn locate(&self, start: usize, end: usize) -> Location {
        Location::span(self.path.clone(), self.text.clone(), self.lines(), kompat_span::Span::new(start, end))
    }

    /// A location for the file as a whole.
    pub fn whole(&self) -> Location {
        Location::file(self.path.clone())
    }

    /// Parse errors of this file as one located error.
    pub fn parse_errors(&self, errors: Vec<ParseError>) -> Error {
        Error { diagnostics: errors.into_iter().map(|e| self.parse_failure(e)).collect() }
    }

    fn parse_failure(&self, err: ParseError) -> Diagnostic {
        let location = match err.span {
            Some(span) => self.locate(span.start, span.end),
            None => self.whole(),
        };
        Diagnostic::error(err.message).at(Some(location))
    }
}

/// Reads at most [`MAX_FILE_BYTES`] (and one more, to tell) from `reader`
/// as the text of `path`, checks the size, UTF-8 and line limits, and
/// returns what `use_text` makes of the text. `size` is what the file is
/// expected to hold: it is read at once into a buffer each thread keeps for
/// its next file, so a text that is not kept costs no allocation.
fn with_text<R>(path: &Path, reader: impl std::io::Read, size: u64, use_text: impl FnOnce(&str) -> R) -> Result<R> {
    use std::io::Read;
    thread_local! {
        static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUFFER.with_borrow_mut(|bytes| {
        bytes.clear();
        bytes.reserve(size.min(MAX_FILE_BYTES + 1) as usize);
        let read = reader.take(MAX_FILE_BYTES + 1).read_to_end(bytes);
        let result = match read {
            Err(err) => Err(Error::io(path, &err)),
            Ok(_) if bytes.len() as u64 > MAX_FILE_BYTES => Err(Error::in_file(
                path,
                format!("{} is larger than {} MiB, the most kompat reads", path.display(), MAX_FILE_BYTES >> 20),
            )),
            Ok(_) => match std::str::from_utf8(bytes) {
                Err(_) => Err(Error::in_file(path, format!("{} is not valid UTF-8", path.display()))),
                Ok(text) => match long_line(text.as_bytes()) {
                    Some(start) => {
                        let message = format!("line longer than {} MiB, the most kompat reads", MAX_LINE_BYTES >> 20);
                        let source = SourceFile::new(path.to_owned(), text.to_owned());
                        Err(Error::at(source.locate(start, start), message))
                    }
                    None => Ok(use_text(text)),
                },
            },
        };
        // A rare large file's buffer is not kept.
        if bytes.capacity() > KEPT_BUFFER_BYTES {
            *bytes = Vec::new();
        }
        result
    })
}

/// The files among `picked` (indices into `files`) whose text `matches`,
/// searched on every core, with how many released files were read again to
/// search them. A held file is searched in memory; a released one is read
/// again (the caller picks only those a search may find something in: see
/// [`SourceFile::needs_search`]), and held from then on if it matches.
/// A file that cannot be read again (removed, changed into invalid UTF-8)
/// is an error of its own; all are reported together.
pub(crate) fn search_texts(
    files: &mut [SourceFile],
    picked: &[usize],
    matches: impl Fn(&[u8]) -> bool + Sync,
) -> Result<(Vec<usize>, usize)> {
    enum Found {
        No,
        Yes,
        Read(SourceFile),
        Failed(Error),
    }
    let shared: &[SourceFile] = files;
    let rereads = picked.iter().filter(|&&i| shared[i].is_released()).count();
    let found = crate::parallel::map(
        picked,
        SEARCH_STACK_BYTES,
        |&i| {
            let file = &shared[i];
            if !file.is_released() {
                return if matches(file.text.as_bytes()) { Found::Yes } else { Found::No };
            }
            let keep = |text: &str| match matches(text.as_bytes()) {
                true => Keep::Text,
                false => Keep::Release(Arc::default()),
            };
            match SourceFile::read_found_keeping(&file.path, keep) {
                Ok(read) if read.is_released() => Found::No,
                Ok(read) => Found::Read(read),
                Err(err) => Found::Failed(err),
            }
        },
        |&i, why| Found::Failed(why.error(&shared[i].path)),
    );
    let mut out = Vec::new();
    let mut failures = Vec::new();
    for (&i, found) in picked.iter().zip(found) {
        match found {
            Found::No => {}
            Found::Yes => out.push(i),
            Found::Read(read) => {
                files[i] = read;
                out.push(i);
            }
            Found::Failed(err) => failures.extend(err.diagnostics),
        }
    }
    if failures.is_empty() {
        Ok((out, rereads))
    } else {
        Err(Error { diagnostics: failures })
    }
}

/// The stack of each thread of [`search_texts`]: a byte search needs little.
const SEARCH_STACK_BYTES: usize = 1 << 20;

/// The largest read buffer a thread keeps for its next file.
const KEPT_BUFFER_BYTES: usize = 1 << 20;

/// The start of the first line longer than [`MAX_LINE_BYTES`] (not counting
/// its `\n` or `\r\n`), if any. A text no longer than the limit has none, so
/// almost every file costs nothing here.
fn long_line(text: &[u8]) -> Option<usize> {
    if text.len() <= MAX_LINE_BYTES {
        return None;
    }
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text).chain([text.len()]) {
        let mut line = &text[start..end];
        while let [rest @ .., b'\r' | b'\n'] = line {
            line = rest;
        }
        if line.len() > MAX_LINE_BYTES {
            return Some(start);
        }
        start = end + 1;
    }
    None
}

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
    rust: Option<crate::rust::RustScan>,
    /// What the Go sources among the inputs say besides declarations (the
    /// files and declaring packages references are looked for with).
    go: Option<crate::go::GoScan>,
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

    /// What the Rust sources among the inputs say (their declarations are in
    /// [`Decls::features`]; references to gates and suppressions here).
    /// What the Go sources among the inputs say besides declarations.
    pub fn go(&self) -> Option<&crate::go::GoScan> {
        self.go.as_ref()
    }

    pub fn rust(&self) -> Option<&crate::rust::RustScan> {
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
    /// ([`crate::rust::CustomResource`]) or a kind a CRD manifest among the
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
                        kind: ApiProblemKind::UnusedPriority,
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
                        kind: ApiProblemKind::InvalidStorageOverride,
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
                    Some(kompat_engine::api::GroupVersionKind::new(&d.group, &d.version, &d.kind).to_string())
                }
                (ApiField::Priority { group, .. }, None) => Some(group.clone()),
                (ApiField::StorageOverride { key }, None) => Some(key.clone()),
                _ => None,
            };
        }
        (set, problems)
    }

    /// Where field `field` of API declaration `index` (its index in
    /// [`Decls::api_config`]) is written.
    pub fn locate_api(&self, index: usize, field: ApiField) -> Option<Location> {
        let problem = ApiProblem {
            kind: ApiProblemKind::EmptyValue,
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
            kind: ApiProblemKind::InvalidStorageOverride,
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
                None => failure.message = problem.to_string(),
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
            if input.kind == Kind::Rust {
                rust_files.push(input.source);
            } else if input.kind == Kind::CrdManifest {
                // Not declarations: what they say is which kinds are CRDs.
                decls.manifest_crds.extend(crd_kinds(&input.source.text));
            } else if let Err(err) = decls.add_source(input.source) {
                failures.extend(err.diagnostics);
            }
        }
        if !rust_files.is_empty() {
            match crate::rust::scan(&rust_files, &mut decls) {
                Ok(scan) => decls.rust = Some(scan),
                Err(err) => failures.extend(err.diagnostics),
            }
        }
        if !go_sources.is_empty() {
            match crate::go::scan(go_sources, &mut decls) {
                Ok(scan) => decls.go = Some(scan),
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

/// Loads every input; all files are read ([`crate::inputs::classify`]) and
/// parsed, and every failure of every file is reported together.
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

pub fn load(paths: &[PathBuf]) -> Result<Decls> {
    let (classified, mut failures) = crate::inputs::classify_each(paths);
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

/// Refuses anything but a regular file (following symbolic links), without
/// opening it: opening a FIFO blocks until a writer comes.
pub fn ensure_regular_file(path: &Path) -> Result<()> {
    regular_file_size(path).map(|_| ())
}

/// Opens a file a walk found to be a regular file, and returns it with its
/// size, refusing anything else it may have become since (one removed is
/// reported as such). Opened without blocking and then checked, which saves
/// looking its path up twice: nothing blocks on a FIFO put in its place.
fn open_found(path: &Path) -> Result<(std::fs::File, u64)> {
    let failed = |err: std::io::Error| {
        if err.kind() == std::io::ErrorKind::NotFound {
            removed(path)
        } else {
            Error::io(path, &err)
        }
    };
    #[cfg(unix)]
    let file = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path).map_err(failed)?
    };
    #[cfg(not(unix))]
    let file = {
        regular_file_size(path)?;
        std::fs::File::open(path).map_err(failed)?
    };
    let meta = file.metadata().map_err(failed)?;
    if meta.is_file() {
        return Ok((file, meta.len()));
    }
    let what = file_kind(&meta.file_type());
    Err(Error::in_file(path, format!("cannot read {}: it is {what}, not a regular file", path.display())))
}

/// [`ensure_regular_file`], returning the file's size.
fn regular_file_size(path: &Path) -> Result<u64> {
    let meta = std::fs::metadata(path).map_err(|err| Error::io(path, &err))?;
    if meta.is_file() {
        return Ok(meta.len());
    }
    let what = file_kind(&meta.file_type());
    Err(Error::in_file(path, format!("cannot read {}: it is {what}, not a regular file", path.display())))
}

/// What a file that is not a regular file is, for messages.
fn file_kind(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// Every regular file below `dir`, in sorted order, respecting `.gitignore`
/// and skipping hidden entries. `dir` may be a single regular file.
///
/// File types come from the directory entries, so FIFOs, devices and sockets
/// are skipped without being opened (nothing blocks); symbolic links are not
/// followed. Every regular file is opened once to check that it can be read:
/// an unreadable file or directory, or one removed during the walk, is a
/// located error, never silently skipped. All such failures are reported
/// together.
pub fn walk_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let root = std::fs::metadata(dir).map_err(|err| Error::io(dir, &err))?;
    if !root.is_dir() {
        ensure_regular_file(dir)?;
    }
    let mut files = Vec::new();
    let mut failures = Vec::new();
    let walker = ignore::WalkBuilder::new(dir).require_git(false).sort_by_file_name(|a, b| a.cmp(b)).build();
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                failures.extend(walk_failure(dir, &err).diagnostics);
                continue;
            }
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        match readable(entry.path()) {
            Ok(()) => files.push(entry.path().to_owned()),
            Err(err) => failures.extend(err.diagnostics),
        }
    }
    if failures.is_empty() {
        Ok(files)
    } else {
        Err(Error { diagnostics: failures })
    }
}

/// Opens a regular file found by a walk, to report it now if it cannot be
/// read or has been removed since it was listed.
pub(crate) fn readable(path: &Path) -> Result<()> {
    match std::fs::File::open(path) {
        Ok(_) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Err(removed(path)),
        Err(err) => Err(Error::io(path, &err)),
    }
}

/// A file listed by a walk and gone since.
fn removed(path: &Path) -> Error {
    Error::in_file(path, format!("{} was removed while its directory was read", path.display()))
}

/// A walk error, located at the path it is about.
pub(crate) fn walk_failure(dir: &Path, err: &ignore::Error) -> Error {
    fn parts(err: &ignore::Error) -> (Option<&Path>, Option<&std::io::Error>) {
        match err {
            ignore::Error::WithPath { path, err } => (Some(path), parts(err).1),
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => parts(err),
            ignore::Error::Io(io) => (None, Some(io)),
            _ => (None, None),
        }
    }
    let (path, io) = parts(err);
    let path = path.unwrap_or(dir);
    match io {
        Some(io) if io.kind() == std::io::ErrorKind::NotFound => {
            Error::in_file(path, format!("{} was removed while its directory was read", path.display()))
        }
        // The walker wraps the OS error in its own text; report the OS's.
        Some(io) => match os_error(io) {
            Some(code) => Error::io(path, &std::io::Error::from_raw_os_error(code)),
            None => Error::io(path, io),
        },
        None => Error::in_file(path, format!("cannot walk {}: {err}", path.display())),
    }
}

/// The OS error code of an I/O error, looking through errors it wraps.
fn os_error(io: &std::io::Error) -> Option<i32> {
    if let Some(code) = io.raw_os_error() {
        return Some(code);
    }
    let mut inner: Option<&(dyn std::error::Error + 'static)> = io.get_ref().map(|e| e as _);
    while let Some(err) = inner {
        if let Some(code) = err.downcast_ref::<std::io::Error>().and_then(std::io::Error::raw_os_error) {
            return Some(code);
        }
        inner = err.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(err: Error) -> Vec<String> {
        err.to_string().lines().map(str::to_owned).collect()
    }

    #[test]
    fn files_removed_during_a_walk_are_reported() {
        let gone = Path::new("/nonexistent-kompat-dir/gone.toml");
        let expected = ["/nonexistent-kompat-dir/gone.toml: /nonexistent-kompat-dir/gone.toml was removed while its directory was read"];
        assert_eq!(readable(gone).map_err(messages), Err(expected.map(str::to_owned).to_vec()));
        // As the walker reports an entry that vanished between listing and
        // reading its type.
        let err = ignore::Error::WithPath {
            path: gone.to_owned(),
            err: Box::new(ignore::Error::Io(std::io::Error::from(std::io::ErrorKind::NotFound))),
        };
        assert_eq!(messages(walk_failure(Path::new("/nonexistent-kompat-dir"), &err)), expected);
        let denied = ignore::Error::WithDepth {
            depth: 1,
            err: Box::new(ignore::Error::WithPath {
                path: gone.to_owned(),
                err: Box::new(ignore::Error::Io(std::io::Error::from(std::io::ErrorKind::PermissionDenied))),
            }),
        };
        assert_eq!(
            messages(walk_failure(Path::new("/"), &denied)),
            ["/nonexistent-kompat-dir/gone.toml: cannot read /nonexistent-kompat-dir/gone.toml: permission denied"]
        );
    }
}
