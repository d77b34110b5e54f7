//! Paths left out of directory walks: `exclude = ["GLOB", ...]` in
//! `kompat.toml` (relative to its directory) and `--exclude GLOB` on the
//! command line (relative to the working directory).
//!
//! A glob has `.gitignore` syntax, as ripgrep's `--glob '!GLOB'` has: a glob
//! without a `/` matches a file or directory of that name at any depth
//! (`vendor`, `*.tmpl.yaml`), one with a `/` is anchored at its root
//! (`config/crd/patches/*.yaml`, `/deploy`), a trailing `/` matches
//! directories only and `**` spans directories. An excluded directory is not
//! entered. A path given on the command line (or in `decls`) is always read:
//! globs apply to what a walk finds below it.
//!
//! Matching is `ignore`'s gitignore matcher, one per root.

use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// Compiled exclusion globs, grouped by the directory they are relative to.
#[derive(Debug, Clone, Default)]
pub struct Exclude {
    matchers: Vec<Gitignore>,
}

impl Exclude {
    /// No path excluded.
    pub fn none() -> Exclude {
        Exclude::default()
    }

    /// Adds `globs`, relative to `root` (made absolute against the working
    /// directory). A glob that does not compile is an error naming it.
    pub fn add<'g>(
        &mut self,
        root: &Path,
        globs: impl IntoIterator<Item = &'g str>,
    ) -> std::result::Result<(), (String, String)> {
        let mut builder = GitignoreBuilder::new(absolute(root));
        let mut any = false;
        for glob in globs {
            if glob.trim().is_empty() {
                return Err((glob.to_owned(), "an empty glob excludes nothing".to_owned()));
            }
            // A leading `!` would re-include in .gitignore syntax: here every
            // glob excludes, so it is taken literally.
            let line = if let Some(rest) = glob.strip_prefix('!') { format!("\\!{rest}") } else { glob.to_owned() };
            builder.add_line(None, &line).map_err(|err| (glob.to_owned(), err.to_string()))?;
            any = true;
        }
        if any {
            self.matchers.push(builder.build().map_err(|err| (String::new(), err.to_string()))?);
        }
        Ok(())
    }

    /// Whether there is nothing to exclude.
    pub fn is_empty(&self) -> bool {
        self.matchers.is_empty()
    }

    /// Whether `path` (a file, or a directory when `is_dir`) is excluded.
    pub fn is_excluded(&self, path: &Path, is_dir: bool) -> bool {
        if self.matchers.is_empty() {
            return false;
        }
        let path = absolute(path);
        self.matchers.iter().any(|m| path.starts_with(m.path()) && m.matched(&path, is_dir).is_ignore())
    }
}

/// `path` joined to the working directory when relative, with `.`
/// components dropped (no symbolic link is resolved).
fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_owned()
    } else {
        std::env::current_dir().map(|cwd| cwd.join(path)).unwrap_or_else(|_| path.to_owned())
    };
    joined.components().filter(|c| !matches!(c, std::path::Component::CurDir)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_as_in_gitignore() {
        let root = Path::new("/repo");
        let mut exclude = Exclude::none();
        let globs = ["vendor", "config/crd/patches/*.yaml", "*.tmpl.yaml", "docs/", "!odd"];
        exclude.add(root, globs).unwrap_or_else(|(glob, err)| panic!("{glob}: {err}"));
        let check = |path: &str, is_dir: bool, expected: bool| {
            assert_eq!(exclude.is_excluded(Path::new(path), is_dir), expected, "{path}");
        };
        check("/repo/vendor", true, true);
        check("/repo/a/b/vendor", true, true);
        check("/repo/vendor.go", false, false);
        check("/repo/config/crd/patches/webhook_in_x.yaml", false, true);
        check("/repo/other/config/crd/patches/webhook_in_x.yaml", false, false);
        check("/repo/config/crd/bases/x.yaml", false, false);
        check("/repo/deep/x.tmpl.yaml", false, true);
        check("/repo/docs", true, true);
        check("/repo/docs", false, false);
        check("/repo/!odd", false, true);
        check("/repo/odd", false, false);
        // Outside the root, nothing is excluded.
        check("/elsewhere/vendor", true, false);
    }

    #[test]
    fn bad_globs_are_named() {
        let mut exclude = Exclude::none();
        for bad in ["{a,b", "a/**/{x"] {
            let err = exclude.add(Path::new("/repo"), ["ok", bad]).err().map(|(glob, _)| glob);
            assert_eq!(err.as_deref(), Some(bad));
        }
        assert!(exclude.add(Path::new("/repo"), [" "]).is_err());
        assert!(exclude.is_empty());
    }
}
