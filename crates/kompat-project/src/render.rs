//! Rendering Helm charts (`helm template`) and kustomize directories
//! (`kubectl kustomize`, `kustomize build`): the one place kompat runs
//! another program, so the loader stays the only part of kompat that
//! touches the outside world.
//!
//! A renderer runs as hostile input may demand ([`run`]):
//!
//! - with a time limit: its process group is killed when it expires;
//! - with an output cap: past it, reading stops and the group is killed;
//! - with standard input closed, in a fresh temporary directory that is
//!   its working directory and its `HOME`, Helm's cache, configuration and
//!   data directories and the XDG ones, with `KUBECONFIG` naming a file that
//!   does not exist: it writes nothing into the project (the chart or
//!   kustomize directory is named by its absolute path and only read);
//! - without network: on Linux in a new user and network namespace (no
//!   interface but a loopback that is down), and everywhere with the
//!   proxies pointed at a closed port (`127.0.0.1:9`) and git limited to
//!   local repositories, so a remote resource fails fast instead of being
//!   fetched.
//!
//! The output is kept in memory and split into documents, each with the
//! file it came from where that can be told ([`Document::origin`]): Helm's
//! `# Source:` line names the template; for kustomize, the resource file of
//! the kustomization tree that holds an object of the same kind and name.
//!
//! A render takes the Kubernetes version it renders for ([`ChartJob`]), so
//! a range of versions can render once per step.

use std::ffi::OsString;
use std::io::Read as _;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kompat_formats::yaml::{parse_documents, Node};
use kompat_runtime::Version;

use crate::config::RenderConfig;
use crate::source::SourceFile;

/// How much of a renderer's standard error is kept, in bytes.
const MAX_STDERR_BYTES: usize = 64 << 10;

/// How many lines of standard error a failure shows.
pub const STDERR_LINES: usize = 5;

/// A render's limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub timeout: Duration,
    pub max_output: usize,
}

impl Limits {
    /// The limits `[render]` sets.
    pub fn of(config: &RenderConfig) -> Limits {
        Limits { timeout: config.timeout, max_output: config.max_output }
    }
}

/// Why a render produced nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The program is not on `PATH` (or not at the path given).
    Missing { program: String },
    /// It could not be started.
    Spawn { program: String, reason: String },
    /// It exited unsuccessfully; the first lines of its standard error.
    Exit { status: String, stderr: Vec<String> },
    /// It ran past the time limit and was killed.
    Timeout { limit: Duration, stderr: Vec<String> },
    /// It wrote more than the output cap and was killed.
    OutputCap { cap: usize },
    /// Its output is not text (UTF-8).
    NotText,
    /// The chart's dependencies (`charts/`) are not built.
    Dependencies { missing: Vec<String> },
}

