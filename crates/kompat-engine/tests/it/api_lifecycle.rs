//! API declarations: prerelease-lifecycle-gen's defaults, replacement
//! validation, declaration problems, kube-aware version order and per-group
//! priority.

use std::cmp::Ordering;

use crate::api_common::{config, set, v};
use kompat_engine::api::{
    compare_kube_aware, complete_lifecycle, is_alpha, is_beta, is_ga, parse_replacement, sort_kube_aware, ApiField,
    ApiSet,
};

/// Completes `version` with the written versions (`-` for none) and prints
/// `introduced / deprecated / removed`, `none` for an absent one.
#[track_caller]
fn check_defaults(version: &str, introduced: &str, deprecated: &str, removed: &str, expected: &str) {
    let opt = |s: &str| (s != "-").then(|| v(s));
    let l = complete_lifecycle(version, v(introduced), opt(deprecated), opt(removed));
    let show = |o: Option<kompat_runtime::Version>| o.map_or("none".to_owned(), |v| v.to_string());
    let got = format!("{} / {} / {}", l.introduced, show(l.deprecated), show(l.removed));
    assert_eq!(got, expected, "{version} introduced={introduced} deprecated={deprecated} removed={removed}");
}

#[test]
fn prerelease_lifecycle_gen_defaults() {
    // status_test.go, reference §2.3.
    check_defaults("v1", "1.5", "-", "-", "1.5 / none / none");
    check_defaults("v1", "1.5", "1.7", "-", "1.5 / 1.7 / none");
    check_defaults("v1", "1.5", "-", "1.9", "1.5 / none / 1.9");
    check_defaults("v1beta1", "1.5", "-", "-", "1.5 / 1.8 / 1.11");
    check_defaults("v1beta1", "1.5", "1.7", "-", "1.5 / 1.7 / 1.10");
    check_defaults("v1beta1", "1.5", "-", "1.9", "1.5 / 1.8 / 1.9");
    check_defaults("v1alpha1", "1.5", "-", "-", "1.5 / 1.8 / 1.11");
    // Real generated files, reference §2.5.
    check_defaults("v1beta3", "1.26", "-", "-", "1.26 / 1.29 / 1.32");
    check_defaults("v1beta1", "1.35", "1.37", "-", "1.35 / 1.37 / 1.40");
    check_defaults("v1beta1", "1.8", "1.21", "1.25", "1.8 / 1.21 / 1.25");
    check_defaults("v2", "1.23", "-", "-", "1.23 / none / none");
    // Anything but ^v\d+$ is not GA.
    check_defaults("v1foo", "1.5", "-", "-", "1.5 / 1.8 / 1.11");
    check_defaults("V1", "1.5", "-", "-", "1.5 / 1.8 / 1.11");
    check_defaults("v", "0.1", "-", "-", "0.1 / 0.4 / 0.7");
}

#[test]
fn missing_introduced_is_reported_per_declaration() {
    let problems = ApiSet::build(&config(
        "
        apps v1 Deployment deployments 1.9
        apps v1beta1 Deployment deployments -
        - v1 Pod pods -
        ",
    ))
    .unwrap_err();
    let got: Vec<(Option<usize>, ApiField, String)> =
        problems.into_iter().map(|p| (p.index, p.field, p.message)).collect();
    assert_eq!(
        got,
        [
            (Some(1), ApiField::Introduced, "apps/v1beta1/Deployment missing introduced version".to_owned()),
            (Some(2), ApiField::Introduced, "/v1/Pod missing introduced version".to_owned()),
        ]
    );
}

#[track_caller]
fn check_replacement(text: &str, expected: &str) {
    let got = match parse_replacement(text) {
        Ok(gvk) => format!("ok {gvk}"),
        Err(message) => message,
    };
    assert_eq!(got, expected, "replacement {text:?}");
}

#[test]
fn replacement_validation() {
    check_replacement("batch/v1/CronJob", "ok batch/v1/CronJob");
    check_replacement("/v1/Pod", "ok /v1/Pod");
    check_replacement("flowcontrol.apiserver.k8s.io/v1/FlowSchema", "ok flowcontrol.apiserver.k8s.io/v1/FlowSchema");
    check_replacement("Batch/v1/CronJob", "replacement group must be all lower-case, got \"Batch\"");
    check_replacement(
        "batch/V1/CronJob",
        "replacement version must start with \"v\" and be all lower-case, got \"V1\"",
    );
    check_replacement("batch/1/CronJob", "replacement version must start with \"v\" and be all lower-case, got \"1\"");
    check_replacement(
        "batch/v1Beta1/CronJob",
        "replacement version must start with \"v\" and be all lower-case, got \"v1Beta1\"",
    );
    check_replacement("batch/v1/cronJob", "replacement kind must start with uppercase-letter, got \"cronJob\"");
    check_replacement("batch/v1/éclair", "replacement kind must start with uppercase-letter, got \"éclair\"");
    check_replacement("batch/v1/Éclair", "replacement kind must start with uppercase-letter, got \"Éclair\"");
    // Go compares ToUpper of the first byte with itself: digits and symbols pass.
    check_replacement("batch/v1/1Job", "ok batch/v1/1Job");
    check_replacement("batch/v1", "replacement value must be \"<group>/<version>/<kind>\", got \"batch/v1\"");
    check_replacement("a/b/v1/K", "replacement value must be \"<group>/<version>/<kind>\", got \"a/b/v1/K\"");
    check_replacement(
        "batch//CronJob",
        "replacement value must be \"<group>/<version>/<kind>\", got \"batch//CronJob\"",
    );
    check_replacement("batch/v1/", "replacement value must be \"<group>/<version>/<kind>\", got \"batch/v1/\"");
    check_replacement("", "replacement value must be \"<group>/<version>/<kind>\", got \"\"");
}

