//! The committed built-in API table (`data/apis.toml`): it parses and builds,
//! is consistent and holds Kubernetes' landmark removals. That it is in the
//! generator's canonical form with a current `@generated` header is checked
//! beside the generator (`crates/xtask/tests/it/table.rs`).

use kompat_engine::api::parse_replacement;
use kompat_k8s::{api_config, api_file, apis};
use kompat_runtime::GroupVersionKind;
use kompat_runtime::Version;

fn v(text: &str) -> Version {
    Version::parse(text).expect("a version literal of this test")
}

#[test]
fn parses_and_builds() {
    let file = api_file().unwrap_or_else(|errors| panic!("the embedded table does not parse: {errors:?}"));
    assert!(file.config().apis.len() > 100, "only {} API types", file.config().apis.len());
    let built = file.build().unwrap_or_else(|errors| panic!("the embedded table does not build: {errors:?}"));
    assert_eq!(built.apis().len(), file.config().apis.len());
    assert_eq!(apis().apis().len(), file.config().apis.len(), "apis() is the embedded table");
}

#[test]
fn every_replacement_resolves_to_a_declared_type() {
    let set = apis();
    for decl in &api_config().apis {
        let Some(text) = &decl.replacement else { continue };
        let target = parse_replacement(text).unwrap_or_else(|err| panic!("{}: {err}", decl.kind));
        assert!(
            set.find_kind(&target.group, &target.version, &target.kind).is_some(),
            "{}/{}/{} is replaced by {text}, which is not declared",
            decl.group,
            decl.version,
            decl.kind
        );
        assert!(!target.kind.ends_with("List"), "{text} is a list kind");
    }
}

#[test]
fn lifecycle_versions_are_ordered() {
    for api in apis().apis() {
        let l = api.lifecycle;
        if let Some(deprecated) = l.deprecated {
            assert!(
                l.introduced <= deprecated,
                "{}: introduced {} after deprecated {deprecated}",
                api.gvk,
                l.introduced
            );
        }
        if let Some(removed) = l.removed {
            assert!(l.introduced <= removed, "{}: introduced {} after removed {removed}", api.gvk, l.introduced);
            if let Some(deprecated) = l.deprecated {
                assert!(deprecated <= removed, "{}: deprecated {deprecated} after removed {removed}", api.gvk);
            }
        }
    }
}

#[test]
fn no_lists_and_lower_case_resources() {
    for decl in &api_config().apis {
        assert!(!decl.kind.ends_with("List"), "{} is a list kind", decl.kind);
        assert!(
            decl.resource.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
            "resource {:?} of {} is not lower-case",
            decl.resource,
            decl.kind
        );
    }
}

/// (group/version/kind, resource, introduced, deprecated, removed, replacement, enabled by default)
#[allow(clippy::type_complexity)]
const LANDMARKS: &[(&str, &str, &str, Option<&str>, Option<&str>, Option<&str>, bool)] = &[
    (
        "extensions/v1beta1/Ingress",
        "ingresses",
        "1.1",
        Some("1.14"),
        Some("1.22"),
        Some("networking.k8s.io/v1/Ingress"),
        true,
    ),
    ("policy/v1beta1/PodSecurityPolicy", "podsecuritypolicies", "1.10", Some("1.21"), Some("1.25"), None, true),
    (
        "flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema",
        "flowschemas",
        "1.26",
        Some("1.29"),
        Some("1.32"),
        Some("flowcontrol.apiserver.k8s.io/v1/FlowSchema"),
        true,
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta3/PriorityLevelConfiguration",
        "prioritylevelconfigurations",
        "1.26",
        Some("1.29"),
        Some("1.32"),
        Some("flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration"),
        true,
    ),
    ("batch/v1beta1/CronJob", "cronjobs", "1.8", Some("1.21"), Some("1.25"), Some("batch/v1/CronJob"), true),
    ("batch/v1/CronJob", "cronjobs", "1.21", None, None, None, true),
    // Deprecated by the hand-written lifecycle.go of k8s.io/api core/v1 (1.33+).
    ("/v1/Endpoints", "endpoints", "1.0", Some("1.33"), None, Some("discovery.k8s.io/v1/EndpointSlice"), true),
    ("/v1/ComponentStatus", "componentstatuses", "1.0", Some("1.19"), None, None, true),
    // A resource without +genclient, by the supplement.
    ("/v1/Binding", "bindings", "1.0", None, None, None, true),
    (
        "networking.k8s.io/v1beta1/IngressClass",
        "ingressclasses",
        "1.18",
        Some("1.19"),
        Some("1.22"),
        Some("networking.k8s.io/v1/IngressClass"),
        true,
    ),
    // A beta introduced after KEP-3136 (1.24) is off by default.
    (
        "storage.k8s.io/v1beta1/VolumeAttributesClass",
        "volumeattributesclasses",
        "1.31",
        Some("1.34"),
        Some("1.37"),
        Some("storage.k8s.io/v1/VolumeAttributesClass"),
        false,
    ),
    ("apiextensions.k8s.io/v1/CustomResourceDefinition", "customresourcedefinitions", "1.16", None, None, None, true),
    ("apiregistration.k8s.io/v1/APIService", "apiservices", "1.10", None, None, None, true),
];

