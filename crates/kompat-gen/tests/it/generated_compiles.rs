//! The checked-in Rust tables of the demo fixture compile against the facade
//! crate alone, and hold what `kompat_runtime::spec_at` resolves.

#[allow(dead_code)]
mod features {
    include!("../../../../fixtures/generated/features.rs");
}

use kompat::{spec_at, Stage, Version, WindowPolicy};
use kompat_project::Config;

#[test]
fn tables_hold_the_resolved_specs() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kompat.toml");
    let config = Config::load(&path).unwrap_or_else(|err| panic!("{err}"));
    let decls = kompat_project::load(&config.decls).unwrap_or_else(|err| panic!("{err}"));
    let set = decls.validate_strict().unwrap_or_else(|err| panic!("{err}")).set;
    assert_eq!(config.window, WindowPolicy::DEFAULT);
    assert_eq!(Some(features::BINARY_VERSION), config.binary_version);
    assert_eq!(features::FLOOR, Version::new(1, 34));
    assert_eq!(features::NAMES.len(), set.len());

    // Every (emulation, min-compatibility) pair of the window.
    for emulation in features::EMULATION_VERSIONS {
        for min_compat in features::FLOOR.range_to(emulation) {
            let table = features::table(emulation, min_compat).expect("inside the window");
            assert_eq!(table.emulation, emulation);
            for (idx, name) in features::NAMES.iter().enumerate() {
                let feature = set.get(name).expect("declared");
                let spec = spec_at(&feature.specs, emulation, Some(min_compat));
                let got = (table.stage[idx], table.default[idx], table.locked[idx]);
                assert_eq!(
                    got,
                    (spec.stage, spec.default, spec.lock_to_default),
                    "{name} at ({emulation}, {min_compat})"
                );
            }
        }
    }
}

#[test]
fn lookups() {
    let v = Version::new;
    let status = features::index("WidgetStatusV2").expect("declared");
    assert_eq!(features::index("NoSuchGate"), None);
    // WidgetStatusV2 is on by default only once every peer reads its data.
    assert_eq!(features::table(v(1, 36), v(1, 35)).map(|t| t.default[status]), Some(false));
    assert_eq!(features::table(v(1, 36), v(1, 36)).map(|t| t.default[status]), Some(true));
    assert_eq!(features::EMULATION_1_36_MIN_COMPAT_1_36.stage[status], Stage::Beta);
    assert_eq!(features::EMULATION_1_34.stage[status], Stage::PreAlpha);
    // Outside the window.
    assert!(features::table(v(1, 33), v(1, 33)).is_none());
    assert!(features::table(v(1, 38), v(1, 37)).is_none());
    assert!(features::table(v(1, 35), v(1, 36)).is_none());
    assert_eq!(features::TABLES.len(), 6);
    assert_eq!(features::COUNT, 7);
}
