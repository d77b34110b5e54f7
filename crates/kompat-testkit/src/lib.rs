//! Test helpers shared by the test targets of several kompat crates, as a
//! dev-dependency (a crate never reaches into another's files): the bounded,
//! deterministic mutator of the fuzz tests ([`mutate`]), a counting global
//! allocator for tests that enforce a memory cap ([`counting_alloc`]),
//! projects written to a temporary directory ([`files`]) and manifests made
//! to size ([`manifests`]).
//!
//! Not published: a published crate lists it as a dev-dependency by path
//! only, which `cargo package` leaves out of the package, so the package
//! builds without it.

pub mod counting_alloc;
pub mod files;
pub mod manifests;
pub mod mutate;
