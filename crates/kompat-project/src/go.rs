//! Go sources: `k8s.io/component-base/featuregate` spec maps are feature
//! declarations, every map component-base registers: `VersionedSpecs` maps
//! discovered and read as Kubernetes' `compatibility_lifecycle` tool does
//! (see `kompat-go`), and also unversioned `FeatureSpec` maps (each spec at
//! 0.0, as `Add` registers it) and maps inside function bodies, which the
//! tool does not read ([`GoScan::unread_by_tool`]). `features.X` selectors
//! naming a declared gate, and bare `X` inside the declaring package, are
//! references for the linter.
//!
//! Reading is parallel. A file is parsed only when its bytes contain the
//! quoted featuregate import path, the exact text the tool compares imports
//! with; every other file is skipped after one byte search (and the lexing
//! of its header's imports). References are read later, and only by the
//! linter ([`references`]), from the files that import a package declaring
//! gates: only those are read again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use kompat_formats::FeatureFile;
use kompat_go::{GatePackage, GoFile};
use kompat_rust::GateRef;

use crate::error::{Error, Result};
use crate::source::SourceFile;
use kompat_diag::Diagnostic;

/// What the Go sources among the inputs hold besides declarations (those are
/// in `Decls::features`).
#[derive(Debug, Clone, Default)]
pub struct GoScan {
    /// Every Go source of the inputs, in order: the files references are
    /// looked for in.
    pub files: Vec<PathBuf>,
    /// Parallel to `files`, when known: the import paths of each file's
    /// header, read on the first read (`kompat_go::header_imports`). A
    /// file none of whose imports is a declaring package, outside those
    /// packages' directories, is not read again for references.
    imports: Vec<Option<Vec<String>>>,
    /// The packages that declare gates, by import path.
    packages: Vec<(Importer, GatePackage)>,
    /// The directory of each of `packages`, in the same order: its files
    /// name its gates without a package qualifier.
    package_dirs: Vec<PathBuf>,
    /// Gates declared only where Kubernetes' tool does not read.
    unread: UnreadByTool,
    /// The indices in [`Decls::features`] of the declarations the tool does
    /// not read.
    beyond_tool: std::collections::BTreeSet<usize>,
    /// The text and syntax tree of each declaring file, by path, kept from
    /// reading its declarations: its references are read from them, not
    /// from a second read and parse.
    trees: BTreeMap<PathBuf, (SourceFile, kompat_go::Syntax)>,
}

/// The gates declared only in maps Kubernetes' `compatibility_lifecycle` tool
/// does not read, so that `export --format k8s-yaml` leaves them out as the
/// tool does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnreadByTool {
    /// Declared in unversioned `map[...]FeatureSpec` literals.
    pub unversioned: std::collections::BTreeSet<String>,
    /// Declared in `VersionedSpecs` literals inside function bodies.
    pub inline: std::collections::BTreeSet<String>,
}

impl UnreadByTool {
    /// True when the tool does not read gate `name`'s declaration.
    pub fn contains(&self, name: &str) -> bool {
        self.unversioned.contains(name) || self.inline.contains(name)
    }

    /// How many gates the tool does not read.
    pub fn len(&self) -> usize {
        self.unversioned.union(&self.inline).count()
    }

    pub fn is_empty(&self) -> bool {
        self.unversioned.is_empty() && self.inline.is_empty()
    }
}

/// How files import a package that declares gates.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Importer {
    /// By this import path (from `go.mod`, or the path below `vendor/`).
    Path(String),
    /// No module found: by any import path ending in this directory name.
    DirName(String),
}

impl GoScan {
    /// The gates declared only in maps Kubernetes' tool does not read.
    pub fn unread_by_tool(&self) -> &UnreadByTool {
        &self.unread
    }

    /// True when declaration `decl` (an index in [`Decls::features`]) comes
    /// from a map Kubernetes' tool does not read.
    pub(crate) fn add_beyond_tool(&mut self, decls: std::ops::Range<usize>) {
        self.beyond_tool.extend(decls);
    }

