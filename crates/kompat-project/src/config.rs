//! `kompat.toml`: the project configuration shared by `kompat lint`,
//! `kompat gen` and the query commands.
//!
//! ```toml
//! binary_version = "1.37"            # enables the version window
//! decls = ["features.toml", "apis.toml", "src/"]   # relative to this file
//! baseline = "reference/versioned_feature_list.yaml"   # optional, for lint
//! reference = ["vendor/k8s/versioned_feature_list.yaml"]   # optional: declarations you do not own
//! exclude = ["config/crd/patches/", "*.tmpl.yaml"]   # optional: left out of directory walks
//! crds = ["cluster-crds.yaml"]       # optional: CRDs installed in the cluster (`kubectl get crd -o yaml`)
//!
//! [window]
//! profile = "kubernetes"             # N-3, floored at 1.31; or "default" (N-3)
//! skew = 3                           # optional override of the profile
//! floor = "1.31"                     # optional override of the profile
//!
//! [kubernetes]
//! version = "1.33"                   # the Kubernetes version of the cluster: manifests, Kubernetes
//!                                    # components' settings and Kubernetes' own gates are judged at it;
//!                                    # "1.30..1.34": every minor of an upgrade path
//! ```
//!
//! `binary_version` is the project's own version, `[kubernetes] version` the
//! cluster's: neither stands in for the other, but under `profile =
//! "kubernetes"`, where the project's versions are Kubernetes' and one sets
//! both.
//!
//! `[project] images` names the container images of the project's own
//! binaries: the settings of containers running them are judged against the
//! project's gates, those of any other container (a sidecar) are not judged.
//! Without it the images are inferred ([`Config::project_images`] is empty).
//!
//! ```toml
//! [project]
//! images = ["registry.k8s.io/jobset/jobset"]   # a name without its registry matches too
//! ```
//!
//! `[lint]` configures `kompat lint`; `[gen]` lists the outputs of
//! `kompat gen` (paths relative to this file):
//!
//! ```toml
//! [lint]
//! require = ["binary-version"]       # rules that cannot run without it are an error
//!
//! [lint.levels]
//! locked-gate-cleanup = "deny"       # allow | warn | deny
//!
//! [[lint.allow]]                     # suppress matching findings
//! code = "removed-gate"
//! subject = "LegacyWidgetPolling"    # optional: only this feature, API or CRD version
//! reason = "dropped by the 2.0 API review"   # mandatory
//!
//! [gen]
//! allow_outside = ["../shared-out"]  # optional: directories outside the project outputs may go to
//!
//! [[gen.output]]
//! kind = "rust"                      # or "k8s-yaml", "json", "markdown"
//! path = "generated/features.rs"
//! ```
//!
//! `[render]` says how `kompat lint` renders Helm charts and kustomize
//! directories (nothing is rendered without it; see [`RenderConfig`]):
//!
//! ```toml
//! [render]
//! helm = "helm"                      # a program on PATH or a path (relative to this file); or ["helm", "--debug"]
//! kustomize = ["kubectl", "kustomize"]   # or ["kustomize", "build"]
//! timeout_seconds = 60               # each render; the process group is killed after it
//! max_output_mib = 32                # each render's output; more is a failed render
//!
//! [[render.chart]]                   # optional, per chart (path relative to this file)
//! path = "charts/app"
//! values = ["charts/app/values-prod.yaml"]   # instead of the chart's own values.yaml
//! release = "app"                    # default: the chart directory's name
//! namespace = "apps"                 # default: helm's
//! skip = false
//!
//! [[render.kustomize_dir]]           # optional, per kustomize directory
//! path = "config/samples"
//! skip = true
//! ```
//!
//! Without `--config`, the file is looked for in the working directory and
//! then in each parent up to the filesystem root, as cargo and rustfmt look
//! for theirs ([`Config::discover`]); the first found is used.
//!
//! `reference` inputs are declarations the project does not own (Kubernetes'
//! list, another component's gates): `kompat lint` resolves gate names with
//! them but reports nothing located in them.
//!
//! Outputs stay inside the directory of `kompat.toml` (after resolving `..`
//! and symbolic links) unless `allow_outside` names the directory they go to:
//! see [`Config::check_gen_outputs`].

use std::path::{Path, PathBuf};

use kompat_formats::window::WindowTable;
use kompat_runtime::{Version, VersionRange, WindowPolicy};
use serde::Deserialize;
use toml::Spanned;

use crate::error::{Error, Result};
use crate::exclude::Exclude;
use crate::source::SourceFile;
use kompat_diag::Diagnostic;

/// The configuration file name, looked up in the working directory and its
/// parents.
pub const FILE_NAME: &str = "kompat.toml";

