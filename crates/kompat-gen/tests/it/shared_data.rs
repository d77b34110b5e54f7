//! Generates every output for the real Kubernetes declarations in
//! `../shared/data` (binary 1.37, the Kubernetes window). Passes trivially,
//! saying so, when the data is absent.

use std::path::Path;

use kompat_gen::{render_json, render_markdown, render_rust, Model, Provenance};
use kompat_runtime::{Version, WindowPolicy};

#[test]
fn kubernetes_feature_list() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/kubernetes/versioned_feature_list.yaml");
    if !path.is_file() {
        eprintln!(
            "skipping: {} not found: this test reads the real Kubernetes declaration set from `shared/data` beside the clone (CONTRIBUTING.md), and checks nothing without it",
            path.display()
        );
        return;
    }
    let decls = kompat_project::load(&[path]).unwrap_or_else(|err| panic!("{err}"));
    decls.validate_strict().unwrap_or_else(|err| panic!("{err}"));
    let model = Model::new(decls.features(), Version::new(1, 37), WindowPolicy::KUBERNETES)
        .unwrap_or_else(|errs| panic!("{errs:?}"));
    // 1.34 to 1.37, plus DRAFractionalCapacityRange's step at min-compatibility 1.37.
    let tables: Vec<String> = model.tables.iter().map(|t| format!("{}/{}", t.emulation, t.min_compatibility)).collect();
    assert_eq!(tables, ["1.34/1.34", "1.35/1.34", "1.36/1.34", "1.37/1.34", "1.37/1.37"]);
    assert_eq!(model.features.len(), 243);

    let provenance = Provenance { command: "`kompat gen` from kompat.toml".to_owned() };
    let rust = render_rust(&model, &provenance).unwrap_or_else(|err| panic!("{err}"));
    assert!(rust.contains("pub static EMULATION_1_37_MIN_COMPAT_1_37: FeatureTable"));
    let markdown = render_markdown(&model, &provenance);
    assert_eq!(markdown.lines().filter(|l| l.starts_with("| ")).count(), 1 + 243 + 4);
    assert!(render_json(&model, &provenance).expect("json").len() > 100_000);
    // The Kubernetes YAML renders back to the input.
    assert_eq!(kompat_formats::render_k8s_yaml(&model.decls), *decls.sources()[0].text);
}