impl Failure {
    /// What happened, in a sentence fragment (`exited with status 1`).
    pub fn reason(&self) -> String {
        match self {
            Failure::Missing { program } => format!("`{program}` was not found"),
            Failure::Spawn { program, reason } => format!("`{program}` could not be started: {reason}"),
            Failure::Exit { status, .. } => format!("it {status}"),
            Failure::Timeout { limit, .. } => {
                format!("it ran longer than the time limit ({}s) and was stopped", limit.as_secs())
            }
            Failure::OutputCap { cap } => {
                format!("its output went over the cap ({} MiB) and it was stopped", cap.div_ceil(1 << 20))
            }
            Failure::NotText => "its output is not UTF-8 text".to_owned(),
            Failure::Dependencies { missing } => format!(
                "the chart's dependencies are not in its `charts/` directory ({}); kompat does not fetch them \
                 (`helm dependency build` needs the network)",
                missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    /// The first lines of the renderer's standard error, when it ran.
    pub fn stderr(&self) -> &[String] {
        match self {
            Failure::Exit { stderr, .. } | Failure::Timeout { stderr, .. } => stderr,
            _ => &[],
        }
    }
}

/// The text a program wrote to standard output.
pub type RunResult = std::result::Result<String, Failure>;

/// Runs `command` (program and leading arguments) with `args`, sandboxed as
/// the module documentation says, and returns its standard output.
pub fn run(command: &[String], args: &[OsString], limits: Limits) -> RunResult {
    let Some((program, leading)) = command.split_first() else {
        return Err(Failure::Missing { program: String::new() });
    };
    let Some(resolved) = find_program(program) else { return Err(Failure::Missing { program: program.clone() }) };
    let sandbox = tempfile::Builder::new()
        .prefix("kompat-render-")
        .tempdir()
        .map_err(|err| Failure::Spawn { program: program.clone(), reason: format!("no temporary directory: {err}") })?;
    let home = sandbox.path();
    let mut cmd = Command::new(&resolved);
    cmd.args(leading).args(args);
    cmd.current_dir(home).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.env_clear();
    // What a renderer needs of the environment: where programs are, and the
    // locale; nothing that names credentials or the user's configuration.
    for key in ["PATH", "LANG", "LC_ALL", "TZ"] {
        if let Some(value) = std::env::var_os(key) {
            cmd.env(key, value);
        }
    }
    for (key, dir) in [
        ("HOME", "home"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("HELM_CACHE_HOME", "cache/helm"),
        ("HELM_CONFIG_HOME", "config/helm"),
        ("HELM_DATA_HOME", "data/helm"),
        ("TMPDIR", "tmp"),
    ] {
        let path = home.join(dir);
        // A directory that cannot be made is the renderer's to report.
        let _ = std::fs::create_dir_all(&path);
        cmd.env(key, path);
    }
    cmd.env("KUBECONFIG", home.join("no-kubeconfig"));
    // No network even where namespaces are refused: proxies that refuse
    // every connection, git only for local repositories.
    for key in ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"] {
        cmd.env(key, "http://127.0.0.1:9");
    }
    cmd.env("NO_PROXY", "").env("no_proxy", "");
    cmd.env("GIT_ALLOW_PROTOCOL", "file").env("GIT_TERMINAL_PROMPT", "0").env("GIT_CONFIG_NOSYSTEM", "1");
    cmd.env("HELM_PLUGINS", home.join("no-plugins"));
    isolate(&mut cmd);
    let mut child = cmd
        .spawn()
        .map_err(|err| Failure::Spawn { program: program.clone(), reason: crate::error::io_reason(&err) })?;
    let group = child.id();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let cap = limits.max_output;
    let over_cap = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = over_cap.clone();
    let out_reader = std::thread::spawn(move || {
        let (out, over) = read_capped(stdout, cap);
        flag.store(over, std::sync::atomic::Ordering::SeqCst);
        out
    });
    let err_reader = std::thread::spawn(move || read_capped(stderr, MAX_STDERR_BYTES).0);
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {}
            Err(_) => break None,
        }
        if over_cap.load(std::sync::atomic::Ordering::SeqCst) || start.elapsed() >= limits.timeout {
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    // The whole group goes, whatever happened: nothing a renderer started
    // outlives the render (and keeps the pipes open).
    kill_group(group);
    let _ = child.kill();
    let _ = child.wait();
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    let stderr_lines = first_lines(&err);
    if over_cap.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(Failure::OutputCap { cap });
    }
    let Some(status) = status else { return Err(Failure::Timeout { limit: limits.timeout, stderr: stderr_lines }) };
    if !status.success() {
        let status = match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => "was killed by a signal".to_owned(),
        };
        return Err(Failure::Exit { status, stderr: stderr_lines });
    }
    String::from_utf8(out).map_err(|_| Failure::NotText)
}

/// Reads `pipe` to its end or until more than `cap` bytes came; the bytes
/// (at most `cap`) and whether there were more.
fn read_capped(pipe: Option<impl std::io::Read>, cap: usize) -> (Vec<u8>, bool) {
    let Some(pipe) = pipe else { return (Vec::new(), false) };
    let mut out = Vec::new();
    let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
    let _ = pipe.take(limit).read_to_end(&mut out);
    let over = out.len() > cap;
    out.truncate(cap);
    (out, over)
}

/// The first non-empty lines of a renderer's standard error, without
/// klog's prefix (`E1127 22:20:21.238504    4316 run.go:72] `: a time and
/// a process id, different on every run).
fn first_lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| strip_klog(l.trim_end()))
        .filter(|l| !l.trim().is_empty())
        .take(STDERR_LINES)
        .map(|l| l.chars().take(400).collect())
        .collect()
}