/// A loaded `kompat.toml`, paths resolved against its directory.
#[derive(Debug, Clone)]
pub struct Config {
    pub source: SourceFile,
    pub binary_version: Option<Version>,
    /// `[kubernetes] version` as written: one release (`V..V`) or an upgrade
    /// path `A..B`, judged at every minor from A to B (the release alone is
    /// [`Config::kubernetes_version`]).
    pub kubernetes_path: Option<VersionRange>,
    pub window: WindowPolicy,
    /// `profile = "kubernetes"` under `[window]`: the project's versions are
    /// Kubernetes', so `binary_version` and `[kubernetes] version` each set
    /// both.
    pub kubernetes_profile: bool,
    /// `[project] images`: the images of the project's own binaries, as
    /// written (a reference, without tag or digest); empty when not
    /// configured.
    pub project_images: Vec<String>,
    pub decls: Vec<PathBuf>,
    pub baseline: Option<PathBuf>,
    /// `reference`: declaration inputs the project does not own, read to
    /// resolve gate names; `kompat lint` reports nothing located in them.
    pub reference: Vec<PathBuf>,
    /// `crds`: CRDs installed in the cluster (files, directories or `kubectl
    /// get crd -o yaml` output); `kompat lint` judges custom resources
    /// against them and does not lint them.
    pub crds: Vec<PathBuf>,
    /// `exclude`: globs (`.gitignore` syntax, relative to this file's
    /// directory) of paths that walks of directories leave out.
    pub exclude: Exclude,
    /// The `[lint]` table. Its codes are checked by `kompat lint`, which
    /// knows them.
    pub lint: Option<LintConfig>,
    /// The `[gen]` table: the outputs of `kompat gen`.
    pub gen: Option<GenConfig>,
    /// The `[render]` table: how charts and kustomize directories are
    /// rendered.
    pub render: Option<RenderConfig>,
}

/// The `[render]` table. A renderer is configured by its command; without
/// one, its charts (or kustomize directories) are not rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderConfig {
    /// `helm`: the program (and leading arguments) run as `PROGRAM...
    /// template RELEASE CHART ...`.
    pub helm: Option<Vec<String>>,
    /// `kustomize`: the program and leading arguments run as `PROGRAM...
    /// DIR` (`["kubectl", "kustomize"]`, `["kustomize", "build"]`).
    pub kustomize: Option<Vec<String>>,
    /// `timeout_seconds`: each render's time limit.
    pub timeout: std::time::Duration,
    /// `max_output_mib`: each render's output cap, in bytes.
    pub max_output: usize,
    /// `[[render.chart]]` entries, in the order written.
    pub charts: Vec<RenderTarget>,
    /// `[[render.kustomize_dir]]` entries, in the order written.
    pub kustomize_dirs: Vec<RenderTarget>,
}

/// The default time limit of one render.
pub const RENDER_TIMEOUT_SECONDS: u64 = 60;
/// The default output cap of one render, in MiB.
pub const RENDER_MAX_OUTPUT_MIB: u64 = 32;

impl Default for RenderConfig {
    fn default() -> Self {
        RenderConfig {
            helm: None,
            kustomize: None,
            timeout: std::time::Duration::from_secs(RENDER_TIMEOUT_SECONDS),
            max_output: (RENDER_MAX_OUTPUT_MIB << 20) as usize,
            charts: Vec::new(),
            kustomize_dirs: Vec::new(),
        }
    }
}

impl RenderConfig {
    /// The entry for the chart (or kustomize directory) at `dir`, compared
    /// after resolving both.
    pub fn target<'a>(targets: &'a [RenderTarget], dir: &Path) -> Option<&'a RenderTarget> {
        let dir = resolve(dir).ok()?;
        targets.iter().find(|t| resolve(&t.path).is_ok_and(|p| p == dir))
    }
}

/// One `[[render.chart]]` or `[[render.kustomize_dir]]` entry.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RenderTarget {
    /// The directory, resolved against the configuration's directory.
    pub path: PathBuf,
    /// Values files (charts only), resolved; empty for the chart's own.
    pub values: Vec<PathBuf>,
    pub release: Option<String>,
    pub namespace: Option<String>,
    pub skip: bool,
    /// Byte span of the entry in the configuration file.
    pub span: std::ops::Range<usize>,
}

/// The `[gen]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenConfig {
    /// Byte span of the `[gen]` table in the configuration file.
    pub span: std::ops::Range<usize>,
    /// Each `[[gen.output]]`, in the order written.
    pub outputs: Vec<GenOutput>,
    /// `allow_outside`: directories outside the project that outputs may be
    /// written to, resolved against the configuration's directory, with the
    /// byte span of each in the configuration file.
    pub allow_outside: Vec<(PathBuf, std::ops::Range<usize>)>,
}

