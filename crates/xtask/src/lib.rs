//! kompat's maintainer commands (`cargo xtask`), kept out of the `kompat`
//! binary users install. They regenerate the Kubernetes tables that
//! `kompat-k8s` embeds (`crates/kompat-k8s/data/`), from Kubernetes' own
//! sources.
//!
//! The generators' parts take text and return values (no file access): the
//! Go reader of prerelease-lifecycle-gen output and `register.go`/`doc.go`
//! files ([`k8s::lifecycle`], [`k8s::package`], on tree-sitter-go), the
//! supplement ([`k8s::supplement`]) and the union ([`k8s::generate`]). The
//! binary's command modules walk the sources.

pub mod k8s;
