//! `#[derive(ApiLifecycle)]` through the facade: prerelease-lifecycle-gen's
//! defaults (its own unit-test table and real k8s.io/api types), the registry
//! entry, the `crate` override and generic types.

use kompat::engine::api::{complete_lifecycle, ApiConfig, ApiSet};
use kompat::{ApiEntry, ApiLifecycle, StaticGvk, Version};

fn v(major: u32, minor: u32) -> Version {
    Version::new(major, minor)
}

/// The completed lifecycle of `T`: (introduced, deprecated, removed).
fn lifecycle<T: ApiLifecycle>() -> (Version, Option<Version>, Option<Version>) {
    (T::INTRODUCED, T::DEPRECATED, T::REMOVED)
}

// prerelease-lifecycle-gen's `status_test.go` table: introduced / deprecated /
// removed for a GA (`v1`), beta and alpha package.
#[derive(ApiLifecycle)]
#[kompat(api(group = "", version = "v1", kind = "Simple", resource = "simples", introduced = "1.5"))]
struct GaIntroduced;
#[derive(ApiLifecycle)]
#[kompat(api(
    group = "",
    version = "v1",
    kind = "Simple",
    resource = "simples",
    introduced = "1.5",
    deprecated = "1.7"
))]
struct GaDeprecated;
#[derive(ApiLifecycle)]
#[kompat(api(group = "", version = "v1", kind = "Simple", resource = "simples", introduced = "1.5", removed = "1.9"))]
struct GaRemoved;
#[derive(ApiLifecycle)]
#[kompat(api(group = "", version = "v1beta1", kind = "Simple", resource = "simples", introduced = "1.5"))]
struct BetaIntroduced;
#[derive(ApiLifecycle)]
#[kompat(api(group = "", version = "v1beta1", resource = "simples", introduced = "1.5", deprecated = "1.7"))]
struct BetaDeprecated;
#[derive(ApiLifecycle)]
#[kompat(api(group = "", version = "v1beta1", resource = "simples", introduced = "1.5", removed = "1.9"))]
struct BetaRemoved;
#[derive(ApiLifecycle)]
#[kompat(api(group = "", version = "v1alpha1", resource = "simples", introduced = "1.5"))]
struct AlphaIntroduced;

// Real k8s.io/api types (reference §2.5).
#[derive(ApiLifecycle)]
#[kompat(api(
    group = "batch",
    version = "v1beta1",
    kind = "CronJob",
    resource = "cronjobs",
    introduced = "1.8",
    deprecated = "1.21",
    removed = "1.25",
    replacement = "batch/v1/CronJob"
))]
struct CronJobV1beta1;

#[derive(ApiLifecycle)]
#[kompat(api(
    group = "flowcontrol.apiserver.k8s.io",
    version = "v1beta3",
    resource = "flowschemas",
    introduced = "1.26",
    replacement = "flowcontrol.apiserver.k8s.io/v1/FlowSchema"
))]
struct FlowSchema;

#[derive(ApiLifecycle)]
#[kompat(api(
    group = "storagemigration.k8s.io",
    version = "v1beta1",
    resource = "storageversionmigrations",
    introduced = "1.35",
    deprecated = "1.37",
    replacement = "storagemigration.k8s.io/v1/StorageVersionMigration"
))]
struct StorageVersionMigration;

#[derive(ApiLifecycle)]
#[kompat(api(group = "apps", version = "v1", kind = "Deployment", resource = "deployments", introduced = "1.9"))]
struct DeploymentV1;

#[test]
fn prerelease_lifecycle_gen_defaults() {
    #[track_caller]
    fn check(actual: (Version, Option<Version>, Option<Version>), expected: (u32, Option<u32>, Option<u32>)) {
        let expected = (v(1, expected.0), expected.1.map(|m| v(1, m)), expected.2.map(|m| v(1, m)));
        assert_eq!(actual, expected);
    }
    check(lifecycle::<GaIntroduced>(), (5, None, None));
    check(lifecycle::<GaDeprecated>(), (5, Some(7), None));
    check(lifecycle::<GaRemoved>(), (5, None, Some(9)));
    check(lifecycle::<BetaIntroduced>(), (5, Some(8), Some(11)));
    check(lifecycle::<BetaDeprecated>(), (5, Some(7), Some(10)));
    check(lifecycle::<BetaRemoved>(), (5, Some(8), Some(9)));
    check(lifecycle::<AlphaIntroduced>(), (5, Some(8), Some(11)));
    check(lifecycle::<CronJobV1beta1>(), (8, Some(21), Some(25)));
    check(lifecycle::<FlowSchema>(), (26, Some(29), Some(32)));
    check(lifecycle::<StorageVersionMigration>(), (35, Some(37), Some(40)));
    check(lifecycle::<DeploymentV1>(), (9, None, None));
}

/// The constants are the core's completion of the written entry: the derive
/// shares `complete_lifecycle` rather than re-implementing it.
#[test]
fn constants_are_the_cores_completion() {
    fn check<T: ApiLifecycle>() {
        let api = T::API;
        let completed = complete_lifecycle(api.version, api.introduced, api.deprecated, api.removed);
        assert_eq!(lifecycle::<T>(), (completed.introduced, completed.deprecated, completed.removed), "{}", api.kind);
    }
    check::<GaIntroduced>();
    check::<GaDeprecated>();
    check::<GaRemoved>();
    check::<BetaIntroduced>();
    check::<BetaDeprecated>();
    check::<BetaRemoved>();
    check::<AlphaIntroduced>();
    check::<CronJobV1beta1>();
    check::<FlowSchema>();
    check::<StorageVersionMigration>();
    check::<DeploymentV1>();
}