    pub fn is_beyond_tool(&self, decl: usize) -> bool {
        self.beyond_tool.contains(&decl)
    }

    fn resolve(&self, import: &str) -> Option<&GatePackage> {
        self.packages.iter().find_map(|(importer, package)| {
            let hit = match importer {
                Importer::Path(p) => p == import,
                Importer::DirName(d) => import.rsplit('/').next() == Some(d.as_str()),
            };
            hit.then_some(package)
        })
    }

    /// The bytes a file importing one of the packages must contain.
    fn needles(&self) -> Vec<String> {
        self.packages
            .iter()
            .map(|(importer, _)| match importer {
                Importer::Path(p) => format!("\"{p}\""),
                Importer::DirName(d) => format!("/{d}\""),
            })
            .collect()
    }
}

/// The gates one Go file declares: first the `read_by_tool` that Kubernetes'
/// `compatibility_lifecycle` tool reads, then the others (unversioned
/// `FeatureSpec` maps, maps inside function bodies).
pub struct Declared {
    pub source: SourceFile,
    pub features: FeatureFile,
    pub read_by_tool: usize,
}

/// Reads every Go file (in parallel) and returns the declared gates by file
/// (features declared in several maps or files folded into one, as the tool
/// does) and the declaring packages, recorded for [`references`].
pub fn scan(files: &[PathBuf]) -> Result<(GoScan, Vec<Declared>)> {
    type Read = (Option<Vec<String>>, Result<Option<(SourceFile, GoFile, kompat_go::Syntax)>>);
    let results = parallel(files, |path| -> Read {
        let bytes = match read_regular(path) {
            Ok(bytes) => bytes,
            Err(err) => return (None, Err(err)),
        };
        let imports = kompat_go::header_imports(&bytes);
        if !kompat_go::mentions_featuregate(&bytes) {
            return (imports, Ok(None));
        }
        let declared = (|| {
            check_size(path, &bytes)?;
            let text = String::from_utf8(bytes)
                .map_err(|_| Error::in_file(path, format!("{} is not valid UTF-8", path.display())))?;
            let source = SourceFile::new(path.to_owned(), text);
            let (file, syntax) =
                kompat_go::parse_declarations_keeping(&source.text).map_err(|errors| source.parse_errors(errors))?;
            Ok(file.imports_featuregate().then_some((source, file, syntax)))
        })();
        (imports, declared)
    });
    let mut failures = Vec::new();
    let mut parsed = Vec::new();
    let mut trees = BTreeMap::new();
    let mut imports = Vec::with_capacity(results.len());
    for (header, result) in results {
        imports.push(header);
        match result {
            Ok(Some((source, file, syntax))) => {
                trees.insert(source.path.clone(), (source.clone(), syntax));
                parsed.push((source, file));
            }
            Ok(None) => {}
            Err(err) => failures.extend(err.diagnostics),
        }
    }
    let unread = unread_by_tool(parsed.iter().map(|(_, f)| f));
    let go_files: Vec<&GoFile> = parsed.iter().map(|(_, f)| f).collect();
    let (kept, conflicts) = kompat_go::merge(&go_files);
    for conflict in conflicts {
        let (first_source, second_source) = (&parsed[conflict.first.0].0, &parsed[conflict.second.0].0);
        let first = first_source.locate(conflict.first.1.start, conflict.first.1.end);
        let (line, col) = first.line_col().unwrap_or((1, 1));
        failures.push(
            Diagnostic::error(format!(
                "{} (first declared at {}:{line}:{col})",
                conflict.message,
                first.path().display()
            ))
            .at(Some(second_source.locate(conflict.second.1.start, conflict.second.1.end))),
        );
    }
    if !failures.is_empty() {
        return Err(Error { diagnostics: failures });
    }

    let mut scan = GoScan {
        files: files.to_vec(),
        imports,
        packages: Vec::new(),
        package_dirs: Vec::new(),
        unread,
        beyond_tool: std::collections::BTreeSet::new(),
        trees,
    };
    let mut by_dir: BTreeMap<PathBuf, GatePackage> = BTreeMap::new();
    for (source, file) in &parsed {
        let dir = source.path.parent().map(Path::to_path_buf).unwrap_or_default();
        let package = by_dir.entry(dir).or_default();
        package.package.clone_from(&file.package);
        package.gates.extend(file.features.features().iter().map(|f| f.name.clone()));
        package.gates.extend(file.unversioned.features().iter().map(|f| f.name.clone()));
        package.gates.extend(file.inline.features().iter().map(|f| f.name.clone()));
        package.gates.extend(file.constants.iter().map(|c| c.name.clone()));
        package.own.extend(file.constants.iter().map(|c| c.name.clone()));
        package.own.extend(file.bare_keys.iter().cloned());
    }
    let mut modules = ModuleCache::default();
    for (dir, package) in by_dir {
        scan.packages.push((modules.importer(&dir), package));
        scan.package_dirs.push(dir);
    }
    let beyond = beyond_tool(&parsed, &kept);
    let mut declared = Vec::new();
    for (((source, _), mut features), extra) in parsed.into_iter().zip(kept).zip(beyond) {
        // The tool's declarations first, then the others of the file.
        let read_by_tool = features.len();
        for (decl, spans) in extra.iter() {
            features.push(decl.clone(), spans.clone());
        }
        if !features.is_empty() {
            declared.push(Declared { source, features, read_by_tool });
        }
    }
    Ok((scan, declared))
}

