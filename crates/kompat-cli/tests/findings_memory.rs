//! Memory per finding (issue 29): `kompat lint` of one manifest of N and of
//! 2N `policy/v1beta1` PodDisruptionBudgets, one `removed-api-version`
//! finding each, from reading the file to the sorted findings, measured
//! in-process with the counting allocator of the alias-bomb tests. The
//! bytes live at the peak grow with the documents; the slope between N and
//! 2N, per finding, is bounded, so a finding that grows (its own copy of a
//! message, a path, an object; an intermediate collection of them) fails.
//!
//! Before the findings were made compact, the release binary's peak grew
//! 1.3 KB a finding (`scripts/bench-manifests`' single file); some 0.5 KB
//! since.

use std::path::PathBuf;

use kompat_testkit::counting_alloc::{peak_of, Counting, SERIAL};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

use kompat_cli::{lint_with_suppressed, Inputs, Unrendered};
use kompat_engine::api::ServeOptions;
use kompat_project::Decls;
use kompat_runtime::{Version, WindowPolicy};

/// The most bytes live at the peak per finding, the document's own text
/// (about 110 bytes, read through a buffer), its skim, line index and object
/// included: some 700 now (a finding's message, subject and path are shared,
/// the checked objects borrowed, the findings filtered and sorted in place).
const MAX_BYTES_PER_FINDING: usize = 750;

/// `n` PodDisruptionBudgets of a removed version, one document each, as
/// `scripts/gen-manifest-tree --single` writes them.
fn pdbs(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        if i > 0 {
            text.push_str("---\n");
        }
        text.push_str(&format!(
            "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: pdb-{i}\nspec:\n  minAvailable: {}\n",
            1 + i % 3
        ));
    }
    text
}

/// Lints `path` as `kompat lint --kubernetes-version 1.30 PATH` does: the
/// findings' messages.
fn lint(path: PathBuf) -> Vec<String> {
    let classified = kompat_project::inputs::classify(&[path]).unwrap_or_else(|err| panic!("{err}"));
    let mut manifests = Vec::new();
    for input in &classified.inputs {
        manifests.extend(input.manifest_objects().unwrap_or_else(|err| panic!("{err}")));
    }
    let decls = Decls::from_inputs(Vec::new(), &[]).unwrap_or_else(|err| panic!("{err}"));
    let serve = ServeOptions::new(Version::new(1, 30));
    let unrendered = Unrendered::default();
    let inputs = Inputs {
        config: None,
        decls: &decls,
        baseline: None,
        binary: None,
        kubernetes: Some(Version::new(1, 30)),
        window: WindowPolicy::DEFAULT,
        crds: &[],
        cluster_crds: &[],
        settings: &[],
        manifests: &manifests,
        roles: &[],
        serve: Some(&serve),
        reference: &[],
        inline_allows: &[],
        unrendered: &unrendered,
    };
    let linted = lint_with_suppressed(&inputs).unwrap_or_else(|err| panic!("{err}"));
    // The findings' texts are shared: a few distinct ones whatever `n`.
    let mut messages: Vec<String> = linted.findings.iter().map(|d| d.message.to_string()).collect();
    messages.push(linted.findings.len().to_string());
    messages.dedup();
    messages
}

/// The findings of a file of `n` documents, and the bytes live at the peak
/// while it is read and linted.
fn measure(dir: &std::path::Path, n: usize) -> (Vec<String>, usize) {
    let path = dir.join(format!("pdbs-{n}.yaml"));
    std::fs::write(&path, pdbs(n)).unwrap_or_else(|err| panic!("{err}"));
    peak_of(|| lint(path.clone()))
}

#[test]
fn memory_per_finding_is_bounded() {
    let _serial = SERIAL.lock();
    let dir = tempfile::tempdir().unwrap_or_else(|err| panic!("{err}"));
    // Kubernetes' tables are read once per process: before measuring.
    let (warm, _) = measure(dir.path(), 10);
    let removed = "no matches for kind \"PodDisruptionBudget\" in version \"policy/v1beta1\" on Kubernetes 1.30: removed in 1.25; use policy/v1 PodDisruptionBudget";
    assert_eq!(warm, [removed, "10"]);
    let n = 10_000;
    let (small, small_peak) = measure(dir.path(), n);
    let (large, large_peak) = measure(dir.path(), 2 * n);
    assert_eq!(
        (small, large),
        (vec![removed.to_owned(), n.to_string()], vec![removed.to_owned(), (2 * n).to_string()])
    );
    let per_finding = large_peak.saturating_sub(small_peak) / n;
    eprintln!("peak {small_peak} bytes at {n} findings, {large_peak} at {}: {per_finding} bytes per finding", 2 * n);
    assert!(
        per_finding <= MAX_BYTES_PER_FINDING,
        "{per_finding} bytes per finding (peaks {small_peak} and {large_peak} bytes at {n} and {} findings): at most {MAX_BYTES_PER_FINDING}",
        2 * n
    );
}
