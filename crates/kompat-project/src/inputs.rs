//! The one input classification of the workspace: what each input file is,
//! read once. Every command that takes paths (`--decls`, `kompat lint`'s
//! positional paths, `--baseline`) goes through [`classify`]; what it returns
//! carries the file's text, so nothing reads a file twice (but for a Rust
//! file found in a directory and released, see [`crate::source::ReleasedFile`]),
//! and every I/O error is reported with the file it is about.
//!
//! The rules:
//!
//! - A `.rs` file is Rust source; a `.toml` file is kompat TOML.
//! - A YAML (`.yaml`, `.yml`) or JSON file naming `CustomResourceDefinition`
//!   is a CRD manifest; `versioned_feature_list.yaml` and `*.features.yaml`/`.yml` are
//!   feature lists.
//! - Deployment material: any other YAML, shell scripts, Markdown, unit and
//!   env files, Dockerfiles and Containerfiles; and JSON files that hold a
//!   Kubernetes object (a mapping with `apiVersion` and `kind`).
//! - `-` is standard input (`helm template ... | kompat lint -`), read as
//!   YAML deployment material.
//!
//! Deployment material and CRD manifests are also Kubernetes manifests:
//! [`Input::manifest_objects`] returns their objects (a static pod manifest
//! both sets gates and is an object to check), [`Input::gate_settings`] the
//! gates they set, [`Input::rbac_roles`] the RBAC roles among the objects.
//!
//! A **named** file (given as a path) is always returned: a named YAML file is
//! a feature list when it parses as one with features, and when it is not
//! YAML at all (so it is reported as malformed rather than skimmed for
//! flags). In a **directory** (walked in sorted order, respecting
//! `.gitignore`, skipping hidden entries), a `.toml` file counts only when it
//! has a top-level kompat key (or does not parse and is not a well-known
//! tool file such as `Cargo.toml`); YAML counts by name or as a manifest or
//! deployment material (a feature list by content alone does not count);
//! files of any other kind are neither read nor returned.
//!
//! A directory is walked as ripgrep walks one: what [`Exclude`] matches is
//! left out, `.gitignore` files count inside a git repository only, and
//! `vendor/`, `third_party/` and `node_modules/` ([`VENDORED_DIRS`]) are not
//! entered (others' code: read only when named). A directory with a
//! `Chart.yaml` is a Helm chart: the files below its `templates/` are not
//! read (its values files are); a directory with a kustomization file is a
//! kustomize directory, and the inputs in or below it are marked
//! [`Input::in_overlay`] (a partial CRD there is a patch, not an error). Both
//! are listed in [`Classified`]; a named file is placed by the directories of
//! its path as given.
//!
//! Go sources are declarations too ([`crate::go`]): a named `.go` file, and
//! in a directory every `.go` file but `_test.go` and `zz_generated*` ones,
//! outside `vendor/` and `testdata/` directories below it. They are listed,
//! not read: the Go reader reads them in parallel and parses only those that
//! import `k8s.io/component-base/featuregate`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use kompat_formats::deploy::{gate_settings_in, GateSetting, Material};
use kompat_formats::manifest::{full_parse, read_stream, ManifestObject, Stream};
use kompat_formats::rbac::{roles_in, Role};
use kompat_formats::yaml::parse_documents;
use kompat_formats::ParseError;

use kompat_rust::{first_read, EarlyNames};

use crate::error::{Error, Result};
pub use crate::exclude::Exclude;
use crate::source::{Read, SourceFile, STDIN_NAME};
use kompat_diag::{Diagnostic, Location};

/// What an input file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Kubernetes' `versioned_feature_list.yaml` format.
    FeatureList,
    /// kompat TOML: features, `[[stored_before_written]]` and APIs.
    KompatToml,
    /// Rust source: `#[derive(FeatureGates)]`/`#[derive(ApiLifecycle)]`
    /// declarations and references to gates.
    Rust,
    /// A CustomResourceDefinition manifest.
    CrdManifest,
    /// Deployment material, read for `--feature-gates` flags and
    /// `featureGates:` maps.
    Deployment,
    /// Anything else (only ever a named file).
    Other,
}

/// One input file, read.
#[derive(Debug, Clone)]
pub struct Input {
    pub kind: Kind,
    /// The file, its text held; or, for a Rust file found in a directory
    /// that cannot declare or reference anything by itself, released.
    pub file: Read,
    /// Named as a path, not found by walking a directory.
    pub named: bool,
    /// Found in a kustomize directory (one with a kustomization file, or
    /// below one): it may be a patch or another partial object, never a
    /// hard error for what it leaves out.
    pub in_overlay: bool,
    /// The YAML (or JSON) documents of the text, read once for the
    /// classification, the objects and the gate settings alike: each
    /// skimmed for its object, parsed when a reader needs its tree
    /// ([`read_stream`]).
    documents: OnceLock<Documents>,
}

/// What [`read_stream`] says of a text: what [`parse_documents`] says of it.
type Documents = std::result::Result<Stream, ParseError>;

