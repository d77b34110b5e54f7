//! The direct renderer against the prettyplease one (`reference.rs`) on
//! models of every size around the places where prettyplease's line breaking
//! changes: lists that just fit or just miss the margin, filled boolean
//! lines, windows of one to six versions, min-compatibility steps, APIs.

use kompat_engine::api::{ApiConfig, ApiDecl};
use kompat_engine::{FeatureDecl, SpecDecl};
use kompat_runtime::{Stage, Version, VersionLit, WindowPolicy};

use super::{reference, render_rust, string};
use crate::{Model, Provenance};

fn provenance() -> Provenance {
    Provenance { command: "`kompat gen` from kompat.toml".to_owned() }
}

/// Renders `model` both ways; on a difference, names the first line that
/// differs.
fn check(model: &Model) {
    let fast = render_rust(model, &provenance());
    let slow = reference::render_rust(model, &provenance());
    let (Ok(fast), Ok(slow)) = (fast, slow) else {
        panic!("a renderer failed");
    };
    if fast != slow {
        let line = fast.lines().zip(slow.lines()).position(|(a, b)| a != b).unwrap_or(0);
        let show = |text: &str| text.lines().skip(line.saturating_sub(2)).take(5).collect::<Vec<_>>().join("\n");
        panic!(
            "renderers differ at line {} ({} features, {} tables):\n--- direct\n{}\n--- prettyplease\n{}",
            line + 1,
            model.features.len(),
            model.tables.len(),
            show(&fast),
            show(&slow)
        );
    }
}

fn lit(minor: u32) -> Option<VersionLit> {
    Some(VersionLit::from(Version::new(1, minor)))
}

/// `n` features with names of uneven lengths and lifecycles that give every
/// stage, both defaults and locks, and (`mcv`) min-compatibility steps.
fn decls(n: usize, name_len: usize, mcv: bool) -> Vec<FeatureDecl> {
    (0..n)
        .map(|i| {
            let start = 20 + (i * 7 % 18) as u32;
            let spec = |minor, stage, default, lock_to_default, min_compatibility_version| SpecDecl {
                version: lit(minor),
                default,
                lock_to_default,
                stage,
                min_compatibility_version,
            };
            let mut specs = vec![spec(start, Stage::Alpha, false, false, None)];
            match i % 4 {
                0 => specs.push(spec(start + 1, Stage::Beta, true, false, None)),
                1 => {
                    specs.push(spec(start + 2, Stage::Beta, false, false, None));
                    if mcv {
                        specs.push(spec(start + 2, Stage::Beta, true, false, lit(start + 2)));
                    }
                    specs.push(spec(start + 3, Stage::GA, true, true, None));
                }
                2 => specs.push(spec(start + 1, Stage::Deprecated, false, false, None)),
                _ => (),
            }
            let pad = "x".repeat(i * 13 % (name_len + 1));
            FeatureDecl { name: format!("Gate{i:03}{pad}"), specs, ..FeatureDecl::default() }
        })
        .collect()
}

fn model(n: usize, name_len: usize, mcv: bool, binary: u32, skew: u32) -> Model {
    let window = WindowPolicy { skew, floor: None };
    match Model::new(&decls(n, name_len, mcv), Version::new(1, binary), window) {
        Ok(model) => model,
        Err(errors) => panic!("invalid test declarations: {errors:?}"),
    }
}

#[test]
fn feature_tables_of_every_size() {
    for n in 0..=40 {
        for name_len in [0, 5, 30] {
            check(&model(n, name_len, n % 3 == 0, 37, 3));
        }
    }
    for n in [63, 64, 65, 100, 243, 300] {
        check(&model(n, 12, true, 37, 3));
    }
}

#[test]
fn windows_of_every_width() {
    for skew in 0..=6 {
        for binary in [9, 10, 37, 100] {
            check(&model(5, 5, true, binary, skew));
        }
    }
}

/// Every width of the stage and boolean lines around the margin: tables
/// whose specs are set directly, with `k` of `n` values true and stages of
/// every name length.
#[test]
fn list_lines_at_the_margin() {
    let stages = [Stage::GA, Stage::Beta, Stage::Alpha, Stage::PreAlpha, Stage::Deprecated];
    for n in 1..=16 {
        let mut base = model(n, 0, false, 37, 0);
        for k in 0..=n {
            for shift in 0..stages.len() {
                for table in &mut base.tables {
                    for (i, spec) in table.specs.iter_mut().enumerate() {
                        spec.default = i < k;
                        spec.lock_to_default = i >= n - k;
                        spec.stage = stages[(i * (k + 1) + shift) % stages.len()];
                    }
                }
                check(&base);
            }
        }
    }
}

fn api(group: &str, version: &str, kind: &str, introduced: u32, removed: Option<u32>) -> ApiDecl {
    ApiDecl {
        group: group.to_owned(),
        version: version.to_owned(),
        kind: kind.to_owned(),
        resource: format!("{}s", kind.to_lowercase()),
        introduced: Some(Version::new(1, introduced)),
        deprecated: None,
        removed: removed.map(|m| Version::new(1, m)),
        replacement: None,
        enabled_by_default: None,
    }
}

#[test]
fn api_tables_of_every_width() {
    for groups in 0..=6 {
        for group_len in [1, 10, 25] {
            let mut apis = vec![api("", "v1", "Pod", 20, None)];
            for g in 0..groups {
                let group = format!("{}{g}.example.io", "g".repeat(group_len));
                apis.push(api(&group, "v1beta1", "Widget", 30 + g, Some(36)));
                apis.push(api(&group, "v1", "Widget", 34, None));
            }
            let config = ApiConfig { apis, ..ApiConfig::default() };
            let with_apis = model(3, 5, true, 37, 3).with_apis(&config);
            let Ok(with_apis) = with_apis else {
                panic!("invalid test APIs: {with_apis:?}");
            };
            check(&with_apis);
        }
    }
}

#[test]
fn string_literals_are_escaped_as_proc_macro2_does() {
    for text in
        ["", "plain", "quote \" and ' apostrophe", "back\\slash", "tab\tnew\nline", "nul\0 and \u{0}1", "é ✓ \u{7f}"]
    {
        assert_eq!(string(text), proc_macro2::Literal::string(text).to_string(), "{text:?}");
    }
}

#[test]
fn stage_paths_name_the_stage() {
    for stage in [Stage::PreAlpha, Stage::Alpha, Stage::Beta, Stage::GA, Stage::Deprecated] {
        assert_eq!(super::stage_path(stage), format!("::kompat::Stage::{}", stage.name()));
    }
}
