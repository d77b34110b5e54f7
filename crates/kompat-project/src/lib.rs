//! Reads a kompat project from disk: the `kompat.toml` configuration and the
//! inputs it or the command line names (Kubernetes YAML, kompat TOML, Rust
//! and Go sources, CRD manifests, deployment material, directories of them),
//! each classified and read once by [`inputs::classify`].
//!
//! **Architecture Invariant:** this is the only library crate that reads
//! files. Everything it returns is located: an error names its file and, where
//! known, the byte span, line and column.

pub mod config;
pub mod error;
pub mod go;
pub mod inputs;
pub mod load;
mod parallel;
pub mod rust;

pub use config::Config;
pub use error::{Error, Result};
pub use inputs::{classify, Input, Kind};
pub use load::{ensure_regular_file, load, walk_files, Decls, SourceFile, MAX_FILE_BYTES, MAX_LINE_BYTES, STDIN_NAME};
