//! `cargo xtask k8s-apis`: generates the kompat API table of Kubernetes' built-in
//! APIs from Kubernetes' published API repositories: Git directories of
//! `kubernetes/api`, `kubernetes/apiextensions-apiserver` and
//! `kubernetes/kube-aggregator` read at one release tag per minor (`--git`;
//! the kinds each release's Go types define, their prerelease-lifecycle-gen
//! output where there is one), or Go modules (a checkout, or a Go module
//! cache holding their versions: `--source`).
//!
//! This module does the file access; reading the Go files and the union are
//! `kompat-k8s`'. Every file problem is reported, located; nothing is written
//! unless all sources read cleanly.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use kompat_diag::Diagnostic;
use kompat_project::{Error, Result, SourceFile};
use kompat_runtime::Version;
use sha2::{Digest, Sha256};
use xtask::k8s::generate::{package_group_version, Generator, GroupVersionProblem, ModuleVersion};
use xtask::k8s::git::{newest_patch_per_release, GitDir};
use xtask::k8s::package::{parse_doc_group, parse_register, parse_type_tags, TypeTags};
use xtask::k8s::supplement::parse_supplement;

use crate::K8sApisArgs;
use kompat_cli::io::{try_each, write_or_print};

/// The module paths a Go module cache is searched for.
const KUBERNETES_MODULES: [&str; 3] = ["api", "apiextensions-apiserver", "kube-aggregator"];

const LIFECYCLE_FILE: &str = "zz_generated.prerelease-lifecycle.go";

/// The same methods written by hand, beside the generated ones: core/v1
/// `ComponentStatus` (deprecated in 1.19) has its lifecycle only there, and
/// `Endpoints` its deprecation in 1.33 and replacement.
const HAND_WRITTEN_LIFECYCLE_FILE: &str = "lifecycle.go";

/// One Go module to read.
struct Module {
    root: PathBuf,
    path: String,
    version: ModuleVersion,
}

pub fn run(args: K8sApisArgs) -> Result<ExitCode> {
    let (supplement, digest) = match &args.supplement {
        Some(path) => {
            let source = read(path)?;
            let parsed = parse_supplement(&source.text).map_err(|errors| source.parse_errors(errors))?;
            (parsed, Some(hex(&Sha256::digest(source.text.as_bytes()))))
        }
        None => (Default::default(), None),
    };
    let mut modules: Vec<_> = try_each(&args.source, |source| expand_source(source))?.into_iter().flatten().collect();
    // Newest first: a checkout, then releases from the highest; ties in
    // command-line order.
    modules.sort_by(|a, b| b.version.cmp(&a.version));
    let mut generator = Generator::new(supplement, digest);
    let since = match &args.since {
        Some(text) => kompat_cli::io::flag_version("since", text)?,
        None => Version::new(1, 16),
    };
    // Git directories first: each is read newest release first.
    let from_git: usize = try_each(&args.git, |path| read_git(path, since, &mut generator))?.into_iter().sum();
    generator.add_unstated();
    let packages: usize = try_each(&modules, |module| {
        generator.add_module(&module.path, module.version.clone());
        read_module(module, &mut generator)
    })?
    .into_iter()
    .sum();
    let text = generator.render();
    let read = if args.git.is_empty() {
        format!("{} module versions", modules.len())
    } else if modules.is_empty() {
        format!("{} Git directories", args.git.len())
    } else {
        format!("{} module versions and {} Git directories", modules.len(), args.git.len())
    };
    eprintln!(
        "xtask k8s-apis: {} API types from {read} ({} API packages read)",
        generator.entries().len(),
        packages + from_git
    );
    for (release, kinds, gvs, listed, listed_gvs) in generator.release_sizes() {
        eprintln!(
            "xtask k8s-apis: {release}: {kinds} kinds in {gvs} group-versions defined; {listed} in {listed_gvs} listed"
        );
    }
    write_or_print(args.output.as_deref(), text)?;
    Ok(ExitCode::SUCCESS)
}