#[test]
fn landmarks() {
    let set = apis();
    for &(gvk, resource, introduced, deprecated, removed, replacement, enabled) in LANDMARKS {
        let gvk = GroupVersionKind::split(gvk).expect("a GVK literal of this test");
        let api = set.find_kind(&gvk.group, &gvk.version, &gvk.kind).unwrap_or_else(|| panic!("{gvk} is not declared"));
        assert_eq!(api.resource, resource, "{gvk}");
        assert_eq!(api.lifecycle.introduced, v(introduced), "{gvk} introduced");
        assert_eq!(api.lifecycle.deprecated, deprecated.map(v), "{gvk} deprecated");
        assert_eq!(api.lifecycle.removed, removed.map(v), "{gvk} removed");
        assert_eq!(api.replacement.as_ref().map(|r| r.to_string()).as_deref(), replacement, "{gvk} replacement");
        assert_eq!(api.enabled_by_default, enabled, "{gvk} enabled by default");
    }
    // Not resources: subresources and payloads, and list kinds.
    for gvk in ["autoscaling/v1/Scale", "policy/v1/Eviction", "admission.k8s.io/v1/AdmissionReview", "/v1/PodList"] {
        let gvk = GroupVersionKind::split(gvk).expect("a GVK literal of this test");
        assert!(set.find_kind(&gvk.group, &gvk.version, &gvk.kind).is_none(), "{gvk} is declared");
    }
}

/// Every removal the Kubernetes deprecation guide names ("Deprecated API
/// Migration Guide", kubernetes.io/docs/reference/using-api/deprecation-guide/,
/// "Removed APIs by release"): group/version, kinds, and the release that
/// stopped serving them.
const DEPRECATION_GUIDE: &[(&str, &[&str], &str)] = &[
    ("flowcontrol.apiserver.k8s.io/v1beta3", &["FlowSchema", "PriorityLevelConfiguration"], "1.32"),
    ("flowcontrol.apiserver.k8s.io/v1beta2", &["FlowSchema", "PriorityLevelConfiguration"], "1.29"),
    ("storage.k8s.io/v1beta1", &["CSIStorageCapacity"], "1.27"),
    ("flowcontrol.apiserver.k8s.io/v1beta1", &["FlowSchema", "PriorityLevelConfiguration"], "1.26"),
    ("autoscaling/v2beta2", &["HorizontalPodAutoscaler"], "1.26"),
    ("batch/v1beta1", &["CronJob"], "1.25"),
    ("discovery.k8s.io/v1beta1", &["EndpointSlice"], "1.25"),
    ("events.k8s.io/v1beta1", &["Event"], "1.25"),
    ("autoscaling/v2beta1", &["HorizontalPodAutoscaler"], "1.25"),
    ("policy/v1beta1", &["PodDisruptionBudget", "PodSecurityPolicy"], "1.25"),
    ("node.k8s.io/v1beta1", &["RuntimeClass"], "1.25"),
    (
        "admissionregistration.k8s.io/v1beta1",
        &["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"],
        "1.22",
    ),
    ("apiextensions.k8s.io/v1beta1", &["CustomResourceDefinition"], "1.22"),
    ("apiregistration.k8s.io/v1beta1", &["APIService"], "1.22"),
    ("authentication.k8s.io/v1beta1", &["TokenReview"], "1.22"),
    (
        "authorization.k8s.io/v1beta1",
        &["LocalSubjectAccessReview", "SelfSubjectAccessReview", "SubjectAccessReview"],
        "1.22",
    ),
    ("certificates.k8s.io/v1beta1", &["CertificateSigningRequest"], "1.22"),
    ("coordination.k8s.io/v1beta1", &["Lease"], "1.22"),
    ("extensions/v1beta1", &["Ingress"], "1.22"),
    ("networking.k8s.io/v1beta1", &["Ingress", "IngressClass"], "1.22"),
    ("rbac.authorization.k8s.io/v1beta1", &["ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"], "1.22"),
    ("scheduling.k8s.io/v1beta1", &["PriorityClass"], "1.22"),
    ("storage.k8s.io/v1beta1", &["CSIDriver", "CSINode", "StorageClass", "VolumeAttachment"], "1.22"),
    ("extensions/v1beta1", &["DaemonSet", "Deployment", "NetworkPolicy", "PodSecurityPolicy", "ReplicaSet"], "1.16"),
    ("apps/v1beta1", &["Deployment", "StatefulSet"], "1.16"),
    ("apps/v1beta2", &["DaemonSet", "Deployment", "ReplicaSet", "StatefulSet"], "1.16"),
];

