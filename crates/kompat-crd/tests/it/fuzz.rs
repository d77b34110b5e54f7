//! Bounded, deterministic mutation fuzzing of the CRD manifest and
//! conversions parsers: no input may make them (or the checks run on what
//! they accept) panic, and every error is located in the input.

use kompat_testkit::mutate;

use kompat_crd::{check_crd, check_upgrade, migration_plan, parse_conversions, parse_manifests};
use kompat_formats::ParseError;
use mutate::{mutate, Rng};

const MANIFEST: &str = include_str!("../../../../fixtures/crd/kube-rs/widget-merged.yaml");
const CONVERSIONS: &str = include_str!("../../../../fixtures/crd/kube-rs/widget-merged.conversions.toml");

#[track_caller]
fn located(errors: &[ParseError], input: &str) {
    assert!(!errors.is_empty(), "{input}");
    for e in errors {
        if let Some(span) = e.span {
            assert!(span.start <= span.end && span.end <= input.len(), "{}\n{input}", e.message);
        }
    }
}

#[test]
fn manifest_parser_and_checks_never_panic() {
    let mut rng = Rng(0x6b6f_6d70_6174_0101);
    let mut accepted = 0;
    for _ in 0..mutate::iterations(2000) {
        let input = mutate(MANIFEST, &mut rng);
        match parse_manifests(&input) {
            Ok(crds) => {
                accepted += 1;
                for crd in &crds {
                    let _ = check_crd(crd, None);
                    let _ = check_upgrade(crd, crd, None);
                    let _ = migration_plan(crd, crd);
                }
            }
            Err(errors) => located(&errors, &input),
        }
    }
    assert!(accepted > 0, "the mutations never produced a valid manifest");
}

#[test]
fn conversions_parser_never_panics() {
    let crds = parse_manifests(MANIFEST).unwrap_or_else(|e| panic!("{e:?}"));
    let mut rng = Rng(0x6b6f_6d70_6174_0102);
    let mut accepted = 0;
    for _ in 0..mutate::iterations(2000) {
        let input = mutate(CONVERSIONS, &mut rng);
        match parse_conversions(&input) {
            Ok(conversions) => {
                accepted += 1;
                for crd in &crds {
                    let _ = check_crd(crd, Some(&conversions));
                    let _ = kompat_crd::check_conversions(crd, &conversions);
                }
            }
            Err(errors) => located(&errors, &input),
        }
    }
    assert!(accepted > 0, "the mutations never produced a valid conversions file");
}
