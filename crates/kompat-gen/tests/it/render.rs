//! The pure renderers: Markdown rows, the resolved tables behind the Rust and
//! JSON outputs, the JSON round trip, and determinism of every output.

use crate::common::{demo_features, feature, model, provenance};
use kompat_engine::{FeatureDecl, SpecDecl};
use kompat_gen::{render_json, render_markdown, render_rust, Model};
use kompat_runtime::{Stage, VersionLit, WindowPolicy};

/// Renders one feature in the Markdown table and compares its row.
#[track_caller]
fn check_row(specs: &[&str], expected: &str) {
    let features = [feature("F", specs)];
    let text = render_markdown(&model(&features, "1.37", WindowPolicy::DEFAULT), &provenance());
    let row = text.lines().find(|l| l.starts_with("| F |")).unwrap_or_default();
    assert_eq!(row, expected, "specs {specs:?}");
}

#[test]
fn markdown_rows() {
    check_row(&["1.35 Alpha false"], "| F |  |  | 1.35– |  |  |  |  |");
    check_row(
        &["1.31 Alpha false", "1.33 Beta true", "1.35 GA true locked"],
        "| F | :ballot_box_with_check:&nbsp;1.33+ | :closed_lock_with_key:&nbsp;1.35+ | 1.31–1.32 | 1.33–1.34 | 1.35– |  |  |",
    );
    // Consecutive specs of one stage make one range; a one-version range has no dash.
    check_row(
        &["1.30 Alpha false", "1.31 Beta false", "1.32 Beta true", "1.33 GA true"],
        "| F | :ballot_box_with_check:&nbsp;1.32+ |  | 1.30 | 1.31–1.32 | 1.33– |  |  |",
    );
    // Enabled names the first default-on version, even when later disabled.
    check_row(
        &["1.0 GA true", "1.33 Deprecated true", "1.34 Deprecated false", "1.36 Deprecated false locked"],
        "| F | :ballot_box_with_check:&nbsp;1.0+ | :closed_lock_with_key:&nbsp;1.36+ |  |  | 1.0–1.32 | 1.33– |  |",
    );
    // A min-compatibility spec at the same version stays in its stage.
    check_row(
        &["1.37 Beta false", "1.37 Beta true mc=1.37"],
        "| F | :ballot_box_with_check:&nbsp;1.37+ |  |  | 1.37– |  |  |  |",
    );
}

#[test]
fn markdown_rows_are_in_byte_order_with_dependencies() {
    let mut b = feature("b", &["1.30 Beta true"]);
    b.dependencies = vec!["Z".to_owned(), "A".to_owned()];
    let features = [b, feature("Z", &["1.0 GA true"]), feature("A", &["1.0 GA true"])];
    let text = render_markdown(&model(&features, "1.37", WindowPolicy::DEFAULT), &provenance());
    let names: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("| ")?.split(' ').next()).collect();
    assert_eq!(
        names,
        ["Feature", "A", "Z", "b", "Symbol", ":ballot_box_with_check:", ":closed_lock_with_key:", "1.X–"]
    );
    assert!(text.contains("| b | :ballot_box_with_check:&nbsp;1.30+ |  |  | 1.30– |  |  | A<br>Z |\n"), "{text}");
}

/// Describes each table of a model as `E/MC: name=Stage/default/locked ...`.
#[track_caller]
fn check_tables(features: &[FeatureDecl], binary: &str, window: WindowPolicy, expected: &str) {
    let model = model(features, binary, window);
    let mut got = String::new();
    for table in &model.tables {
        got.push_str(&format!("{}/{}:", table.emulation, table.min_compatibility));
        for (feature, spec) in model.features.iter().zip(&table.specs) {
            got.push_str(&format!(" {}={}/{}/{}", feature.name, spec.stage, spec.default, spec.lock_to_default));
        }
        got.push('\n');
    }
    assert_eq!(got.trim_end(), expected.trim());
}

#[test]
fn tables_per_emulation_and_min_compatibility_step() {
    check_tables(
        &[feature("D", &["1.37 Beta false", "1.37 Beta true mc=1.37"]), feature("A", &["1.35 Alpha false"])],
        "1.37",
        WindowPolicy::KUBERNETES,
        r"
1.34/1.34: A=PreAlpha/false/false D=PreAlpha/false/false
1.35/1.34: A=Alpha/false/false D=PreAlpha/false/false
1.36/1.34: A=Alpha/false/false D=PreAlpha/false/false
1.37/1.34: A=Alpha/false/false D=Beta/false/false
1.37/1.37: A=Alpha/false/false D=Beta/true/false
",
    );
    // A min-compatibility version at or below the floor is always reached: no step.
    check_tables(
        &[feature("D", &["1.31 Beta false", "1.31 Beta true mc=1.31"])],
        "1.33",
        WindowPolicy::KUBERNETES,
        r"
1.31/1.31: D=Beta/true/false
1.32/1.31: D=Beta/true/false
1.33/1.31: D=Beta/true/false
",
    );
    // A step shows only at emulation versions at or above its spec.
    check_tables(
        &[feature("D", &["0.2 Alpha false", "0.3 Beta false", "0.3 Beta true mc=0.3"])],
        "0.4",
        WindowPolicy::DEFAULT,
        r"
0.1/0.1: D=PreAlpha/false/false
0.2/0.1: D=Alpha/false/false
0.3/0.1: D=Beta/false/false
0.3/0.3: D=Beta/true/false
0.4/0.1: D=Beta/false/false
0.4/0.3: D=Beta/true/false
",
    );
}