#[test]
fn every_removal_of_the_deprecation_guide() {
    let set = apis();
    let mut wrong = Vec::new();
    for &(group_version, kinds, removed) in DEPRECATION_GUIDE {
        let (group, version) = group_version.split_once('/').unwrap_or(("", group_version));
        for kind in kinds {
            match set.find_kind(group, version, kind) {
                None => wrong.push(format!("{group_version} {kind}: not declared")),
                Some(api) if api.lifecycle.removed != Some(v(removed)) => wrong.push(format!(
                    "{group_version} {kind}: removed {:?}, the guide says {removed}",
                    api.lifecycle.removed
                )),
                Some(_) => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The guide also lists ReplicaSet under apps/v1beta1, which never had it:
    // k8s.io/api apps/v1beta1 defines no ReplicaSet in any release.
    assert!(set.find_kind("apps", "v1beta1", "ReplicaSet").is_none());
}

/// Kinds that no prerelease-lifecycle file states, from the releases of
/// k8s.io/api that define them: (group/version/kind, introduced, removed).
const FROM_RELEASES: &[(&str, &str, Option<&str>)] = &[
    ("auditregistration.k8s.io/v1alpha1/AuditSink", "1.16", Some("1.19")),
    ("settings.k8s.io/v1alpha1/PodPreset", "1.16", Some("1.20")),
    ("batch/v2alpha1/CronJob", "1.16", Some("1.21")),
    ("discovery.k8s.io/v1alpha1/EndpointSlice", "1.16", Some("1.21")),
    ("resource.k8s.io/v1alpha1/ResourceClaim", "1.26", Some("1.27")),
    ("resource.k8s.io/v1alpha2/ResourceClaimParameters", "1.30", Some("1.31")),
    ("scheduling.k8s.io/v1alpha1/Workload", "1.35", Some("1.36")),
    ("scheduling.k8s.io/v1alpha2/Workload", "1.36", None),
    ("rbac.authorization.k8s.io/v1alpha1/ClusterRole", "1.16", None),
];

#[test]
fn kinds_without_a_lifecycle_file() {
    let set = apis();
    for &(gvk, introduced, removed) in FROM_RELEASES {
        let gvk = GroupVersionKind::split(gvk).expect("a GVK literal of this test");
        let api = set.find_kind(&gvk.group, &gvk.version, &gvk.kind).unwrap_or_else(|| panic!("{gvk} is not declared"));
        assert_eq!(api.lifecycle.introduced, v(introduced), "{gvk} introduced");
        if let Some(removed) = removed {
            assert_eq!(api.lifecycle.removed, Some(v(removed)), "{gvk} removed");
        }
        assert!(!api.enabled_by_default, "{gvk}: an alpha version is off by default");
    }
    let plural = set.find_kind("resource.k8s.io", "v1alpha2", "ResourceClaimParameters").map(|a| a.resource.clone());
    assert_eq!(plural.as_deref(), Some("resourceclaimparameters"));
}
