//! Reads a kompat project from disk: the `kompat.toml` configuration and the
//! inputs it or the command line names (Kubernetes YAML, kompat TOML, Rust
//! and Go sources, CRD manifests, deployment material, directories of them),
//! each classified and read once by [`inputs::classify`].
//!
//! **Architecture Invariant:** this is the only library crate that reads
//! files. Everything it returns is located: an error names its file and, where
//! known, the byte span, line and column.

//!
//! Its modules, bottom up (each uses only those above it): [`error`];
//! [`source`], the files read (held or released) and the limits; [`go`],
//! the Go sources (the Go reader is `kompat-go`); [`inputs`], the
//! classification; [`decls`], every declaration with where it came from
//! (the Rust reader, `kompat-rust`, reads the Rust files through
//! [`source`]); [`config`]; [`render`], the one place another program
//! runs (`helm template`, `kubectl kustomize`), sandboxed.

pub mod config;
pub mod decls;
pub mod error;
pub mod exclude;
#[cfg(feature = "go")]
pub mod go;
pub mod inputs;
pub mod render;
pub mod source;

pub use config::Config;
pub use decls::{load, load_excluding, Decls};
pub use error::{Error, Result};
pub use exclude::Exclude;
pub use inputs::{classify, classify_excluding, Input, Kind};
pub use source::{
    ensure_regular_file, walk_files, Read, ReleasedFile, RustFiles, SourceFile, MAX_FILE_BYTES, MAX_LINE_BYTES,
    STDIN_NAME,
};

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The modules `name` (`lib` for the crate root) of the crate in `dir`
    /// uses outside its tests, through `crate::` and `super::` paths (an
    /// item of the root counts as `lib`).
    fn uses(dir: &Path, modules: &[&str], name: &str) -> Vec<String> {
        let text = std::fs::read_to_string(dir.join(format!("{name}.rs"))).unwrap_or_default();
        let code = text.split("\n#[cfg(test)]").next().unwrap_or_default();
        let mut out = Vec::new();
        for line in code.lines() {
            let line = line.split("//").next().unwrap_or_default();
            for prefix in ["crate::", "super::"] {
                for (at, _) in line.match_indices(prefix) {
                    let rest = &line[at + prefix.len()..];
                    let names: Vec<&str> = match rest.strip_prefix('{') {
                        Some(list) => list.split('}').next().unwrap_or_default().split(',').collect(),
                        None => vec![rest],
                    };
                    for used in names {
                        let first: String =
                            used.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        let module = if modules.contains(&first.as_str()) { first } else { "lib".to_owned() };
                        if module != name && !out.contains(&module) {
                            out.push(module);
                        }
                    }
                }
            }
        }
        out
    }

    /// Each module uses only the modules before it in `layers` (bottom up,
    /// the root `lib` among them): no module cycle.
    fn check_layers(dir: &Path, layers: &[&str]) {
        let mut wrong = Vec::new();
        for (at, name) in layers.iter().enumerate() {
            assert!(dir.join(format!("{name}.rs")).is_file(), "{}: no module {name}", dir.display());
            for used in uses(dir, layers, name) {
                if layers.iter().position(|l| *l == used).is_none_or(|i| i >= at) {
                    wrong.push(format!("{name} uses {used}"));
                }
            }
        }
        assert!(wrong.is_empty(), "{}: modules used from below: {wrong:?}", dir.display());
        let files = std::fs::read_dir(dir).map_or(0, |d| d.filter(|e| e.is_ok()).count());
        assert_eq!(files, layers.len(), "{}: a module not in the layers", dir.display());
    }

    #[test]
    fn modules_use_only_the_layers_below() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        check_layers(
            &root.join("kompat-project/src"),
            &["error", "exclude", "source", "go", "inputs", "decls", "config", "render", "lib"],
        );
        check_layers(
            &root.join("kompat-rust/src"),
            &["outline", "search", "early", "select", "refs", "parallel", "lib", "memory"],
        );
        // Not vacuous: the uses are seen.
        let project = root.join("kompat-project/src");
        assert_eq!(
            uses(&project, &["error", "source", "go", "inputs", "decls"], "decls"),
            ["error", "go", "inputs", "source"]
        );
    }
}
