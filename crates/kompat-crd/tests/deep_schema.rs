//! A CRD of about 12 MB whose schemas are an `items` chain 450 levels deep,
//! every level with properties that change between versions: every check
//! (single CRD, upgrade, migration plan) runs in memory linear in the
//! document, measured in-process with the counting allocator of the
//! alias-bomb tests, and reports at most `MAX_CHANGES` findings per
//! comparison, the last saying the comparison stopped.
//!
//! Before, every field kept its whole path, so this CRD took 1.16 GB and
//! 80 s.

use kompat_testkit::counting_alloc::{peak_of, Counting, SERIAL};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

use kompat_crd::{check_crd, check_upgrade, migration_plan, parse_manifests, Crd};

const DEPTH: usize = 450;
const WIDTH: usize = 28;

/// The most the checks of the CRD may hold live at once, beyond the parsed
/// manifests: a few times the findings they may report, far below the
/// document's own 12 MB.
const CAP: usize = 8 << 20;

/// The most findings a comparison reports (`schema::MAX_CHANGES`).
const MAX_CHANGES: usize = 200;

/// A schema of `DEPTH` levels of `items`, each with `WIDTH` properties, at
/// `indent`. The `new` shape changes every level: `p0` becomes an integer,
/// `p1` is gone, `q` is new and required.
fn schema(out: &mut String, indent: usize, new: bool) {
    for level in 0..DEPTH {
        let pad = " ".repeat(indent + 2 * level);
        out.push_str(&format!("{pad}type: array\n{pad}properties:\n"));
        for p in 0..WIDTH {
            match (p, new) {
                (0, true) => out.push_str(&format!("{pad}  p0: {{type: integer}}\n")),
                (1, true) => out.push_str(&format!("{pad}  q: {{type: string}}\n")),
                _ => out.push_str(&format!("{pad}  p{p}: {{type: string, description: level {level}}}\n")),
            }
        }
        if new {
            out.push_str(&format!("{pad}required: [q]\n"));
        }
        out.push_str(&format!("{pad}items:\n"));
    }
    out.push_str(&format!("{}type: string\n", " ".repeat(indent + 2 * DEPTH)));
}

/// The CRD with versions `v1` and `v2`, the older shape of the schema in
/// the first `old` versions named, the newer in the rest.
fn manifest(old_first: bool) -> String {
    let mut text = String::from(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: chains.example.io\nspec:\n  group: example.io\n  names: {kind: Chain, plural: chains}\n  scope: Namespaced\n  versions:\n",
    );
    for (name, storage, new) in [("v1", false, !old_first), ("v2", true, old_first)] {
        text.push_str(&format!(
            "  - name: {name}\n    served: true\n    storage: {storage}\n    schema:\n      openAPIV3Schema:\n"
        ));
        schema(&mut text, 8, new);
    }
    text
}

fn parse(text: &str) -> Crd {
    match parse_manifests(text) {
        Ok(mut crds) if crds.len() == 1 => crds.remove(0),
        Ok(crds) => panic!("{} CRDs", crds.len()),
        Err(errors) => panic!("{:?}", &errors[..errors.len().min(3)]),
    }
}

#[test]
fn a_deep_crd_is_checked_in_bounded_memory() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (old_text, new_text) = (manifest(true), manifest(false));
    assert!(old_text.len() > 12_000_000, "{} bytes", old_text.len());
    let (old, new) = (parse(&old_text), parse(&new_text));

    let (single, peak) = peak_of(|| check_crd(&old, None));
    assert!(peak < CAP, "check_crd: peak {peak} bytes");
    let (upgrade, upgrade_peak) = peak_of(|| check_upgrade(&old, &new, None));
    assert!(upgrade_peak < CAP, "check_upgrade: peak {upgrade_peak} bytes");
    // Nothing is removed: the plan says so, in bounded memory too.
    let (plan, plan_peak) = peak_of(|| migration_plan(&old, &new));
    assert!(plan_peak < CAP, "migration_plan: peak {plan_peak} bytes");
    assert!(plan.is_err());
    eprintln!("peaks: check_crd {peak} B, check_upgrade {upgrade_peak} B, migration_plan {plan_peak} B");

    // Every comparison found more than it reports, and says so on its last
    // finding: the pruned fields of each version, the breaking changes
    // between them, the schema changes of each version kept.
    let count =
        |findings: &[kompat_crd::Finding], code: &str| findings.iter().filter(|f| f.rule.code() == code).count();
    let stopped = |findings: &[kompat_crd::Finding]| {
        findings.iter().filter(|f| f.notes.iter().any(|n| n.contains(&format!("stopped after {MAX_CHANGES}")))).count()
    };
    assert_eq!(count(&single, "missing-preserve-unknown-fields"), 2 * MAX_CHANGES, "{:?}", &single[..1]);
    assert_eq!(count(&single, "undeclared-conversion"), MAX_CHANGES);
    assert_eq!(stopped(&single), 3);
    assert!(upgrade.len() >= 2 * MAX_CHANGES && stopped(&upgrade) >= 2, "{}", upgrade.len());
    // The deepest findings name their whole path.
    let deepest = single.iter().map(|f| f.subject.as_deref().unwrap_or_default().matches("[*]").count()).max();
    assert!(deepest.unwrap_or_default() >= MAX_CHANGES / 3, "{deepest:?}");
}