impl Input {
    /// An input of `kind`, read from `source`; `named` when given as a path.
    pub fn new(kind: Kind, source: SourceFile, named: bool) -> Input {
        Input { kind, file: Read::Held(source), named, in_overlay: false, documents: OnceLock::new() }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// The file, when its text is held (always, but for a released Rust
    /// file).
    pub fn source(&self) -> Option<&SourceFile> {
        match &self.file {
            Read::Held(source) => Some(source),
            Read::Released(_) => None,
        }
    }

    /// [`Input::source`], by value.
    pub fn into_source(self) -> Option<SourceFile> {
        match self.file {
            Read::Held(source) => Some(source),
            Read::Released(_) => None,
        }
    }

    /// Whether the text is well-formed YAML (or JSON): a partial object in
    /// an overlay that is is skipped, one that is not is malformed.
    pub fn is_well_formed(&self) -> bool {
        self.documents().is_ok()
    }

    /// The text's YAML documents, read on first use; a released (Rust)
    /// file has none. With `KOMPAT_FULL_PARSE` set in the environment every
    /// document is parsed (the fast path's test compares both).
    fn documents(&self) -> std::result::Result<&Stream, &ParseError> {
        let parse = || {
            let Some(source) = self.source() else { return Ok(Stream::default()) };
            if full_parse() {
                parse_documents(&source.text).map(Stream::parsed)
            } else {
                read_stream(&source.text)
            }
        };
        self.documents.get_or_init(parse).as_ref()
    }

    /// The YAML (or JSON) documents of the text as read for its objects
    /// (each skimmed, or parsed when a reader needs its tree: see
    /// [`read_stream`]), read on first use; `None` when the text does not
    /// parse. A reader that parses more of the text skips what is parsed
    /// here.
    pub fn stream(&self) -> Option<&Stream> {
        self.documents().ok()
    }

    /// Whether this input is read as declarations: every named file that is
    /// not CRD or deployment material (which `kompat lint` reads as such), and
    /// the declaration files of a directory.
    pub fn is_declarations(&self) -> bool {
        matches!(self.kind, Kind::FeatureList | Kind::KompatToml | Kind::Rust)
            || (self.named && self.kind == Kind::Other)
    }

    /// Whether `kompat load` (every command but `lint`) reads this input as
    /// declarations: a named file always, whatever it is.
    pub fn is_loaded(&self) -> bool {
        self.named || self.is_declarations()
    }

    /// Every gate setting in this file when it is deployment material,
    /// located (the scanning is `kompat_formats::deploy`'s). YAML beyond the
    /// parser's limits (an alias bomb, extreme nesting) is a located error.
    pub fn gate_settings(&self) -> Result<Vec<GateSetting<Location>>> {
        let (Kind::Deployment, Some(source)) = (self.kind, self.source()) else { return Ok(Vec::new()) };
        let material = if is_helm_values(&source.path) {
            Material::HelmValues
        } else if is_structured(&source.path) {
            Material::Yaml
        } else if is_markdown(&source.path) {
            Material::Markdown
        } else {
            Material::Text
        };
        let parsed = if matches!(material, Material::Text | Material::Markdown) {
            Ok(&[][..])
        } else {
            self.documents().map(Stream::trees)
        };
        let settings =
            gate_settings_in(&source.text, material, parsed).map_err(|err| source.parse_errors(vec![err]))?;
        Ok(settings.into_iter().map(|s| s.map_location(|span| source.locate(span.start, span.end))).collect())
    }
}

impl Input {
    /// Every Kubernetes object in this file when it is YAML or JSON
    /// deployment material or a CRD manifest (a `List`'s items in its place),
    /// located by its `apiVersion` value. Templated YAML that does not parse
    /// has no objects; YAML beyond the parser's limits is a located error, and
    /// so is standard input that does not parse (it is manifests by intent).
    /// The CustomResourceDefinitions of a CRD manifest are objects too: their
    /// `apiVersion` is checked at the target version like any other's
    /// (`apiextensions.k8s.io/v1beta1` is served up to 1.21).
    pub fn manifest_objects(&self) -> Result<Vec<ManifestObject<Location>>> {
        let Some(source) = self.source() else { return Ok(Vec::new()) };
        if !matches!(self.kind, Kind::Deployment | Kind::CrdManifest) || !is_structured(&source.path) {
            return Ok(Vec::new());
        }
        match self.documents() {
            Ok(docs) => Ok(docs.objects_located(|s| source.locate(s.start, s.end))),
            Err(err) if kompat_formats::yaml::is_limit_error(err) || is_stdin(&source.path) => {
                Err(source.parse_errors(vec![err.clone()]))
            }
            Err(_) => Ok(Vec::new()),
        }
    }