/// Every reference to a declared gate in the scanned Go files, in file order.
/// Only files that import a declaring package are parsed.
pub fn references(scan: &GoScan) -> Result<Vec<GateRef>> {
    if scan.packages.is_empty() {
        return Ok(Vec::new());
    }
    let needles: Vec<String> = scan.needles();
    let finders: Vec<memchr::memmem::Finder<'_>> =
        needles.iter().map(|n| memchr::memmem::Finder::new(n.as_bytes())).collect();
    let files: Vec<(&PathBuf, Option<&Vec<String>>)> =
        scan.files.iter().enumerate().map(|(i, path)| (path, scan.imports.get(i).and_then(Option::as_ref))).collect();
    let results = parallel(&files, |&(path, imports)| -> Result<Vec<GateRef>> {
        let own = scan.own_package(path);
        // What the first read saw of the file's imports: none of them is a
        // declaring package, so the file cannot name a gate.
        if own.is_none() && imports.is_some_and(|paths| paths.iter().all(|p| scan.resolve(p).is_none())) {
            return Ok(Vec::new());
        }
        let resolve = |import: &str| scan.resolve(import);
        if let (Some(package), Some((source, syntax))) = (own, scan.trees.get(path)) {
            // A declaring file: read and parsed once, for its declarations.
            let refs = kompat_go::references_with_own_kept(&source.text, syntax, resolve, package);
            return Ok(refs
                .into_iter()
                .map(|r| GateRef { gate: r.gate, location: source.locate(r.span.start, r.span.end) })
                .collect());
        }
        let bytes = read_regular(path)?;
        if own.is_none() && imports.is_none() && !finders.iter().any(|f| f.find(&bytes).is_some()) {
            return Ok(Vec::new());
        }
        check_size(path, &bytes)?;
        let text = String::from_utf8(bytes)
            .map_err(|_| Error::in_file(path, format!("{} is not valid UTF-8", path.display())))?;
        let source = SourceFile::new(path.to_owned(), text);
        let refs = match own {
            Some(package) => kompat_go::references_with_own(&source.text, resolve, package),
            None => kompat_go::references(&source.text, resolve),
        }
        .map_err(|errors| source.parse_errors(errors))?;
        Ok(refs
            .into_iter()
            .map(|r| GateRef { gate: r.gate, location: source.locate(r.span.start, r.span.end) })
            .collect())
    });
    let mut refs = Vec::new();
    let mut failures = Vec::new();
    for result in results {
        match result {
            Ok(found) => refs.extend(found),
            Err(err) => failures.extend(err.diagnostics),
        }
    }
    if failures.is_empty() {
        Ok(refs)
    } else {
        Err(Error { diagnostics: failures })
    }
}