/// Builds `decls` and prints each problem as `[index] field: message`.
#[track_caller]
fn check_problems(decls: &str, expected: &str) {
    let got = match ApiSet::build(&config(decls)) {
        Ok(_) => "ok".to_owned(),
        Err(problems) => problems
            .iter()
            .map(|p| {
                let index = p.index.map_or("-".to_owned(), |i| i.to_string());
                format!("[{index}] {:?}: {p}", p.field)
            })
            .collect::<Vec<_>>()
            .join("\n"),
    };
    let expected: Vec<&str> = expected.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    assert_eq!(got, expected.join("\n"));
}

#[test]
fn declaration_problems() {
    check_problems("batch v1beta1 CronJob cronjobs 1.8 repl=batch/v1/CronJob", "ok");
    check_problems(
        "batch v1beta1 CronJob cronjobs 1.8 repl=batch/v1/cronJob",
        "[0] Replacement: replacement kind must start with uppercase-letter, got \"cronJob\"",
    );
    check_problems(
        "
        apps v1 Deployment deployments 1.9
        apps v1 Deployment deploys 1.9
        apps v1 Other deployments 1.9
        ",
        "
        [1] Entry: duplicate declaration of apps/v1/Deployment (first declared in api entry 0)
        [2] Resource: duplicate declaration of resource \"deployments\" in apps/v1 (first declared in api entry 0)
        ",
    );
    check_problems(
        "
        apps v1 Deployment deployments 1.9
        priority apps v1,v2,v1
        priority batch v1
        ",
        "
        [-] Priority { group: \"apps\", entry: Some(1) }: priority of group \"apps\" lists version \"v2\", which has no declaration in that group
        [-] Priority { group: \"apps\", entry: Some(2) }: priority of group \"apps\" lists version \"v1\" more than once
        [-] Priority { group: \"batch\", entry: None }: priority given for group \"batch\", which has no declaration
        ",
    );
    check_problems(
        "
        apps v1 Deployment deployments 1.9
        pin apps/deployments v1
        pin apps/deployments/x v1
        pin apps/replicasets v1
        pin apps/ v1
        pin pods v1
        ",
        "
        [-] StorageOverride { key: \"apps/\" }: storage override key \"apps/\" must be \"GROUP/RESOURCE\"
        [-] StorageOverride { key: \"apps/deployments/x\" }: storage override key \"apps/deployments/x\" must be \"GROUP/RESOURCE\"
        [-] StorageOverride { key: \"apps/replicasets\" }: storage override \"apps/replicasets\" pins version \"v1\", which does not declare resource \"replicasets\" in group \"apps\"
        [-] StorageOverride { key: \"pods\" }: storage override \"pods\" pins version \"v1\", which does not declare resource \"pods\" in group \"\"
        ",
    );
    // A core-group pin may be written `/pods` or `pods`.
    check_problems("- v1 Pod pods 1.0\npin /pods v1", "ok");
    check_problems("- v1 Pod pods 1.0\npin pods v1", "ok");
}

#[test]
fn enabled_by_default_defaults_to_ga() {
    let s = set("
        apps v1 Deployment deployments 1.9
        apps v1beta1 Deployment deployments 1.6
        apps v1alpha1 Deployment deployments 1.5
        batch v1beta1 CronJob cronjobs 1.8 on
        batch v1 CronJob cronjobs 1.21 off
    ");
    let got: Vec<String> = s.apis().iter().map(|a| format!("{} {}", a.gvk, a.enabled_by_default)).collect();
    assert_eq!(
        got,
        [
            "apps/v1/Deployment true",
            "apps/v1beta1/Deployment false",
            "apps/v1alpha1/Deployment false",
            "batch/v1beta1/CronJob true",
            "batch/v1/CronJob false",
        ]
    );
}

#[track_caller]
fn check_order(a: &str, b: &str, a_greater: bool) {
    let expected = if a_greater { Ordering::Greater } else { Ordering::Less };
    assert_eq!(compare_kube_aware(a, b), expected, "{a} vs {b}");
    assert_eq!(compare_kube_aware(b, a), expected.reverse(), "{b} vs {a}");
}

#[test]
fn kube_aware_version_order() {
    // TestCompareKubeAwareVersionStrings.
    check_order("v1", "v2", false);
    check_order("v2", "v1", true);
    check_order("v10", "v2", true);
    check_order("v1", "v2alpha1", true);
    check_order("v1", "v2beta1", true);
    check_order("v1alpha2", "v1alpha1", true);
    check_order("v1beta1", "v2alpha3", true);
    check_order("v1alpha10", "v1alpha2", true);
    check_order("v1beta10", "v1beta2", true);
    check_order("foo", "v1beta2", false);
    check_order("bar", "foo", true);
    // More: GA > beta > alpha before numbers; non-matching strings rank last.
    check_order("v1", "v3beta9", true);
    check_order("v2beta1", "v1beta3", true);
    check_order("v1beta1", "v1alpha9", true);
    check_order("v1gamma1", "v1alpha1", false);
    check_order("v99999999999999999999", "v1alpha1", false);
    check_order("v01", "v2", false);
    assert_eq!(compare_kube_aware("v1", "v1"), Ordering::Equal);
    // Equal numbers written differently compare equal, as in Go.
    assert_eq!(compare_kube_aware("v01", "v1"), Ordering::Equal);

    let mut versions = ["v1alpha1", "foo", "v1", "v1beta1", "bar", "v2", "v1beta2", "v2alpha1", "v10"];
    sort_kube_aware(&mut versions);
    assert_eq!(versions, ["v10", "v2", "v1", "v1beta2", "v1beta1", "v2alpha1", "v1alpha1", "bar", "foo"]);
}

#[test]
fn version_patterns() {
    let table = [
        ("v1", (true, false, false)),
        ("v10", (true, false, false)),
        ("v1beta1", (false, true, false)),
        ("v2beta10", (false, true, false)),
        ("v1alpha1", (false, false, true)),
        ("v1alpha", (false, false, false)),
        ("v1beta", (false, false, false)),
        ("valpha1", (false, false, false)),
        ("v", (false, false, false)),
        ("1", (false, false, false)),
        ("v1x", (false, false, false)),
        ("v1alpha1x", (false, false, false)),
        ("", (false, false, false)),
    ];
    for (version, expected) in table {
        assert_eq!((is_ga(version), is_beta(version), is_alpha(version)), expected, "{version}");
    }
}

#[track_caller]
fn check_priority(decls: &str, group: &str, expected: &str) {
    let s = set(decls);
    assert_eq!(s.prioritized_versions(group).join(" "), expected, "group {group:?}");
}

#[test]
fn group_priority() {
    let decls = "
        w.io v1alpha1 Widget widgets 1.28
        w.io v1 Widget widgets 1.33
        w.io v1beta2 Widget widgets 1.31
        w.io v1beta1 Widget widgets 1.30
        w.io v2alpha1 Widget widgets 1.34
        w.io v2 Gadget gadgets 1.34
    ";
    check_priority(decls, "w.io", "v2 v1 v1beta2 v1beta1 v2alpha1 v1alpha1");
    check_priority(&format!("{decls}\npriority w.io v1beta1,v1"), "w.io", "v1beta1 v1 v2 v1beta2 v2alpha1 v1alpha1");
    check_priority(&format!("{decls}\npriority w.io v1alpha1"), "w.io", "v1alpha1 v2 v1 v1beta2 v1beta1 v2alpha1");
    check_priority(decls, "unknown.io", "");
    let s = set(decls);
    assert_eq!(s.groups().collect::<Vec<_>>(), ["w.io"]);
    assert!(s.is_group_registered("w.io"));
    assert!(!s.is_group_registered(""));
}

/// `KubeVersion` is core's one parser of version names; its order is the
/// release order, where `compare_kube_aware` is the order of preference.
#[test]
fn kube_versions_parse_and_order_by_release() {
    use kompat_engine::api::{KubeVersion, Stability};
    let parsed = |s: &str| KubeVersion::parse(s).map(|v| (v.major, v.stability, v.minor));
    assert_eq!(parsed("v2beta3"), Some((2, Stability::Beta, 3)));
    assert_eq!(parsed("v1"), Some((1, Stability::Ga, 0)));
    for not_kube in ["", "v", "1", "v1alpha", "v1gamma1", "v1beta1x", "foo"] {
        assert_eq!(parsed(not_kube), None, "{not_kube}");
    }
    let mut names = ["v2", "v1", "v2alpha1", "v1beta1"];
    names.sort_by_key(|n| KubeVersion::parse(n));
    assert_eq!(names, ["v1beta1", "v1", "v2alpha1", "v2"]);
    sort_kube_aware(&mut names);
    assert_eq!(names, ["v2", "v1", "v1beta1", "v2alpha1"]);
}
