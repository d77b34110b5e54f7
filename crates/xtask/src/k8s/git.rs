//! Reading a Git directory at its release tags, without a work tree: the tags
//! (`git tag`), a tag's files (`git ls-tree`) and their text (one long-lived
//! `git cat-file --batch` per directory). This is how `cargo xtask k8s-apis
//! --git` reads Kubernetes' published repositories (`kubernetes/api`, ...),
//! whose tags `kubernetes-1.N.P` are Kubernetes' releases.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use kompat_runtime::Version;

/// A release tag: `kubernetes-1.N.P`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ReleaseTag {
    /// 1.N.
    pub release: Version,
    pub patch: u64,
    pub name: String,
}

/// `kubernetes-1.33.2` → the tag of release 1.33, patch 2; pre-releases
/// (`kubernetes-1.34.0-rc.1`) and other names → None.
pub fn parse_release_tag(name: &str) -> Option<ReleaseTag> {
    let rest = name.strip_prefix("kubernetes-")?;
    let mut parts = rest.split('.');
    let mut next = || -> Option<u64> {
        let p = parts.next()?;
        if p.is_empty() || p.len() > 9 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        p.parse().ok()
    };
    let (major, minor, patch) = (next()?, next()?, next()?);
    if parts.next().is_some() || major != 1 {
        return None;
    }
    let release = Version::parse(&format!("{major}.{minor}")).ok()?;
    Some(ReleaseTag { release, patch, name: name.to_owned() })
}

/// One tag per release from `since` on: the highest patch release of each
/// minor (what clusters run), oldest release first.
pub fn newest_patch_per_release(names: &[String], since: Version) -> Vec<ReleaseTag> {
    let mut best: BTreeMap<Version, ReleaseTag> = BTreeMap::new();
    for tag in names.iter().filter_map(|n| parse_release_tag(n)) {
        if tag.release < since {
            continue;
        }
        match best.get(&tag.release) {
            Some(old) if old.patch >= tag.patch => {}
            _ => {
                best.insert(tag.release, tag);
            }
        }
    }
    best.into_values().collect()
}

/// A Git directory being read.
pub struct GitDir {
    pub path: PathBuf,
    batch: Option<(Child, ChildStdin, BufReader<ChildStdout>)>,
}

impl GitDir {
    pub fn open(path: &Path) -> std::io::Result<GitDir> {
        let dir = GitDir { path: path.to_owned(), batch: None };
        dir.git(&["rev-parse", "--git-dir"])?;
        Ok(dir)
    }

    fn git(&self, args: &[&str]) -> std::io::Result<String> {
        let out = Command::new("git").arg("--git-dir").arg(&self.path).args(args).stderr(Stdio::piped()).output()?;
        if !out.status.success() {
            return Err(std::io::Error::other(format!(
                "git {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        String::from_utf8(out.stdout).map_err(|_| std::io::Error::other(format!("git {}: not UTF-8", args.join(" "))))
    }

    /// Every tag name.
    pub fn tags(&self) -> std::io::Result<Vec<String>> {
        Ok(self.git(&["tag", "--list"])?.lines().map(str::to_owned).collect())
    }

    /// Every file path of the tree at `tag`.
    pub fn files(&self, tag: &str) -> std::io::Result<Vec<String>> {
        Ok(self
            .git(&["ls-tree", "-r", "--name-only", &format!("{tag}^{{tree}}")])?
            .lines()
            .map(str::to_owned)
            .collect())
    }

    /// The text of `path` at `tag` (None when there is no such file, or it
    /// is larger than `limit` bytes: `Err` names that).
    pub fn show(&mut self, tag: &str, path: &str, limit: usize) -> std::io::Result<Option<String>> {
        if self.batch.is_none() {
            let mut child = Command::new("git")
                .arg("--git-dir")
                .arg(&self.path)
                .args(["cat-file", "--batch"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()?;
            let stdin = child.stdin.take().ok_or_else(|| std::io::Error::other("git cat-file: no stdin"))?;
            let stdout = child.stdout.take().ok_or_else(|| std::io::Error::other("git cat-file: no stdout"))?;
            self.batch = Some((child, stdin, BufReader::new(stdout)));
        }
        let Some((_, stdin, stdout)) = self.batch.as_mut() else { return Ok(None) };
        writeln!(stdin, "{tag}:{path}")?;
        stdin.flush()?;
        let mut header = String::new();
        stdout.read_line(&mut header)?;
        let fields: Vec<&str> = header.split_whitespace().collect();
        if fields.len() != 3 || fields[1] != "blob" {
            // `<object> missing`, or a tree.
            return Ok(None);
        }
        let size: usize = fields[2].parse().map_err(|_| std::io::Error::other(format!("git cat-file: {header}")))?;
        let mut bytes = vec![0; size + 1];
        stdout.read_exact(&mut bytes)?;
        bytes.pop();
        if size > limit {
            return Err(std::io::Error::other(format!("{tag}:{path} is larger than the limit of {limit} bytes")));
        }
        String::from_utf8(bytes).map(Some).map_err(|_| std::io::Error::other(format!("{tag}:{path} is not UTF-8")))
    }
}

impl Drop for GitDir {
    fn drop(&mut self) {
        if let Some((mut child, stdin, _)) = self.batch.take() {
            drop(stdin);
            let _ = child.wait();
        }
    }
}