    /// The RBAC `Role`s and `ClusterRole`s among [`Input::manifest_objects`]
    /// (`kompat_formats::rbac`), located. Text that does not parse has none:
    /// [`Input::manifest_objects`] reports what is an error.
    pub fn rbac_roles(&self) -> Vec<Role<Location>> {
        let Some(source) = self.source() else { return Vec::new() };
        if !matches!(self.kind, Kind::Deployment | Kind::CrdManifest) || !is_structured(&source.path) {
            return Vec::new();
        }
        let Ok(docs) = self.documents() else { return Vec::new() };
        roles_in(docs.trees()).into_iter().map(|r| r.map_location(|s| source.locate(s.start, s.end))).collect()
    }
}

/// The inputs of a run: the files read and classified, and the Go sources,
/// listed for the Go reader.
#[derive(Debug, Clone, Default)]
pub struct Classified {
    pub inputs: Vec<Input>,
    pub go_sources: Vec<PathBuf>,
    /// The Helm charts met (directories with a `Chart.yaml`), sorted: their
    /// `templates/` are not read.
    pub charts: Vec<PathBuf>,
    /// The kustomize directories met (with a `kustomization.yaml`,
    /// `kustomization.yml` or `Kustomization`), sorted.
    pub overlays: Vec<PathBuf>,
}

/// Classifies every input: a path to a file is one input, a directory is
/// every file below it that counts (see the module documentation). Each file
/// is read once; every failure of every input is reported together.
pub fn classify(paths: &[PathBuf]) -> Result<Classified> {
    classify_excluding(paths, &Exclude::none())
}

/// [`classify`], leaving out what `exclude` matches below each directory.
pub fn classify_excluding(paths: &[PathBuf], exclude: &Exclude) -> Result<Classified> {
    let (classified, failures) = classify_each(paths, exclude);
    if failures.is_empty() {
        Ok(classified)
    } else {
        Err(Error { diagnostics: failures })
    }
}

/// Every input that could be read, and the failures of those that could not.
pub(crate) fn classify_each(paths: &[PathBuf], exclude: &Exclude) -> (Classified, Vec<Diagnostic>) {
    let mut inputs = Vec::new();
    let mut go_sources = Vec::new();
    let mut failures = Vec::new();
    let mut packaged = Packaged::default();
    for path in paths {
        if path.as_os_str() == "-" {
            match SourceFile::read_stdin() {
                Ok(source) => inputs.push(Input::new(Kind::Deployment, source, true)),
                Err(err) => failures.extend(err.diagnostics),
            }
            continue;
        }
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(err) => {
                failures.extend(Error::io(path, &err).diagnostics);
                continue;
            }
        };
        let result = if meta.is_dir() {
            // The directory may itself be in a chart's templates, or in (or
            // below) a kustomize directory.
            let inside = path.join("_");
            if let Some(chart) = template_of(&inside) {
                packaged.charts.push(chart);
                continue;
            }
            let before = inputs.len();
            let result = classify_dir(path, exclude, &mut inputs, &mut go_sources, &mut packaged);
            if let Some(overlay) = overlay_of(&inside) {
                inputs[before..].iter_mut().for_each(|input| input.in_overlay = true);
                packaged.overlays.push(overlay);
            }
            result
        } else if is_go(path) {
            // Named: read whatever its name, never blocking on a special file.
            crate::source::ensure_regular_file(path).map(|()| go_sources.push(path.clone()))
        } else if let Some(chart) = template_of(path) {
            // A chart's template is not YAML until rendered.
            packaged.charts.push(chart);
            Ok(())
        } else {
            let overlay = overlay_of(path);
            let before = inputs.len();
            let result = classify_named(path, &mut inputs);
            if let Some(overlay) = overlay {
                inputs[before..].iter_mut().for_each(|input| input.in_overlay = true);
                packaged.overlays.push(overlay);
            }
            result
        };
        if let Err(err) = result {
            failures.extend(err.diagnostics);
        }
    }
    let Packaged { mut charts, mut overlays } = packaged;
    for list in [&mut charts, &mut overlays] {
        list.sort_unstable();
        list.dedup();
    }
    (Classified { inputs, go_sources, charts, overlays }, failures)
}

/// The charts and kustomize directories of a run.
#[derive(Default)]
struct Packaged {
    charts: Vec<PathBuf>,
    overlays: Vec<PathBuf>,
}

/// The chart whose template a named file is: a file in a `templates/`
/// directory (at any depth) of a directory with a `Chart.yaml`, among the
/// directories of the path as given.
fn template_of(path: &Path) -> Option<PathBuf> {
    let mut dir = path.parent()?;
    while let Some(parent) = dir.parent() {
        if dir.file_name().is_some_and(|n| n == "templates") && parent.join(CHART_FILE).is_file() {
            return Some(parent.to_owned());
        }
        dir = parent;
    }
    None
}

/// The kustomize directory a named file is in (or below), among the
/// directories of the path as given.
fn overlay_of(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .skip(1)
        .take_while(|dir| !dir.as_os_str().is_empty())
        .find(|dir| KUSTOMIZATION_FILES.iter().any(|name| dir.join(name).is_file()))
        .map(Path::to_owned)
}

/// The file that makes a directory a Helm chart.
const CHART_FILE: &str = "Chart.yaml";

/// The files that make a directory a kustomize directory, as kustomize
/// looks for them.
const KUSTOMIZATION_FILES: [&str; 3] = ["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// Directories of other projects' code, never the project's own: a walk
/// does not enter them (they are read only when named).
pub const VENDORED_DIRS: [&str; 3] = ["vendor", "third_party", "node_modules"];

fn is_go(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "go")
}