/// The `[lint]` table.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LintConfig {
    /// `require`: what `kompat lint` needs to run every rule (a binary
    /// version, a baseline, ...), each with the byte span of its name. A
    /// rule family that cannot run for want of one is an error instead of a
    /// note. The names are checked by `kompat lint`, which knows them.
    pub require: Vec<(String, std::ops::Range<usize>)>,
    /// `[lint.levels]`, in the order written.
    pub levels: Vec<LintLevel>,
    /// Each `[[lint.allow]]`, in the order written.
    pub allow: Vec<LintAllow>,
}

/// One entry of `[lint.levels]`: `code = "allow" | "warn" | "deny"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintLevel {
    pub code: String,
    /// Byte span of the code (the key) in the configuration file.
    pub code_span: std::ops::Range<usize>,
    pub level: Level,
}

/// What a `[lint.levels]` entry does to a code's findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Drop the findings.
    Allow,
    /// Report them as warnings.
    Warn,
    /// Report them as errors.
    Deny,
}

/// One `[[lint.allow]]` entry: findings of `code` (about `subject`, when
/// given) are suppressed, for the stated reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintAllow {
    pub code: String,
    pub code_span: std::ops::Range<usize>,
    pub subject: Option<String>,
    pub reason: String,
    /// Byte span of the whole entry in the configuration file.
    pub span: std::ops::Range<usize>,
}

/// One `[[gen.output]]` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenOutput {
    pub kind: OutputKind,
    /// The path as written, relative to the configuration's directory.
    pub written: String,
    /// The path resolved against the configuration's directory.
    pub path: PathBuf,
    /// Byte span of the entry in the configuration file.
    pub span: std::ops::Range<usize>,
    /// Byte span of the path value in the configuration file.
    pub path_span: std::ops::Range<usize>,
}

/// What a generated output contains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
pub enum OutputKind {
    /// Emulation tables (and storage-version maps) as Rust statics.
    #[serde(rename = "rust")]
    Rust,
    /// Kubernetes' `versioned_feature_list.yaml`, byte for byte.
    #[serde(rename = "k8s-yaml")]
    K8sYaml,
    /// Declarations and resolved tables as JSON.
    #[serde(rename = "json")]
    Json,
    /// A Markdown reference in the layout of Kubernetes' `feature_list.md`.
    #[serde(rename = "markdown")]
    Markdown,
}

