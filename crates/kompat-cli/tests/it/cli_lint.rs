//! `kompat lint` end to end: one case per rule (inputs written here, expected
//! findings in the short format), the JSON contract, exit codes, levels and
//! allowances, CRD wiring, and `kompat explain`.

use std::path::Path;

use crate::common::{dir_with, findings_on_stderr, kompat_in};

/// Lints `files` with `args` (run in their directory) and compares the exit
/// code and the short-format findings, one per line. What a case's run
/// lacks (`missing-input`: a baseline, sources, ...) is left out; the
/// `missing_input` tests show it.
#[track_caller]
fn check(files: &[(&str, &str)], args: &[&str], code: i32, expected: &str) {
    let dir = dir_with(files);
    let mut all = vec!["lint", "--format", "short", "-A", "missing-input"];
    all.extend(args);
    let (got_code, stdout, stderr) = findings_on_stderr(kompat_in(dir.path(), &all));
    let expected: Vec<&str> = expected.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let got: Vec<&str> = stdout.lines().collect();
    assert_eq!(got, expected, "args {args:?}\nstderr:\n{stderr}");
    assert_eq!(got_code, code, "args {args:?}\nstderr:\n{stderr}");
}

fn feature(name: &str, specs: &str) -> String {
    format!("[[feature]]\nname = \"{name}\"\nspecs = [\n{specs}\n]\n")
}

