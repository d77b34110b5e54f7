//! API declarations in the generated outputs: served group-versions per
//! emulation version and storage versions per (emulation, min-compatibility),
//! checked against `kompat_engine::api`, and a golden Rust file that must
//! compile against the facade crate.

use std::path::Path;

use crate::common::{feature, provenance};
use kompat_engine::api::{ApiConfig, ApiDecl};
use kompat_gen::{check_files, render_json, render_markdown, render_rust, write_files, GeneratedFile, Model};
use kompat_runtime::{Version, WindowPolicy};

#[allow(dead_code)]
mod golden {
    include!("../golden/api_tables.rs");
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

/// Widgets: v1beta1 since 1.33 (enabled by default, as betas were before
/// Kubernetes 1.24), v1 since 1.35; a core Pod at v1.
fn model() -> Model {
    let config = ApiConfig {
        apis: vec![
            api("widgets.example.io", "v1", "Widget", "widgets", "1.35"),
            ApiDecl {
                enabled_by_default: Some(true),
                ..api("widgets.example.io", "v1beta1", "Widget", "widgets", "1.33")
            },
            api("", "v1", "Pod", "pods", "1.0"),
        ],
        ..ApiConfig::default()
    };
    let features = [feature("WidgetStatusV2", &["1.36 Beta false", "1.36 Beta true mc=1.36"])];
    let model = Model::new(&features, Version::new(1, 37), WindowPolicy::DEFAULT).expect("valid features");
    model.with_apis(&config).expect("valid APIs")
}

#[test]
fn served_and_storage_versions() {
    let model = model();
    let apis = model.apis.as_ref().expect("apis");
    let served: Vec<String> = apis
        .served
        .iter()
        .map(|(e, gvs)| format!("{e}: {}", gvs.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")))
        .collect();
    assert_eq!(
        served,
        [
            "1.34: v1 widgets.example.io/v1beta1",
            "1.35: v1 widgets.example.io/v1 widgets.example.io/v1beta1",
            "1.36: v1 widgets.example.io/v1 widgets.example.io/v1beta1",
            "1.37: v1 widgets.example.io/v1 widgets.example.io/v1beta1",
        ]
    );
    let storage: Vec<String> = apis
        .storage
        .iter()
        .map(|t| {
            let widget = t.resources.iter().find(|r| r.resource == "widgets").map(|r| r.encoding_version());
            format!("{}/{}: {}", t.emulation, t.min_compatibility, widget.unwrap_or_default())
        })
        .collect();
    // Rollback safety: v1 is stored only once every peer reads it.
    assert_eq!(
        storage,
        [
            "1.34/1.34: widgets.example.io/v1beta1",
            "1.35/1.34: widgets.example.io/v1beta1",
            "1.35/1.35: widgets.example.io/v1",
            "1.36/1.34: widgets.example.io/v1beta1",
            "1.36/1.35: widgets.example.io/v1",
            "1.36/1.36: widgets.example.io/v1",
            "1.37/1.34: widgets.example.io/v1beta1",
            "1.37/1.35: widgets.example.io/v1",
            "1.37/1.36: widgets.example.io/v1",
            "1.37/1.37: widgets.example.io/v1",
        ]
    );
}

#[test]
fn json_and_markdown_carry_the_apis() {
    let model = model();
    let json: serde_json::Value =
        serde_json::from_str(&render_json(&model, &provenance()).expect("json")).expect("json");
    let first = &json["apis"]["storage"][0]["resources"][0];
    assert_eq!(first["group"], "");
    assert_eq!(first["resource"], "pods");
    assert_eq!(first["storage_version"], "v1");
    assert_eq!(first["hash"], kompat_engine::api::storage_version_hash("", "v1", "Pod").as_str());
    assert_eq!(json["apis"]["served"][0]["group_versions"][1], "widgets.example.io/v1beta1");

    let markdown = render_markdown(&model, &provenance());
    let table = &markdown[markdown.find("# API Lifecycle").unwrap_or(0)..];
    assert_eq!(
        table,
        "# API Lifecycle

| API | Resource | Introduced | Deprecated | Removed | Replacement | Enabled by default |
|-----|----------|------------|------------|---------|-------------|--------------------|
| /v1/Pod | pods | 1.0 |  |  |  | yes |
| widgets.example.io/v1/Widget | widgets | 1.35 |  |  |  | yes |
| widgets.example.io/v1beta1/Widget | widgets | 1.33 | 1.36 | 1.39 |  | yes |
"
    );
}

/// The golden Rust file `tests/golden/api_tables.rs` (included above, so it
/// must compile) is what `render_rust` produces for this model.
#[test]
fn golden_rust_is_fresh_and_agrees() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/api_tables.rs");
    let model = model();
    let file = GeneratedFile { path, contents: render_rust(&model, &provenance()).unwrap_or_else(|err| err) };
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        write_files(std::slice::from_ref(&file)).unwrap_or_else(|err| panic!("{err}"));
    }
    let stale = check_files(std::slice::from_ref(&file)).unwrap_or_else(|err| panic!("{err}"));
    let diff: String = stale.iter().map(|s| s.diff.as_str()).collect();
    assert!(
        stale.is_empty(),
        "{diff}\nrun `UPDATE_GOLDEN=1 cargo test -p kompat-gen --test apis` and commit the result"
    );

    let apis = model.apis.as_ref().expect("apis");
    assert_eq!(golden::SERVED.len(), apis.served.len());
    for (table, expected) in golden::STORAGE.iter().zip(&apis.storage) {
        assert_eq!((table.emulation, table.min_compatibility), (expected.emulation, expected.min_compatibility));
        let got: Vec<(&str, &str, &str)> =
            table.resources.iter().map(|r| (r.resource, r.storage_version, r.hash)).collect();
        let want: Vec<(String, String, String)> =
            expected.resources.iter().map(|r| (r.resource.clone(), r.encoding_version(), r.hash.clone())).collect();
        let want: Vec<(&str, &str, &str)> = want.iter().map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str())).collect();
        assert_eq!(got, want);
    }
    let v = Version::new;
    assert_eq!(
        golden::storage(v(1, 35), v(1, 35)).map(|t| t.resources[1].storage_version),
        Some("widgets.example.io/v1")
    );
    assert!(golden::storage(v(1, 35), v(1, 36)).is_none());
}