impl OutputKind {
    /// The name written in `kompat.toml`.
    pub fn name(self) -> &'static str {
        match self {
            OutputKind::Rust => "rust",
            OutputKind::K8sYaml => "k8s-yaml",
            OutputKind::Json => "json",
            OutputKind::Markdown => "markdown",
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    binary_version: Option<Spanned<String>>,
    #[serde(default)]
    decls: Vec<Spanned<String>>,
    baseline: Option<Spanned<String>>,
    #[serde(default)]
    reference: Vec<Spanned<String>>,
    #[serde(default)]
    crds: Vec<Spanned<String>>,
    #[serde(default)]
    exclude: Vec<Spanned<String>>,
    window: Option<WindowTable>,
    kubernetes: Option<RawKubernetes>,
    project: Option<RawProject>,
    lint: Option<RawLint>,
    gen: Option<Spanned<RawGen>>,
    render: Option<RawRender>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawCommand {
    Program(String),
    Words(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRender {
    helm: Option<Spanned<RawCommand>>,
    kustomize: Option<Spanned<RawCommand>>,
    timeout_seconds: Option<Spanned<i64>>,
    max_output_mib: Option<Spanned<i64>>,
    #[serde(default)]
    chart: Vec<Spanned<RawTarget>>,
    #[serde(default)]
    kustomize_dir: Vec<Spanned<RawTarget>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTarget {
    path: Spanned<String>,
    #[serde(default)]
    values: Vec<Spanned<String>>,
    release: Option<Spanned<String>>,
    namespace: Option<Spanned<String>>,
    #[serde(default)]
    skip: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKubernetes {
    version: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProject {
    #[serde(default)]
    images: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLint {
    #[serde(default)]
    require: Vec<Spanned<String>>,
    #[serde(default)]
    levels: std::collections::BTreeMap<Spanned<String>, Level>,
    #[serde(default)]
    allow: Vec<Spanned<RawAllow>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAllow {
    code: Spanned<String>,
    subject: Option<String>,
    reason: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGen {
    #[serde(default)]
    output: Vec<Spanned<RawOutput>>,
    #[serde(default)]
    allow_outside: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutput {
    kind: OutputKind,
    path: Spanned<String>,
}

impl Config {
    /// Loads `explicit`, or else the first `kompat.toml` found in the
    /// working directory or one of its parents ([`Config::find`]), or
    /// nothing.
    pub fn discover(explicit: Option<&Path>) -> Result<Option<Config>> {
        match explicit {
            Some(path) => Config::load(path).map(Some),
            None => {
                let cwd = std::env::current_dir()
                    .map_err(|err| Error::msg(format!("cannot read the working directory: {err}")))?;
                match Config::find(&cwd) {
                    Some(path) => Config::load(&path).map(Some),
                    None => Ok(None),
                }
            }
        }
    }

    /// The `kompat.toml` that applies in `dir`: the first one found in `dir`
    /// or its parents, up to the filesystem root, as cargo and rustfmt look
    /// for theirs. The path is relative to `dir` (`kompat.toml`,
    /// `../kompat.toml`, ...), so the paths it names, and messages about
    /// them, stay relative too.
    pub fn find(dir: &Path) -> Option<PathBuf> {
        let mut relative = PathBuf::new();
        for ancestor in dir.ancestors() {
            if ancestor.join(FILE_NAME).is_file() {
                return Some(relative.join(FILE_NAME));
            }
            relative.push("..");
        }
        None
    }

    pub fn load(path: &Path) -> Result<Config> {
        let source = SourceFile::read(path)?;
        Config::parse(source)
    }

    pub fn parse(source: SourceFile) -> Result<Config> {
        let raw: RawConfig = toml::from_str(&source.text).map_err(|err| {
            let error = kompat_formats::span::toml_syntax_error(&source.text, &err);
            let span = error.span.unwrap_or_default();
            Error { diagnostics: vec![Diagnostic::error(error.message).at(Some(source.locate(span.start, span.end)))] }
        })?;
        let located = |span: std::ops::Range<usize>, message: String| Error {
            diagnostics: vec![Diagnostic::error(message).at(Some(source.locate(span.start, span.end)))],
        };
        let version = |value: &Spanned<String>| {
            Version::parse(value.get_ref()).map_err(|err| located(value.span(), err.to_string()))
        };
        let binary_version = raw.binary_version.as_ref().map(version).transpose()?;
        let kubernetes_path = raw
            .kubernetes
            .as_ref()
            .and_then(|k| k.version.as_ref())
            .map(|value| {
                VersionRange::parse_with(value.get_ref(), Version::parse)
                    .map_err(|err| located(value.span(), err.to_string()))
            })
            .transpose()?;
        // The first problem, as for every other key.
        let window = match raw.window.as_ref().map(WindowTable::policy).transpose() {
            Ok(window) => window.unwrap_or(WindowPolicy::DEFAULT),
            Err(mut errors) => return Err(source.parse_errors(errors.drain(..1).collect())),
        };
        let dir = source.path.parent().map(Path::to_owned).unwrap_or_default();
        let resolve = |p: &Spanned<String>| dir.join(p.get_ref());
        let gen = match &raw.gen {
            Some(gen) => Some(gen_config(gen, &dir).map_err(|(span, message)| located(span, message))?),
            None => None,
        };
        let mut exclude = Exclude::none();
        for glob in &raw.exclude {
            exclude
                .add(&dir, [glob.get_ref().as_str()])
                .map_err(|(_, why)| located(glob.span(), format!("bad glob in `exclude`: {why}")))?;
        }
        let mut project_images = Vec::new();
        for image in raw.project.iter().flat_map(|p| &p.images) {
            if image.get_ref().trim().is_empty() {
                return Err(located(image.span(), "empty image in `images` under [project]".to_owned()));
            }
            project_images.push(image.get_ref().trim().to_owned());
        }
        let lint = match raw.lint {
            Some(lint) => Some(lint_config(lint).map_err(|(span, message)| located(span, message))?),
            None => None,
        };
        let render = match &raw.render {
            Some(render) => Some(render_config(render, &dir).map_err(|(span, message)| located(span, message))?),
            None => None,
        };
        Ok(Config {
            render,
            binary_version,
            kubernetes_path,
            window,
            kubernetes_profile: raw.window.as_ref().is_some_and(WindowTable::is_kubernetes_profile),
            project_images,
            decls: raw.decls.iter().map(resolve).collect(),
            baseline: raw.baseline.as_ref().map(resolve),
            reference: raw.reference.iter().map(resolve).collect(),
            crds: raw.crds.iter().map(resolve).collect(),
            exclude,
            lint,
            gen,
            source,
        })
    }
}

/// Types the `[render]` table: commands are not empty, limits are
/// positive, each chart or kustomize directory is listed once.
fn render_config(raw: &RawRender, dir: &Path) -> Result<RenderConfig, (std::ops::Range<usize>, String)> {
    let command = |key: &str, raw: &Option<Spanned<RawCommand>>| -> Result<Option<Vec<String>>, _> {
        let Some(raw) = raw else { return Ok(None) };
        let words = match raw.get_ref() {
            RawCommand::Program(program) => vec![program.clone()],
            RawCommand::Words(words) => words.clone(),
        };
        let mut words = words;
        match words.first_mut() {
            Some(program) if !program.trim().is_empty() => {
                // A path, like every path in the file, is relative to it; a
                // bare name is looked up on PATH.
                if program.contains('/') && Path::new(program.as_str()).is_relative() {
                    *program = dir.join(program.as_str()).display().to_string();
                }
            }
            _ => return Err((raw.span(), format!("`{key}` needs a program: a name on PATH or a path"))),
        }
        Ok(Some(words))
    };
    let positive = |key: &str, raw: &Option<Spanned<i64>>, default: u64, max: u64| match raw {
        None => Ok(default),
        Some(value) => match u64::try_from(*value.get_ref()) {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err((value.span(), format!("`{key}` must be a whole number from 1 to {max}"))),
        },
    };
    let timeout = positive("timeout_seconds", &raw.timeout_seconds, RENDER_TIMEOUT_SECONDS, 3600)?;
    let max_output = positive("max_output_mib", &raw.max_output_mib, RENDER_MAX_OUTPUT_MIB, 1024)?;
    let targets = |entries: &[Spanned<RawTarget>], charts: bool| {
        let mut out: Vec<RenderTarget> = Vec::new();
        for entry in entries {
            let target = entry.get_ref();
            let written = target.path.get_ref();
            if written.trim().is_empty() {
                return Err((target.path.span(), "empty `path`".to_owned()));
            }
            let path = dir.join(written);
            if out.iter().any(|t| t.path == path) {
                return Err((target.path.span(), format!("`{written}` is listed twice")));
            }
            if !charts {
                if let Some(values) = target.values.first() {
                    return Err((values.span(), "`values` is for charts only".to_owned()));
                }
                if let Some(release) = &target.release {
                    return Err((release.span(), "`release` is for charts only".to_owned()));
                }
            }
            for text in [&target.release, &target.namespace].into_iter().flatten() {
                let name = text.get_ref();
                if name.is_empty() || name.starts_with('-') {
                    return Err((text.span(), format!("`{name}` is not a release or namespace name")));
                }
            }
            out.push(RenderTarget {
                path,
                values: target.values.iter().map(|v| dir.join(v.get_ref())).collect(),
                release: target.release.as_ref().map(|r| r.get_ref().clone()),
                namespace: target.namespace.as_ref().map(|n| n.get_ref().clone()),
                skip: target.skip,
                span: entry.span(),
            });
        }
        Ok(out)
    };
    Ok(RenderConfig {
        helm: command("helm", &raw.helm)?,
        kustomize: command("kustomize", &raw.kustomize)?,
        timeout: std::time::Duration::from_secs(timeout),
        max_output: (max_output << 20) as usize,
        charts: targets(&raw.chart, true)?,
        kustomize_dirs: targets(&raw.kustomize_dir, false)?,
    })
}

/// Types the `[gen]` table; an output path may appear only once.
fn gen_config(raw: &Spanned<RawGen>, dir: &Path) -> Result<GenConfig, (std::ops::Range<usize>, String)> {
    let mut outputs: Vec<GenOutput> = Vec::new();
    for entry in &raw.get_ref().output {
        let output = entry.get_ref();
        let written = output.path.get_ref();
        if written.is_empty() {
            return Err((output.path.span(), "empty output path".to_owned()));
        }
        let path = dir.join(written);
        if outputs.iter().any(|o| o.path == path) {
            return Err((output.path.span(), format!("output `{written}` is listed twice")));
        }
        outputs.push(GenOutput {
            kind: output.kind,
            written: written.clone(),
            path,
            span: entry.span(),
            path_span: output.path.span(),
        });
    }
    let mut allow_outside = Vec::new();
    for entry in &raw.get_ref().allow_outside {
        if entry.get_ref().is_empty() {
            return Err((entry.span(), "empty directory in `allow_outside`".to_owned()));
        }
        allow_outside.push((dir.join(entry.get_ref()), entry.span()));
    }
    Ok(GenConfig { span: raw.span(), outputs, allow_outside })
}

impl Config {
    /// The project's version and the Kubernetes version of the cluster, as
    /// this file gives them: `binary_version` and `[kubernetes] version`,
    /// neither standing in for the other but under `profile = "kubernetes"`,
    /// where each sets both.
    pub fn versions(&self) -> (Option<Version>, Option<Version>) {
        let kubernetes = self.kubernetes_version();
        if self.kubernetes_profile {
            (self.binary_version.or(kubernetes), kubernetes.or(self.binary_version))
        } else {
            (self.binary_version, kubernetes)
        }
    }

    /// `[kubernetes] version`: the Kubernetes release `kompat lint` checks
    /// manifests and settings of Kubernetes' own gates against (the
    /// project's `binary_version` is its own release, not Kubernetes'). For
    /// an upgrade path (`version = "A..B"`), its target B.
    pub fn kubernetes_version(&self) -> Option<Version> {
        self.kubernetes_path.map(VersionRange::last)
    }

    /// Those of `paths` that lie outside the project (the configuration's
    /// directory, after resolving `..` and symbolic links). Reading them is
    /// allowed; the commands name them on stderr, so a change to the
    /// configuration that reads elsewhere shows in the output.
    pub fn outside_project<'p>(&self, paths: impl IntoIterator<Item = &'p PathBuf>) -> Vec<&'p PathBuf> {
        let Ok(root) = resolve(&self.dir()) else { return Vec::new() };
        paths.into_iter().filter(|path| resolve(path).is_ok_and(|p| !p.starts_with(&root))).collect()
    }

    /// The directory outputs are confined to: the configuration's own.
    pub fn dir(&self) -> PathBuf {
        self.source.path.parent().map(Path::to_owned).unwrap_or_default()
    }

    /// Checks every `[[gen.output]]` before anything is written: placed below
    /// `out_dir` (a build script's `$OUT_DIR`) or else the configuration's
    /// directory, an output must stay inside that directory or inside one of
    /// `allow_outside`, after resolving `..` and symbolic links (an output
    /// that is a symbolic link counts where it points). An existing output
    /// that is not a regular file is refused too. Every refused output is
    /// reported, located at its path in the configuration.
    pub fn check_gen_outputs(&self, out_dir: Option<&Path>) -> Result<()> {
        let Some(gen) = &self.gen else { return Ok(()) };
        let located = |span: &std::ops::Range<usize>, message: String| {
            Diagnostic::error(message).at(Some(self.source.locate(span.start, span.end)))
        };
        let io_failure = |span: &std::ops::Range<usize>, path: &Path, err: std::io::Error| {
            located(span, format!("cannot resolve {}: {}", path.display(), crate::error::io_reason(&err)))
        };
        let mut failures = Vec::new();
        let (root, what) = match out_dir {
            Some(dir) => (dir.to_owned(), "the output directory"),
            None => (self.dir(), "the project (the directory of the configuration)"),
        };
        let root = match resolve(&root) {
            Ok(root) => root,
            Err(err) => return Err(Error { diagnostics: vec![io_failure(&gen.span, &root, err)] }),
        };
        let mut allowed = Vec::new();
        for (dir, span) in &gen.allow_outside {
            match resolve(dir) {
                Ok(dir) => allowed.push(dir),
                Err(err) => failures.push(io_failure(span, dir, err)),
            }
        }
        for output in &gen.outputs {
            let target = root.join(&output.written);
            let resolved = match resolve(&target) {
                Ok(resolved) => resolved,
                Err(err) => {
                    failures.push(io_failure(&output.path_span, &target, err));
                    continue;
                }
            };
            let inside = |dir: &PathBuf| resolved.starts_with(dir) && resolved != *dir;
            if !inside(&root) && !allowed.iter().any(inside) {
                failures.push(located(
                    &output.path_span,
                    format!(
                        "output `{}` is outside {what}; list the directory it goes to in `allow_outside` \
                         under [gen] to write there",
                        output.written
                    ),
                ));
                continue;
            }
            if let Ok(meta) = std::fs::metadata(&resolved) {
                if !meta.is_file() {
                    failures
                        .push(located(&output.path_span, format!("output `{}` is not a regular file", output.written)));
                }
            }
        }
        if failures.is_empty() {
            Ok(())
        } else {
            Err(Error { diagnostics: failures })
        }
    }
}

/// `path` made absolute with every existing component's symbolic links
/// resolved and `.`/`..` applied; components that do not exist yet (output
/// directories `kompat gen` creates) are taken as written.
fn resolve(path: &Path) -> std::io::Result<PathBuf> {
    use std::path::Component;
    let absolute = if path.is_absolute() { path.to_owned() } else { std::env::current_dir()?.join(path) };
    let mut resolved = PathBuf::new();
    let mut missing = false;
    for component in absolute.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => resolved.push(component),
            Component::CurDir => {}
            Component::ParentDir => {
                // `resolved` has no symbolic links left, so its parent is
                // where `..` leads.
                resolved.pop();
            }
            Component::Normal(name) => {
                let next = resolved.join(name);
                match std::fs::symlink_metadata(&next) {
                    // Only a link needs resolving: `resolved` has none left,
                    // so `next` is already resolved otherwise (one `lstat` a
                    // component, not a `realpath` of every prefix).
                    Ok(meta) if !missing && meta.file_type().is_symlink() => {
                        resolved = std::fs::canonicalize(&next)?;
                    }
                    Ok(_) if !missing => resolved = next,
                    _ => {
                        missing = true;
                        resolved = next;
                    }
                }
            }
        }
    }
    Ok(resolved)
}

/// Types the `[lint]` table; every allowance must say why.
fn lint_config(raw: RawLint) -> Result<LintConfig, (std::ops::Range<usize>, String)> {
    let mut levels: Vec<LintLevel> = raw
        .levels
        .into_iter()
        .map(|(code, level)| LintLevel { code_span: code.span(), code: code.into_inner(), level })
        .collect();
    levels.sort_by_key(|l| l.code_span.start);
    let require = raw.require.into_iter().map(|r| (r.get_ref().clone(), r.span())).collect();
    let mut allow = Vec::new();
    for entry in raw.allow {
        let span = entry.span();
        let RawAllow { code, subject, reason } = entry.into_inner();
        if reason.get_ref().trim().is_empty() {
            return Err((
                reason.span(),
                "an allowance needs a non-empty `reason`: say why the finding is acceptable".to_owned(),
            ));
        }
        allow.push(LintAllow {
            code_span: code.span(),
            code: code.into_inner(),
            subject,
            reason: reason.into_inner(),
            span,
        });
    }
    Ok(LintConfig { require, levels, allow })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Config::find` from each directory of a tree, as the path it returns
    /// (relative to that directory), for a tree with `kompat.toml` files at
    /// the given places.
    #[track_caller]
    fn check(configs: &[&str], from: &str, expected: Option<&str>) {
        let root = tempfile::tempdir().unwrap_or_else(|err| panic!("tempdir: {err}"));
        // A marker above the tree would be found too: the tree's own root
        // stands in for the filesystem root only when nothing above has one.
        let above = root.path().ancestors().skip(1).any(|d| d.join(FILE_NAME).is_file());
        for config in configs {
            let path = root.path().join(config);
            std::fs::create_dir_all(path.parent().unwrap_or(root.path())).unwrap_or_else(|err| panic!("{err}"));
            std::fs::write(&path, "").unwrap_or_else(|err| panic!("{err}"));
        }
        let dir = root.path().join(from);
        std::fs::create_dir_all(&dir).unwrap_or_else(|err| panic!("{err}"));
        let found = Config::find(&dir);
        if expected.is_none() && above {
            return;
        }
        assert_eq!(found.as_deref(), expected.map(Path::new), "{configs:?} from {from}");
        if let Some(found) = found {
            assert!(dir.join(found).is_file());
        }
    }

    #[test]
    fn the_nearest_configuration_in_the_directory_or_a_parent() {
        check(&["kompat.toml"], "", Some("kompat.toml"));
        check(&["kompat.toml"], "deploy/overlays", Some("../../kompat.toml"));
        check(&["kompat.toml", "deploy/kompat.toml"], "deploy/overlays", Some("../kompat.toml"));
        check(&["kompat.toml", "deploy/kompat.toml"], "src", Some("../kompat.toml"));
        // A directory named kompat.toml is not a configuration.
        check(&["kompat.toml", "deploy/kompat.toml/x"], "deploy", Some("../kompat.toml"));
        check(&[], "a/b", None);
    }

    /// `[render]` parsed from `text`: the commands, limits and targets, or
    /// the error's `line:column: message`.
    #[track_caller]
    fn check_render(text: &str, expected: &str) {
        let source = SourceFile::new(PathBuf::from("p/kompat.toml"), text.to_owned());
        let got = match Config::parse(source) {
            Ok(config) => match config.render {
                None => "none".to_owned(),
                Some(r) => {
                    let targets = |ts: &[RenderTarget]| -> Vec<String> {
                        ts.iter()
                            .map(|t| {
                                format!(
                                    "{} values={:?} release={:?} namespace={:?} skip={}",
                                    t.path.display(),
                                    t.values,
                                    t.release,
                                    t.namespace,
                                    t.skip
                                )
                            })
                            .collect()
                    };
                    format!(
                        "helm={:?} kustomize={:?} timeout={}s max={}MiB charts={:?} dirs={:?}",
                        r.helm,
                        r.kustomize,
                        r.timeout.as_secs(),
                        r.max_output >> 20,
                        targets(&r.charts),
                        targets(&r.kustomize_dirs)
                    )
                }
            },
            Err(err) => err
                .diagnostics
                .iter()
                .map(|d| {
                    let at = d.location.as_ref().and_then(|l| l.line_col()).unwrap_or_default();
                    format!("{}:{}: {}", at.0, at.1, d.message)
                })
                .collect::<Vec<_>>()
                .join("; "),
        };
        assert_eq!(got, expected, "{text}");
    }

    /// The versions a kompat.toml gives, as `binary / kubernetes` (`-` for
    /// none), and its project images; or the error.
    #[track_caller]
    fn versions(text: &str, expected: &str) {
        let got = match Config::parse(SourceFile::new("kompat.toml".into(), text.to_owned())) {
            Ok(config) => {
                let (binary, kubernetes) = config.versions();
                let show = |v: Option<Version>| v.map_or("-".to_owned(), |v| v.to_string());
                format!("{} / {} {:?}", show(binary), show(kubernetes), config.project_images)
            }
            Err(err) => err.diagnostics.iter().map(|d| d.message.clone()).collect::<Vec<_>>().join("; "),
        };
        assert_eq!(got, expected, "{text}");
    }

    #[test]
    fn the_render_table() {
        check_render("", "none");
        check_render(
            "[render]\nhelm = \"helm\"\n",
            "helm=Some([\"helm\"]) kustomize=None timeout=60s max=32MiB charts=[] dirs=[]",
        );
        check_render(
            "[render]\nkustomize = [\"kubectl\", \"kustomize\"]\ntimeout_seconds = 5\nmax_output_mib = 2\n",
            "helm=None kustomize=Some([\"kubectl\", \"kustomize\"]) timeout=5s max=2MiB charts=[] dirs=[]",
        );
        check_render(
            "[render]\nhelm = \"helm\"\n[[render.chart]]\npath = \"charts/web\"\nvalues = [\"prod.yaml\"]\nrelease = \"web\"\nnamespace = \"apps\"\n[[render.kustomize_dir]]\npath = \"config/samples\"\nskip = true\n",
            "helm=Some([\"helm\"]) kustomize=None timeout=60s max=32MiB \
             charts=[\"p/charts/web values=[\\\"p/prod.yaml\\\"] release=Some(\\\"web\\\") namespace=Some(\\\"apps\\\") skip=false\"] \
             dirs=[\"p/config/samples values=[] release=None namespace=None skip=true\"]",
        );
        // Located errors.
        check_render("[render]\nhelm = \"\"\n", "2:8: `helm` needs a program: a name on PATH or a path");
        check_render("[render]\nhelm = []\n", "2:8: `helm` needs a program: a name on PATH or a path");
        check_render(
            "[render]\ntimeout_seconds = 0\n",
            "2:19: `timeout_seconds` must be a whole number from 1 to 3600",
        );
        check_render("[render]\nmax_output_mib = -1\n", "2:18: `max_output_mib` must be a whole number from 1 to 1024");
        check_render("[render]\nhelm_binary = \"helm\"\n", &format!("2:1: {}", unknown("helm_binary")));
        check_render(
            "[render]\n[[render.chart]]\npath = \"c\"\n[[render.chart]]\npath = \"./c/../c\"\n[[render.chart]]\npath = \"c\"\n",
            "7:8: `c` is listed twice",
        );
        check_render(
            "[render]\n[[render.kustomize_dir]]\npath = \"k\"\nvalues = [\"v.yaml\"]\n",
            "4:11: `values` is for charts only",
        );
        check_render(
            "[render]\n[[render.chart]]\npath = \"c\"\nrelease = \"--set=x\"\n",
            "4:11: `--set=x` is not a release or namespace name",
        );
    }

    /// toml's own message for an unknown key of `[render]`.
    fn unknown(key: &str) -> String {
        let source = SourceFile::new(PathBuf::from("k.toml"), format!("[render]\n{key} = 1\n"));
        Config::parse(source)
            .err()
            .and_then(|e| e.diagnostics.first().map(|d| d.message.to_string()))
            .unwrap_or_default()
    }

    #[test]
    fn two_versions_one_meaning_each() {
        versions("binary_version = \"0.9\"\n", "0.9 / - []");
        versions("[kubernetes]\nversion = \"1.34\"\n", "- / 1.34 []");
        versions("binary_version = \"0.9\"\n[kubernetes]\nversion = \"1.34\"\n", "0.9 / 1.34 []");
        // Under the Kubernetes profile, one sets both.
        versions("binary_version = \"1.37\"\n[window]\nprofile = \"kubernetes\"\n", "1.37 / 1.37 []");
        versions("[window]\nprofile = \"kubernetes\"\n[kubernetes]\nversion = \"1.36\"\n", "1.36 / 1.36 []");
        versions("binary_version = \"1.37\"\n[window]\nprofile = \"default\"\n", "1.37 / - []");
        versions(
            "[project]\nimages = [\"registry.k8s.io/jobset/jobset\", \" widgetd \"]\n",
            "- / - [\"registry.k8s.io/jobset/jobset\", \"widgetd\"]",
        );
        versions("[project]\nimages = [\"\"]\n", "empty image in `images` under [project]");
    }
}
