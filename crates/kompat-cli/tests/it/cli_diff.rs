//! `kompat diff` end to end: the changes between two versions of small
//! declarations, landmarks of Kubernetes' own data, the output formats and
//! the errors.

use crate::common::{dir_with, kompat_in};

/// Runs kompat in a directory holding `files`; checks the exit code and
/// stdout (on success) or stderr (on failure).
#[track_caller]
fn check(files: &[(&str, &str)], args: &[&str], code: i32, expected: &str) {
    let dir = dir_with(files);
    let (got_code, stdout, stderr) = kompat_in(dir.path(), args);
    assert_eq!(got_code, code, "args {args:?}\nstderr:\n{stderr}");
    let got = if got_code == 0 { stdout } else { stderr };
    assert_eq!(got.trim_end(), expected.trim(), "args {args:?}");
}

/// `kompat diff FROM TO --decls d.toml` on `decls`, human output.
#[track_caller]
fn check_decls(decls: &str, from: &str, to: &str, expected: &str) {
    check(&[("d.toml", decls)], &["diff", from, to, "--decls", "d.toml"], 0, expected);
}

const ZETA: &str = r#"
[[feature]]
name = "Zeta"
specs = [
  { version = "1.2", stage = "Alpha", default = false },
  { version = "1.4", stage = "Beta", default = true },
  { version = "1.6", stage = "GA", default = true, lockToDefault = true },
]
"#;

const OLD: &str = r#"
[[feature]]
name = "Old"
specs = [{ version = "1.0", stage = "Beta", default = true }, { version = "1.3", stage = "Deprecated", default = false }]
"#;

const WIDGETS: &str = r#"
[[api]]
group = "widgets.example.com"
version = "v1beta1"
kind = "Widget"
resource = "widgets"
introduced = "1.1"
deprecated = "1.3"
removed = "1.5"
replacement = "widgets.example.com/v1/Widget"
enabled_by_default = true

[[api]]
group = "widgets.example.com"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.3"
"#;

#[test]
fn declared_gates() {
    check_decls(ZETA, "1.0", "1.1", "Changes from 1.0 to 1.1\n\nNo changes.");
    check_decls(
        ZETA,
        "1.1",
        "1.2",
        "
Changes from 1.1 to 1.2

New feature gates:
  1.2  Zeta  Alpha, off by default",
    );
    check_decls(
        ZETA,
        "1.3",
        "1.4",
        "
Changes from 1.3 to 1.4

Feature gates now on by default:
  1.4  Zeta  Beta, on by default

Feature gates changing stage:
  1.4  Zeta  Alpha to Beta, on by default",
    );
    check_decls(
        ZETA,
        "1.5",
        "1.7",
        "
Changes from 1.5 to 1.7

Feature gates locked to their default:
  1.6  Zeta  GA, locked to true

Feature gates changing stage:
  1.6  Zeta  Beta to GA, locked to true",
    );
    check_decls(
        OLD,
        "1.2",
        "1.3",
        "
Changes from 1.2 to 1.3

Feature gates now off by default:
  1.3  Old  Deprecated, off by default

Feature gates deprecated:
  1.3  Old  Deprecated, off by default",
    );
    // Every step between FROM and TO, each at its release.
    check_decls(
        &format!("{ZETA}{OLD}"),
        "1.1",
        "1.6",
        "
Changes from 1.1 to 1.6

Feature gates now on by default:
  1.4  Zeta  Beta, on by default

Feature gates now off by default:
  1.3  Old  Deprecated, off by default

Feature gates locked to their default:
  1.6  Zeta  GA, locked to true

Feature gates deprecated:
  1.3  Old  Deprecated, off by default

Feature gates changing stage:
  1.4  Zeta  Alpha to Beta, on by default
  1.6  Zeta  Beta to GA, locked to true

New feature gates:
  1.2  Zeta  Alpha, off by default",
    );
}

#[test]
fn declared_apis() {
    check_decls(
        WIDGETS,
        "1.2",
        "1.3",
        "
Changes from 1.2 to 1.3

APIs deprecated:
  1.3  widgets.example.com/v1beta1/Widget  use widgets.example.com/v1/Widget

New APIs:
  1.3  widgets.example.com/v1/Widget",
    );
    check_decls(
        WIDGETS,
        "1.4",
        "1.6",
        "
Changes from 1.4 to 1.6

APIs no longer served:
  1.5  widgets.example.com/v1beta1/Widget  use widgets.example.com/v1/Widget",
    );
    check_decls(WIDGETS, "1.5", "1.9", "Changes from 1.5 to 1.9\n\nNo changes.");
}

#[test]
fn markdown_and_json() {
    check(
        &[("d.toml", &format!("{ZETA}{WIDGETS}"))],
        &["diff", "1.3", "1.5", "--decls", "d.toml", "--format", "markdown"],
        0,
        "
# Changes from 1.3 to 1.5

## Feature gates now on by default

- `Zeta` (1.4): Beta, on by default

## Feature gates changing stage

- `Zeta` (1.4): Alpha to Beta, on by default

## APIs no longer served

- `widgets.example.com/v1beta1/Widget` (1.5): use `widgets.example.com/v1/Widget`",
    );
    check(
        &[("d.toml", &format!("{ZETA}{WIDGETS}"))],
        &["diff", "1.1", "1.2", "--decls", "d.toml", "--format", "json"],
        0,
        r#"
{
  "from": "1.1",
  "to": "1.2",
  "source": "declarations",
  "gates": [
    {
      "name": "Zeta",
      "change": "added",
      "release": "1.2",
      "before": null,
      "after": {
        "stage": "Alpha",
        "default": false,
        "locked": false
      }
    }
  ],
  "apis": [],
  "notes": []
}"#,
    );
}