impl GoScan {
    /// The declaring package `path` belongs to, if it lies in one's
    /// directory.
    fn own_package(&self, path: &Path) -> Option<&GatePackage> {
        let dir = path.parent()?;
        let at = self.package_dirs.iter().position(|d| d == dir)?;
        self.packages.get(at).map(|(_, package)| package)
    }
}

/// Each file's declarations the tool does not read (unversioned maps, then
/// maps inside function bodies), without those identical to one declared
/// before (by the tool's maps or an earlier such map), as component-base
/// accepts an identical registration. A different one is kept: validation
/// reports it as component-base does (`feature gate "X" with different spec
/// already exists`). A gate without a doc comment takes its constant's from
/// any file.
fn beyond_tool(
    parsed: &[(SourceFile, GoFile)],
    kept: &[kompat_formats::FeatureFile],
) -> Vec<kompat_formats::FeatureFile> {
    let mut docs: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    for (_, file) in parsed {
        for constant in &file.constants {
            if let Some(doc) = &constant.doc {
                docs.entry(constant.name.as_str()).or_insert(doc.as_str());
            }
        }
    }
    let mut seen: std::collections::HashMap<&str, Vec<&[kompat_engine::SpecDecl]>> = std::collections::HashMap::new();
    for decl in kept.iter().flat_map(|f| f.features()) {
        seen.entry(decl.name.as_str()).or_default().push(&decl.specs);
    }
    let mut out = Vec::with_capacity(parsed.len());
    for (_, file) in parsed {
        let mut extra = kompat_formats::FeatureFile::default();
        for (decl, spans) in file.unversioned.iter().chain(file.inline.iter()) {
            let earlier = seen.entry(decl.name.as_str()).or_default();
            if earlier.contains(&decl.specs.as_slice()) {
                continue;
            }
            earlier.push(&decl.specs);
            let mut decl = decl.clone();
            if decl.description.is_none() {
                decl.description = docs.get(decl.name.as_str()).map(|d| (*d).to_owned());
            }
            extra.push(decl, spans.clone());
        }
        out.push(extra);
    }
    out
}

/// The gates declared only in maps the tool does not read.
fn unread_by_tool<'a>(files: impl Iterator<Item = &'a GoFile> + Clone) -> UnreadByTool {
    let read: std::collections::BTreeSet<&str> =
        files.clone().flat_map(|f| f.features.features()).map(|f| f.name.as_str()).collect();
    let mut unread = UnreadByTool::default();
    for file in files {
        let names = |list: &kompat_formats::FeatureFile| -> Vec<String> {
            list.features().iter().map(|f| f.name.clone()).filter(|n| !read.contains(n.as_str())).collect()
        };
        unread.unversioned.extend(names(&file.unversioned));
        unread.inline.extend(names(&file.inline));
    }
    unread
}

/// The largest Go file parsed. Parsing time grows with size, steeply on
/// malformed text (about 3 s per MiB of garbage); real declaration and gate
/// checking files are far smaller (Kubernetes' `kube_features.go`: 110 KiB).
const MAX_PARSED: usize = 4 << 20;

fn check_size(path: &Path, bytes: &[u8]) -> Result<()> {
    if bytes.len() > MAX_PARSED {
        return Err(Error::in_file(
            path,
            format!(
                "{} has {} bytes; kompat parses Go files of at most {MAX_PARSED} bytes",
                path.display(),
                bytes.len()
            ),
        ));
    }
    Ok(())
}

