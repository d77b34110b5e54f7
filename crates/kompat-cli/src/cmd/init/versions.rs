//! The two versions `kompat init` writes, where the project states them:
//! the project's own (`binary_version`: Cargo.toml, a Go `version.go`, a
//! `VERSION` file, `versions.mk` or the Makefile, Chart.yaml, the newest
//! release tag) and the Kubernetes version of the cluster (`[kubernetes]
//! version`: go.mod's `k8s.io/*` modules, k8s-openapi's feature, a kind node
//! image). What is not found is written commented, with where kompat looked.

use std::path::Path;

use kompat_cli::facts::{self, Found as Stated};
use kompat_project::inputs::VENDORED_DIRS;
use kompat_project::Result;

/// Where each version was found: the version and the place, as the comment
/// beside it says it.
#[derive(Debug, Default)]
pub struct Versions {
    pub binary: Option<(Stated, String)>,
    pub kubernetes: Option<(Stated, String)>,
    /// `version.go` files that disagree (a repository of several
    /// components, each with its own version): none is chosen.
    pub disagreeing: Vec<(Stated, String)>,
}

/// The candidates seen during the walk of the project.
#[derive(Debug, Default)]
pub struct Found {
    /// `version.go` files (outside vendored code and tests), shallowest
    /// first once sorted.
    version_go: Vec<(usize, std::path::PathBuf, String)>,
    /// Chart.yaml files.
    charts: Vec<(std::path::PathBuf, String)>,
    /// The first kind node image seen, with its file.
    kind_image: Option<(Stated, String)>,
}

/// How much of a file is read for a version.
const READ_BYTES: u64 = 64 * 1024;

