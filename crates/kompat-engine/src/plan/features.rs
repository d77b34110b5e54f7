//! Feature gates whose resolved spec changes on a server at a step.

use kompat_runtime::effective::EffectiveVersion;
use kompat_runtime::feature::{spec_at, FeatureSpec};
use kompat_runtime::gate::FeatureSet;

/// A feature whose stage, default or lock changes on one server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureChange {
    pub server: String,
    pub name: String,
    pub before: FeatureSpec,
    pub after: FeatureSpec,
}

/// The features whose resolved (stage, default, locked) differ between two
/// effective versions of `server`, sorted by name.
pub(super) fn feature_changes(
    set: &FeatureSet,
    server: &str,
    before: EffectiveVersion,
    after: EffectiveVersion,
) -> Vec<FeatureChange> {
    let key = |s: &FeatureSpec| (s.stage, s.default, s.lock_to_default);
    let mut changes: Vec<FeatureChange> = set
        .features()
        .iter()
        .filter_map(|feature| {
            let old = spec_at(&feature.specs, before.emulation, Some(before.min_compatibility));
            let new = spec_at(&feature.specs, after.emulation, Some(after.min_compatibility));
            (key(&old) != key(&new)).then(|| FeatureChange {
                server: server.to_owned(),
                name: feature.name.clone(),
                before: old,
                after: new,
            })
        })
        .collect();
    changes.sort_by(|a, b| a.name.cmp(&b.name));
    changes
}