/// The modules a `--source` path stands for: a module root (it has a
/// `go.mod`; `NAME@vX.Y.Z` directories are that release, others a
/// checkout), or a Go module cache (`GOMODCACHE`, or its `k8s.io`
/// directory) with release versions of Kubernetes' API modules.
fn expand_source(path: &Path) -> Result<Vec<Module>> {
    let meta = std::fs::metadata(path).map_err(|err| Error::io(path, &err))?;
    if !meta.is_dir() {
        return Err(Error::in_file(path, format!("{} is not a directory", path.display())));
    }
    let go_mod = path.join("go.mod");
    if go_mod.is_file() {
        let source = read(&go_mod)?;
        let module_path = module_path(&source)?;
        let version = dir_version(path).unwrap_or(ModuleVersion::Checkout);
        return Ok(vec![Module { root: path.to_owned(), path: module_path, version }]);
    }
    let cache = if path.join("k8s.io").is_dir() { path.join("k8s.io") } else { path.to_owned() };
    let mut found = Vec::new();
    let entries = std::fs::read_dir(&cache).map_err(|err| Error::io(&cache, &err))?;
    for entry in entries {
        let entry = entry.map_err(|err| Error::io(&cache, &err))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((module, version)) = name.split_once('@') else { continue };
        if !KUBERNETES_MODULES.contains(&module) || !entry.path().is_dir() {
            continue;
        }
        // Pre-releases are skipped: only released types are facts.
        if let Some(version) = ModuleVersion::parse_release(version) {
            found.push(Module { root: entry.path(), path: format!("k8s.io/{module}"), version });
        }
    }
    if found.is_empty() {
        return Err(Error::in_file(
            path,
            format!(
                "{} is neither a Go module (no go.mod) nor a Go module cache holding released k8s.io/api, k8s.io/apiextensions-apiserver or k8s.io/kube-aggregator versions (NAME@vX.Y.Z)",
                path.display()
            ),
        ));
    }
    found.sort_by(|a, b| a.root.cmp(&b.root));
    Ok(found)
}

/// `NAME@vX.Y.Z` → that release.
fn dir_version(path: &Path) -> Option<ModuleVersion> {
    let name = path.file_name()?.to_str()?;
    ModuleVersion::parse_release(name.split_once('@')?.1)
}

/// The `module` directive of a go.mod.
fn module_path(go_mod: &SourceFile) -> Result<String> {
    for line in go_mod.text.lines() {
        let line = line.split("//").next().unwrap_or("").trim();
        if let Some(rest) = line.strip_prefix("module") {
            let name = rest.trim().trim_matches('"');
            if !name.is_empty() && rest.starts_with(char::is_whitespace) {
                return Ok(name.to_owned());
            }
        }
    }
    Err(Error::in_file(&go_mod.path, format!("{} has no module directive", go_mod.path.display())))
}

/// Reads every API package of a module into the generator; returns how many
/// packages had a lifecycle file.
fn read_module(module: &Module, generator: &mut Generator) -> Result<usize> {
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut count = 0;
    for file in kompat_project::walk_files(&module.root)? {
        if file.file_name().is_none_or(|n| n != LIFECYCLE_FILE) {
            continue;
        }
        let Some(dir) = file.parent() else { continue };
        count += 1;
        if let Err(err) = read_package(&mut FsPackage { dir: dir.to_owned() }, None, generator).map(|_| ()) {
            diagnostics.extend(err.diagnostics);
        }
    }
    if diagnostics.is_empty() {
        Ok(count)
    } else {
        Err(Error { diagnostics })
    }
}

/// The files of one API package: a directory, or a directory of a Git tag.
trait PackageFiles {
    /// The file `name` of the package, if there is one.
    fn file(&mut self, name: &str) -> Result<Option<SourceFile>>;
    /// The names of the package's hand-written Go files (no tests, nothing
    /// generated), sorted.
    fn hand_written(&mut self) -> Result<Vec<String>>;
    /// The package directory's name (`v1beta1`).
    fn dir_name(&self) -> String;
    /// Where a problem of the package is reported when no file is at fault.
    fn display(&self, name: &str) -> PathBuf;
}

fn is_hand_written_go(name: &str) -> bool {
    let generated = name.starts_with("zz_generated") || name.ends_with("generated.go") || name.ends_with(".pb.go");
    name.ends_with(".go") && !name.ends_with("_test.go") && !generated
}

struct FsPackage {
    dir: PathBuf,
}

impl PackageFiles for FsPackage {
    fn file(&mut self, name: &str) -> Result<Option<SourceFile>> {
        optional(&self.dir.join(name))
    }

    fn hand_written(&mut self) -> Result<Vec<String>> {
        let mut names = Vec::new();
        let entries = std::fs::read_dir(&self.dir).map_err(|err| Error::io(&self.dir, &err))?;
        for entry in entries {
            let entry = entry.map_err(|err| Error::io(&self.dir, &err))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if is_hand_written_go(&name) {
                names.push(name);
            }
        }
        names.sort();
        Ok(names)
    }

