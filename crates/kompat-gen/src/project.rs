//! Generating a project's configured outputs: from `kompat.toml` (its
//! declarations, window and `[[gen.output]]` entries) to rendered files, for
//! `kompat gen` and for build scripts ([`Builder`]).

use std::path::{Path, PathBuf};

use kompat_diag::Diagnostic;
use kompat_project::config::OutputKind;
use kompat_project::{Config, Decls, Error};

use crate::files::{check_files, write_files, FileError, GeneratedFile, Stale, WriteReport};
use crate::model::Model;
use crate::Provenance;

/// Renders one kind of output.
pub fn render(kind: OutputKind, model: &Model, provenance: &Provenance) -> Result<String, String> {
    match kind {
        OutputKind::Rust => crate::render_rust(model, provenance),
        OutputKind::K8sYaml => Ok(kompat_formats::render_k8s_yaml(&model.decls)),
        OutputKind::Json => crate::render_json(model, provenance),
        OutputKind::Markdown => Ok(crate::render_markdown(model, provenance)),
    }
}

/// Renders every output `config` lists, each at its configured path or, with
/// `out_dir`, at that path below `out_dir`. Every output path is checked
/// first ([`Config::check_gen_outputs`]): one outside the project (or
/// `out_dir`) that `allow_outside` does not allow is a located error, and
/// nothing is rendered, so nothing can be written. The declarations are
/// validated first, once ([`kompat_project::Decls::validate_strict`]: every
/// problem located in its file), and API declarations, when there are any,
/// after the configuration's checks.
pub fn render_outputs(
    config: &Config,
    decls: &Decls,
    provenance: &Provenance,
    out_dir: Option<&Path>,
) -> Result<Vec<GeneratedFile>, Error> {
    let validated = decls.validate_strict()?;
    let features = decls.features();
    let located = |span: std::ops::Range<usize>, message: String| Error {
        diagnostics: vec![Diagnostic::error(message).at(Some(config.source.locate(span.start, span.end)))],
    };
    let Some(gen) = config.gen.as_ref().filter(|g| !g.outputs.is_empty()) else {
        return Err(Error::in_file(
            &config.source.path,
            "nothing to generate: add a [[gen.output]] entry with `kind` and `path` to the configuration",
        ));
    };
    config.check_gen_outputs(out_dir)?;
    let Some(binary) = config.binary_version else {
        return Err(located(gen.span.clone(), "`kompat gen` needs `binary_version` in the configuration".to_owned()));
    };
    let unlocated =
        |messages: Vec<String>| Error { diagnostics: messages.into_iter().map(Diagnostic::error).collect() };
    let mut model = Model::from_validated(features, &validated.set, binary, config.window).map_err(unlocated)?;
    // The model holds what it needs; the set's memory goes to the rendering.
    drop(validated);
    if decls.has_apis() {
        decls.api_set()?;
        // kube-rs custom resources are served and stored as their CRD says:
        // the tables of kube-apiserver's rules leave them out (docs/gen.md).
        model = model.with_apis(&decls.server_api_config()).map_err(unlocated)?;
    }
    let mut files = Vec::new();
    for output in &gen.outputs {
        let path = match out_dir {
            Some(dir) => dir.join(&output.written),
            None => output.path.clone(),
        };
        if output.kind == OutputKind::K8sYaml {
            let contents = kompat_formats::render_k8s_yaml(&read_by_k8s_tool(&model.decls, decls));
            files.push(GeneratedFile { path, contents });
            continue;
        }
        if output.kind != OutputKind::Markdown {
            let contents =
                render(output.kind, &model, provenance).map_err(|message| located(output.span.clone(), message))?;
            files.push(GeneratedFile { path, contents });
            continue;
        }
        // The Markdown reference and its SVG timelines beside it.
        let (gates_path, apis_path) = picture_paths(&path);
        let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
        let apis_svg = crate::render_apis_svg(&model, provenance);
        let pictures =
            crate::Pictures { gates: name(&gates_path), apis: apis_svg.as_ref().and_then(|_| name(&apis_path)) };
        for picture in [Some(&gates_path), apis_svg.as_ref().map(|_| &apis_path)].into_iter().flatten() {
            let taken = gen.outputs.iter().any(|o| match out_dir {
                Some(dir) => dir.join(&o.written) == *picture,
                None => o.path == *picture,
            });
            if taken {
                return Err(located(
                    output.span.clone(),
                    format!(
                        "the Markdown reference's timeline {} is also configured as an output; rename one of them",
                        picture.display()
                    ),
                ));
            }
        }
        let contents = crate::render_markdown_with_pictures(&model, provenance, &pictures);
        files.push(GeneratedFile { path, contents });
        files.push(GeneratedFile { path: gates_path, contents: crate::render_gates_svg(&model, provenance) });
        if let Some(contents) = apis_svg {
            files.push(GeneratedFile { path: apis_path, contents });
        }
    }
    Ok(files)
}

