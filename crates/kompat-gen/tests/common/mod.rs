//! Shared helpers of the `kompat-gen` tests: declarations written compactly,
//! and the demo fixture's features as core values.

#![allow(dead_code)]

use kompat_engine::{FeatureDecl, SpecDecl};
use kompat_gen::{Model, Provenance};
use kompat_runtime::{Ratchet, Stage, Version, VersionLit, WindowPolicy};

/// A spec: `"1.36 Beta true locked mc=1.36"`; `locked` and `mc=` are optional.
pub fn spec(text: &str) -> SpecDecl {
    let mut words = text.split_whitespace();
    let version = words.next().map(|v| VersionLit::parse(v).expect("version"));
    let stage = words.next().and_then(Stage::from_name).expect("stage");
    let default = words.next() == Some("true");
    let mut spec = SpecDecl { version, default, lock_to_default: false, stage, min_compatibility_version: None };
    for word in words {
        match word.strip_prefix("mc=") {
            Some(mc) => spec.min_compatibility_version = Some(VersionLit::parse(mc).expect("mc")),
            None => spec.lock_to_default = word == "locked",
        }
    }
    spec
}

pub fn feature(name: &str, specs: &[&str]) -> FeatureDecl {
    FeatureDecl { name: name.to_owned(), specs: specs.iter().map(|s| spec(s)).collect(), ..FeatureDecl::default() }
}

/// The features of `fixtures/features.toml`, in its order.
pub fn demo_features() -> Vec<FeatureDecl> {
    let mut autoscaling = feature("WidgetAutoscaling", &["1.31 Alpha false", "1.33 Beta true", "1.35 GA true locked"]);
    autoscaling.description = Some("Scale widget pools from observed load.".to_owned());
    let mut metrics = feature("WidgetAutoscalingMetrics", &["1.32 Alpha false", "1.34 Beta true"]);
    metrics.dependencies = vec!["WidgetAutoscaling".to_owned()];
    let legacy = feature(
        "LegacyWidgetPolling",
        &["1.0 GA true", "1.33 Deprecated true", "1.34 Deprecated false", "1.36 Deprecated false locked"],
    );
    let mut status = feature("WidgetStatusV2", &["1.36 Beta false", "1.36 Beta true mc=1.36"]);
    status.ratchet = Some(Ratchet { tolerated_since: Version::new(1, 36) });
    let sharding = feature("GadgetSharding", &["1.35 Alpha false"]);
    let diff =
        feature("ServerSideWidgetDiff", &["1.30 Alpha false", "1.32 Beta false", "1.34 Beta true", "1.37 GA true"]);
    let strict = feature("StrictWidgetNames", &["1.0 Beta true"]);
    vec![autoscaling, metrics, legacy, status, sharding, diff, strict]
}

pub fn model(features: &[FeatureDecl], binary: &str, window: WindowPolicy) -> Model {
    Model::new(features, Version::parse(binary).expect("binary"), window).expect("valid declarations")
}

pub fn provenance() -> Provenance {
    Provenance { command: "`kompat gen` from kompat.toml".to_owned() }
}
