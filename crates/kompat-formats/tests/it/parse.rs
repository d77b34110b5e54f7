//! Parsing declaration files: every error with its line and column, spans
//! that point at the right text, and round trips through both formats.

use kompat_engine::Field;
use kompat_formats::{parse_k8s_yaml, parse_toml, render_k8s_yaml, render_toml, FeatureFile, ParseError};
use kompat_span::LineIndex;

fn located(text: &str, errors: &[ParseError]) -> String {
    let index = LineIndex::new(text);
    errors.iter().map(|e| e.located(&index)).collect::<Vec<_>>().join("\n")
}

/// Parses `text` as Kubernetes YAML and compares the outcome: `ok N` for N
/// features, or the located errors.
#[track_caller]
fn check_yaml(text: &str, expected: &str) {
    let got = match parse_k8s_yaml(text) {
        Ok(file) => format!("ok {}", file.features().len()),
        Err(errors) => located(text, &errors),
    };
    assert_eq!(got, expected.trim());
}

#[track_caller]
fn check_toml(text: &str, expected: &str) {
    let got = match parse_toml(text) {
        Ok(file) => format!("ok {}", file.features.features().len()),
        Err(errors) => located(text, &errors),
    };
    assert_eq!(got, expected.trim());
}

const SPEC: &str = "  - default: false\n    lockToDefault: false\n    preRelease: Alpha\n    version: \"1.30\"\n";

#[test]
fn yaml_accepts_the_kubernetes_layout() {
    check_yaml("", "ok 0");
    check_yaml("[]\n", "ok 0");
    check_yaml(&format!("- name: A\n  versionedSpecs:\n{SPEC}"), "ok 1");
    check_yaml("- name: A\n  versionedSpecs: []\n", "ok 1");
    // An unquoted version keeps its text: 1.10 is not 1.1.
    let file = parse_k8s_yaml("- name: A\n  versionedSpecs:\n  - default: false\n    lockToDefault: false\n    preRelease: Beta\n    version: 1.10\n").unwrap();
    assert_eq!(file.features()[0].specs[0].version.as_ref().unwrap().to_string(), "1.10");
    // Anchors and aliases resolve, as in Go's YAML decoders.
    let file =
        parse_k8s_yaml(&format!("- name: A\n  versionedSpecs: &specs\n{SPEC}- name: B\n  versionedSpecs: *specs\n"))
            .unwrap();
    assert_eq!(file.features()[1].specs, file.features()[0].specs);
    assert_eq!(file.features()[1].specs.len(), 1);
}

#[test]
fn yaml_errors_are_located() {
    check_yaml("a: b\n", "1:1: expected a sequence of features, found a mapping");
    check_yaml(
        "- name: A\n  versionedSpec: []\n",
        "2:3: unknown key `versionedSpec`, expected one of `name`, `versionedSpecs` (did you mean `versionedSpecs`?)",
    );
    check_yaml("- versionedSpecs: []\n", "1:3: missing key `name`");
    check_yaml("- name: A\n", "1:9: missing key `versionedSpecs` in feature `A`");
    check_yaml(
        "- name: A\n  versionedSpecs:\n  - default: maybe\n    lockToDefault: false\n    preRelease: Alpha\n    version: \"1.30\"\n",
        "3:14: expected a boolean for `default`, found `maybe`",
    );
    check_yaml(
        "- name: A\n  versionedSpecs:\n  - default: \"false\"\n    lockToDefault: false\n    preRelease: Alpha\n    version: \"1.30\"\n",
        "3:14: expected a boolean for `default`, found `false`",
    );
    check_yaml(
        "- name: A\n  versionedSpecs:\n  - default: false\n    lockToDefault: false\n    preRelease: alpha\n    version: \"1.30\"\n",
        "5:17: unknown preRelease `alpha`, expected one of `Alpha`, `Beta`, `GA`, `Deprecated`",
    );
    check_yaml(
        "- name: A\n  versionedSpecs:\n  - default: false\n    lockToDefault: false\n    preRelease: Alpha\n    version: \"1.x\"\n",
        "6:14: invalid version \"1.x\": version components must be non-negative integers",
    );
    check_yaml(
        "- name: A\n  versionedSpecs:\n  - default: false\n    preRelease: Alpha\n    version: \"1.30\"\n",
        "3:5: missing key `lockToDefault`",
    );
    check_yaml(
        "- name: A\n  versionedSpecs:\n  - default: false\n    default: true\n    lockToDefault: false\n    preRelease: Alpha\n",
        "4:5: duplicate key `default`",
    );
    check_yaml(
        &format!("- name: A\n  versionedSpecs:\n{SPEC}- name: A\n  versionedSpecs:\n{SPEC}"),
        "7:9: duplicate feature `A` (first declared on line 1)",
    );
    check_yaml("- name: [x]\n  versionedSpecs: []\n", "1:9: expected a feature name, found a sequence");
    check_yaml("- name: A\n  versionedSpecs: {}\n", "2:19: expected a sequence of specs, found a mapping");
    check_yaml("[]\n---\n[]\n", "3:1: expected a single YAML document");
    let err = parse_k8s_yaml("- name: A\n  versionedSpecs: [\n").unwrap_err();
    assert!(err[0].message.starts_with("invalid YAML: "), "{:?}", err);
}