/// A regular file's bytes; anything else (a FIFO, a device) is an error
/// instead of a read that may block.
fn read_regular(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read as _;
    // Opened without blocking (a FIFO's open waits for a writer), then
    // asked what it is: one path lookup, not two.
    #[cfg(unix)]
    let file = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
    };
    #[cfg(not(unix))]
    let file = std::fs::metadata(path).and_then(|_| std::fs::File::open(path));
    let file = file.map_err(|err| Error::io(path, &err))?;
    let meta = file.metadata().map_err(|err| Error::io(path, &err))?;
    if !meta.is_file() {
        return Err(Error::in_file(path, format!("cannot read {}: not a regular file", path.display())));
    }
    // The size is known: read through `take`, which asks the file for no
    // size hint (`std::fs::read` and `File::read_to_end` make an `fstat`
    // and an `lseek` for one), into a buffer of that size.
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0).saturating_add(1));
    file.take(u64::MAX).read_to_end(&mut bytes).map_err(|err| Error::io(path, &err))?;
    Ok(bytes)
}

/// Runs `f` over `items` on every core, returning the results in order.
fn parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len()).max(1);
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let idx = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(idx) else { break };
                        done.push((idx, f(item)));
                    }
                    done
                })
            })
            .collect();
        // A worker that panicked takes its results with it: the panic goes on
        // here rather than dropping them silently.
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    results.sort_by_key(|(idx, _)| *idx);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Import paths of directories: the `module` of the nearest `go.mod` joined
/// with the directory's path below it; below a `vendor` directory, the path
/// after it.
#[derive(Default)]
struct ModuleCache {
    modules: BTreeMap<PathBuf, Option<String>>,
}

impl ModuleCache {
    fn importer(&mut self, dir: &Path) -> Importer {
        let components: Vec<String> =
            dir.components().filter_map(|c| c.as_os_str().to_str().map(str::to_owned)).collect();
        if let Some(at) = components.iter().rposition(|c| c == "vendor") {
            let below = &components[at + 1..];
            if !below.is_empty() {
                return Importer::Path(below.join("/"));
            }
        }
        let absolute = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned());
        for ancestor in absolute.ancestors() {
            if let Some(module) = self.module(ancestor) {
                let rest = absolute.strip_prefix(ancestor).unwrap_or(Path::new(""));
                let mut path = module;
                for part in rest.components().filter_map(|c| c.as_os_str().to_str()) {
                    path.push('/');
                    path.push_str(part);
                }
                return Importer::Path(path);
            }
        }
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        Importer::DirName(name.to_owned())
    }

    /// The module path declared by `dir/go.mod`, if there is one.
    fn module(&mut self, dir: &Path) -> Option<String> {
        if let Some(known) = self.modules.get(dir) {
            return known.clone();
        }
        let found = std::fs::read_to_string(dir.join("go.mod")).ok().and_then(|text| module_directive(&text));
        self.modules.insert(dir.to_owned(), found.clone());
        found
    }
}

/// The path of a go.mod's `module` directive (`module example.io/x`, quoted
/// or not, comments allowed after it).
pub fn module_directive(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("module")?;
        if !rest.starts_with([' ', '\t']) {
            return None;
        }
        let rest = rest.split("//").next().unwrap_or_default().trim();
        let path = rest.trim_matches('"').trim_matches('`');
        (!path.is_empty()).then(|| path.to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_mod_module_directive() {
        let cases = [
            ("module example.io/kube\n\ngo 1.24\n", Some("example.io/kube")),
            ("// comment\nmodule \"k8s.io/apiserver\" // trailing\n", Some("k8s.io/apiserver")),
            ("go 1.24\n", None),
            ("modules x\n", None),
            ("module\n", None),
        ];
        for (text, expected) in cases {
            assert_eq!(module_directive(text).as_deref(), expected, "{text:?}");
        }
    }
}