/// `line` without a klog header: a severity letter, `MMDD hh:mm:ss.uuuuuu`,
/// a thread id and `file:line] `.
fn strip_klog(line: &str) -> &str {
    let bytes = line.as_bytes();
    let header = bytes.len() > 22
        && matches!(bytes[0], b'I' | b'W' | b'E' | b'F')
        && bytes[1..5].iter().all(u8::is_ascii_digit)
        && bytes[5] == b' '
        && bytes[8] == b':';
    match line.find("] ") {
        Some(end) if header => &line[end + 2..],
        _ => line,
    }
}

/// The program a command names: a path (with a `/`) as it is, else the
/// first match on `PATH`.
pub fn find_program(program: &str) -> Option<PathBuf> {
    let path = Path::new(program);
    if program.contains(std::path::MAIN_SEPARATOR) || program.contains('/') {
        let absolute = std::path::absolute(path).ok()?;
        return is_executable(&absolute).then_some(absolute);
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(program)).find(|p| is_executable(p))
}

fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

/// A process group of its own, and on Linux new user and network
/// namespaces (no network); a kernel that refuses namespaces leaves the
/// child with the proxy black hole alone.
#[cfg(unix)]
fn isolate(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    #[cfg(target_os = "linux")]
    // SAFETY: `unshare` is async-signal-safe and touches only the calling
    // (forked, single-threaded) child; nothing is allocated.
    unsafe {
        cmd.pre_exec(|| {
            let _ = libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET);
            Ok(())
        });
    }
}

#[cfg(not(unix))]
fn isolate(_cmd: &mut Command) {}

/// Kills every process of the group `group` leads.
#[cfg(unix)]
fn kill_group(group: u32) {
    if let Ok(pid) = i32::try_from(group) {
        // SAFETY: sending a signal has no memory effects; a group that is
        // gone already is ESRCH, ignored.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(_group: u32) {}

/// One rendered document.
#[derive(Debug, Clone)]
pub struct Document {
    /// The document's text as rendered.
    pub text: String,
    /// The file it came from: the template (Helm's `# Source:` line), or
    /// the resource file of the kustomization tree with an object of the
    /// same kind and name; read, for locating in it.
    pub origin: Option<SourceFile>,
}

/// What a chart or kustomize directory rendered to.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub documents: Vec<Document>,
}

/// The `---`-separated documents of a renderer's output, without those
/// holding nothing but comments.
pub fn split_documents(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut flush = |current: &mut String| {
        let content = current.lines().any(|l| {
            let l = l.trim();
            !l.is_empty() && !l.starts_with('#')
        });
        if content {
            out.push(std::mem::take(current));
        }
        current.clear();
    };
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end();
        if bare == "---" || bare.starts_with("--- ") || bare.starts_with("---\t") {
            flush(&mut current);
        } else {
            current.push_str(line);
        }
    }
    flush(&mut current);
    out
}