#[test]
fn yaml_collects_every_error() {
    check_yaml(
        "- name: A\n  versionedSpecs:\n  - default: x\n    lockToDefault: y\n    preRelease: Alpha\n- name: B\n  extra: 1\n  versionedSpecs: []\n",
        "
3:14: expected a boolean for `default`, found `x`
4:20: expected a boolean for `lockToDefault`, found `y`
7:3: unknown key `extra`, expected one of `name`, `versionedSpecs`",
    );
}

#[test]
fn missing_and_empty_versions_are_left_to_validation() {
    let file = parse_k8s_yaml(
        "- name: A\n  versionedSpecs:\n  - default: false\n    lockToDefault: false\n    preRelease: Alpha\n  - default: true\n    lockToDefault: false\n    preRelease: Beta\n    version: \"\"\n",
    )
    .unwrap();
    assert_eq!(file.features()[0].specs[0].version, None);
    assert_eq!(file.features()[0].specs[1].version, None);
    let problems = kompat_engine::validate(file.features()).problems;
    assert_eq!(problems[0].message, "feature \"A\" did not provide a version");
}

#[test]
fn toml_errors_are_located() {
    check_toml("", "ok 0");
    check_toml("[[feature]]\nname = \"A\"\nspecs = []\n", "ok 1");
    check_toml("[[feature]]\nname = \"A\"\nspec = []\n", "3:1: unknown key `spec`, expected one of `name`, `description`, `dependencies`, `ratchet`, `specs` (did you mean `specs`?)");
    check_toml("[[feature]]\nspecs = []\n", "1:1: missing key `name`");
    check_toml(
        "[[feature]]\nname = \"A\"\nspecs = [{ version = \"1.30\", stage = \"alpha\", default = false }]\n",
        "3:38: unknown stage `alpha`, expected one of `Alpha`, `Beta`, `GA`, `Deprecated` (did you mean `Alpha`?)",
    );
    check_toml(
        "[[feature]]\nname = \"A\"\nspecs = [{ version = \"1.30\", stage = \"Alpha\", default = \"no\" }]\n",
        "3:57: invalid type: string \"no\", expected a boolean",
    );
    check_toml(
        "[[feature]]\nname = \"A\"\nspecs = [{ version = \"1.30\", stage = \"Alpha\", default = false, lockTodefault = true }]\n",
        "3:64: unknown key `lockTodefault`, expected one of `version`, `stage`, `default`, `lockToDefault`, `minCompatibilityVersion` (did you mean `lockToDefault`?)",
    );
    check_toml(
        "[[feature]]\nname = \"A\"\nspecs = []\n\n[[feature]]\nname = \"A\"\nspecs = []\n",
        "6:8: duplicate feature `A` (first declared on line 2)",
    );
    check_toml(
        "[[feature]]\nname = \"A\"\nratchet = { tolerated_since = \"x\" }\n",
        "3:31: invalid version \"x\": version components must be non-negative integers",
    );
    check_toml(
        "[unknown]\n",
        "1:2: unknown key `unknown`, expected one of `feature`, `api`, `groups`, `storage_overrides`, `stored_before_written`",
    );
    check_toml("[[feature]\n", "1:11: unclosed array table, expected `]`");
    check_toml("feature = 3\n", "1:11: `feature` must be an array of tables (`[[feature]]`)");
}