/// The features of `features` that Kubernetes' `compatibility_lifecycle`
/// tool would list: all but the Go gates declared only in maps it does not
/// read (unversioned `FeatureSpec` maps, maps inside function bodies), which
/// a k8s-yaml list leaves out as the tool does.
pub fn read_by_k8s_tool(features: &[kompat_engine::FeatureDecl], decls: &Decls) -> Vec<kompat_engine::FeatureDecl> {
    features.iter().filter(|f| !unread_by_tool(decls, &f.name)).cloned().collect()
}

/// Whether `name` is a Go gate the tool does not read.
#[cfg(feature = "go")]
fn unread_by_tool(decls: &Decls, name: &str) -> bool {
    decls.go().is_some_and(|g| g.unread_by_tool().contains(name))
}

/// Without Go declarations (the `go` feature), every gate is one the tool reads.
#[cfg(not(feature = "go"))]
fn unread_by_tool(_decls: &Decls, _name: &str) -> bool {
    false
}

/// The note for a k8s-yaml list that leaves Go gates out
/// ([`read_by_k8s_tool`]), if it leaves any out (never, without the `go`
/// feature).
#[cfg(not(feature = "go"))]
pub fn k8s_yaml_note(_decls: &Decls) -> Option<String> {
    None
}

/// The note for a k8s-yaml list that leaves Go gates out
/// ([`read_by_k8s_tool`]), if it leaves any out.
#[cfg(feature = "go")]
pub fn k8s_yaml_note(decls: &Decls) -> Option<String> {
    let unread = decls.go()?.unread_by_tool();
    if unread.is_empty() {
        return None;
    }
    let count = |n: usize| if n == 1 { "1 gate".to_owned() } else { format!("{n} gates") };
    let only_inline = unread.inline.iter().filter(|n| !unread.unversioned.contains(*n)).count();
    let unversioned = "declared in unversioned FeatureSpec maps";
    let inline = "declared in VersionedSpecs maps inside functions";
    let what = match (unread.unversioned.len(), only_inline) {
        (n, 0) => format!("{} {unversioned}", count(n)),
        (0, n) => format!("{} {inline}", count(n)),
        (u, i) => format!("{} ({u} {unversioned}, {i} {inline})", count(u + i)),
    };
    Some(format!(
        "note: the k8s-yaml list leaves out {what}, which Kubernetes' compatibility_lifecycle tool does not read"
    ))
}

/// The SVG timelines beside a Markdown reference: `NAME.gates.svg` and
/// `NAME.apis.svg` for `NAME.md` (or any other name without `.md`).
pub fn picture_paths(markdown: &Path) -> (PathBuf, PathBuf) {
    let name = markdown.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = name.strip_suffix(".md").unwrap_or(&name);
    (markdown.with_file_name(format!("{stem}.gates.svg")), markdown.with_file_name(format!("{stem}.apis.svg")))
}

/// The provenance `kompat gen` writes: ``"`kompat gen` from kompat.toml"``,
/// naming the configuration by file name only, so the bytes do not depend on
/// the directory the command runs in.
pub fn cli_provenance(config: &Config) -> Provenance {
    let name = config.source.path.file_name().map(|n| n.to_string_lossy().into_owned());
    Provenance {
        command: format!("`kompat gen` from {}", name.as_deref().unwrap_or(kompat_project::config::FILE_NAME)),
    }
}