fn classify_named(path: &Path, out: &mut Vec<Input>) -> Result<()> {
    let source = SourceFile::read(path)?;
    let names_crd = names_crd(&source);
    let mut input = Input::new(Kind::Other, source, true);
    input.kind = match by_name(path) {
        Some(Kind::Deployment) if is_yaml(path) => named_yaml(&input),
        Some(Kind::Deployment) if is_json(path) && !may_hold_objects(&input) => Kind::Other,
        Some(kind) => kind,
        None => Kind::Other,
    };
    if matches!(input.kind, Kind::FeatureList | Kind::Deployment) && names_crd {
        input.kind = Kind::CrdManifest;
    }
    out.push(input);
    Ok(())
}

fn classify_dir(
    dir: &Path,
    exclude: &Exclude,
    out: &mut Vec<Input>,
    go_sources: &mut Vec<PathBuf>,
    packaged: &mut Packaged,
) -> Result<()> {
    let mut found = walk_dir(dir, exclude);
    if !found.failures.is_empty() {
        return Err(Error { diagnostics: found.failures.into_iter().flat_map(|(_, err)| err.diagnostics).collect() });
    }
    go_sources.extend(found.go);
    // A chart's templates are not YAML until rendered, and its `tests/`
    // are helm-unittest's suites (their `set:` values are test inputs, not
    // settings): neither is read.
    let templates: Vec<PathBuf> =
        found.charts.iter().flat_map(|chart| [chart.join("templates"), chart.join("tests")]).collect();
    found.files.retain(|(path, _)| !templates.iter().any(|t| path.starts_with(t)));
    let overlays = std::mem::take(&mut found.overlays);
    packaged.charts.append(&mut found.charts);
    packaged.overlays.extend(overlays.iter().cloned());
    // Every file, read and looked at on every core with room for the YAML
    // and TOML parsers, in the order of `read_order`. Sorted once by path
    // (the order of a sorted walk: a directory's entries by name), read in
    // that other order.
    let mut files = found.files;
    files.sort_by_cached_key(|(path, _)| path_order_key(path));
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_cached_key(|&i| read_order(&files[i].0, files[i].1));
    let early = EarlyNames::new();
    let results = kompat_rust::parallel::map(
        &order,
        READ_STACK_BYTES,
        |&i| match &files[i] {
            (path, Kind::Rust) => read_rust(path, &early),
            (path, kind) => classify_found(path, *kind),
        },
        |&i, why| Err(Error { diagnostics: vec![why.diagnostic(&files[i].0)] }),
    );
    // Back in the sorted order.
    let mut read: Vec<(usize, Result<Option<Input>>)> = order.into_iter().zip(results).collect();
    read.sort_unstable_by_key(|&(i, _)| i);
    let mut failures = Vec::new();
    for (_, result) in read {
        match result {
            Ok(Some(mut input)) => {
                input.in_overlay = overlays.iter().any(|o| input.path().starts_with(o));
                out.push(input);
            }
            Ok(None) => {}
            Err(err) => failures.extend(err.diagnostics),
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Error { diagnostics: failures })
    }
}

/// Where a file found in a directory comes in the order of the reads
/// (smallest first): the Rust files first, those whose name says they may
/// declare gates (`features.rs`, `gates.rs`, `feature_gates.rs`) first among
/// them, then nearest the root first, so that the files declaring derived
/// enums are met before most of those searched for their names (see
/// [`read_rust`]). Only an order: any gives the same result.
fn read_order(path: &Path, kind: Kind) -> (bool, bool, usize) {
    let stem = path.file_stem().map(|s| s.as_encoded_bytes()).unwrap_or_default();
    let has = |word: &[u8]| stem.windows(word.len()).any(|w| w.eq_ignore_ascii_case(word));
    let named = has(b"feature") || has(b"gate");
    (kind != Kind::Rust, !named, path.components().count())
}

/// A key whose byte order is the order of paths (`Path`'s, component by
/// component): each component after a 0 byte, which no component holds,
/// and a byte telling its kind in `Component`'s order. Sorting thousands of
/// paths by it compares bytes instead of splitting both paths into
/// components at every comparison.
fn path_order_key(path: &Path) -> Vec<u8> {
    use std::path::Component;
    let mut key = Vec::with_capacity(path.as_os_str().len() + 8);
    for component in path.components() {
        key.push(0);
        match component {
            Component::Prefix(prefix) => {
                key.push(1);
                key.extend_from_slice(prefix.as_os_str().as_encoded_bytes());
            }
            Component::RootDir => key.push(2),
            Component::CurDir => key.push(3),
            Component::ParentDir => key.push(4),
            Component::Normal(name) => {
                key.push(5);
                key.extend_from_slice(name.as_encoded_bytes());
            }
        }
    }
    key
}