/// One parse of the whole file reports every error: of each feature entry and
/// each of its specs, of `[[stored_before_written]]`, of the API half and of
/// unknown keys.
#[test]
fn toml_reports_every_error() {
    check_toml(
        "extra = 1\n\n[[feature]]\nnme = \"A\"\n\n[[feature]]\nname = \"B\"\nspecs = [{ stage = \"Beta\", default = 1 },\n  { stage = \"beta\", default = true }]\n\n\
         [[stored_before_written]]\nname = \"x\"\nreadable_since = \"1\"\nwritten_since = \"1.30\"\n\n\
         [[api]]\ngroup = \"g\"\nversion = \"v1\"\nkind = \"K\"\nresource = \"ks\"\nintroduced = 1\n",
        "
1:1: unknown key `extra`, expected one of `feature`, `api`, `groups`, `storage_overrides`, `stored_before_written`
4:1: unknown key `nme`, expected one of `name`, `description`, `dependencies`, `ratchet`, `specs` (did you mean `name`?)
8:38: invalid type: integer `1`, expected a boolean
9:13: unknown stage `beta`, expected one of `Alpha`, `Beta`, `GA`, `Deprecated` (did you mean `Beta`?)
13:18: invalid version \"1\": expected MAJOR.MINOR
21:14: `introduced` must be a string, not integer",
    );
}

/// `span_of` points at the text of the field a problem is about.
#[test]
fn spans_point_at_fields() {
    let yaml = "- name: Feat\n  versionedSpecs:\n  - default: false\n    lockToDefault: false\n    preRelease: Beta\n    version: \"1.31\"\n    minCompatibilityVersion: \"1.30\"\n";
    let toml = "[[feature]]\nname = \"Feat\"\ndependencies = [\"Other\"]\nspecs = [\n  { version = \"1.31\", stage = \"Beta\", default = false, minCompatibilityVersion = \"1.30\" },\n]\n";
    let from_yaml = parse_k8s_yaml(yaml).unwrap();
    let from_toml = parse_toml(toml).unwrap().features;
    let text_of = |file: &FeatureFile, text: &'static str, spec: Option<usize>, field: Field| {
        let span = file.span_of(0, spec, field).expect("span");
        text[span.start..span.end].to_owned()
    };
    let cases = [
        (Field::Feature, None, "Feat", "\"Feat\""),
        (Field::Version, Some(0), "\"1.31\"", "\"1.31\""),
        (Field::Stage, Some(0), "Beta", "\"Beta\""),
        (Field::Default, Some(0), "false", "false"),
        (Field::MinCompatibilityVersion, Some(0), "\"1.30\"", "\"1.30\""),
    ];
    for (field, spec, in_yaml, in_toml) in cases {
        assert_eq!(text_of(&from_yaml, yaml, spec, field), in_yaml, "{field:?} in YAML");
        assert_eq!(text_of(&from_toml, toml, spec, field), in_toml, "{field:?} in TOML");
    }
    assert_eq!(text_of(&from_toml, toml, None, Field::Dependency(0)), "\"Other\"");
    // A field that is not written falls back to its spec.
    let spec_text = text_of(&from_toml, toml, Some(0), Field::LockToDefault);
    assert!(spec_text.starts_with("{ version"), "{spec_text}");
}

