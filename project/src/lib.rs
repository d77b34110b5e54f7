//! Reads a kompat project from disk: the `kompat.toml` configuration and the
//! declaration inputs it or the command line names (Kubernetes YAML, kompat
//! TOML, Rust and Go sources, directories of them).
//!
//! **Architecture Invariant:** this is the only library crate that reads
//! files. Everything it returns is located: an error names its file and, where
//! known, the byte span, line and column.

pub mod config;
pub mod error;
pub mod go;
pub mod load;
pub mod rust;

pub use config::Config;
pub use error::{Error, Failure, Location, Result};
pub use load::{load, walk_files, Decls, SourceFile};