#[test]
fn clean_declarations_exit_0() {
    let text = feature("Ok", r#"  { version = "1.36", stage = "Alpha", default = false },"#);
    check(&[("f.toml", &text)], &["f.toml", "--binary-version", "1.37"], 0, "");
}

#[test]
fn registration_rules_point_at_the_value() {
    let text = feature(
        "Backwards",
        "  { version = \"1.31\", stage = \"Beta\", default = false },\n  { version = \"1.30\", stage = \"GA\", default = true },",
    );
    check(
        &[("f.toml", &text)],
        &["f.toml"],
        1,
        "f.toml:5:15: error[decreasing-version]: feature \"Backwards\" lists version transitions in decreasing order (1.30 < 1.31)",
    );
    let text = feature("Eager", r#"  { version = "1.31", stage = "Alpha", default = true },"#);
    check(
        &[("f.toml", &text)],
        &["f.toml"],
        1,
        "f.toml:4:50: error[alpha-enabled-by-default]: alpha feature Eager cannot be enabled by default",
    );
}

#[test]
fn feature_without_specs() {
    check(
        &[("f.toml", "[[feature]]\nname = \"Nothing\"\nspecs = []\n")],
        &["f.toml"],
        1,
        "f.toml:2:8: error[feature-without-specs]: feature Nothing has no version specs",
    );
}

const BASELINE: &str = r#"
[[feature]]
name = "AlphaGone"
specs = [{ version = "1.30", stage = "Alpha", default = false }]

[[feature]]
name = "BetaGone"
specs = [{ version = "1.30", stage = "Beta", default = false }]

[[feature]]
name = "UnlockedGone"
specs = [{ version = "1.30", stage = "GA", default = true }]

[[feature]]
name = "LockedTooRecently"
specs = [{ version = "1.30", stage = "GA", default = true }, { version = "1.35", stage = "GA", default = true, lockToDefault = true }]

[[feature]]
name = "LockedLongAgo"
specs = [{ version = "1.30", stage = "GA", default = true }, { version = "1.33", stage = "GA", default = true, lockToDefault = true }]

[[feature]]
name = "Kept"
specs = [{ version = "1.33", stage = "Beta", default = false }, { version = "1.36", stage = "Beta", default = true }]
"#;

#[test]
fn removed_gates_follow_kubernetes_removal_rules() {
    let current = feature(
        "Kept",
        "  { version = \"1.33\", stage = \"Beta\", default = false },\n  { version = \"1.36\", stage = \"Beta\", default = true },",
    );
    check(
        &[("old.toml", BASELINE), ("new.toml", &current)],
        &["new.toml", "--baseline", "old.toml", "--binary-version", "1.37"],
        1,
        "
old.toml:7:8: error[removed-gate]: feature BetaGone cannot be removed while in beta
old.toml:11:8: error[removed-gate]: feature UnlockedGone cannot be removed because it is in GA or Deprecated state and is not locked to default
old.toml:15:8: error[removed-gate]: feature LockedTooRecently cannot be removed until version 1.38 (required for emulation support)
",
    );
    // Under the Kubernetes profile, specs locked at or before 1.31 are grandfathered.
    let old = feature(
        "OldLock",
        "  { version = \"1.0\", stage = \"GA\", default = true },\n  { version = \"1.31\", stage = \"GA\", default = true, lockToDefault = true },",
    );
    check(
        &[("old.toml", &old), ("new.toml", "")],
        &["new.toml", "--baseline", "old.toml", "--binary-version", "1.33", "--profile", "kubernetes"],
        0,
        "",
    );
    check(
        &[("old.toml", &old), ("new.toml", "")],
        &["new.toml", "--baseline", "old.toml", "--binary-version", "1.33"],
        1,
        "old.toml:2:8: error[removed-gate]: feature OldLock cannot be removed until version 1.34 (required for emulation support)",
    );
    // The threshold is Kubernetes' fixed 1.31, not the window's floor.
    let later = old.replace("1.31", "1.32");
    let config = "[window]\nprofile = \"kubernetes\"\nfloor = \"1.33\"\n";
    check(
        &[("old.toml", &later), ("new.toml", ""), ("kompat.toml", config)],
        &["new.toml", "--baseline", "old.toml", "--binary-version", "1.34"],
        1,
        "old.toml:2:8: error[removed-gate]: feature OldLock cannot be removed until version 1.35 (required for emulation support)",
    );
}

#[test]
fn rewritten_history() {
    let old = feature(
        "Edited",
        "  { version = \"1.33\", stage = \"Beta\", default = false },\n  { version = \"1.35\", stage = \"Beta\", default = true },",
    );
    let new = feature(
        "Edited",
        "  { version = \"1.33\", stage = \"Beta\", default = false },\n  { version = \"1.34\", stage = \"Beta\", default = true },",
    );
    check(
        &[("old.toml", &old), ("new.toml", &new)],
        &["new.toml", "--baseline", "old.toml", "--binary-version", "1.37"],
        1,
        "new.toml:5:3: error[rewritten-history]: feature Edited changes specs of released versions (below 1.35), first at 1.34",
    );
    // A baseline from a development branch: its newest version (1.35) was not
    // released yet, so its specs may still change.
    let moved = old.replace("default = true }", "default = true, lockToDefault = true }");
    check(
        &[("old.toml", &old), ("new.toml", &moved)],
        &["new.toml", "--baseline", "old.toml", "--binary-version", "1.37"],
        0,
        "",
    );
    // Below both the binary and the baseline's newest version, it is history.
    check(
        &[("old.toml", &old), ("new.toml", &moved.replacen("default = false", "default = true", 1))],
        &["new.toml", "--baseline", "old.toml", "--binary-version", "1.37"],
        1,
        "new.toml:4:3: error[rewritten-history]: feature Edited changes specs of released versions (below 1.35), first at 1.33",
    );
    // Adding a spec at the binary version is not rewriting history.
    let grown = new.replace("\n]\n", "\n  { version = \"1.37\", stage = \"GA\", default = true },\n]\n");
    check(
        &[("old.toml", &new), ("new.toml", &grown)],
        &["new.toml", "--baseline", "old.toml", "--binary-version", "1.37"],
        0,
        "",
    );
}

#[test]
fn locked_gate_cleanup() {
    let text = feature(
        "Ancient",
        "  { version = \"1.0\", stage = \"GA\", default = true },\n  { version = \"1.32\", stage = \"GA\", default = true, lockToDefault = true },",
    );
    check(
        &[("f.toml", &text)],
        &["f.toml", "--binary-version", "1.37"],
        0,
        "f.toml:5:69: warning[locked-gate-cleanup]: feature Ancient has been locked to default since 1.32 (5 releases) and should be cleaned up",
    );
    check(&[("f.toml", &text)], &["f.toml", "--binary-version", "1.36"], 0, "");
    // Kubernetes' script cannot count releases across a major version.
    check(
        &[("f.toml", &text)],
        &["f.toml", "--binary-version", "2.0"],
        0,
        "f.toml:5:69: warning[locked-gate-cleanup]: feature Ancient: can't verify feature gate cleanup across major versions (1.32 vs 2.0)",
    );
}

#[test]
fn unsafe_ratchet() {
    let unsafe_decl = "[[feature]]\nname = \"StatusV2\"\nratchet = { tolerated_since = \"1.36\" }\nspecs = [\n  { version = \"1.36\", stage = \"Beta\", default = true },\n]\n";
    check(
        &[("f.toml", unsafe_decl)],
        &["f.toml", "--binary-version", "1.37"],
        1,
        "f.toml:5:49: error[unsafe-ratchet]: feature StatusV2 is enabled by default at emulation version 1.36 with min-compatibility version 1.34, but readers tolerate what it writes only from 1.36",
    );
    let safe_decl = "[[feature]]\nname = \"StatusV2\"\nratchet = { tolerated_since = \"1.36\" }\nspecs = [\n  { version = \"1.36\", stage = \"Beta\", default = false },\n  { version = \"1.36\", stage = \"Beta\", default = true, minCompatibilityVersion = \"1.36\" },\n]\n";
    check(&[("f.toml", safe_decl)], &["f.toml", "--binary-version", "1.37"], 0, "");
}

const API_BASE: &str = "[[api]]\ngroup = \"widgets.example.io\"\nkind = \"Widget\"\nresource = \"widgets\"\n";

#[test]
fn api_rules() {
    let deprecated = format!("{API_BASE}version = \"v1\"\nintroduced = \"1.20\"\ndeprecated = \"1.30\"\n");
    check(
        &[("a.toml", &deprecated)],
        &["a.toml", "--binary-version", "1.37"],
        0,
        "a.toml:1:1: warning[api-deprecated-without-replacement]: widgets.example.io/v1/Widget is deprecated since 1.30 but names no replacement",
    );
    // v1beta1 is deprecated at 1.37 by default and names no replacement.
    let beta = format!("{API_BASE}version = \"v1beta1\"\nintroduced = \"1.34\"\nremoved = \"1.40\"\n");
    check(
        &[("a.toml", &beta)],
        &["a.toml", "--binary-version", "1.37"],
        0,
        "
a.toml:1:1: warning[api-deprecated-without-replacement]: widgets.example.io/v1beta1/Widget is deprecated since 1.37 but names no replacement
a.toml:6:14: note[api-default-lifecycle]: widgets.example.io/v1beta1/Widget relies on the default deprecation in 1.37
",
    );
}

#[test]
fn storage_not_decodable() {
    // Storage pinned to v1, introduced in 1.36: a 1.34 peer cannot read it.
    let apis = "[[api]]\ngroup = \"g.example.io\"\nversion = \"v1beta1\"\nkind = \"Widget\"\nresource = \"widgets\"\nintroduced = \"1.30\"\ndeprecated = \"1.40\"\nremoved = \"1.45\"\nreplacement = \"g.example.io/v1/Widget\"\n\n[[api]]\ngroup = \"g.example.io\"\nversion = \"v1\"\nkind = \"Widget\"\nresource = \"widgets\"\nintroduced = \"1.36\"\n\n[storage_overrides]\n\"g.example.io/widgets\" = \"v1\"\n";
    check(
        &[("a.toml", apis)],
        &["a.toml", "--binary-version", "1.37"],
        1,
        "a.toml:16:14: error[storage-not-decodable]: at emulation version 1.34 (min-compatibility 1.34) widgets.g.example.io is stored as g.example.io/v1, which a 1.34 binary cannot decode",
    );
    // Without the pin, the two-pass choice keeps v1beta1 until min-compatibility reaches 1.36.
    let unpinned = apis.split("\n[storage_overrides]").next().unwrap_or_default();
    check(&[("a.toml", unpinned)], &["a.toml", "--binary-version", "1.37"], 0, "");
}

#[test]
fn storage_version_without_kind() {
    // Gadget exists only in v1beta1, introduced at the binary version; the
    // group's top version v1 has no Gadget.
    let apis = "[[api]]\ngroup = \"g.example.io\"\nversion = \"v1\"\nkind = \"Widget\"\nresource = \"widgets\"\nintroduced = \"1.30\"\n\n[[api]]\ngroup = \"g.example.io\"\nversion = \"v1beta1\"\nkind = \"Gadget\"\nresource = \"gadgets\"\nintroduced = \"1.37\"\ndeprecated = \"1.40\"\nremoved = \"1.43\"\n";
    let dir = dir_with(&[("a.toml", apis)]);
    let (code, stdout, _) =
        findings_on_stderr(kompat_in(dir.path(), &["lint", "a.toml", "--binary-version", "1.37", "--format", "short"]));
    assert_eq!(code, 1);
    assert!(
        stdout.contains("a.toml:13:14: error[storage-version-without-kind]: at emulation version 1.34 (min-compatibility 1.34) gadgets.g.example.io would be stored as g.example.io/v1, which has no kind Gadget"),
        "{stdout}"
    );
}

#[test]
fn json_output_follows_the_contract() {
    let text = feature("Eager", r#"  { version = "1.31", stage = "Alpha", default = true },"#);
    let dir = dir_with(&[("f.toml", &text)]);
    let (code, stdout, stderr) = kompat_in(dir.path(), &["lint", "f.toml", "--format", "json"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout,
        r#"{
  "diagnostics": [
    {
      "code": "alpha-enabled-by-default",
      "severity": "error",
      "message": "alpha feature Eager cannot be enabled by default",
      "file": "f.toml",
      "line": 4,
      "column": 50,
      "subject": "Eager"
    },
    {
      "code": "missing-input",
      "severity": "note",
      "message": "no Rust or Go source among the inputs: `orphaned-gate` did not run",
      "file": null,
      "line": null,
      "column": null,
      "subject": "sources"
    },
    {
      "code": "missing-input",
      "severity": "note",
      "message": "no baseline (--baseline, or `baseline` in kompat.toml): `removed-gate`, `rewritten-history` did not run",
      "file": null,
      "line": null,
      "column": null,
      "subject": "baseline"
    },
    {
      "code": "missing-input",
      "severity": "note",
      "message": "no binary version (--binary-version, or `binary_version` in kompat.toml): `locked-gate-cleanup` did not run",
      "file": null,
      "line": null,
      "column": null,
      "subject": "binary-version"
    }
  ],
  "summary": {
    "errors": 1,
    "warnings": 0,
    "notes": 3
  },
  "allowed": []
}
"#
    );
}

#[test]
fn sarif_output() {
    let text = feature("Eager", r#"  { version = "1.31", stage = "Alpha", default = true },"#);
    let dir = dir_with(&[("f.toml", &text)]);
    let (code, stdout, stderr) = kompat_in(dir.path(), &["lint", "f.toml", "--format", "sarif"]);
    assert_eq!(code, 1, "{stderr}");
    let log: serde_json::Value = serde_json::from_str(&stdout).expect("sarif is json");
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "alpha-enabled-by-default");
    assert_eq!(result["level"], "error");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "f.toml");
    assert_eq!(location["region"]["startLine"], 4);
    assert_eq!(location["region"]["startColumn"], 50);
    let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
    assert_eq!(run["tool"]["driver"]["rules"][index]["id"], "alpha-enabled-by-default");
    // The fingerprint does not depend on the line: it survives edits above.
    let moved = format!("# a comment\n\n{text}");
    let dir2 = dir_with(&[("f.toml", &moved)]);
    let (_, stdout2, _) = kompat_in(dir2.path(), &["lint", "f.toml", "--format", "sarif"]);
    let log2: serde_json::Value = serde_json::from_str(&stdout2).expect("sarif is json");
    assert_eq!(log2["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"], 6);
    assert_eq!(
        log2["runs"][0]["results"][0]["partialFingerprints"], result["partialFingerprints"],
        "fingerprints are stable"
    );
}

/// A removed gate's setting points at the baseline's declaration: a
/// secondary label in the human output, a related location in SARIF.
#[test]
fn tombstones_are_secondary_locations() {
    let baseline = feature("Gone", r#"  { version = "1.30", stage = "Alpha", default = false },"#);
    let current = feature("Kept", r#"  { version = "1.30", stage = "Alpha", default = false },"#);
    let dir = dir_with(&[
        ("baseline.toml", &baseline),
        ("f.toml", &current),
        ("deploy/run.sh", "widgetd --feature-gates=Gone=true\n"),
    ]);
    let args = ["lint", "f.toml", "deploy", "--baseline", "baseline.toml", "--binary-version", "1.37"];
    let (code, human, stderr) =
        findings_on_stderr(kompat_in(dir.path(), &[&args[..], &["--format", "human"]].concat()));
    assert_eq!(code, 1, "{stderr}");
    assert!(human.contains("--> baseline.toml:2:8"), "{human}");
    assert!(human.contains("the baseline declares Gone here"), "{human}");
    let (_, sarif, _) = kompat_in(dir.path(), &[&args[..], &["--format", "sarif"]].concat());
    let log: serde_json::Value = serde_json::from_str(&sarif).expect("sarif is json");
    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "removed-gate-setting");
    let region = &result["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (&region["startLine"], &region["startColumn"], &region["endColumn"]),
        (&1.into(), &25.into(), &34.into())
    );
    let related = &result["relatedLocations"][0];
    assert_eq!(related["physicalLocation"]["artifactLocation"]["uri"], "baseline.toml");
    assert_eq!(related["physicalLocation"]["region"]["startLine"], 2);
    assert_eq!(related["message"]["text"], "the baseline declares Gone here");
}

#[test]
fn levels_and_allowances() {
    let text = feature("Eager", r#"  { version = "1.31", stage = "Alpha", default = true },"#);
    let warn = "decls = [\"f.toml\"]\n[lint.levels]\nalpha-enabled-by-default = \"warn\"\n";
    check(
        &[("f.toml", &text), ("kompat.toml", warn)],
        &[],
        0,
        "f.toml:4:50: warning[alpha-enabled-by-default]: alpha feature Eager cannot be enabled by default",
    );
    let allow = "decls = [\"f.toml\"]\n[[lint.allow]]\ncode = \"alpha-enabled-by-default\"\nsubject = \"Eager\"\nreason = \"grandfathered, like NodeLogQuery\"\n\n[[lint.allow]]\ncode = \"removed-gate\"\nsubject = \"Gone\"\nreason = \"stale\"\n";
    check(
        &[("f.toml", &text), ("kompat.toml", allow)],
        &[],
        0,
        "kompat.toml:7:1: warning[unused-allowance]: allowance for `removed-gate` on Gone matches no finding",
    );
    let no_reason = "decls = [\"f.toml\"]\n[[lint.allow]]\ncode = \"alpha-enabled-by-default\"\nreason = \" \"\n";
    let dir = dir_with(&[("f.toml", &text), ("kompat.toml", no_reason)]);
    let (code, _, stderr) = kompat_in(dir.path(), &["lint"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("an allowance needs a non-empty `reason`"), "{stderr}");
    assert!(stderr.contains("kompat.toml:4:10"), "{stderr}");
    let missing_reason = "decls = [\"f.toml\"]\n[[lint.allow]]\ncode = \"alpha-enabled-by-default\"\n";
    let dir = dir_with(&[("f.toml", &text), ("kompat.toml", missing_reason)]);
    let (code, _, stderr) = kompat_in(dir.path(), &["lint"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing field `reason`"), "{stderr}");
    let unknown = "decls = [\"f.toml\"]\n[lint.levels]\nno-such-code = \"deny\"\nremoved-gates = \"warn\"\n";
    let dir = dir_with(&[("f.toml", &text), ("kompat.toml", unknown)]);
    let (code, _, stderr) = kompat_in(dir.path(), &["lint"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown lint code `no-such-code` in [lint.levels]"), "{stderr}");
    assert!(stderr.contains("kompat.toml:3:1"), "{stderr}");
    assert!(
        stderr.contains("unknown lint code `removed-gates` in [lint.levels] (did you mean `removed-gate`?)"),
        "{stderr}"
    );
    assert!(stderr.contains("kompat.toml:4:1"), "{stderr}");
    let bad_level = "decls = [\"f.toml\"]\n[lint.levels]\nremoved-gate = \"forbid\"\n";
    let dir = dir_with(&[("f.toml", &text), ("kompat.toml", bad_level)]);
    let (code, _, stderr) = kompat_in(dir.path(), &["lint"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("kompat.toml:3:16"), "{stderr}");
}

const CRD_V1: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.io
spec:
  group: example.io
  names:
    kind: Widget
    plural: widgets
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
status:
  storedVersions:
  - v1alpha1
  - v1
";

#[test]
fn crd_manifests_are_linted() {
    let webhook =
        CRD_V1.replace("  scope: Namespaced\n", "  scope: Namespaced\n  conversion:\n    strategy: Webhook\n");
    let dir = dir_with(&[("crd.yaml", &webhook)]);
    let (code, stdout, _) = findings_on_stderr(kompat_in(dir.path(), &["lint", "crd.yaml", "--format", "short"]));
    // A webhook is a warning, levelable like every rule.
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(
        stdout,
        "crd.yaml:12:15: warning[conversion-webhook]: `spec.conversion.strategy: Webhook` makes every request depend on a conversion webhook\n"
    );
    let dir = dir_with(&[("crd.yaml", &webhook), ("kompat.toml", "[lint.levels]\nconversion-webhook = \"allow\"\n")]);
    let (code, stdout, _) = findings_on_stderr(kompat_in(dir.path(), &["lint", "crd.yaml", "--format", "short"]));
    assert_eq!((code, stdout.as_str()), (0, ""));
    // Old -> new: v1alpha1 is in status.storedVersions but gone from spec.versions.
    let old = CRD_V1.replace("  - name: v1\n", "  - name: v1alpha1\n    served: true\n    storage: false\n    schema:\n      openAPIV3Schema:\n        type: object\n  - name: v1\n");
    let dir = dir_with(&[("old.yaml", &old), ("new.yaml", CRD_V1)]);
    let (code, stdout, _) =
        findings_on_stderr(kompat_in(dir.path(), &["lint", "new.yaml", "--baseline", "old.yaml", "--format", "short"]));
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("error[stored-version-removed]"), "{stdout}");
    assert!(stdout.contains("v1alpha1 was previously a storage version"), "{stdout}");
}

#[test]
fn json_crd_manifests_are_linted() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/crd/json");
    let (code, stdout, stderr) =
        findings_on_stderr(kompat_in(&fixtures, &["lint", "--no-config", "missing-schema.json", "--format", "short"]));
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.starts_with("missing-schema.json:"), "{stdout}");
    assert!(stdout.contains("error[missing-schema]"), "{stdout}");
    // As a baseline too: v1alpha1 is in the old status.storedVersions.
    let (code, stdout, stderr) = findings_on_stderr(kompat_in(
        &fixtures,
        &["lint", "--no-config", "new.json", "--baseline", "old.json", "--format", "short"],
    ));
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.contains("error[stored-version-removed]"), "{stdout}");
    // In a directory.
    let (_, stdout, _) = findings_on_stderr(kompat_in(&fixtures, &["lint", "--no-config", ".", "--format", "short"]));
    assert!(stdout.contains("missing-schema.json:") && stdout.contains("error[missing-schema]"), "{stdout}");
}

#[test]
fn a_baseline_of_another_crd_is_an_error() {
    let gizmo = CRD_V1.replace("widgets", "gizmos").replace("Widget", "Gizmo");
    let dir = dir_with(&[("old.yaml", &gizmo), ("new.yaml", CRD_V1)]);
    let (code, stdout, stderr) = kompat_in(dir.path(), &["lint", "new.yaml", "--baseline", "old.yaml"]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    let first = stderr.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        "error: the baseline is not a previous release of these CRDs: it holds `gizmos.example.io` (kind `Gizmo`), the manifests hold `widgets.example.io` (kind `Widget`)"
    );
    assert!(stderr.contains("new.yaml:4:9"), "{stderr}");
    assert!(stderr.contains("old.yaml:4:9"), "{stderr}");
    // The same kind under another group still pairs: the change is reported.
    let moved = CRD_V1.replace("example.io", "example.com");
    let dir = dir_with(&[("old.yaml", &moved), ("new.yaml", CRD_V1)]);
    let (code, stdout, _) =
        findings_on_stderr(kompat_in(dir.path(), &["lint", "new.yaml", "--baseline", "old.yaml", "--format", "short"]));
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("error[group-changed]"), "{stdout}");
}

#[test]
fn crd_directories() {
    let old = CRD_V1.replace("  - name: v1\n", "  - name: v1alpha1\n    served: true\n    storage: false\n    schema:\n      openAPIV3Schema:\n        type: object\n  - name: v1\n");
    let dir = dir_with(&[
        ("old/crds/widget.yaml", &old),
        ("new/crds/widget.yaml", CRD_V1),
        ("new/README.md", "not a manifest"),
    ]);
    let (code, stdout, stderr) =
        findings_on_stderr(kompat_in(dir.path(), &["lint", "new", "--baseline", "old", "--format", "short"]));
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.starts_with("new/crds/widget.yaml:"), "{stdout}");
    assert!(stdout.contains("error[stored-version-removed]"), "{stdout}");
    // A CRD of the baseline directory that the new one lacks was removed.
    let widget = CRD_V1.split("status:").next().unwrap_or_default();
    let gizmo = widget.replace("widgets", "gizmos").replace("Widget", "Gizmo");
    let dir = dir_with(&[
        ("old/crds/widget.yaml", widget),
        ("old/crds/gizmo.yaml", &gizmo),
        ("new/crds/widget.yaml", widget),
    ]);
    let (code, stdout, stderr) =
        findings_on_stderr(kompat_in(dir.path(), &["lint", "new", "--baseline", "old", "--format", "short"]));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout,
        "old/crds/gizmo.yaml:4:9: error[crd-removed]: `gizmos.example.io` is in the baseline but in none of the new manifests\n"
    );
}

#[test]
fn conversions_files_that_belong_to_no_manifest_are_reported() {
    let conversions = "crd = \"widgets.example.io\"\n";
    let cases: [(&[(&str, &str)], &str); 3] = [
        // Found by the one rule: no finding.
        (&[("crds/widgets.yaml", CRD_V1), ("crds/widgets.conversions.toml", conversions)], ""),
        (
            &[("crds/widgets.yaml", CRD_V1), ("crds/widgets.yaml.conversions.toml", conversions)],
            "crds/widgets.yaml.conversions.toml:1:1: warning[orphan-conversions-file]: `widgets.yaml.conversions.toml` belongs to no CRD manifest among the inputs: `widgets.yaml.yaml` is not one\n",
        ),
        (
            &[("crds/widgets.yaml", CRD_V1), ("crds/gizmos.conversions.toml", conversions)],
            "crds/gizmos.conversions.toml:1:1: warning[orphan-conversions-file]: `gizmos.conversions.toml` belongs to no CRD manifest among the inputs: `gizmos.yaml` is not one\n",
        ),
    ];
    for (files, want) in cases {
        let dir = dir_with(files);
        let (code, stdout, stderr) = findings_on_stderr(kompat_in(dir.path(), &["lint", "crds", "--format", "short"]));
        assert_eq!((code, stdout.as_str()), (0, want), "{files:?}: {stderr}");
    }
    // The note names the file the manifest's conversions must be in.
    let dir = dir_with(&[("widgets.yaml", CRD_V1), ("widgets.yaml.conversions.toml", conversions)]);
    let (_, stdout, _) = findings_on_stderr(kompat_in(dir.path(), &["lint", "widgets.yaml"]));
    assert!(stdout.contains("the conversions file of `widgets.yaml` is `widgets.conversions.toml`"), "{stdout}");
}

#[test]
fn malformed_inputs_exit_2() {
    let dir = dir_with(&[("f.toml", "[[feature]\n")]);
    let (code, stdout, stderr) = kompat_in(dir.path(), &["lint", "f.toml"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.starts_with("error: ") && stderr.contains("f.toml:1:"), "{stderr}");
    let (code, _, stderr) = kompat_in(dir.path(), &["lint"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: nothing to lint"), "{stderr}");
}

#[test]
fn explain() {
    let dir = dir_with(&[]);
    let (code, stdout, _) = kompat_in(dir.path(), &["explain", "removed-gate"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("# removed-gate (error)"), "{stdout}");
    for heading in ["### What it does", "### Why is this bad?", "### Example", "### Use instead"] {
        assert!(stdout.contains(heading), "{heading} missing:\n{stdout}");
    }
    let (code, _, stderr) = kompat_in(dir.path(), &["explain", "removed-gates"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown lint code `removed-gates` (did you mean `removed-gate`?)"), "{stderr}");
}

/// Every rule: a unique kebab-case code, a doc in clippy's template, a
/// summary in the house style.
#[test]
fn rule_catalogue() {
    let dir = dir_with(&[]);
    let (code, stdout, _) = kompat_in(dir.path(), &["explain", "--list"]);
    assert_eq!(code, 0);
    let codes: Vec<&str> = stdout.lines().map(|l| l.split_whitespace().next().unwrap_or_default()).collect();
    let mut unique = codes.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), codes.len(), "duplicate codes");
    assert!(codes.len() >= 45, "only {} rules", codes.len());
    for code in codes {
        assert!(code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'), "{code} is not kebab-case");
        let (status, doc, _) = kompat_in(dir.path(), &["explain", code]);
        assert_eq!(status, 0, "{code}");
        for heading in ["### What it does", "### Why is this bad?", "### Example", "### Use instead"] {
            assert!(doc.contains(heading), "{code}: {heading} missing");
        }
    }
}

/// Messages start lower-case (or with a name or quote) and have no trailing period.
#[test]
fn message_style() {
    let inputs = [
        ("f.toml", feature("Eager", r#"  { version = "1.31", stage = "Alpha", default = true },"#)),
        ("g.toml", "[[feature]]\nname = \"Nothing\"\nspecs = []\n".to_owned()),
    ];
    let files: Vec<(&str, &str)> = inputs.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let dir = dir_with(&files);
    let (_, stdout, _) = kompat_in(dir.path(), &["lint", "f.toml", "g.toml", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    let diagnostics = report["diagnostics"].as_array().expect("array");
    assert!(!diagnostics.is_empty());
    for d in diagnostics {
        let message = d["message"].as_str().unwrap_or_default();
        assert!(!message.ends_with('.'), "{message}");
        assert!(!message.starts_with(|c: char| c.is_uppercase()), "{message}");
    }
}

const RUST_GATES: &str = r#"//! Gates of the demo.
use kompat::FeatureGates;

#[derive(Clone, Copy, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.30", stage = "GA", default = true, locked = true))]
    Used,
    #[kompat(spec(version = "1.35", stage = "Alpha", default = false))]
    Orphan,
    #[kompat(allow(code = "orphaned-gate", reason = "read by the scheduler plugin"))]
    #[kompat(spec(version = "1.35", stage = "Alpha", default = false))]
    Elsewhere,
    #[kompat(spec(version = "1.40", stage = "Alpha", default = false))]
    Future,
}

pub fn run(gate: &kompat::TypedGate<Feature>, old: &OldGate) {
    if gate.enabled(Feature::Used) && old.enabled("Removed") && old.enabled("Typo") {}
    let _ = Feature::Future;
}
"#;

const BASELINE_GATES: &str = r#"
[[feature]]
name = "Removed"
specs = [{ version = "1.30", stage = "Alpha", default = false }]
"#;

const KUBELET: &str = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  Removed: true\n  Used: false\n  Future: true\n";

const SCRIPT: &str = "#!/bin/sh\nexec widgetd --feature-gates=Typo=true,Used=true \"$@\"\n";

#[test]
fn rust_sources_and_deployment_material() {
    let dir = dir_with(&[
        ("src/gates.rs", RUST_GATES),
        ("baseline.toml", BASELINE_GATES),
        ("deploy/kubelet.yaml", KUBELET),
        ("deploy/run.sh", SCRIPT),
    ]);
    let (code, stdout, stderr) = findings_on_stderr(kompat_in(
        dir.path(),
        &[
            "lint",
            "src",
            "deploy",
            "--baseline",
            "baseline.toml",
            "--binary-version",
            "1.37",
            "--kubernetes-version",
            "1.37",
            "--format",
            "short",
        ],
    ));
    assert_eq!(code, 1, "{stderr}");
    let expected = [
        "deploy/kubelet.yaml:4:3: error[removed-gate-setting]: a 1.37 component rejects this setting: unrecognized feature gate: Removed",
        "deploy/kubelet.yaml:5:3: error[locked-gate-setting]: a 1.37 component rejects this setting: cannot set feature gate Used to false, feature is locked to true",
        "deploy/kubelet.yaml:6:3: error[prealpha-gate-setting]: a 1.37 component rejects this setting: cannot set feature gate Future to true, feature is PreAlpha at emulated version 1.37, min compatibility version 1.36",
        "deploy/run.sh:2:30: error[unknown-gate-setting]: a 1.37 component rejects this setting: unrecognized feature gate: Typo",
        "deploy/run.sh:2:40: warning[ga-gate-setting]: a 1.37 component logs \"Setting GA feature gate Used=true. It will be removed in a future release.\"",
        "src/gates.rs:7:5: warning[locked-gate-cleanup]: feature Used has been locked to default since 1.30 (7 releases) and should be cleaned up",
        "src/gates.rs:9:5: warning[orphaned-gate]: feature gate Orphan is declared but never referenced in code",
        "src/gates.rs:18:51: error[removed-gate-reference]: feature gate Removed was removed but is still referenced",
        "src/gates.rs:18:77: warning[unknown-gate-reference]: feature gate Typo is not declared",
    ];
    let got: Vec<&str> = stdout.lines().collect();
    assert_eq!(got, expected);
}

#[test]
fn stored_before_written() {
    let same_release = "[[stored_before_written]]\nname = \"quantity\"\nkind = \"cel-library\"\nreadable_since = \"1.36\"\nwritten_since = \"1.36\"\n";
    check(
        &[("f.toml", same_release)],
        &["f.toml"],
        1,
        "f.toml:1:1: error[stored-before-written]: cel-library quantity is written from 1.36 but readable only from 1.36: writes must lag reads by at least one release",
    );
    let lagged = same_release.replace("written_since = \"1.36\"", "written_since = \"1.37\"");
    // Binary 1.39: the window's floor is 1.36, so every admitted reader knows it.
    check(&[("f.toml", &lagged)], &["f.toml", "--binary-version", "1.39"], 0, "");
    check(
        &[("f.toml", &lagged)],
        &["f.toml", "--binary-version", "1.37"],
        1,
        "f.toml:1:1: error[stored-before-written]: cel-library quantity is written at emulation version 1.37 while min-compatibility version 1.34 admits readers older than 1.36",
    );
}

/// `#[kompat(allow(...))]` that suppresses nothing, or names no known code,
/// is reported like an unused `[[lint.allow]]`: at the `allow(...)`, or at
/// the unknown code.
#[test]
fn unused_source_allows() {
    let gates = r#"//! Gates.
use kompat::FeatureGates;

#[derive(Clone, Copy, FeatureGates)]
pub enum Feature {
    #[kompat(allow(code = "orphaned-gate", reason = "read by the scheduler plugin"))]
    #[kompat(spec(version = "1.35", stage = "Alpha", default = false))]
    Elsewhere,
    #[kompat(allow(code = "orphaned-gate", reason = "stale"))]
    #[kompat(spec(version = "1.35", stage = "Alpha", default = false))]
    Used,
    #[kompat(allow(code = "orphaned-gates", reason = "misspelt"))]
    #[kompat(spec(version = "1.35", stage = "Alpha", default = false))]
    Misspelt,
}

pub fn run(gate: &kompat::TypedGate<Feature>) -> bool {
    gate.enabled(Feature::Used) && gate.enabled(Feature::Misspelt)
}
"#;
    check(
        &[("src/gates.rs", gates)],
        &["src", "--binary-version", "1.37"],
        0,
        r#"
        src/gates.rs:9:14: warning[unused-allowance]: `#[kompat(allow(code = "orphaned-gate"))]` on Used matches no finding
        src/gates.rs:12:27: warning[unused-allowance]: `#[kompat(allow(...))]` on Misspelt names unknown lint code `orphaned-gates` (did you mean `orphaned-gate`?)
        "#,
    );
}

/// `ignore-check.kompat.io/<code>` annotations and `# kompat:allow(<code>)`
/// comments in CRD manifests and deployment YAML: they allow their code in
/// their object, with a reason, and the allowed findings are SARIF results
/// with an `inSource` suppression, as `#[kompat(allow(...))]`'s are.
#[test]
fn inline_allowances_in_manifests() {
    let deprecated = CRD_V1.replace("    storage: true\n", "    storage: true\n    deprecated: true\n");
    let annotated = deprecated.replace(
        "  name: widgets.example.io\n",
        "  name: widgets.example.io\n  annotations:\n    ignore-check.kompat.io/deprecated-without-warning: \"the warning ships with v2\"\n",
    );
    let commented = format!("# kompat:allow(deprecated-without-warning) the warning ships with v2\n{deprecated}");
    let gates = r#"//! Gates.
use kompat::FeatureGates;

#[derive(Clone, Copy, FeatureGates)]
pub enum Feature {
    #[kompat(allow(code = "orphaned-gate", reason = "read by the scheduler plugin"))]
    #[kompat(spec(version = "1.35", stage = "Alpha", default = false))]
    Elsewhere,
}
"#;
    // Without an allowance: the finding.
    check(
        &[("crd.yaml", &deprecated)],
        &["crd.yaml"],
        0,
        "crd.yaml:15:17: warning[deprecated-without-warning]: deprecated version `v1` has no `deprecationWarning`",
    );
    for text in [&annotated, &commented] {
        let dir = dir_with(&[("crd.yaml", text), ("src/gates.rs", gates)]);
        let (code, stdout, stderr) = findings_on_stderr(kompat_in(
            dir.path(),
            &["lint", "crd.yaml", "src", "--binary-version", "1.37", "--format", "short"],
        ));
        // Nothing but what the run lacked (no baseline).
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.lines().all(|l| l.contains("note[missing-input]")), "{stdout}");
        let (code, sarif, stderr) =
            kompat_in(dir.path(), &["lint", "crd.yaml", "src", "--binary-version", "1.37", "--format", "sarif"]);
        assert_eq!(code, 0, "{stderr}");
        let sarif: serde_json::Value = serde_json::from_str(&sarif).unwrap_or_default();
        let results = sarif["runs"][0]["results"].as_array().cloned().unwrap_or_default();
        let got: Vec<(String, String, String)> = results
            .iter()
            .map(|r| {
                let s = &r["suppressions"][0];
                (
                    r["ruleId"].as_str().unwrap_or_default().to_owned(),
                    s["kind"].as_str().unwrap_or_default().to_owned(),
                    s["justification"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect();
        let want = [
            ("deprecated-without-warning", "inSource", "the warning ships with v2"),
            ("orphaned-gate", "inSource", "read by the scheduler plugin"),
        ];
        let want: Vec<(String, String, String)> =
            want.iter().map(|(a, b, c)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned())).collect();
        let mut got = got;
        got.sort();
        assert_eq!(got, want, "{text}");
    }
    // An allowance in another object, or for another code, allows nothing
    // and is reported.
    let elsewhere = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    ignore-check.kompat.io/deprecated-without-warning: \"misplaced\"\n---\n{deprecated}"
    );
    check(
        &[("crd.yaml", &elsewhere)],
        &["crd.yaml"],
        0,
        r#"
        crd.yaml:6:5: warning[unused-allowance]: `ignore-check.kompat.io/deprecated-without-warning` matches no finding in its object
        crd.yaml:22:17: warning[deprecated-without-warning]: deprecated version `v1` has no `deprecationWarning`
        "#,
    );
}

/// kube-rs custom resources are cross-checked against the CRD manifest among
/// the inputs; without one, `missing-input` says they were not.
#[test]
fn kube_rs_types_and_their_crd() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/lint/crd-lifecycle-mismatch");
    let (code, stdout, stderr) = findings_on_stderr(kompat_in(
        &fixture,
        &["lint", "src", "deploy", "--binary-version", "1.37", "--format", "short"],
    ));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stdout.matches("error[crd-lifecycle-mismatch]").count(), 3, "{stdout}");
    assert!(!stdout.contains("crd-manifest"), "{stdout}");
    let (code, json, stderr) = kompat_in(&fixture, &["lint", "src", "--binary-version", "1.37", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
    let notes: Vec<(&str, &str)> = report["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["subject"] == "crd-manifest")
        .map(|d| (d["code"].as_str().unwrap_or_default(), d["message"].as_str().unwrap_or_default()))
        .collect();
    assert_eq!(
        notes,
        [(
            "missing-input",
            "no CRD manifest among the inputs for kube-rs custom resources: the lifecycles of `example.io/Widget` are not compared with a CRD; `crd-lifecycle-mismatch` did not run"
        )],
        "{json}"
    );
}

/// Exit codes are the same in every format: 0 without an error-level
/// finding (warnings and notes included), 1 with one, 2 on usage errors.
/// Every format is deterministic.
#[test]
fn exit_codes_in_every_format() {
    let clean = feature("Ok", r#"  { version = "1.36", stage = "Alpha", default = false },"#);
    let warning = feature("Old", r#"  { version = "1.30", stage = "GA", default = true, lockToDefault = true },"#);
    let error = feature("Eager", r#"  { version = "1.31", stage = "Alpha", default = true },"#);
    let dir = dir_with(&[("clean.toml", &clean), ("warning.toml", &warning), ("error.toml", &error)]);
    for format in ["human", "short", "json", "sarif"] {
        for (file, expected) in [("clean.toml", 0), ("warning.toml", 0), ("error.toml", 1)] {
            let args = ["lint", file, "--binary-version", "1.37", "--format", format];
            let (code, stdout, stderr) = kompat_in(dir.path(), &args);
            assert_eq!(code, expected, "{file} as {format}: {stdout}{stderr}");
            let (_, again, _) = kompat_in(dir.path(), &args);
            assert_eq!(stdout, again, "{file} as {format} is not deterministic");
            if format == "json" || format == "sarif" {
                assert!(serde_json::from_str::<serde_json::Value>(&stdout).is_ok(), "{format}: {stdout}");
                assert!(stderr.is_empty(), "{format} writes nothing else: {stderr}");
            }
        }
    }
    let (code, stdout, stderr) = kompat_in(dir.path(), &["lint", "clean.toml", "--format", "xml"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.starts_with("error:"), "{stderr}");
    let (code, _, stderr) = kompat_in(dir.path(), &["lint", "missing.toml"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error:") && stderr.contains("missing.toml"), "{stderr}");
    let (code, _, stderr) = kompat_in(dir.path(), &["lint", "clean.toml", "--binary-version", "one"]);
    assert_eq!(code, 2, "{stderr}");
}

/// Every branch of `api-lifecycle-order` and `api-replacement-unavailable`.
#[test]
fn api_lifecycle_order_and_replacements() {
    let api = |version: &str, kind: &str, rest: &str| {
        format!(
            "[[api]]\ngroup = \"w.example.io\"\nversion = \"{version}\"\nkind = \"{kind}\"\nresource = \"{}s\"\n{rest}\n",
            kind.to_lowercase()
        )
    };
    let text = [
        // Deprecated before introduced.
        api("v1", "A", "introduced = \"1.32\"\ndeprecated = \"1.30\"\nremoved = \"1.36\""),
        // Removed when introduced: never served.
        api("v1", "B", "introduced = \"1.32\"\nremoved = \"1.32\""),
        // Removed before the default deprecation (1.35).
        api("v1beta1", "C", "introduced = \"1.32\"\nremoved = \"1.34\""),
        // Removed with its deprecation.
        api("v1beta1", "D", "introduced = \"1.30\"\ndeprecated = \"1.33\"\nremoved = \"1.33\""),
        // An undeclared replacement.
        api("v1beta1", "E", "introduced = \"1.30\"\ndeprecated = \"1.33\"\nremoved = \"1.36\"\nreplacement = \"w.example.io/v1/Nothing\""),
        // A replacement removed first.
        api("v1beta1", "F", "introduced = \"1.30\"\ndeprecated = \"1.33\"\nremoved = \"1.36\"\nreplacement = \"w.example.io/v1beta2/F\""),
        api("v1beta2", "F", "introduced = \"1.31\"\ndeprecated = \"1.32\"\nremoved = \"1.35\""),
        // Fine: the replacement is served from 1.33 while the beta goes at 1.36.
        api("v1beta1", "G", "introduced = \"1.30\"\ndeprecated = \"1.33\"\nremoved = \"1.36\"\nreplacement = \"w.example.io/v1/G\""),
        api("v1", "G", "introduced = \"1.33\""),
    ]
    .concat();
    let dir = dir_with(&[("apis.toml", &text)]);
    let (_, stdout, stderr) = findings_on_stderr(kompat_in(dir.path(), &["lint", "apis.toml", "--format", "short"]));
    let got: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("[api-lifecycle-order]") || l.contains("[api-replacement-unavailable]"))
        .collect();
    assert_eq!(
        got,
        [
            "apis.toml:7:14: error[api-lifecycle-order]: w.example.io/v1/A is deprecated in 1.30, before it is introduced in 1.32",
            "apis.toml:15:11: error[api-lifecycle-order]: w.example.io/v1/B is removed in 1.32, no later than it is introduced in 1.32: no release serves it",
            "apis.toml:22:11: error[api-lifecycle-order]: w.example.io/v1beta1/C is removed in 1.34, no later than its default deprecation in 1.35: no release serves it with a deprecation warning",
            "apis.toml:30:11: error[api-lifecycle-order]: w.example.io/v1beta1/D is removed in 1.33, no later than its deprecation in 1.33: no release serves it with a deprecation warning",
            "apis.toml:39:15: error[api-replacement-unavailable]: the replacement of w.example.io/v1beta1/E, w.example.io/v1/Nothing, is not declared",
            "apis.toml:48:15: error[api-replacement-unavailable]: the replacement of w.example.io/v1beta1/F, w.example.io/v1beta2/F, is removed in 1.35, no later than w.example.io/v1beta1/F is removed in 1.36",
        ],
        "{stderr}"
    );
}

/// A Rust declaration is read as the derive reads it: what the derive
/// rejects (`cargo build` fails) is an input error with the derive's message
/// at its line and column, and no declaration rule runs on it.
#[test]
fn rust_declarations_the_derive_rejects() {
    let gates = |spec: &str| {
        format!(
            "use kompat::FeatureGates;\n\n#[derive(Clone, Copy, FeatureGates)]\npub enum Feature {{\n    #[kompat(spec({spec}))]\n    WatchList,\n}}\n\npub fn f(g: &kompat::TypedGate<Feature>) -> bool {{ g.enabled(Feature::WatchList) }}\n"
        )
    };
    let api = |attrs: &str| {
        format!("#[derive(kube::CustomResource, kompat::ApiLifecycle)]\n{attrs}\npub struct WidgetSpec {{}}\n")
    };
    let cases = [
        (gates(r#"version = "1.27", stage = "beta", default = true"#), r#"unknown stage "beta"; did you mean "Beta"?"#, "5:45"),
        (
            gates(r#"verison = "1.27", stage = "Beta", default = true"#),
            "unknown key `verison` in `spec(...)`; did you mean `version`?",
            "5:19",
        ),
        (
            gates(r#"version = "1.27", version = "1.28", stage = "Beta", default = true"#),
            "duplicate key `version` in `spec(...)`",
            "5:37",
        ),
        (
            gates(r#"version = "1.27", stage = "Alpha", default = true"#),
            "alpha feature WatchList cannot be enabled by default",
            "5:64",
        ),
        (
            api("#[kube(group = \"example.io\", version = \"v1\", kind = \"Widget\")]\n#[kompat(api(version = \"v2\", introduced = \"1.32\"))]"),
            "`version = \"v2\"` differs from `#[kube(version = \"v1\")]` on the same type: the lifecycle would describe another API than the one kube-rs registers; drop it from `api(...)`",
            "3:24",
        ),
    ];
    for (source, message, at) in cases {
        let dir = dir_with(&[("src/lib.rs", &source)]);
        let (code, stdout, stderr) = kompat_in(dir.path(), &["lint", "src", "--binary-version", "1.37"]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
        let lines: Vec<&str> = stderr.lines().take(2).collect();
        assert_eq!(lines, [format!("error: {message}"), format!("  --> src/lib.rs:{at}")], "{stderr}");
        assert_eq!(stderr.matches("error").count(), 1, "one error, no finding: {stderr}");
    }
}

/// `fixtures/operator/`: a kube-rs-shaped operator whose gates are used the
/// ways real code uses them (through `pub use ... as`, `use ... as F`, glob
/// imports, `Self::`, inside `tracing` macros, `vec![...]` and a
/// `macro_rules!` invocation, in tests under `use super::*`). No gate is
/// reported orphaned; the one gate nothing uses is allowed in the source,
/// and since an allowance that matches no finding is reported itself, the
/// clean output also shows that `orphaned-gate` ran and found exactly it.
#[test]
fn operator_fixture_has_no_orphaned_gate() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/operator");
    let (code, stdout, stderr) = kompat_in(&dir, &["lint", "--format", "json"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains(r#""diagnostics": []"#), "{stdout}");
    let (code, stdout, human) = kompat_in(&dir, &["lint"]);
    assert_eq!((code, stdout.as_str()), (0, ""), "{human}");
    insta::assert_snapshot!(human);
}

/// A baseline without `status.storedVersions` gives a note; the output of
/// `kubectl get crd -o yaml` (a `kind: List` with the status) is a baseline
/// as it is, and decides.
#[test]
fn the_clusters_stored_versions_decide() {
    let fixture = |name: &str| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/crd/upgrade/stored-versions-assumed")
            .join(name);
        std::fs::read_to_string(path).unwrap_or_default()
    };
    let cluster = fixture("cluster.yaml");
    let crd = &cluster[cluster.find("apiVersion:").unwrap_or_default()..];
    let indented: String = crd.lines().map(|l| format!("  {l}\n")).collect();
    let list = format!("apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: \"\"\nitems:\n-{}", &indented[1..]);
    let dir = dir_with(&[("old.yaml", &fixture("old.yaml")), ("new.yaml", &fixture("new.yaml")), ("list.yaml", &list)]);
    let lint = |baseline: &str| {
        findings_on_stderr(kompat_in(dir.path(), &["lint", "new.yaml", "--baseline", baseline, "--format", "short"]))
    };
    let (code, stdout, stderr) = lint("old.yaml");
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("new.yaml:14:3: note[stored-versions-assumed]: the baseline of `machines.cluster.example.io` has no `status.storedVersions`: kompat assumed the API server recorded only `v1`"), "{stdout}");
    let (code, stdout, stderr) = lint("list.yaml");
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.starts_with("new.yaml:14:3: error[stored-version-removed]"), "{stdout}");
    assert!(!stdout.contains("stored-versions-assumed"), "{stdout}");
}