    fn dir_name(&self) -> String {
        self.dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned()
    }

    fn display(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

/// A package directory at a tag of a Git directory.
struct GitPackage<'a> {
    git: &'a mut GitDir,
    tag: &'a str,
    /// `apps/v1`.
    dir: &'a str,
    /// The names of the directory's files.
    names: &'a [String],
}

impl PackageFiles for GitPackage<'_> {
    fn file(&mut self, name: &str) -> Result<Option<SourceFile>> {
        if !self.names.iter().any(|n| n == name) {
            return Ok(None);
        }
        let path = self.display(name);
        let text = self
            .git
            .show(self.tag, &format!("{}/{name}", self.dir), xtask::k8s::MAX_FILE_BYTES)
            .map_err(|err| Error::in_file(&path, format!("{}: {err}", path.display())))?;
        Ok(text.map(|text| SourceFile::new(path, text)))
    }

    fn hand_written(&mut self) -> Result<Vec<String>> {
        Ok(self.names.iter().filter(|n| is_hand_written_go(n)).cloned().collect())
    }

    fn dir_name(&self) -> String {
        self.dir.rsplit('/').next().unwrap_or_default().to_owned()
    }

    fn display(&self, name: &str) -> PathBuf {
        PathBuf::from(format!("{}:{}:{}/{name}", self.git.path.display(), self.tag, self.dir))
    }
}

/// Reads a package: its prerelease-lifecycle files into the generator (the
/// kinds they state), and, at a `release` (`--git`), the resource kinds its
/// Go types define. Returns whether the package is an API package (it has a
/// group and version).
fn read_package(pkg: &mut dyn PackageFiles, release: Option<Version>, generator: &mut Generator) -> Result<bool> {
    // The generated file, and the hand-written one beside it when there is
    // one: a kind's methods may be in both.
    let mut sources = Vec::new();
    if let Some(source) = pkg.file(LIFECYCLE_FILE)? {
        sources.push(source);
        if let Some(source) = pkg.file(HAND_WRITTEN_LIFECYCLE_FILE)? {
            sources.push(source);
        }
    }
    let texts: Vec<&str> = sources.iter().map(|s| &*s.text).collect();
    let kinds = xtask::k8s::lifecycle::parse_lifecycle_package(&texts).map_err(|errors| {
        let diagnostics =
            errors.into_iter().flat_map(|(file, error)| sources[file].parse_errors(vec![error]).diagnostics);
        Error { diagnostics: diagnostics.collect() }
    })?;
    let register = pkg
        .file("register.go")?
        .map(|source| parse_register(&source.text).map_err(|errors| source.parse_errors(errors)))
        .transpose()?;
    let doc_source = pkg.file("doc.go")?;
    let doc_group = match &doc_source {
        Some(source) => parse_doc_group(&source.text).map_err(|errors| source.parse_errors(errors))?,
        None => None,
    };
    let dir_name = pkg.dir_name();
    let (group, version) =
        match package_group_version(register.as_ref(), doc_group.as_ref(), &dir_name) {
            Ok(pair) => pair,
            // Without a lifecycle file, a package that names no group is not an API package.
            Err(GroupVersionProblem::Unknown) if sources.is_empty() => return Ok(false),
            Err(problem) => return Err(match (problem, &doc_source) {
                (GroupVersionProblem::Conflict { doc, register }, Some(source)) => Error::at(
                    source.locate(doc.span.start, doc.span.end),
                    format!(
                    "+groupName={} differs from the group {register:?} that register.go's SchemeGroupVersion registers",
                    doc.value
                ),
                ),
                _ => Error::in_file(
                    &pkg.display(LIFECYCLE_FILE),
                    "cannot tell the package's group: no SchemeGroupVersion in register.go and no +groupName in doc.go",
                ),
            }),
        };
    let all: Vec<_> = kinds.iter().map(|(kind, _)| kind.clone()).collect();
    if generator.new_kinds(&group, &version, &all).is_empty() && release.is_none() {
        return Ok(true);
    }
    let types = read_types(pkg)?;
    if let Some(release) = release {
        generator.observe(&group, &version, release, &types);
    }
    // Per file of the kind's first method, so that problems are located there.
    for (index, source) in sources.iter().enumerate() {
        let of_file: Vec<_> = kinds.iter().filter(|(_, file)| *file == index).map(|(kind, _)| kind.clone()).collect();
        generator.add_package(&group, &version, &of_file, &types).map_err(|errors| source.parse_errors(errors))?;
    }
    Ok(true)
}

