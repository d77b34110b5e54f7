//! Generation of checked-in outputs for kompat: emulation tables, storage-version
//! maps, Kubernetes-format YAML and Markdown references.
//!
//! Every output is a pure function of the declarations; writing files and
//! checking them for staleness is the only I/O this crate does.