#[test]
fn invalid_declarations_are_errors() {
    let features = [feature("F", &["1.31 Beta false", "1.30 GA true"])];
    let got = Model::new(&features, kompat_runtime::Version::new(1, 37), WindowPolicy::DEFAULT).map(|_| ());
    assert_eq!(got, Err(vec!["feature \"F\" lists version transitions in decreasing order (1.30 < 1.31)".to_owned()]));
}

/// All three text outputs of a model.
fn render_all(model: &Model) -> [String; 3] {
    [
        render_rust(model, &provenance()).unwrap_or_else(|err| err),
        render_json(model, &provenance()).expect("json"),
        render_markdown(model, &provenance()),
    ]
}

#[test]
fn outputs_are_deterministic() {
    let features = demo_features();
    let first = render_all(&model(&features, "1.37", WindowPolicy::DEFAULT));
    let second = render_all(&model(&features, "1.37", WindowPolicy::DEFAULT));
    assert_eq!(first, second);

    // The order of the declarations, and of a feature's dependencies, does not show.
    let mut reordered: Vec<FeatureDecl> = features.iter().rev().cloned().collect();
    reordered[0].dependencies.reverse();
    // A repeated identical declaration does not show either.
    reordered.push(features[2].clone());
    assert_eq!(render_all(&model(&reordered, "1.37", WindowPolicy::DEFAULT)), first);

    for text in &first {
        assert!(!text.contains('\r'));
        assert!(text.ends_with('\n'));
        assert!(text.contains("@generated"));
        assert!(text.contains("by `kompat gen` from kompat.toml"));
    }
}

#[test]
fn digest_follows_the_inputs() {
    let features = demo_features();
    let base = model(&features, "1.37", WindowPolicy::DEFAULT).digest;
    assert_eq!(base.len(), 64);
    assert_ne!(model(&features, "1.37", WindowPolicy::KUBERNETES).digest, base);
    assert_ne!(model(&features, "1.38", WindowPolicy::DEFAULT).digest, base);
    let mut changed = features.clone();
    changed[0].description = None;
    assert_ne!(model(&changed, "1.37", WindowPolicy::DEFAULT).digest, base);
}

/// Reads the declarations back from the JSON output.
fn decls_from_json(text: &str) -> Vec<FeatureDecl> {
    let doc: serde_json::Value = serde_json::from_str(text).expect("JSON output parses");
    let str_of = |v: &serde_json::Value| v.as_str().map(str::to_owned);
    let version = |v: &serde_json::Value| v.as_str().map(|s| VersionLit::parse(s).expect("version"));
    let features = doc["features"].as_array().cloned().unwrap_or_default();
    features
        .iter()
        .map(|f| FeatureDecl {
            name: str_of(&f["name"]).unwrap_or_default(),
            description: str_of(&f["description"]),
            dependencies: f["dependencies"].as_array().into_iter().flatten().filter_map(str_of).collect(),
            ratchet: f["ratchet"]["tolerated_since"].as_str().map(|v| kompat_runtime::Ratchet {
                tolerated_since: kompat_runtime::Version::parse(v).expect("version"),
            }),
            specs: f["specs"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| SpecDecl {
                    version: version(&s["version"]),
                    stage: s["stage"].as_str().and_then(Stage::from_name).expect("stage"),
                    default: s["default"].as_bool().expect("default"),
                    lock_to_default: s["lockToDefault"].as_bool().expect("lockToDefault"),
                    min_compatibility_version: version(&s["minCompatibilityVersion"]),
                })
                .collect(),
        })
        .collect()
}

#[test]
fn json_round_trip() {
    let features = demo_features();
    let model = model(&features, "1.37", WindowPolicy::DEFAULT);
    let text = render_json(&model, &provenance()).expect("json");
    let mut expected = features.clone();
    expected.sort_by(|a, b| a.name.cmp(&b.name));
    assert_eq!(decls_from_json(&text), expected);

    // The tables in the JSON agree with the model.
    let doc: serde_json::Value = serde_json::from_str(&text).expect("JSON output parses");
    let tables = doc["tables"].as_array().cloned().unwrap_or_default();
    assert_eq!(tables.len(), model.tables.len());
    for (json, table) in tables.iter().zip(&model.tables) {
        assert_eq!(json["emulation"], table.emulation.to_string());
        assert_eq!(json["min_compatibility"], table.min_compatibility.to_string());
        for ((row, feature), spec) in
            json["features"].as_array().into_iter().flatten().zip(&model.features).zip(&table.specs)
        {
            assert_eq!(row["name"], feature.name.as_str());
            assert_eq!(row["stage"], spec.stage.name());
            assert_eq!(row["default"], spec.default);
            assert_eq!(row["locked"], spec.lock_to_default);
        }
    }
}
