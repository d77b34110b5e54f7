//! The SVG pictures: snapshots of the bytes for small inputs, what the cells
//! say (stage, default, lock, storage), determinism, and every picture we
//! produce (these, and the demo's checked-in ones) parsed as XML with the
//! accessibility attributes in place.

use std::path::Path;

use crate::common::{feature, model, provenance};
use kompat_engine::api::{ApiConfig, ApiDecl, ApiSet};
use kompat_gen::svg::{
    api_timeline, gate_timeline, render_timeline, Band, Cell, GateTimeline, LegendEntry, Row, RowGroup, Timeline, Tone,
};
use kompat_gen::{render_apis_svg, render_gates_svg, Model};
use kompat_runtime::{Version, WindowPolicy};

fn v(text: &str) -> Version {
    text.parse().expect("version")
}

fn small_gates() -> Model {
    let features = [
        feature("WidgetAutoscaling", &["1.33 Alpha false", "1.35 Beta true", "1.37 GA true locked"]),
        feature("LegacyPolling", &["1.20 GA true", "1.34 Deprecated false"]),
    ];
    model(&features, "1.37", WindowPolicy::DEFAULT)
}

fn api(group: &str, version: &str, kind: &str, resource: &str, introduced: &str) -> ApiDecl {
    ApiDecl {
        group: group.to_owned(),
        version: version.to_owned(),
        kind: kind.to_owned(),
        resource: resource.to_owned(),
        introduced: Version::parse(introduced).ok(),
        ..ApiDecl::default()
    }
}

fn small_apis() -> ApiConfig {
    ApiConfig {
        apis: vec![
            ApiDecl {
                enabled_by_default: Some(true),
                ..api("widgets.example.io", "v1beta1", "Widget", "widgets", "1.33")
            },
            api("widgets.example.io", "v1", "Widget", "widgets", "1.35"),
        ],
        ..ApiConfig::default()
    }
}

fn escaping_timeline() -> Timeline {
    Timeline {
        id: "t".to_owned(),
        title: "A <title> & \"quotes\"".to_owned(),
        description: "Rows: 'a' & <b>".to_owned(),
        comments: vec!["header -- with dashes".to_owned()],
        columns: vec!["x<1".to_owned(), "y&2".to_owned()],
        band: Some(Band { first: 1, last: 1, caption: "band & caption".to_owned() }),
        marked_column: Some(0),
        groups: vec![RowGroup {
            heading: Some("group <g>".to_owned()),
            rows: vec![Row {
                label: "row & \"label\"".to_owned(),
                cells: vec![
                    Cell::new(Tone::Alpha, "a<b").note("n&m").dashed(true),
                    Cell::new(Tone::Unsafe, "'q'").strong(true),
                ],
            }],
        }],
        legend: vec![LegendEntry { sample: Cell::new(Tone::Ga, "ok"), meaning: "fine & dandy".to_owned() }],
    }
}

#[test]
fn gate_timeline_snapshot() {
    insta::assert_snapshot!("gates_small", render_gates_svg(&small_gates(), &provenance()));
}

#[test]
fn api_timeline_snapshot() {
    let model = small_gates().with_apis(&small_apis()).expect("valid APIs");
    let svg = render_apis_svg(&model, &provenance()).expect("the model has APIs");
    insta::assert_snapshot!("apis_small", svg);
}

#[test]
fn escaped_timeline_snapshot() {
    insta::assert_snapshot!("escaping", render_timeline(&escaping_timeline()));
}

#[test]
fn no_api_picture_without_apis() {
    assert_eq!(render_apis_svg(&small_gates(), &provenance()), None);
}

/// The text of every cell of `row`, `text/note`, by column heading.
fn row_cells(timeline: &Timeline, row: &str) -> Vec<String> {
    let found = timeline.groups.iter().flat_map(|g| &g.rows).find(|r| r.label == row);
    let Some(found) = found else { panic!("no row {row}") };
    timeline
        .columns
        .iter()
        .zip(&found.cells)
        .map(|(column, cell)| {
            let dashed = if cell.dashed { " dashed" } else { "" };
            match (cell.text.as_str(), cell.note.as_str()) {
                ("", _) => format!("{column}: -"),
                (text, "") => format!("{column}: {text}{dashed}"),
                (text, note) => format!("{column}: {text}/{note}{dashed}"),
            }
        })
        .collect()
}