/// The tags of every type in the package's hand-written Go files.
fn read_types(pkg: &mut dyn PackageFiles) -> Result<Vec<TypeTags>> {
    let mut tags = Vec::new();
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    for name in pkg.hand_written()? {
        let Some(source) = pkg.file(&name)? else { continue };
        match parse_type_tags(&source.text) {
            Ok(found) => tags.extend(found),
            Err(errors) => diagnostics.extend(source.parse_errors(errors).diagnostics),
        }
    }
    if diagnostics.is_empty() {
        Ok(tags)
    } else {
        Err(Error { diagnostics })
    }
}

/// `--git DIR`: every API package of the newest patch tag of each release
/// since `since`, newest release first. Returns the number of packages read.
fn read_git(path: &Path, since: Version, generator: &mut Generator) -> Result<usize> {
    let mut git = GitDir::open(path).map_err(|err| Error::in_file(path, format!("{}: {err}", path.display())))?;
    let io = |err: std::io::Error| Error::in_file(path, format!("{}: {err}", path.display()));
    let names = git.tags().map_err(io)?;
    let tags = newest_patch_per_release(&names, since);
    if tags.is_empty() {
        return Err(Error::in_file(
            path,
            format!("{} has no release tag kubernetes-1.N.P from {since} on", path.display()),
        ));
    }
    // Named by its Go module (`k8s.io/api`), not by where it is on this machine.
    let newest = tags.last().map(|t| t.name.clone()).unwrap_or_default();
    let go_mod = git
        .show(&newest, "go.mod", xtask::k8s::MAX_FILE_BYTES)
        .map_err(io)?
        .ok_or_else(|| Error::in_file(path, format!("{}: {newest} has no go.mod", path.display())))?;
    let module = module_path(&SourceFile::new(PathBuf::from(format!("{}:{newest}:go.mod", path.display())), go_mod))?;
    generator.add_tags(&module, tags.iter().map(|t| t.name.clone()).collect());
    let mut count = 0;
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    for tag in tags.iter().rev() {
        let files = git.files(&tag.name).map_err(io)?;
        let mut dirs: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for file in &files {
            let Some((dir, name)) = file.rsplit_once('/') else { continue };
            if is_api_package_dir(dir) {
                dirs.entry(dir).or_default().push(name.to_owned());
            }
        }
        for (dir, names) in &dirs {
            if !names.iter().any(|n| n == "register.go" || n == LIFECYCLE_FILE) {
                continue;
            }
            let mut pkg = GitPackage { git: &mut git, tag: &tag.name, dir, names };
            match read_package(&mut pkg, Some(tag.release), generator) {
                Ok(true) => count += 1,
                Ok(false) => {}
                Err(err) => diagnostics.extend(err.diagnostics),
            }
        }
    }
    if diagnostics.is_empty() {
        Ok(count)
    } else {
        Err(Error { diagnostics })
    }
}

/// A directory that may hold an API package of a published Kubernetes
/// repository: named as a version (`v1`, `v2beta1`), outside tests,
/// examples, fixtures and vendored code.
fn is_api_package_dir(dir: &str) -> bool {
    const SKIPPED: [&str; 7] = ["testdata", "test", "examples", "vendor", "third_party", "hack", "fixtures"];
    let mut parts = dir.split('/');
    let Some(last) = dir.rsplit('/').next() else { return false };
    if parts.any(|p| SKIPPED.contains(&p)) {
        return false;
    }
    let Some(rest) = last.strip_prefix('v') else { return false };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let tail = &rest[digits..];
    let stage = tail.strip_prefix("alpha").or_else(|| tail.strip_prefix("beta"));
    match stage {
        None => tail.is_empty(),
        Some(n) => !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
    }
}

/// A regular file of bounded size, read as UTF-8.
fn read(path: &Path) -> Result<SourceFile> {
    let meta = std::fs::metadata(path).map_err(|err| Error::io(path, &err))?;
    if !meta.is_file() {
        return Err(Error::in_file(path, format!("{} is not a regular file", path.display())));
    }
    if meta.len() > xtask::k8s::MAX_FILE_BYTES as u64 {
        return Err(Error::in_file(
            path,
            format!("{} is larger than the limit of {} bytes", path.display(), xtask::k8s::MAX_FILE_BYTES),
        ));
    }
    SourceFile::read(path)
}

/// A file that may be absent.
fn optional(path: &Path) -> Result<Option<SourceFile>> {
    if path.exists() {
        read(path).map(Some)
    } else {
        Ok(None)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
