//! `cargo xtask k8s-apis`: generates the kompat API table of Kubernetes' built-in
//! APIs from prerelease-lifecycle-gen output in Go modules (checkouts of
//! `kubernetes/api`, `kubernetes/apiextensions-apiserver`,
//! `kubernetes/kube-aggregator`, or a Go module cache holding their versions).
//!
//! This module does the file access; reading the Go files and the union are
//! `kompat-k8s`'. Every file problem is reported, located; nothing is written
//! unless all sources read cleanly.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use kompat_diag::Diagnostic;
use kompat_project::{Error, Result, SourceFile};
use sha2::{Digest, Sha256};
use xtask::k8s::generate::{package_group_version, Generator, GroupVersionProblem, ModuleVersion};
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
    let packages: usize = try_each(&modules, |module| {
        generator.add_module(&module.path, module.version.clone());
        read_module(module, &mut generator)
    })?
    .into_iter()
    .sum();
    let text = generator.render();
    eprintln!(
        "xtask k8s-apis: {} API types from {} module versions ({packages} API packages read)",
        generator.entries().len(),
        modules.len()
    );
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
        if let Err(err) = read_package(dir, &file, generator) {
            diagnostics.extend(err.diagnostics);
        }
    }
    if diagnostics.is_empty() {
        Ok(count)
    } else {
        Err(Error { diagnostics })
    }
}

fn read_package(dir: &Path, lifecycle_path: &Path, generator: &mut Generator) -> Result<()> {
    let lifecycle_source = read(lifecycle_path)?;
    // The generated file, and the hand-written one beside it when there is
    // one: a kind's methods may be in both.
    let mut sources = vec![lifecycle_source];
    if let Some(source) = optional(&dir.join(HAND_WRITTEN_LIFECYCLE_FILE))? {
        sources.push(source);
    }
    let texts: Vec<&str> = sources.iter().map(|s| &*s.text).collect();
    let kinds = xtask::k8s::lifecycle::parse_lifecycle_package(&texts).map_err(|errors| {
        let diagnostics =
            errors.into_iter().flat_map(|(file, error)| sources[file].parse_errors(vec![error]).diagnostics);
        Error { diagnostics: diagnostics.collect() }
    })?;
    let register = optional(&dir.join("register.go"))?
        .map(|source| parse_register(&source.text).map_err(|errors| source.parse_errors(errors)))
        .transpose()?;
    let doc_source = optional(&dir.join("doc.go"))?;
    let doc_group = match &doc_source {
        Some(source) => parse_doc_group(&source.text).map_err(|errors| source.parse_errors(errors))?,
        None => None,
    };
    let dir_name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let (group, version) =
        package_group_version(register.as_ref(), doc_group.as_ref(), dir_name).map_err(|problem| {
            match (problem, &doc_source) {
                (GroupVersionProblem::Conflict { doc, register }, Some(source)) => Error::at(
                    source.locate(doc.span.start, doc.span.end),
                    format!(
                    "+groupName={} differs from the group {register:?} that register.go's SchemeGroupVersion registers",
                    doc.value
                ),
                ),
                _ => Error::in_file(
                    lifecycle_path,
                    "cannot tell the package's group: no SchemeGroupVersion in register.go and no +groupName in doc.go",
                ),
            }
        })?;
    let all: Vec<_> = kinds.iter().map(|(kind, _)| kind.clone()).collect();
    if generator.new_kinds(&group, &version, &all).is_empty() {
        return Ok(());
    }
    let types = read_types(dir)?;
    // Per file of the kind's first method, so that problems are located there.
    for (index, source) in sources.iter().enumerate() {
        let of_file: Vec<_> = kinds.iter().filter(|(_, file)| *file == index).map(|(kind, _)| kind.clone()).collect();
        generator.add_package(&group, &version, &of_file, &types).map_err(|errors| source.parse_errors(errors))?;
    }
    Ok(())
}

/// The tags of every type in the package's hand-written Go files.
fn read_types(dir: &Path) -> Result<Vec<TypeTags>> {
    let mut names: Vec<PathBuf> = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|err| Error::io(dir, &err))?;
    for entry in entries {
        let entry = entry.map_err(|err| Error::io(dir, &err))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let generated = name.starts_with("zz_generated") || name.ends_with("generated.go") || name.ends_with(".pb.go");
        if name.ends_with(".go") && !name.ends_with("_test.go") && !generated {
            names.push(entry.path());
        }
    }
    names.sort();
    let mut tags = Vec::new();
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    for path in names {
        let source = read(&path)?;
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