#[track_caller]
fn check_gate(specs: &[&str], binary: &str, expected: &[&str]) {
    let decl = feature("F", specs);
    let model = model(std::slice::from_ref(&decl), binary, WindowPolicy::DEFAULT);
    let f = &model.features[0];
    let gates = [(f.name.as_str(), f.specs.as_slice())];
    let timeline =
        gate_timeline(&GateTimeline { gates: &gates, binary: v(binary), floor: model.floor(), marked: v(binary) });
    assert_eq!(row_cells(&timeline, "F"), expected, "specs {specs:?}");
}

#[test]
fn gate_cells_follow_the_specs() {
    check_gate(
        &["1.35 Alpha false", "1.36 Beta true"],
        "1.37",
        &["1.34: -", "1.35: α off dashed", "1.36: β on", "1.37: β on"],
    );
    check_gate(
        &["1.33 Beta false", "1.35 GA true locked"],
        "1.37",
        &["1.33: β off dashed", "1.34: β off dashed", "1.35: GA on/locked", "1.36: GA on/locked", "1.37: GA on/locked"],
    );
    // Specs past the binary version widen the picture.
    check_gate(
        &["1.36 Alpha false", "1.38 Beta true"],
        "1.37",
        &["1.34: -", "1.35: -", "1.36: α off dashed", "1.37: α off dashed", "1.38: β on"],
    );
    // A min-compatibility spec applies from the release after it (min-compatibility one below).
    check_gate(
        &["1.36 Beta false", "1.36 Beta true mc=1.36"],
        "1.37",
        &["1.34: -", "1.35: -", "1.36: β off dashed", "1.37: β on"],
    );
    // Old releases are summed up in one column.
    check_gate(
        &["1.10 GA true", "1.33 Deprecated false"],
        "1.37",
        &[
            "≤1.28: GA on",
            "1.29: GA on",
            "1.30: GA on",
            "1.31: GA on",
            "1.32: GA on",
            "1.33: dep off dashed",
            "1.34: dep off dashed",
            "1.35: dep off dashed",
            "1.36: dep off dashed",
            "1.37: dep off dashed",
        ],
    );
}

#[test]
fn gate_band_is_the_emulation_window() {
    let model = small_gates();
    let gates: Vec<(&str, &[kompat_runtime::FeatureSpec])> =
        model.features.iter().map(|f| (f.name.as_str(), f.specs.as_slice())).collect();
    let timeline =
        gate_timeline(&GateTimeline { gates: &gates, binary: v("1.37"), floor: v("1.34"), marked: v("1.36") });
    let band = timeline.band.as_ref().expect("band");
    assert_eq!((timeline.columns[band.first].as_str(), timeline.columns[band.last].as_str()), ("1.34", "1.37"));
    assert_eq!(timeline.marked_column.map(|c| timeline.columns[c].as_str()), Some("1.36"));
    // Rows in byte order of the names, whatever the input order.
    let labels: Vec<&str> = timeline.groups[0].rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["LegacyPolling", "WidgetAutoscaling"]);
    let reversed: Vec<_> = gates.iter().rev().copied().collect();
    let again =
        gate_timeline(&GateTimeline { gates: &reversed, binary: v("1.37"), floor: v("1.34"), marked: v("1.36") });
    assert_eq!(render_timeline(&again), render_timeline(&timeline));
}

#[test]
fn api_cells_say_served_deprecated_removed_and_storage() {
    let set = ApiSet::build(&small_apis()).expect("valid APIs");
    let timeline = api_timeline(&set, v("1.37"), v("1.34"));
    // v1beta1 is deprecated at 1.36 and removed at 1.39 (prerelease-lifecycle-gen's
    // defaults); storage moves to v1 once min-compatibility reads it: 1.36.
    assert_eq!(
        row_cells(&timeline, "v1beta1 Widget"),
        [
            "1.33: served/storage",
            "1.34: served/storage",
            "1.35: served/storage",
            "1.36: deprec.",
            "1.37: deprec.",
            "1.38: deprec.",
            "1.39: removed",
        ]
    );
    assert_eq!(
        row_cells(&timeline, "v1 Widget"),
        [
            "1.33: -",
            "1.34: -",
            "1.35: served",
            "1.36: served/storage",
            "1.37: served/storage",
            "1.38: served/storage",
            "1.39: served/storage"
        ]
    );
    assert_eq!(timeline.groups[0].heading.as_deref(), Some("widgets.widgets.example.io"));
    // Rows oldest first, whatever the declaration order.
    let labels: Vec<&str> = timeline.groups[0].rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["v1beta1 Widget", "v1 Widget"]);
    let mut reversed = small_apis();
    reversed.apis.reverse();
    let again = api_timeline(&ApiSet::build(&reversed).expect("valid APIs"), v("1.37"), v("1.34"));
    assert_eq!(render_timeline(&again), render_timeline(&timeline));
}