/// What `helm template` is run with for one chart at one Kubernetes
/// version.
#[derive(Debug, Clone)]
pub struct ChartJob<'a> {
    pub chart: &'a Path,
    pub release: String,
    pub namespace: Option<String>,
    /// Values files; empty for the chart's own `values.yaml`.
    pub values: Vec<PathBuf>,
    /// `--kube-version`; without it Helm's default.
    pub kube_version: Option<Version>,
    /// `--api-versions`: what the target cluster serves (`G/V` and
    /// `G/V/Kind`).
    pub api_versions: &'a [String],
}

impl<'a> ChartJob<'a> {
    /// The job `[render]` configures for `chart` (release: the entry's, else
    /// the directory's name).
    pub fn configured(
        chart: &'a Path,
        config: &RenderConfig,
        kube_version: Option<Version>,
        api_versions: &'a [String],
    ) -> ChartJob<'a> {
        let target = RenderConfig::target(&config.charts, chart);
        let name = absolute(chart)
            .file_name()
            .and_then(|n| n.to_str())
            .map(release_name)
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "release".to_owned());
        ChartJob {
            chart,
            release: target.and_then(|t| t.release.clone()).unwrap_or(name),
            namespace: target.and_then(|t| t.namespace.clone()),
            values: target.map(|t| t.values.clone()).unwrap_or_default(),
            kube_version,
            api_versions,
        }
    }

    /// The arguments after the helm command.
    pub fn args(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = vec!["template".into(), self.release.clone().into(), absolute(self.chart).into()];
        if let Some(namespace) = &self.namespace {
            args.extend(["--namespace".into(), namespace.into()]);
        }
        for values in &self.values {
            args.extend(["--values".into(), absolute(values).into()]);
        }
        if let Some(v) = self.kube_version {
            args.extend(["--kube-version".into(), format!("v{}.{}.0", v.major, v.minor).into()]);
        }
        for api in self.api_versions {
            args.extend(["--api-versions".into(), api.into()]);
        }
        args
    }
}

/// A release name Helm accepts from a directory's name: lowercase letters,
/// digits and `-`.
fn release_name(name: &str) -> String {
    let name: String =
        name.to_ascii_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    name.trim_matches('-').chars().take(53).collect()
}

/// Renders a chart with `helm` (the command and its leading arguments).
/// A chart whose `Chart.yaml` lists dependencies missing from its
/// `charts/` directory is not rendered.
pub fn render_chart(helm: &[String], job: &ChartJob<'_>, limits: Limits) -> Result<Rendered, Failure> {
    let missing = missing_dependencies(job.chart);
    if !missing.is_empty() {
        return Err(Failure::Dependencies { missing });
    }
    let output = run(helm, &job.args(), limits)?;
    Ok(Rendered { documents: helm_documents(job.chart, &output) })
}

/// The documents of `helm template`'s output for `chart`, each traced to
/// the template its `# Source:` line names ([`template_file`]).
pub fn helm_documents(chart: &Path, output: &str) -> Vec<Document> {
    split_documents(output)
        .into_iter()
        .map(|text| {
            let origin = helm_source(&text).and_then(|source| template_file(chart, source));
            Document { text, origin }
        })
        .collect()
}

/// The path on Helm's `# Source:` line of a rendered document.
fn helm_source(text: &str) -> Option<&str> {
    text.lines().find_map(|l| l.trim().strip_prefix("# Source: ")).map(str::trim)
}

/// The file a `# Source: NAME/templates/x.yaml` path names in `chart`:
/// the first component is the chart's name.
pub fn template_path(chart: &Path, source: &str) -> Option<PathBuf> {
    let (_, rest) = source.split_once('/')?;
    let rest = Path::new(rest);
    if rest.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    Some(chart.join(rest))
}

/// The template a `# Source:` path names in `chart`, read: the output is
/// the chart's (untrusted) text, so only a regular file that is inside the
/// chart once symbolic links are resolved is read; a path leaving it (`..`,
/// absolute, or through a link to elsewhere) names nothing.
pub fn template_file(chart: &Path, source: &str) -> Option<SourceFile> {
    let path = template_path(chart, source)?;
    let root = std::fs::canonicalize(chart).ok()?;
    let real = std::fs::canonicalize(&path).ok()?;
    if !real.starts_with(&root) {
        return None;
    }
    SourceFile::read(&path).ok()
}

