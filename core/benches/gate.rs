//! Feature-gate lookups: `FeatureGate::enabled(idx)` (resolved once per
//! emulation version, then an array index) against a lookup by name and
//! against resolving the spec on every call, the baseline, in the same run.
//!
//! Run with `cargo bench -p kompat-core --bench gate`.

use std::sync::Arc;

use kompat_core::{spec_at, validate, FeatureDecl, FeatureGate, FeatureSet, SpecDecl, Stage, Version, VersionLit};

fn main() {
    divan::main();
}

/// A few hundred gates with Kubernetes-like lifecycles.
fn feature_set(n: usize) -> FeatureSet {
    let lit = |minor: u32| VersionLit::from(Version::new(1, minor));
    let decls: Vec<FeatureDecl> = (0..n)
        .map(|i| {
            let start = 20 + (i % 15) as u32;
            let spec = |minor, stage, default, locked| SpecDecl {
                version: Some(lit(minor)),
                default,
                lock_to_default: locked,
                stage,
                min_compatibility_version: None,
            };
            FeatureDecl {
                name: format!("Gate{i:04}"),
                specs: vec![
                    spec(start, Stage::Alpha, false, false),
                    spec(start + 2, Stage::Beta, true, false),
                    spec(start + 4, Stage::GA, true, true),
                ],
                ..FeatureDecl::default()
            }
        })
        .collect();
    let validated = validate(&decls);
    assert!(validated.problems.is_empty());
    validated.set
}

const N: usize = 300;
const EMULATION: Version = Version::new(1, 33);

#[divan::bench]
fn enabled_by_index(bencher: divan::Bencher) {
    let gate = FeatureGate::new(Arc::new(feature_set(N)), EMULATION, None);
    bencher.bench_local(|| (0..N).filter(|&i| gate.enabled(divan::black_box(i))).count());
}

#[divan::bench]
fn enabled_by_name(bencher: divan::Bencher) {
    let set = feature_set(N);
    let names: Vec<String> = set.features().iter().map(|f| f.name.clone()).collect();
    let gate = FeatureGate::new(Arc::new(set), EMULATION, None);
    bencher.bench_local(|| names.iter().filter(|n| gate.enabled_by_name(divan::black_box(n)) == Ok(true)).count());
}

/// The baseline: resolve the spec at every call, as a gate without
/// precomputed state would.
#[divan::bench]
fn resolve_on_every_call(bencher: divan::Bencher) {
    let set = feature_set(N);
    bencher.bench_local(|| {
        set.features().iter().filter(|f| spec_at(&f.specs, divan::black_box(EMULATION), None).default).count()
    });
}

/// Building a gate: resolving every feature once.
#[divan::bench]
fn build_gate(bencher: divan::Bencher) {
    let set = Arc::new(feature_set(N));
    bencher.bench_local(|| FeatureGate::new(set.clone(), divan::black_box(EMULATION), None));
}