fn read(path: &Path) -> Result<Option<String>> {
    use std::io::Read;
    let Ok(file) = std::fs::File::open(path) else { return Ok(None) };
    let mut bytes = Vec::new();
    file.take(READ_BYTES).read_to_end(&mut bytes).map_err(|err| kompat_project::Error::io(path, &err))?;
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// Whether a directory's name is an import path's host (`github.com`,
/// `k8s.io`): Go code copied in under its import path is vendored.
fn is_domain(dir: &str) -> bool {
    let mut labels = dir.split('.');
    dir.contains('.')
        && !dir.starts_with('.')
        && labels.all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
}

fn shown(rel: &Path) -> String {
    rel.to_string_lossy().replace('\\', "/")
}

impl Found {
    /// Looks at one file of the walk (`rel` below the project, `path` to
    /// open).
    pub fn look(&mut self, rel: &Path, name: &str, path: &Path) -> Result<()> {
        // Vendored code, also copied under an import path (`internal/github.com/...`).
        let dirs = rel.parent().into_iter().flat_map(Path::components);
        let vendored = dirs.into_iter().any(|c| match c.as_os_str().to_str() {
            Some(dir) => {
                VENDORED_DIRS.contains(&dir) || matches!(dir, "vendor-internal" | "testdata") || is_domain(dir)
            }
            None => false,
        });
        if vendored {
            return Ok(());
        }
        if name == "version.go" && !rel.starts_with("test") {
            if let Some(text) = read(path)? {
                self.version_go.push((rel.components().count(), rel.to_owned(), text));
            }
        } else if name == "Chart.yaml" {
            if let Some(text) = read(path)? {
                self.charts.push((rel.to_owned(), text));
            }
        } else if self.kind_image.is_none()
            && (name.ends_with(".yaml")
                || name.ends_with(".yml")
                || name.ends_with(".sh")
                || name.ends_with(".mk")
                || name == "Makefile")
        {
            if let Some(found) = read(path)?.as_deref().and_then(facts::kind_node_image) {
                self.kind_image = Some((found, shown(rel)));
            }
        }
        Ok(())
    }

    /// Both versions, from the files at the top of `dir` and what the walk
    /// saw.
    pub fn finish(mut self, dir: &Path) -> Result<Versions> {
        let top = |name: &str| read(&dir.join(name));
        let cargo = top("Cargo.toml")?;
        let go_mod = top("go.mod")?;
        let mut binary = None;
        if let Some(found) = cargo.as_deref().and_then(facts::cargo_version) {
            binary = Some((found, "Cargo.toml".to_owned()));
        }
        // A file at the top that holds the version alone says it best.
        for name in ["VERSION", "TAG"] {
            if binary.is_none() {
                binary = top(name)?.as_deref().and_then(facts::version_file).map(|f| (f, name.to_owned()));
            }
        }
        self.version_go.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        let stated: Vec<(Stated, String)> = self
            .version_go
            .iter()
            .filter_map(|(_, rel, text)| facts::go_version_constant(text).map(|found| (found, shown(rel))))
            .collect();
        let mut disagreeing = Vec::new();
        if binary.is_none() && !stated.is_empty() {
            if stated.iter().all(|(found, _)| Some(&found.version) == stated.first().map(|(f, _)| &f.version)) {
                binary = stated.into_iter().next();
            } else {
                // Several components, several versions: none is the project's.
                disagreeing = stated;
            }
        }

        for name in ["versions.mk", "Makefile"] {
            if binary.is_none() && disagreeing.is_empty() {
                binary = top(name)?.as_deref().and_then(facts::makefile_version).map(|f| (f, name.to_owned()));
            }
        }
        // Charts of test and build scripts are not the project's.
        let scripts = ["make", "hack", "test", "tests", "e2e", "testdata", "examples"];
        self.charts.retain(|(rel, _)| !rel.components().any(|c| scripts.iter().any(|s| c.as_os_str() == *s)));
        self.charts.sort_by(|a, b| (a.0.components().count(), &a.0).cmp(&(b.0.components().count(), &b.0)));
        for (rel, text) in &self.charts {
            if binary.is_none() && disagreeing.is_empty() {
                binary = facts::chart_version(text).map(|found| (found, shown(rel)));
            }
        }
        if binary.is_none() && disagreeing.is_empty() {
            binary = newest_tag(dir)?.map(|found| (found, "the newest release tag".to_owned()));
        }
        let mut kubernetes = go_mod.as_deref().and_then(facts::go_kubernetes).map(|f| (f, "go.mod".to_owned()));
        if kubernetes.is_none() {
            kubernetes = cargo.as_deref().and_then(facts::cargo_kubernetes).map(|f| (f, "Cargo.toml".to_owned()));
        }
        Ok(Versions { binary, kubernetes: kubernetes.or(self.kind_image), disagreeing })
    }
}

/// The newest release tag of the Git repository at `dir`: its loose tags
/// (`.git/refs/tags`) and packed ones (`.git/packed-refs`), read as files.
fn newest_tag(dir: &Path) -> Result<Option<Stated>> {
    let mut git = dir.join(".git");
    // A worktree's `.git` file names its directory, whose `commondir` holds
    // the tags.
    if git.is_file() {
        let Some(text) = read(&git)? else { return Ok(None) };
        let Some(named) = text.lines().find_map(|l| l.strip_prefix("gitdir:")) else { return Ok(None) };
        git = dir.join(named.trim());
        if let Some(common) = read(&git.join("commondir"))? {
            git = git.join(common.trim());
        }
    }
    let mut tags: Vec<String> = Vec::new();
    if let Some(packed) = read(&git.join("packed-refs"))? {
        tags.extend(facts::packed_tags(&packed).map(str::to_owned));
    }
    if let Ok(entries) = std::fs::read_dir(git.join("refs/tags")) {
        tags.extend(entries.flatten().filter_map(|e| e.file_name().into_string().ok()));
    }
    Ok(facts::newest_tag(tags.iter().map(String::as_str)))
}

/// The `binary_version` line and its comment.
pub fn render_binary(versions: &Versions) -> String {
    let head = "# The project's own version, the one it releases next (MAJOR.MINOR): its\n\
                # version window (emulation versions down to N-3), the removal rules of\n\
                # its gates and `kompat gen` work from it. Not Kubernetes' version: that\n\
                # is `[kubernetes] version` below.\n";
    match &versions.binary {
        Some((found, place)) => {
            format!("{head}binary_version = \"{}\"   # from {} in {place}\n", found.version, found.written)
        }
        None if !versions.disagreeing.is_empty() => {
            let each: String = versions
                .disagreeing
                .iter()
                .map(|(found, place)| format!("#   {} in {place}\n", found.version))
                .collect();
            format!(
                "{head}# Several components state their own versions; set the one this kompat.toml\n\
                 # is for (or give each component a kompat.toml of its own):\n{each}\
                 # binary_version = \"1.0\"\n"
            )
        }
        None => format!(
            "{head}# Not found in Cargo.toml, VERSION, TAG, a version.go, versions.mk, the Makefile,\n\
             # Chart.yaml or a release tag: set yours.\n\
             # binary_version = \"1.0\"\n"
        ),
    }
}

/// The `[kubernetes]` table and its comment.
pub fn render_kubernetes(versions: &Versions) -> String {
    let head = "# The Kubernetes version of the cluster: manifests, the settings of\n\
                # Kubernetes components (kind, kubeadm, kubelet, --feature-gates of\n\
                # kube-apiserver...) and Kubernetes' own gates are judged at it.\n";
    match &versions.kubernetes {
        Some((found, place)) => {
            format!("{head}[kubernetes]\nversion = \"{}\"   # from {} in {place}\n", found.version, found.written)
        }
        None => format!(
            "{head}# Not found in go.mod (k8s.io/api), Cargo.toml (k8s-openapi's feature)\n\
             # or a kind node image: set the cluster's.\n\
             # [kubernetes]\n\
             # version = \"1.34\"\n"
        ),
    }
}