/// The dependencies `Chart.yaml` names (by name or alias) that are
/// neither a directory nor an archive under `charts/`.
pub fn missing_dependencies(chart: &Path) -> Vec<String> {
    let Ok(source) = SourceFile::read(&chart.join("Chart.yaml")) else { return Vec::new() };
    let Ok(docs) = parse_documents(&source.text) else { return Vec::new() };
    let Some(deps) = docs.first().and_then(|d| d.get("dependencies")).and_then(Node::as_seq) else {
        return Vec::new();
    };
    let present: Vec<String> = std::fs::read_dir(chart.join("charts"))
        .map(|entries| entries.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect())
        .unwrap_or_default();
    let mut missing = Vec::new();
    for dep in deps {
        let Some(name) = dep.get("name").and_then(Node::as_str) else { continue };
        let found = present.iter().any(|p| p == name || (p.starts_with(&format!("{name}-")) && p.ends_with(".tgz")));
        if !found {
            missing.push(name.to_owned());
        }
    }
    missing
}

/// A kustomize directory and what it consumes: the kustomize directories
/// it includes (at any depth) and the files its kustomizations name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KustomizeTree {
    pub root: PathBuf,
    /// The kustomize directories of the tree, the root first, normalized
    /// ([`normalize`]).
    pub dirs: Vec<PathBuf>,
    /// The files the kustomizations name (resources, patches, CRDs),
    /// normalized.
    pub files: Vec<PathBuf>,
}

/// The kustomization file of a directory, as kustomize looks for it.
pub fn kustomization_file(dir: &Path) -> Option<PathBuf> {
    ["kustomization.yaml", "kustomization.yml", "Kustomization"].iter().map(|n| dir.join(n)).find(|p| p.is_file())
}

/// The tree below the kustomize directory `root`.
pub fn kustomize_tree(root: &Path) -> KustomizeTree {
    let mut tree = KustomizeTree { root: root.to_owned(), ..KustomizeTree::default() };
    let mut stack = vec![normalize(root)];
    while let Some(dir) = stack.pop() {
        if tree.dirs.contains(&dir) || tree.dirs.len() > 1000 {
            continue;
        }
        tree.dirs.push(dir.clone());
        let Some(file) = kustomization_file(&dir) else { continue };
        for entry in kustomization_refs(&file) {
            if is_remote(&entry) {
                continue;
            }
            let path = normalize(&dir.join(&entry));
            if path.is_dir() {
                stack.push(path);
            } else if !tree.files.contains(&path) && within(&dir, &path) {
                tree.files.push(path);
            }
        }
    }
    tree
}

/// Whether the file `path` is in or below `dir` once symbolic links are
/// resolved: kustomize's default load restriction (`LoadRestrictionsRootOnly`)
/// for the files a kustomization names; a file elsewhere (`../../x.yaml`,
/// `/etc/passwd`, a link out) fails its render, and kompat never reads it.
fn within(dir: &Path, path: &Path) -> bool {
    match (std::fs::canonicalize(dir), std::fs::canonicalize(path)) {
        (Ok(dir), Ok(path)) => path.starts_with(dir),
        _ => false,
    }
}

/// The roots among `dirs`: the kustomize directories no other one among
/// them includes (kubebuilder's `config/default` includes `../crd`;
/// `config/samples` is a root of its own), each with its tree, sorted.
pub fn kustomize_roots(dirs: &[PathBuf]) -> Vec<KustomizeTree> {
    let trees: Vec<KustomizeTree> = dirs.iter().map(|d| kustomize_tree(d)).collect();
    let included = |dir: &Path| {
        let dir = normalize(dir);
        trees.iter().any(|t| t.dirs.iter().skip(1).any(|d| *d == dir) && !t.dirs.is_empty() && t.dirs[0] != dir)
    };
    let mut roots: Vec<KustomizeTree> = trees.iter().filter(|t| !included(&t.root)).cloned().collect();
    // Two directories that include each other: the first stays a root.
    roots.sort_by(|a, b| a.root.cmp(&b.root));
    roots
}