/// What a walk of a directory found.
#[derive(Default)]
struct Found {
    /// The files kompat reads, with what their name says they are.
    files: Vec<(PathBuf, Kind)>,
    /// The Go sources, checked to be readable, not read, in sorted order.
    go: Vec<PathBuf>,
    /// The walk's failures, by the path they are about, in sorted order.
    failures: Vec<(PathBuf, Error)>,
    /// The directories with a `Chart.yaml`.
    charts: Vec<PathBuf>,
    /// The directories with a kustomization file.
    overlays: Vec<PathBuf>,
}

/// Walks `dir` on every core (respecting `.gitignore` as ripgrep does,
/// skipping hidden entries, what `exclude` matches and vendored directories,
/// never following symbolic links, never opening a special file), listing
/// the files kompat reads; files of any other kind are neither opened nor
/// listed.
fn walk_dir(dir: &Path, exclude: &Exclude) -> Found {
    use ignore::WalkState;
    let found = std::sync::Mutex::new(Found::default());
    let exclude = std::sync::Arc::new(exclude.clone());
    let walker = ignore::WalkBuilder::new(dir)
        .filter_entry(move |entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            let vendored = is_dir
                && entry.depth() > 0
                && entry.file_name().to_str().is_some_and(|name| VENDORED_DIRS.contains(&name));
            !vendored && !exclude.is_excluded(entry.path(), is_dir)
        })
        .build_parallel();
    walker.run(|| {
        let found = &found;
        // Each thread gathers its own and hands them over when done.
        let mut mine = Gathered { found, batch: Found::default() };
        Box::new(move |entry| {
            mine.visit(dir, entry);
            WalkState::Continue
        })
    });
    let mut found = found.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    found.go.sort_unstable();
    found.failures.sort_by(|(a, _), (b, _)| a.cmp(b));
    found
}

/// One walking thread's findings, handed to the shared [`Found`] when the
/// thread is done.
struct Gathered<'a> {
    found: &'a std::sync::Mutex<Found>,
    batch: Found,
}

impl Gathered<'_> {
    fn visit(&mut self, dir: &Path, entry: std::result::Result<ignore::DirEntry, ignore::Error>) {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                let failure = crate::source::walk_failure(dir, &err);
                let path = failure.diagnostics.first().and_then(|d| d.location.as_ref()).map(|l| l.path().to_owned());
                self.batch.failures.push((path.unwrap_or_else(|| dir.to_owned()), failure));
                return;
            }
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            return;
        }
        let path = entry.into_path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if let Some(parent) = path.parent() {
            if name == CHART_FILE {
                self.batch.charts.push(parent.to_owned());
            } else if KUSTOMIZATION_FILES.contains(&name) {
                self.batch.overlays.push(parent.to_owned());
            }
        }
        if is_go(&path) {
            if is_go_source(&path) && !is_skipped_dir(dir, &path) {
                match crate::source::readable(&path) {
                    Ok(()) => self.batch.go.push(path),
                    Err(err) => self.batch.failures.push((path, err)),
                }
            }
            return;
        }
        if let Some(kind) = by_name(&path) {
            self.batch.files.push((path, kind));
        }
    }
}

impl Drop for Gathered<'_> {
    fn drop(&mut self) {
        let mut found = self.found.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let batch = std::mem::take(&mut self.batch);
        found.files.extend(batch.files);
        found.go.extend(batch.go);
        found.failures.extend(batch.failures);
        found.charts.extend(batch.charts);
        found.overlays.extend(batch.overlays);
    }
}

/// The stack of each thread that reads a directory's files: the YAML and
/// TOML parsers bound their own nesting.
const READ_STACK_BYTES: usize = 8 << 20;

/// A Rust file found in a directory, read: released after its checks unless
/// it can declare or reference something without a derived enum's name,
/// and searched for the names `early` knows ([`kompat_rust::first_read`]).
fn read_rust(path: &Path, early: &EarlyNames) -> Result<Option<Input>> {
    let file = crate::source::read_found_keeping(path, |text| first_read(text, early))?;
    Ok(Some(Input { kind: Kind::Rust, file, named: false, in_overlay: false, documents: OnceLock::new() }))
}

/// A file found in a directory, whose name says it may be `kind` (not
/// Rust: [`read_rust`]): read, and returned when its content says it counts.
fn classify_found(path: &Path, kind: Kind) -> Result<Option<Input>> {
    let source = SourceFile::read_found(path)?;
    let (kompat_toml, names_crd) = (kind == Kind::KompatToml && is_kompat_toml(path, &source.text), names_crd(&source));
    let mut input = Input::new(kind, source, false);
    input.kind = match kind {
        Kind::KompatToml if !kompat_toml => return Ok(None),
        Kind::FeatureList | Kind::Deployment if names_crd => Kind::CrdManifest,
        // A feature list by content only counts when named.
        Kind::Deployment if is_yaml(path) && is_feature_list(&input) => return Ok(None),
        // JSON counts only as a Kubernetes object.
        Kind::Deployment if is_json(path) && !may_hold_objects(&input) => return Ok(None),
        kind => kind,
    };
    Ok(Some(input))
}

