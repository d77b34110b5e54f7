//! The Rust-declared demo APIs (`fixtures/rust/src/apis.rs`), compiled here
//! with `#[derive(ApiLifecycle)]`, against the same APIs in TOML
//! (`fixtures/apis.toml`) and against what kompat reads from the Rust source
//! (`kompat_project::load`, the reader behind `--decls fixtures/rust`): the
//! derive's registry entries, the TOML and the source reader must agree.

#[path = "../../../../fixtures/rust/src/apis.rs"]
#[allow(dead_code, reason = "the fixture's types carry fields no test reads")]
mod apis;

use std::path::{Path, PathBuf};

use kompat::engine::api::{ApiConfig, ApiSet};
use kompat::Version;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

fn toml_config() -> ApiConfig {
    let path = fixtures().join("apis.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    match kompat_formats::parse_toml(&text).map(|file| file.apis) {
        Ok(file) => file.into_config(),
        Err(errors) => panic!("{errors:?}"),
    }
}

fn source_config() -> ApiConfig {
    match kompat_project::load(&[fixtures().join("rust")]) {
        Ok(decls) => decls.api_config(),
        Err(err) => panic!("{err:?}"),
    }
}

#[test]
fn registry_entries_are_the_toml_declarations() {
    let registry = ApiConfig::from_entries(apis::entries());
    assert_eq!(registry.apis, toml_config().apis);
}

#[test]
fn source_reader_agrees_with_the_compiler() {
    let registry = ApiConfig::from_entries(apis::entries());
    // The reader sees declarations in file order, which is the order of
    // `entries()`.
    assert_eq!(source_config().apis, registry.apis);
}

#[test]
fn completed_lifecycles_agree_with_the_api_set() {
    let set = ApiSet::build(&toml_config()).unwrap_or_else(|problems| panic!("{problems:?}"));
    let consts: Vec<(Version, Option<Version>, Option<Version>)> = vec![
        lifecycle::<apis::core_v1::ConfigMap>(),
        lifecycle::<apis::core_v1::Event>(),
        lifecycle::<apis::widgets::v1alpha1::Widget>(),
        lifecycle::<apis::widgets::v1beta1::Widget>(),
        lifecycle::<apis::widgets::v1::Widget>(),
        lifecycle::<apis::widgets::v1beta1_pools::WidgetPool>(),
        lifecycle::<apis::widgets::v1alpha1_classes::WidgetClass>(),
        lifecycle::<apis::widgets::policies::WidgetPolicyV1alpha1>(),
        lifecycle::<apis::widgets::policies::WidgetPolicyV1beta1>(),
        lifecycle::<apis::gadgets::GadgetV1beta1>(),
        lifecycle::<apis::gadgets::GadgetV1>(),
        lifecycle::<apis::scheduling::QueueV1>(),
        lifecycle::<apis::scheduling::QueueV2<()>>(),
    ];
    let from_set: Vec<_> =
        set.apis().iter().map(|a| (a.lifecycle.introduced, a.lifecycle.deprecated, a.lifecycle.removed)).collect();
    assert_eq!(consts, from_set);
}

fn lifecycle<T: kompat::ApiLifecycle>() -> (Version, Option<Version>, Option<Version>) {
    (T::INTRODUCED, T::DEPRECATED, T::REMOVED)
}