/// Every local path a kustomization names: `resources`, `bases`,
/// `components`, `crds`, patch files (`patches[].path`,
/// `patchesStrategicMerge`, `patchesJson6902[].path`), `replacements[].path`,
/// and kustomize's own configuration (`configurations`, `transformers`,
/// `generators`, `validators`: not objects of the cluster).
fn kustomization_refs(file: &Path) -> Vec<String> {
    let Ok(source) = SourceFile::read(file) else { return Vec::new() };
    let Ok(docs) = parse_documents(&source.text) else { return Vec::new() };
    let Some(doc) = docs.first() else { return Vec::new() };
    let mut out = Vec::new();
    for key in [
        "resources",
        "bases",
        "components",
        "crds",
        "patchesStrategicMerge",
        "configurations",
        "transformers",
        "generators",
        "validators",
    ] {
        for item in doc.get(key).and_then(Node::as_seq).unwrap_or_default() {
            // An inline patch is YAML, not a path.
            if let Some(path) = item.as_str().filter(|p| !p.contains('\n') && !p.contains(": ")) {
                out.push(path.to_owned());
            }
        }
    }
    for key in ["patches", "patchesJson6902", "replacements"] {
        for item in doc.get(key).and_then(Node::as_seq).unwrap_or_default() {
            if let Some(path) = item.get("path").and_then(Node::as_str) {
                out.push(path.to_owned());
            }
        }
    }
    out
}

/// A remote resource (a URL or a git repository).
fn is_remote(entry: &str) -> bool {
    entry.contains("://") || entry.starts_with("github.com/") || entry.starts_with("git@")
}

/// `path` with `.` dropped and `..` applied to the components before it
/// (lexically, as kustomize resolves its paths).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}

/// Renders the kustomize directory `tree.root` with `kustomize` (the
/// command and its leading arguments: `kubectl kustomize` or `kustomize
/// build`), each object traced to the resource file of the tree with its
/// kind and name where one has it.
pub fn render_kustomize(kustomize: &[String], tree: &KustomizeTree, limits: Limits) -> Result<Rendered, Failure> {
    let output = run(kustomize, &[absolute(&tree.root).into()], limits)?;
    let resources: Vec<(SourceFile, Vec<(String, String)>)> = tree
        .files
        .iter()
        .filter_map(|path| {
            let source = SourceFile::read(path).ok()?;
            let ids = parse_documents(&source.text).map(|docs| docs.iter().filter_map(kind_name).collect());
            Some((source, ids.unwrap_or_default()))
        })
        .collect();
    let kustomization = kustomization_file(&tree.root).and_then(|p| SourceFile::read(&p).ok());
    let documents = split_documents(&output)
        .into_iter()
        .map(|text| {
            let id = parse_documents(&text).ok().and_then(|docs| docs.first().and_then(kind_name));
            let origin = id
                .and_then(|(kind, name)| origin_of(&resources, &kind, &name))
                .cloned()
                .or_else(|| kustomization.clone());
            Document { text, origin }
        })
        .collect();
    Ok(Rendered { documents })
}

/// An object's kind and `metadata.name`.
fn kind_name(doc: &Node) -> Option<(String, String)> {
    let kind = doc.get("kind")?.as_str()?.to_owned();
    let name = doc.get("metadata")?.get("name")?.as_str()?.to_owned();
    Some((kind, name))
}