/// What a file is by its name alone, before its content is looked at; `None`
/// for files kompat does not read in a directory. YAML other than a feature
/// list is `Deployment` here, refined by content.
fn by_name(path: &Path) -> Option<Kind> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
    match ext {
        "rs" => Some(Kind::Rust),
        "toml" => Some(Kind::KompatToml),
        _ if name == "versioned_feature_list.yaml"
            || name.ends_with(".features.yaml")
            || name.ends_with(".features.yml") =>
        {
            Some(Kind::FeatureList)
        }
        "yaml" | "yml" | "json" | "sh" | "bash" | "md" | "service" | "env" | "conf" => Some(Kind::Deployment),
        _ if name.starts_with("Dockerfile") || name.starts_with("Containerfile") => Some(Kind::Deployment),
        _ => None,
    }
}

/// A YAML or JSON file that names `CustomResourceDefinition` is a CRD
/// manifest, whatever its name.
fn names_crd(source: &SourceFile) -> bool {
    (is_yaml(&source.path) || is_json(&source.path)) && mentions_crd(&source.text)
}

/// Whether `text` holds `CustomResourceDefinition`: one search of every
/// file read, with a searcher built once.
fn mentions_crd(text: &str) -> bool {
    static FINDER: std::sync::OnceLock<memchr::memmem::Finder<'static>> = std::sync::OnceLock::new();
    FINDER.get_or_init(|| memchr::memmem::Finder::new(b"CustomResourceDefinition")).find(text.as_bytes()).is_some()
}

/// A named YAML file that is not a feature list by name: a CRD manifest, a
/// feature list by content, malformed (reported as a feature list), or
/// deployment material.
fn named_yaml(input: &Input) -> Kind {
    if input.source().is_some_and(|source| mentions_crd(&source.text)) {
        return Kind::CrdManifest;
    }
    if is_feature_list(input) || input.documents().is_err() {
        Kind::FeatureList
    } else {
        Kind::Deployment
    }
}

/// YAML that parses as a feature list with features. A feature list is one
/// document, a sequence: a text whose first document starts with a
/// mapping's key (or a plain scalar) at column 0 is not one, and is not
/// parsed to find out.
fn is_feature_list(input: &Input) -> bool {
    let Some(source) = input.source() else { return false };
    if !may_be_sequence(&source.text) {
        return false;
    }
    let docs = match input.documents() {
        Ok(stream) if stream.is_whole() => return feature_list_in(&source.text, stream.trees()),
        Ok(stream) if stream.has_skimmed_mapping() => return false,
        Ok(_) => parse_documents(&source.text),
        Err(_) => return false,
    };
    docs.is_ok_and(|docs| feature_list_in(&source.text, &docs))
}

fn feature_list_in(text: &str, docs: &[kompat_formats::yaml::Node]) -> bool {
    kompat_formats::k8s_yaml_in(text, docs).is_ok_and(|file| !file.is_empty())
}

/// Whether the first document of a YAML text may be a sequence: false when
/// its first line of content (past blank and comment lines and a `---`
/// line) starts at column 0 with a letter or digit, a mapping's key or a
/// plain scalar.
fn may_be_sequence(text: &str) -> bool {
    for line in text.lines() {
        let content = line.trim_start_matches(' ');
        if content.is_empty() || content.starts_with('#') || line.trim_end() == "---" {
            continue;
        }
        return !(content.len() == line.len() && content.starts_with(|c: char| c.is_ascii_alphanumeric()));
    }
    true
}

/// Well-known tool files that are not kompat declarations even when they do
/// not parse.
const TOOL_TOML: [&str; 5] = ["Cargo.toml", "kompat.toml", "rustfmt.toml", "clippy.toml", "deny.toml"];

/// A `.toml` file in a directory is kompat TOML when it has a top-level
/// kompat key; one that is not TOML at all counts (and is reported when it is
/// parsed) unless it is a well-known tool file.
fn is_kompat_toml(path: &Path, text: &str) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    // Without a key's name and without an escape (the only way to write a
    // key without its letters), a well-known tool file cannot count: not
    // parsed at all.
    let may_name_key = text.contains('\\') || kompat_formats::TOP_LEVEL_KEYS.iter().any(|k| names_key(text, k));
    if !may_name_key && TOOL_TOML.contains(&name) {
        return false;
    }
    match toml::de::DeTable::parse(text) {
        Ok(table) => kompat_formats::TOP_LEVEL_KEYS.iter().any(|k| table.get_ref().contains_key(*k)),
        Err(_) => !TOOL_TOML.contains(&name),
    }
}

/// Whether `key` occurs in `text` as a whole TOML key: not inside a longer
/// bare key (`[features]`, `default-features` and `rapidjson` do not name
/// `feature` or `api`). A key is written bare, quoted or with escapes (which
/// the caller looks for), so a text without it cannot have that key.
fn names_key(text: &str, key: &str) -> bool {
    let bare = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let bytes = text.as_bytes();
    memchr::memmem::find_iter(bytes, key.as_bytes()).any(|start| {
        let end = start + key.len();
        (start == 0 || !bare(bytes[start - 1])) && bytes.get(end).is_none_or(|&b| !bare(b))
    })
}

