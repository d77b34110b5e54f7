//! Build script of the `kompat` binary: puts the commit into `--version`.
//!
//! Built from a git checkout, `KOMPAT_VERSION` is `0.1.0 (abc1234)` (with
//! `-dirty` when tracked files differ from the commit); anywhere else (a
//! crates.io download, a source tarball, no `git` on PATH) it is just the
//! package version, silently. The script reruns when HEAD moves: it watches
//! HEAD, the branch's ref file, `packed-refs` and the index, found through a
//! `.git` directory or, in a worktree or submodule, a `.git` file.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed=build.rs");
    let commit = commit(&manifest_dir);
    match commit {
        Some(commit) => println!("cargo:rustc-env=KOMPAT_VERSION={version} ({commit})"),
        None => println!("cargo:rustc-env=KOMPAT_VERSION={version}"),
    }
}

/// `abc1234` or `abc1234-dirty`, when the package is built from a checkout.
fn commit(manifest_dir: &Path) -> Option<String> {
    // `cargo package` writes this file: a packaged crate is not the checkout
    // around it (it may be vendored inside someone else's repository).
    if manifest_dir.join(".cargo_vcs_info.json").exists() {
        return None;
    }
    let git_dir = find_git_dir(manifest_dir)?;
    watch(&git_dir);
    let hash = git(manifest_dir, &["rev-parse", "--short", "HEAD"])?;
    if hash.is_empty() || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    // Tracked files only: build output and scratch files do not count.
    let dirty = git(manifest_dir, &["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    Some(if dirty { format!("{hash}-dirty") } else { hash })
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").current_dir(dir).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8(out.stdout).ok()?.trim().to_owned())
}

/// The git directory of the checkout holding `start`: `.git` itself, or the
/// directory a `.git` file (`gitdir: PATH`) points to.
fn find_git_dir(start: &Path) -> Option<PathBuf> {
    for dir in start.ancestors() {
        let dot_git = dir.join(".git");
        if dot_git.is_dir() {
            return Some(dot_git);
        }
        if dot_git.is_file() {
            let text = std::fs::read_to_string(&dot_git).ok()?;
            let target = text.strip_prefix("gitdir:")?.trim();
            return Some(dir.join(target));
        }
    }
    None
}

/// Reruns the script when HEAD, the branch it names, or the index changes.
fn watch(git_dir: &Path) {
    // A worktree's own directory holds HEAD and index; refs live in the
    // common directory (`commondir` names it, relative to the worktree's).
    let common = match std::fs::read_to_string(git_dir.join("commondir")) {
        Ok(text) => git_dir.join(text.trim()),
        Err(_) => git_dir.to_path_buf(),
    };
    let head = git_dir.join("HEAD");
    let mut watched = vec![head.clone(), git_dir.join("index"), common.join("packed-refs")];
    if let Ok(text) = std::fs::read_to_string(&head) {
        if let Some(reference) = text.strip_prefix("ref:") {
            let reference = reference.trim();
            watched.push(git_dir.join(reference));
            watched.push(common.join(reference));
        }
    }
    for path in watched {
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
}