/// The file with an object of `kind` named `name`; else one whose name is
/// part of `name` (a `namePrefix` or `nameSuffix` added to it), the longest
/// such; a file with the whole object first.
fn origin_of<'a>(
    resources: &'a [(SourceFile, Vec<(String, String)>)],
    kind: &str,
    name: &str,
) -> Option<&'a SourceFile> {
    let exact = resources.iter().find(|(_, ids)| ids.iter().any(|(k, n)| k == kind && n == name));
    exact.map(|(s, _)| s).or_else(|| {
        resources
            .iter()
            .flat_map(|(s, ids)| {
                ids.iter()
                    .filter(|(k, n)| k == kind && !n.is_empty() && name.contains(n.as_str()))
                    .map(move |(_, n)| (s, n.len()))
            })
            .max_by_key(|(_, len)| *len)
            .map(|(s, _)| s)
    })
}

/// Where a span of a rendered document is in its origin: the first place
/// the origin has the span's whole line (trimmed), at the same offset in it;
/// else the first place it has the spanned text; else its start. `None`
/// when it is not found: the caller locates at the file's first line.
pub fn map_span(rendered: &str, span: std::ops::Range<usize>, origin: &str) -> Option<std::ops::Range<usize>> {
    let start = span.start.min(rendered.len());
    let end = span.end.clamp(start, rendered.len());
    let line_start = rendered[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = rendered[start..].find('\n').map_or(rendered.len(), |i| start + i);
    let line = &rendered[line_start..line_end];
    let trimmed = line.trim();
    let lead = line.len() - line.trim_start().len();
    if !trimmed.is_empty() && start >= line_start + lead {
        let offset = start - line_start - lead;
        if let Some(at) = find_line(origin, trimmed) {
            let len = (end - start).min(trimmed.len().saturating_sub(offset));
            return Some(at + offset..at + offset + len);
        }
    }
    let snippet = &rendered[start..end];
    if !snippet.trim().is_empty() {
        if let Some(at) = origin.find(snippet) {
            return Some(at..at + snippet.len());
        }
    }
    None
}

/// The byte offset of the first line of `text` that is `line` once
/// trimmed (past its indentation).
fn find_line(text: &str, line: &str) -> Option<usize> {
    let mut at = 0;
    for l in text.split_inclusive('\n') {
        if l.trim() == line {
            return Some(at + (l.len() - l.trim_start().len()));
        }
        at += l.len();
    }
    None
}

/// The group-versions (`G/V`, `v1` for the core group) and `G/V/Kind`
/// names of `served` resources' kinds, as `helm template --api-versions`
/// takes them; sorted, each once.
pub fn api_versions<'a>(served: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>) -> Vec<String> {
    let mut out = Vec::new();
    for (group, version, kind) in served {
        let gv = if group.is_empty() { version.to_owned() } else { format!("{group}/{version}") };
        if !kind.is_empty() {
            out.push(format!("{gv}/{kind}"));
        }
        out.push(gv);
    }
    out.sort();
    out.dedup();
    out
}