/// Whether JSON holds a Kubernetes object. One names `apiVersion`, or
/// writes a letter of it with an escape: text without either is not parsed
/// to find out.
fn may_hold_objects(input: &Input) -> bool {
    input.source().is_some_and(|source| may_name_api_version(&source.text))
        && input.documents().is_ok_and(Stream::has_objects)
}

/// Whether `text` may have an `apiVersion` key. JSON is read as YAML, in
/// whose double-quoted scalars only `\x`, `\u` and `\U` give a letter and an
/// escaped line break joins two lines (`"api\` then `Version"`); every other
/// escape (`\n`, `\"`, `\\`, ...) gives a character that is no letter. A
/// schema's patterns (`"^\\d+$"`) are not parsed for their backslashes.
fn may_name_api_version(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memmem::find(bytes, b"apiVersion").is_some()
        || memchr::memchr_iter(b'\\', bytes)
            .any(|at| matches!(bytes.get(at + 1), Some(b'x' | b'u' | b'U' | b'\n' | b'\r')))
}

fn is_yaml(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
}

fn is_json(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "json")
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN_NAME
}

/// A Helm chart's values file: `values.yaml`, `values-*.yaml`,
/// `*-values.yaml` or `*.values.yaml` (and `.yml`).
fn is_helm_values(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let Some(stem) = name.strip_suffix(".yaml").or_else(|| name.strip_suffix(".yml")) else { return false };
    stem == "values" || stem.starts_with("values-") || stem.ends_with("-values") || stem.ends_with(".values")
}

/// Markdown: its comments are HTML's, not `#`.
fn is_markdown(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| matches!(e, "md" | "markdown"))
}

/// YAML, JSON (YAML 1.2) or standard input: read through the YAML tree.
fn is_structured(path: &Path) -> bool {
    is_yaml(path) || is_json(path) || is_stdin(path)
}

/// True for a Go file the tool reads: `.go`, not `_test.go`, not
/// `zz_generated*`.
pub fn is_go_source(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    name.ends_with(".go") && !name.ends_with("_test.go") && !name.starts_with("zz_generated")
}