#[test]
fn toml_round_trip() {
    let toml = r#"
[[feature]]
name = "Full"
description = "Every \"field\" set.\nTwo lines."
dependencies = ["Other", "Third"]
ratchet = { tolerated_since = "1.36" }
specs = [
  { version = "1.36", stage = "Beta", default = false },
  { version = "1.36", stage = "Beta", default = true, minCompatibilityVersion = "1.36" },
  { version = "1.38", stage = "GA", default = true, lockToDefault = true },
]

[[feature]]
name = "Bare"
specs = [{ stage = "Alpha", default = false }]

[[feature]]
name = "Empty"
specs = []
"#;
    let first = parse_toml(toml).unwrap().features.into_features();
    let rendered = render_toml(&first);
    let second = parse_toml(&rendered).unwrap().features.into_features();
    assert_eq!(first, second);
    assert_eq!(render_toml(&second), rendered, "rendering is canonical");
    // Through the Kubernetes YAML: the fields it has survive.
    let yaml = render_k8s_yaml(&first);
    let back = parse_k8s_yaml(&yaml).unwrap().into_features();
    assert_eq!(render_k8s_yaml(&back), yaml);
    assert_eq!(back.iter().find(|f| f.name == "Full").unwrap().specs, first[0].specs);
}

#[test]
fn empty_set_renders_like_goyaml() {
    assert!(render_k8s_yaml(&[]).ends_with("\n\n[]\n"));
    assert_eq!(parse_k8s_yaml(&render_k8s_yaml(&[])).unwrap().features().len(), 0);
}

/// Each declaration comes with its own spans: iterating pairs them, and the
/// name span of each covers that declaration's name.
#[test]
fn declarations_and_spans_stay_paired() {
    let yaml = format!("- name: Alpha\n  versionedSpecs:\n{SPEC}- name: Beta\n  versionedSpecs: []\n");
    let toml = "[[feature]]\nname = \"Alpha\"\nspecs = []\n\n[[feature]]\nname = \"Beta\"\nspecs = []\n";
    let files = [(yaml.as_str(), parse_k8s_yaml(&yaml)), (toml, parse_toml(toml).map(|f| f.features))];
    for (text, file) in files {
        let file = file.unwrap_or_else(|errors| panic!("{}", located(text, &errors)));
        let named: Vec<(&str, &str)> =
            file.iter().map(|(decl, spans)| (decl.name.as_str(), &text[spans.name.start..spans.name.end])).collect();
        assert_eq!(named.len(), file.len());
        for (name, written) in named {
            assert_eq!(written.trim_matches('"'), name, "{text}");
        }
        assert_eq!(file.spans(1).map(|s| s.name), file.iter().nth(1).map(|(_, s)| s.name));
        assert!(file.spans(2).is_none());
    }
}

#[test]
fn merge_keys_in_a_feature_list() {
    let text = include_str!("../../../../fixtures/hostile/merge-keys.features.yaml");
    let merged = parse_k8s_yaml(text).unwrap_or_else(|errors| panic!("{}", located(text, &errors)));
    let expanded = "- name: SharedSpecs
  versionedSpecs:
  - {default: false, lockToDefault: false, preRelease: Alpha, version: \"1.30\"}
  - {default: true, lockToDefault: false, preRelease: Beta, version: \"1.31\"}
  - {default: true, lockToDefault: false, preRelease: GA, version: \"1.32\"}
";
    let plain = parse_k8s_yaml(expanded).unwrap_or_else(|errors| panic!("{}", located(expanded, &errors)));
    assert_eq!(merged.features(), plain.features());
    // A merged field is located where it is written: the anchored spec.
    let span = merged.span_of(0, Some(2), Field::LockToDefault).map(|s| &text[s.start..s.end]);
    let first = merged.span_of(0, Some(0), Field::LockToDefault).map(|s| &text[s.start..s.end]);
    assert_eq!(span, first);
    assert_eq!(span, Some("false"));
}