/// A rendered document's text shared with the locations in it.
pub fn shared(text: &str) -> Arc<str> {
    Arc::from(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_split_on_separator_lines() {
        let check = |text: &str, expected: &[&str]| assert_eq!(split_documents(text), expected, "{text:?}");
        check(
            "---\n# Source: c/templates/a.yaml\na: 1\n---\nb: 2\n",
            &["# Source: c/templates/a.yaml\na: 1\n", "b: 2\n"],
        );
        check("a: 1\n--- \nb: 2", &["a: 1\n", "b: 2"]);
        check("---\n# only a comment\n---\n", &[]);
        check("a: '---'\nb: |\n  ---x\n", &["a: '---'\nb: |\n  ---x\n"]);
        check("", &[]);
    }

    #[test]
    fn helm_sources_name_files_of_the_chart() {
        let check = |source: &str, expected: Option<&str>| {
            assert_eq!(template_path(Path::new("charts/web"), source), expected.map(PathBuf::from), "{source}");
        };
        check("web/templates/deploy.yaml", Some("charts/web/templates/deploy.yaml"));
        check("other-name/templates/a/b.yaml", Some("charts/web/templates/a/b.yaml"));
        check("web/charts/sub/templates/x.yaml", Some("charts/web/charts/sub/templates/x.yaml"));
        check("web/../../etc/passwd", None);
        check("web", None);
        assert_eq!(helm_source("# Source: web/templates/a.yaml\napiVersion: v1\n"), Some("web/templates/a.yaml"));
    }

    #[test]
    fn spans_map_to_the_matching_line_of_the_origin() {
        let check = |rendered: &str, needle: &str, origin: &str, expected: Option<&str>| {
            let start = rendered.find(needle).unwrap_or_default();
            let got = map_span(rendered, start..start + needle.len(), origin);
            // The line where the span starts (1-based), and its text.
            let shown = got.map(|r| format!("{}:{}", origin[..r.start].matches('\n').count() + 1, &origin[r]));
            assert_eq!(shown.as_deref(), expected, "{needle}");
        };
        let template = "{{- if .Capabilities.APIVersions.Has \"policy/v1\" }}\napiVersion: policy/v1\n{{- else }}\napiVersion: policy/v1beta1\n{{- end }}\nkind: PodDisruptionBudget\n";
        check(
            "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\n",
            "policy/v1beta1",
            template,
            Some("4:policy/v1beta1"),
        );
        check("apiVersion: policy/v1\nkind: PodDisruptionBudget\n", "policy/v1", template, Some("2:policy/v1"));
        // Indentation differs: still the line.
        check(
            "spec:\n    - --feature-gates=Topology=true\n",
            "Topology=true",
            "spec:\n  - --feature-gates=Topology=true\n",
            Some("2:Topology=true"),
        );
        // Templated text: the value alone, else nothing.
        check("image: app:1.2\n", "app:1.2", "image: {{ .Values.image }}\n", None);
        check("name: web-app\n", "web-app", "name: {{ .Release.Name }}-app # web-app\n", Some("1:web-app"));
    }

    #[test]
    fn api_versions_are_group_versions_and_kinds() {
        let got = api_versions([
            ("", "v1", "Pod"),
            ("apps", "v1", "Deployment"),
            ("apps", "v1", "DaemonSet"),
            ("", "v1", ""),
        ]);
        assert_eq!(got, ["apps/v1", "apps/v1/DaemonSet", "apps/v1/Deployment", "v1", "v1/Pod"]);
    }

    #[test]
    fn paths_are_normalized_lexically() {
        let check =
            |path: &str, expected: &str| assert_eq!(normalize(Path::new(path)), PathBuf::from(expected), "{path}");
        check("./config/default/../crd", "config/crd");
        check("config/./crd/bases/x.yaml", "config/crd/bases/x.yaml");
        check("../x/./y", "../x/y");
        check("a/../../b", "../b");
        check("/r/a/../b", "/r/b");
    }

    #[test]
    fn klog_headers_are_dropped() {
        let check = |line: &str, expected: &str| assert_eq!(strip_klog(line), expected, "{line}");
        check("E1127 22:20:21.238504    4316 run.go:72] \"command failed\" err=\"x\"", "\"command failed\" err=\"x\"");
        check("W0101 00:00:00.000001 1 a.go:1] careful", "careful");
        check(
            "Error: template: web/templates/x.yaml:3: unexpected EOF",
            "Error: template: web/templates/x.yaml:3: unexpected EOF",
        );
        check("E1127 is not a header] really", "E1127 is not a header] really");
    }

    #[test]
    fn release_names_from_directories() {
        assert_eq!(release_name("My_Chart"), "my-chart");
        assert_eq!(release_name("--x--"), "x");
        assert_eq!(release_name("web"), "web");
    }
}