#[test]
fn bad_input_exits_2() {
    check(&[], &["diff", "1.25", "1.25"], 2, "error: FROM (1.25) must be older than TO (1.25)");
    check(&[], &["diff", "1.26", "1.25"], 2, "error: FROM (1.26) must be older than TO (1.25)");
    check(&[], &["diff", "1.30", "2.1"], 2, "error: FROM (1.30) and TO (2.1) must have the same major version");
    check(
        &[],
        &["diff", "one", "1.25"],
        2,
        "error: invalid FROM version `one`: invalid version \"one\": version components must be non-negative integers",
    );
    let (code, _, stderr) = kompat_in(dir_with(&[]).path(), &["diff", "1.1", "1.2", "--decls", "missing.toml"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("missing.toml"), "{stderr}");
}

/// `kompat diff FROM TO --format json` on Kubernetes' data.
fn kubernetes_json(from: &str, to: &str) -> serde_json::Value {
    let (code, stdout, stderr) = kompat_in(dir_with(&[]).path(), &["diff", from, to, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).expect("JSON")
}

/// The `change` and `release` of every entry of `list` whose `key` is `name`.
fn entries(diff: &serde_json::Value, list: &str, key: &str, name: &str) -> Vec<(String, String)> {
    diff[list]
        .as_array()
        .expect("array")
        .iter()
        .filter(|e| e[key] == name)
        .map(|e| (e["change"].as_str().unwrap_or("").to_owned(), e["release"].as_str().unwrap_or("").to_owned()))
        .collect()
}

fn pair(change: &str, release: &str) -> (String, String) {
    (change.to_owned(), release.to_owned())
}

#[test]
fn kubernetes_landmarks() {
    let diff = kubernetes_json("1.24", "1.25");
    assert_eq!(diff["source"], "kubernetes");
    let removed_apis: Vec<String> = diff["apis"]
        .as_array()
        .expect("apis")
        .iter()
        .filter(|a| a["change"] == "removed")
        .map(|a| {
            format!(
                "{}/{}/{}",
                a["group"].as_str().unwrap_or(""),
                a["version"].as_str().unwrap_or(""),
                a["kind"].as_str().unwrap_or("")
            )
        })
        .collect();
    for api in ["policy/v1beta1/PodSecurityPolicy", "batch/v1beta1/CronJob"] {
        assert!(removed_apis.iter().any(|a| a == api), "{api} not removed in 1.25: {removed_apis:?}");
    }
    // Before the earliest release of the removal table, a note says so.
    assert!(diff["notes"].as_array().is_some_and(|n| !n.is_empty()), "{}", diff["notes"]);

    // 1.26 removed flowcontrol.apiserver.k8s.io/v1beta1 and autoscaling/v2beta2.
    let diff = kubernetes_json("1.25", "1.26");
    let hpa = diff["apis"].as_array().expect("apis").iter().any(|a| {
        a["group"] == "autoscaling" && a["version"] == "v2beta2" && a["change"] == "removed" && a["release"] == "1.26"
    });
    assert!(hpa, "autoscaling/v2beta2 not removed in 1.26");

    // A gate that went GA and locked, and gates removed, in 1.33.
    let diff = kubernetes_json("1.32", "1.33");
    assert_eq!(
        entries(&diff, "gates", "name", "CSIMigrationPortworx"),
        [pair("locked", "1.33"), pair("stage-changed", "1.33")]
    );
    assert_eq!(entries(&diff, "gates", "name", "APIListChunking"), [pair("removed", "1.33")]);
    assert_eq!(diff["notes"], serde_json::json!([]));

    // Over several releases, each change at its own release.
    let diff = kubernetes_json("1.30", "1.34");
    assert!(entries(&diff, "gates", "name", "CSIMigrationPortworx").contains(&pair("locked", "1.33")));
    assert!(entries(&diff, "gates", "name", "APIListChunking").contains(&pair("removed", "1.33")));
}

#[test]
fn past_the_newest_release_a_note_says_removals_are_unknown() {
    let diff = kubernetes_json("1.36", "1.40");
    let notes = diff["notes"].as_array().expect("notes");
    assert_eq!(notes.len(), 1, "{notes:?}");
    let note = notes[0].as_str().unwrap_or("");
    assert!(note.ends_with("is the newest release kompat knows: removals after it are not known"), "{note}");
    let (code, stdout, _) = kompat_in(dir_with(&[]).path(), &["diff", "1.36", "1.40"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("\nnote: Kubernetes "), "{stdout}");
}

#[test]
fn kubernetes_1_24_to_1_25() {
    let dir = dir_with(&[]);
    let (code, human, stderr) = kompat_in(dir.path(), &["diff", "1.24", "1.25"]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("kubernetes_1_24_to_1_25_human", human);
    let (code, markdown, stderr) = kompat_in(dir.path(), &["diff", "v1.24", "1.25", "--format", "markdown"]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("kubernetes_1_24_to_1_25_markdown", markdown);
}

#[test]
fn output_file_and_svg() {
    let dir = dir_with(&[("d.toml", ZETA)]);
    let (code, stdout, stderr) =
        kompat_in(dir.path(), &["diff", "1.1", "1.6", "--decls", "d.toml", "--format", "svg", "--output", "out.svg"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "");
    let svg = std::fs::read_to_string(dir.path().join("out.svg")).expect("out.svg written");
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains(">Zeta<"), "{svg}");
    assert!(svg.contains("Feature gates that changed from 1.1 to 1.6"), "{svg}");
}