/// True when `file`, found by walking `root`, lies below a `vendor` or
/// `testdata` directory under `root` (skipped unless named).
pub fn is_skipped_dir(root: &Path, file: &Path) -> bool {
    let relative = file.strip_prefix(root).unwrap_or(file);
    let dirs = relative.parent().map(|p| p.components().collect::<Vec<_>>()).unwrap_or_default();
    dirs.iter().any(|c| matches!(c.as_os_str().to_str(), Some("vendor" | "testdata")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paths ordered by [`path_order_key`] are in `Path`'s order, pair by
    /// pair: separators, prefixes of names, `.` and `..`, roots, doubled
    /// and trailing separators, names with bytes below and above `/`.
    #[test]
    fn path_order_key_orders_as_paths_do() {
        let paths = [
            "",
            ".",
            "..",
            "/",
            "//",
            "a",
            "a/",
            "a//b",
            "a/./b",
            "a/../b",
            "./a",
            "../a",
            "/a",
            "/a/b",
            "a/b",
            "a-b",
            "a.b",
            "a0",
            "ab",
            "ab/c",
            "a/b/c",
            "a/bc",
            "a b",
            "a\\b",
            "é",
            "a/é",
            "A",
            "a/B",
            "a/b/",
            "./",
            "b",
            "b/a",
            "./a/b",
            "a/.",
            "a/..",
            "/..",
            "x/y/z.yaml",
            "x/y-z.yaml",
            "x/y/z-a.yaml",
            "x/yz.yaml",
        ];
        for a in paths {
            for b in paths {
                let (a, b) = (Path::new(a), Path::new(b));
                assert_eq!(path_order_key(a).cmp(&path_order_key(b)), a.cmp(b), "{a:?} against {b:?}");
            }
        }
    }

    #[test]
    fn tool_files_are_parsed_only_when_they_may_name_a_kompat_key() {
        let check = |text: &str, key: &str, expected: bool| assert_eq!(names_key(text, key), expected, "{text:?}");
        check("[features]\ndefault = []\n", "feature", false);
        check("serde = { default-features = false }\n", "feature", false);
        check("rapidjson = \"1\"\n", "api", false);
        check("feature_x = 1\n", "feature", false);
        check("[[feature]]\nname = \"A\"\n", "feature", true);
        check("\"feature\" = []\n", "feature", true);
        check("feature.name = \"A\"\n", "feature", true);
        check("[package.metadata.api]\n", "api", true);
        check("api", "api", true);
        // Only a parse tells these apart; both are parsed.
        let tool = Path::new("Cargo.toml");
        assert!(!is_kompat_toml(tool, "[package]\nname = \"x\"\n[features]\nfull = []\n"));
        assert!(is_kompat_toml(tool, "[[feature]]\nname = \"A\"\n"));
        assert!(is_kompat_toml(tool, "\"\\u0066eature\" = []\n"));
    }

    #[test]
    fn json_without_api_version_is_not_parsed() {
        let check = |text: &str, expected: bool| {
            assert_eq!(may_name_api_version(text), expected, "{text:?}");
            // Never says no where the parse would say yes.
            if kompat_formats::manifest::has_objects(text) {
                assert!(may_name_api_version(text), "{text:?}");
            }
        };
        check(r#"{"name": "x", "version": "1.0.0"}"#, false);
        check(r#"{"apiVersion": "v1", "kind": "ConfigMap"}"#, true);
        check(r#"{"\u0061piVersion": "v1", "kind": "ConfigMap"}"#, true);
        check(r#"{"\x61piVersion": "v1", "kind": "ConfigMap"}"#, true);
        check(r#"{"\U00000061piVersion": "v1", "kind": "ConfigMap"}"#, true);
        // An escaped line break: the key is `apiVersion`.
        for joined in [
            "{\"api\\\n  Version\": \"v1\", \"kind\": \"ConfigMap\"}",
            "{\"api\\\r\n  Version\": \"v1\", \"kind\": \"ConfigMap\"}",
        ] {
            assert!(kompat_formats::manifest::has_objects(joined), "{joined:?}");
            check(joined, true);
        }
        check("[]", false);
        // Escapes that give no letter: not parsed.
        check(r#"{"pattern": "^\\d+$", "a\"b": "c\nd\te\/f\\"}"#, false);
        check(r#"{"kind": "ConfigMap", "\"apiVersion\"": 1}"#, true);
        // A letter of the key written with each escape that gives one.
        for (i, letter) in "apiVersion".char_indices() {
            let code = u32::from(letter);
            for escape in [format!("\\x{code:02x}"), format!("\\u{code:04X}"), format!("\\U{code:08x}")] {
                let key = format!("{}{escape}{}", &"apiVersion"[..i], &"apiVersion"[i + 1..]);
                let text = format!(r#"{{"{key}": "v1", "kind": "ConfigMap"}}"#);
                assert!(kompat_formats::manifest::has_objects(&text), "{text}");
                check(&text, true);
            }
        }
    }

    #[test]
    fn rust_files_that_may_declare_are_read_first() {
        let paths = [
            ("deploy/kind.yaml", Kind::Deployment),
            ("crates/a/src/lib.rs", Kind::Rust),
            ("crates/b/src/features.rs", Kind::Rust),
            ("src/main.rs", Kind::Rust),
            ("crates/c/src/gates/mod.rs", Kind::Rust),
            ("crates/c/src/gates/Feature_Gates.rs", Kind::Rust),
            ("README.md", Kind::Deployment),
        ];
        let mut sorted = paths.to_vec();
        sorted.sort_by_key(|(path, kind)| read_order(Path::new(path), *kind));
        let got: Vec<&str> = sorted.iter().map(|(path, _)| *path).collect();
        let expected = [
            "crates/b/src/features.rs",
            "crates/c/src/gates/Feature_Gates.rs",
            "src/main.rs",
            "crates/a/src/lib.rs",
            "crates/c/src/gates/mod.rs",
            "README.md",
            "deploy/kind.yaml",
        ];
        assert_eq!(got, expected);
    }

    #[test]
    fn helm_values_files_by_name() {
        let check = |name: &str, expected: bool| assert_eq!(is_helm_values(Path::new(name)), expected, "{name}");
        check("chart/values.yaml", true);
        check("values.yml", true);
        check("values-prod.yaml", true);
        check("prod-values.yaml", true);
        check("cluster.values.yaml", true);
        check("values.json", false);
        check("myvalues.yaml", false);
        check("kind.yaml", false);
        check("values", false);
    }

    #[test]
    fn skipped_directories_and_files() {
        let root = Path::new("/repo");
        assert!(is_skipped_dir(root, Path::new("/repo/vendor/k8s.io/x/a.go")));
        assert!(is_skipped_dir(root, Path::new("/repo/pkg/testdata/a.go")));
        assert!(!is_skipped_dir(Path::new("/repo/vendor/k8s.io/x"), Path::new("/repo/vendor/k8s.io/x/a.go")));
        assert!(!is_skipped_dir(root, Path::new("/repo/pkg/vendor.go")));
        assert!(is_go_source(Path::new("a/kube_features.go")));
        assert!(!is_go_source(Path::new("a/kube_features_test.go")));
        assert!(!is_go_source(Path::new("a/zz_generated.deepcopy.go")));
        assert!(!is_go_source(Path::new("a/features.rs")));
    }

    #[test]
    fn texts_that_mention_a_crd() {
        let check = |text: &str, expected: bool| assert_eq!(mentions_crd(text), expected, "{text:?}");
        check("", false);
        check("CustomResourceDefinition", true);
        check("kind: CustomResourceDefinition\n", true);
        check("a: 1\n---\nkind: CustomResourceDefinitionList\n", true);
        check("# é CustomResourceDefinition", true);
        check("kind: CustomResourceDefinitio", false);
        check("kind: customresourcedefinition", false);
        check("kind: Custom ResourceDefinition", false);
        check("ustomResourceDefinition", false);
        check("kind: Deployment\n", false);
    }
}
