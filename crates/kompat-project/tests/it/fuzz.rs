//! Bounded, deterministic mutation fuzzing of what kompat-project loads: no
//! mutation of a Rust file with both derives may make loading it panic, a
//! file that is not Rust is a located error, and whatever loads builds its
//! API set and validates its gates without panicking (the reader's own
//! mutation tests are `kompat-rust`'s). And `kompat.toml`: every error
//! located, no panic.

use kompat_testkit::mutate;

use mutate::{mutate, Rng};

const SEED: &str = r#"use kompat::{ApiLifecycle, FeatureGates};

#[derive(Clone, Copy, FeatureGates)]
pub enum Feature {
    /// Docs.
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    #[kompat(spec(version = "1.32", stage = "Beta", default = true, min_compatibility = "1.31"))]
    WatchList,
    #[kompat(name = "KMSv1", depends_on(WatchList), ratchet(tolerated_since = "1.31"))]
    #[kompat(allow(code = "orphaned-gate", reason = "elsewhere"))]
    #[kompat(spec(version = "1.0", stage = "GA", default = true, locked = true))]
    KmsV1,
}

pub mod v1beta1 {
    #[derive(kompat::ApiLifecycle)]
    #[kube(group = "batch", version = "v1beta1", kind = "CronJob", namespaced)]
    #[kompat(api(resource = "cronjobs", introduced = "1.8", deprecated = "1.21", replacement = "batch/v1/CronJob"))]
    pub struct CronJobSpec;
}

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1", kind = "CronJob", resource = "cronjobs", introduced = "1.21"))]
pub struct CronJob;

pub fn uses(gate: &kompat::TypedGate<Feature>) -> bool {
    gate.enabled(Feature::WatchList) && gate.enabled_by_name("KMSv1")
}
"#;

#[test]
fn rust_reader_never_panics() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("lib.rs");
    let mut rng = Rng(0x6b6f_6d70_6174_0201);
    let (mut loaded, mut with_apis) = (0, 0);
    for _ in 0..mutate::iterations(2000) {
        let input = mutate(SEED, &mut rng);
        std::fs::write(&path, &input).expect("write");
        match kompat_project::load(std::slice::from_ref(&path)) {
            Ok(decls) => {
                loaded += 1;
                let _ = decls.validate_strict();
                if decls.has_apis() {
                    with_apis += 1;
                    let _ = decls.api_set();
                }
            }
            Err(err) => {
                for failure in &err.diagnostics {
                    assert!(failure.location.is_some(), "unlocated: {}\n{input}", failure.message);
                }
            }
        }
    }
    assert!(loaded > 0 && with_apis > 0, "loaded {loaded}, with APIs {with_apis}");
}

const CONFIG_SEED: &str = "binary_version = \"1.37\"\ndecls = [\"features.toml\", \"apis.toml\"]\nbaseline = \"old.toml\"\n\n[window]\nprofile = \"kubernetes\"\nskew = 3\n\n[lint.levels]\norphaned-gate = \"deny\"\n\n[[lint.allow]]\ncode = \"locked-gate-cleanup\"\nsubject = \"KMSv1\"\nreason = \"kept for the 1.36 rollback\"\n\n[[gen.output]]\nkind = \"rust\"\npath = \"generated/features.rs\"\n";

/// `kompat.toml`: no mutation may make reading it panic, and every error
/// is located.
#[test]
fn config_parser_never_panics() {
    let mut rng = Rng(0x6b6f_6d70_6174_0202);
    let mut accepted = 0;
    for _ in 0..mutate::iterations(3000) {
        let input = mutate(CONFIG_SEED, &mut rng);
        let source = kompat_project::SourceFile::new(std::path::PathBuf::from("kompat.toml"), input.clone());
        match kompat_project::Config::parse(source) {
            Ok(_) => accepted += 1,
            Err(err) => {
                for failure in &err.diagnostics {
                    assert!(failure.location.is_some(), "unlocated: {}\n{input}", failure.message);
                }
            }
        }
    }
    assert!(accepted > 0, "the mutations never produced a valid configuration");
}