#[test]
fn registry_entry_is_the_declaration_as_written() {
    assert_eq!(
        CronJobV1beta1::API,
        ApiEntry {
            group: "batch",
            version: "v1beta1",
            kind: "CronJob",
            resource: "cronjobs",
            introduced: v(1, 8),
            deprecated: Some(v(1, 21)),
            removed: Some(v(1, 25)),
            replacement: Some(StaticGvk { group: "batch", version: "v1", kind: "CronJob" }),
            enabled_by_default: None,
        }
    );
    // Defaults are not written into the entry, so lint can tell them apart.
    assert_eq!((FlowSchema::API.deprecated, FlowSchema::API.removed), (None, None));
    // The kind defaults to the type's name.
    assert_eq!(FlowSchema::API.kind, "FlowSchema");
    assert_eq!(BetaRemoved::API.kind, "BetaRemoved");
    // Served by default: GA versions only, unless written.
    assert_eq!([DeploymentV1::ENABLED_BY_DEFAULT, CronJobV1beta1::ENABLED_BY_DEFAULT], [true, false]);
}

#[test]
fn registry_builds_an_api_set() {
    let config = ApiConfig::from_entries([CronJobV1beta1::API, DeploymentV1::API, FlowSchema::API]);
    let set = ApiSet::build(&config).unwrap_or_else(|problems| panic!("{problems:?}"));
    let served: Vec<String> = set.apis().iter().filter(|a| a.served_at(v(1, 24))).map(|a| a.gvk.to_string()).collect();
    assert_eq!(
        served,
        ["batch/v1beta1/CronJob", "apps/v1/Deployment", "flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema"]
    );
    assert!(!CronJobV1beta1::served_at(v(1, 25)));
}

#[test]
fn deprecation_warning() {
    assert_eq!(CronJobV1beta1::deprecation_warning(v(1, 20)), None);
    assert_eq!(
        CronJobV1beta1::deprecation_warning(v(1, 21)).as_deref(),
        Some("batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob")
    );
    assert_eq!(
        FlowSchema::deprecation_warning(v(1, 29)).as_deref(),
        Some(
            "flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema"
        )
    );
    assert_eq!(DeploymentV1::deprecation_warning(v(1, 40)), None);
}

/// Usable in `const` context.
const CRONJOB_REMOVED: Option<Version> = <CronJobV1beta1 as ApiLifecycle>::REMOVED;

#[test]
fn const_accessors() {
    assert_eq!(CRONJOB_REMOVED, Some(v(1, 25)));
}

mod renamed {
    pub use kompat as my_kompat;
}

#[derive(ApiLifecycle)]
#[kompat(crate = "renamed::my_kompat")]
#[kompat(api(group = "widgets.example.io", version = "v1alpha1", resource = "widgets", introduced = "0.4"))]
#[allow(dead_code)]
enum Widget<T: Clone> {
    Spec(T),
}

#[test]
fn crate_override_and_generics() {
    assert_eq!(<Widget<u8> as ApiLifecycle>::API.kind, "Widget");
    assert_eq!(lifecycle::<Widget<String>>(), (v(0, 4), Some(v(0, 7)), Some(v(0, 10))));
}

// kube-rs: `#[derive(CustomResource)]` puts group/version/kind (and plural) in
// `#[kube(...)]` on the spec struct; `api(...)` then only adds the lifecycle.
// (kube-derive itself is not a dependency here; `ApiLifecycle` declares the
// `kube` helper too, so the attribute compiles with or without it.)
#[derive(ApiLifecycle)]
#[kube(
    group = "widgets.example.io",
    version = "v1beta1",
    kind = "Widget",
    namespaced,
    status = "WidgetStatus",
    printcolumn = r#"{"name":"Size", "type":"integer", "jsonPath":".spec.size"}"#,
    scale(spec_replicas_path = ".spec.size", status_replicas_path = ".status.size")
)]
#[kompat(api(introduced = "1.32", replacement = "widgets.example.io/v1/Widget"))]
#[allow(dead_code)]
struct WidgetSpec {
    size: u32,
}

#[derive(ApiLifecycle)]
#[kube(group = "widgets.example.io", version = "v1alpha1", kind = "WidgetPolicy", plural = "widgetpolicies")]
#[kompat(api(introduced = "1.33"))]
struct WidgetPolicySpec;

#[derive(ApiLifecycle)]
#[kube(group = "widgets.example.io", version = "v1alpha1", kind = "Proxy")]
#[kompat(api(introduced = "1.33", resource = "proxies"))]
struct ProxySpec;

#[test]
fn kube_rs_attributes_are_defaults() {
    let check = |entry: ApiEntry, expected: (&str, &str, &str, &str)| {
        assert_eq!((entry.group, entry.version, entry.kind, entry.resource), expected);
    };
    // The kind is kube's, not the spec struct's name; the resource is
    // kube-derive's default plural of it.
    check(WidgetSpec::API, ("widgets.example.io", "v1beta1", "Widget", "widgets"));
    check(WidgetPolicySpec::API, ("widgets.example.io", "v1alpha1", "WidgetPolicy", "widgetpolicies"));
    check(ProxySpec::API, ("widgets.example.io", "v1alpha1", "Proxy", "proxies"));
    assert_eq!(lifecycle::<WidgetSpec>(), (v(1, 32), Some(v(1, 35)), Some(v(1, 38))));
}