/// Parses `svg` as XML and checks the accessible structure: an `<svg>` root
/// with `role="img"`, `aria-labelledby` naming its `<title>` and `<desc>`,
/// both non-empty. Returns the text of every `<text>` element.
fn check_svg(name: &str, svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|err| panic!("{name} is not XML: {err}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{name}");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"), "{name}");
    assert_eq!(root.attribute("role"), Some("img"), "{name}");
    let labelled = root.attribute("aria-labelledby").unwrap_or_else(|| panic!("{name}: no aria-labelledby"));
    let ids: Vec<&str> = labelled.split(' ').collect();
    assert_eq!(ids.len(), 2, "{name}");
    for (id, tag) in ids.iter().zip(["title", "desc"]) {
        let node = doc.descendants().find(|n| n.attribute("id") == Some(id));
        let node = node.unwrap_or_else(|| panic!("{name}: no element {id}"));
        assert_eq!(node.tag_name().name(), tag, "{name}");
        assert!(node.text().is_some_and(|t| !t.trim().is_empty()), "{name}: empty <{tag}>");
    }
    for attr in ["width", "height"] {
        let value = root.attribute(attr).unwrap_or_default();
        assert!(value.parse::<u32>().is_ok_and(|n| n > 0), "{name}: {attr}={value:?}");
    }
    doc.descendants()
        .filter(|n| n.tag_name().name() == "text")
        .map(|n| n.text().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn every_picture_is_accessible_xml() {
    let small = small_gates().with_apis(&small_apis()).expect("valid APIs");
    let mut pictures = vec![
        ("gates", render_gates_svg(&small, &provenance())),
        ("apis", render_apis_svg(&small, &provenance()).unwrap_or_default()),
        ("escaping", render_timeline(&escaping_timeline())),
        ("empty", render_timeline(&Timeline::default())),
    ];
    let generated = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/generated");
    let mut names: Vec<_> = std::fs::read_dir(&generated)
        .expect("fixtures/generated")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "the demo has a gate and an API timeline: {names:?}");
    for path in names {
        let text = std::fs::read_to_string(&path).expect("svg");
        assert!(text.starts_with("<!-- @generated by "), "{}", path.display());
        pictures.push(("demo", text));
    }
    for (name, svg) in &pictures {
        check_svg(name, svg);
    }
    // Text survives escaping.
    let texts = check_svg("escaping", &render_timeline(&escaping_timeline()));
    for expected in
        ["A <title> & \"quotes\"", "x<1", "y&2", "row & \"label\"", "a<b", "n&m", "'q'", "group <g>", "fine & dandy"]
    {
        assert!(texts.iter().any(|t| t == expected), "{expected:?} not among {texts:?}");
    }
    // Every gate of the small model is labelled.
    let texts = check_svg("gates", &pictures[0].1);
    for gate in ["WidgetAutoscaling", "LegacyPolling", "emulation window 1.34–1.37"] {
        assert!(texts.iter().any(|t| t == gate), "{gate} not labelled");
    }
}

#[test]
fn pictures_are_deterministic() {
    let a = small_gates().with_apis(&small_apis()).expect("valid APIs");
    let b = small_gates().with_apis(&small_apis()).expect("valid APIs");
    assert_eq!(render_gates_svg(&a, &provenance()), render_gates_svg(&b, &provenance()));
    assert_eq!(render_apis_svg(&a, &provenance()), render_apis_svg(&b, &provenance()));
    // No float ever printed: every number in an attribute is an integer.
    let svg = render_gates_svg(&a, &provenance());
    let doc = roxmltree::Document::parse(&svg).expect("xml");
    for node in doc.descendants() {
        for attr in node.attributes() {
            if ["x", "y", "x1", "y1", "x2", "y2", "width", "height", "rx"].contains(&attr.name()) {
                assert!(attr.value().parse::<i64>().is_ok(), "{}={}", attr.name(), attr.value());
            }
        }
    }
}