/// Generates a project's outputs from a build script, like `prost-build`:
///
/// ```no_run
/// // build.rs
/// fn main() -> Result<(), Box<dyn std::error::Error>> {
///     kompat_gen::Builder::new().config("kompat.toml").generate()?;
///     Ok(())
/// }
/// ```
///
/// The outputs are those of the configuration's `[[gen.output]]` entries,
/// written below `$OUT_DIR` when it is set (as in a build script) and below
/// the configuration's directory otherwise, unless [`Builder::out_dir`] says
/// where. Generation is all or nothing and leaves up-to-date files untouched,
/// exactly as `kompat gen`. In a build script it also prints
/// `cargo:rerun-if-changed` for the configuration and every declaration input.
#[derive(Debug, Clone, Default)]
pub struct Builder {
    config: Option<PathBuf>,
    out_dir: Option<PathBuf>,
    command: Option<String>,
}

impl Builder {
    pub fn new() -> Builder {
        Builder::default()
    }

    /// The `kompat.toml` to read (default: `kompat.toml`, relative to the
    /// current directory, which in a build script is the package's root).
    pub fn config(mut self, path: impl Into<PathBuf>) -> Builder {
        self.config = Some(path.into());
        self
    }

    /// The directory output paths are relative to (default: `$OUT_DIR`, else
    /// the configuration's directory).
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Builder {
        self.out_dir = Some(dir.into());
        self
    }

    /// The command named in the `@generated` headers (default:
    /// ``"`kompat_gen::Builder` (build.rs) from kompat.toml"``). Set it to the
    /// command that regenerates checked-in files, such as `cargo xtask codegen`.
    pub fn command(mut self, command: impl Into<String>) -> Builder {
        self.command = Some(command.into());
        self
    }

    /// Renders every output without writing anything.
    pub fn files(&self) -> Result<Vec<GeneratedFile>, BuildError> {
        Ok(self.render_files()?)
    }

    fn render_files(&self) -> Result<Vec<GeneratedFile>, Error> {
        let config_path = self.config.clone().unwrap_or_else(|| PathBuf::from(kompat_project::config::FILE_NAME));
        let config = Config::load(&config_path)?;
        let decls = kompat_project::load(&config.decls)?;
        let in_build_script = std::env::var_os("OUT_DIR").is_some();
        if in_build_script {
            println!("cargo:rerun-if-changed={}", config_path.display());
            for path in &config.decls {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        let provenance = match &self.command {
            Some(command) => Provenance { command: command.clone() },
            None => {
                let name = config_path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                Provenance { command: format!("`kompat_gen::Builder` (build.rs) from {name}") }
            }
        };
        let out_dir = self.out_dir.clone().or_else(|| std::env::var_os("OUT_DIR").map(PathBuf::from));
        render_outputs(&config, &decls, &provenance, out_dir.as_deref())
    }

    /// Writes every output whose contents changed; all or nothing.
    pub fn generate(&self) -> Result<WriteReport, BuildError> {
        Ok(write_files(&self.files()?).map_err(file_error)?)
    }

    /// Compares every output with the file on disk; writes nothing.
    pub fn check(&self) -> Result<Vec<Stale>, BuildError> {
        Ok(check_files(&self.files()?).map_err(file_error)?)
    }
}

/// Why a [`Builder`] failed: the located diagnostics `kompat gen` would
/// print, printed the same way. `Display` (and `Debug`, which is what a
/// build script's `main() -> Result<(), Box<dyn Error>>` shows) is the
/// rustc-style text of the `kompat` binary, the offending line quoted under
/// its `--> file:line:col`; the alternate form (`{:#}`) is one
/// `file:line:col: error: message` line per diagnostic.
#[derive(Clone, PartialEq, Eq)]
pub struct BuildError {
    pub error: Error,
}

impl BuildError {
    /// The diagnostics, in the order found.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.error.diagnostics
    }
}

impl From<Error> for BuildError {
    fn from(error: Error) -> BuildError {
        BuildError { error }
    }
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let diags = self.diagnostics();
        if f.alternate() {
            let lines: Vec<String> = diags.iter().map(kompat_diag::short_line).collect();
            f.write_str(&lines.join("\n"))
        } else {
            f.write_str(kompat_diag::render(diags, false).trim_end())
        }
    }
}

impl std::fmt::Debug for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for BuildError {}

/// A [`FileError`] as a located error.
pub fn file_error(err: FileError) -> Error {
    Error::in_file(&err.path, err.message)
}
