//! The union's rules on values: release versions, a package's group and
//! version, newest-first precedence, what is a declaration, enablement.

use kompat_runtime::GroupVersionKind;
use kompat_runtime::Version;
use kompat_span::Span;
use xtask::k8s::generate::{package_group_version, Generator, GroupVersionProblem, ModuleVersion};
use xtask::k8s::lifecycle::KindLifecycle;
use xtask::k8s::package::{Located, Register, TypeTags};
use xtask::k8s::supplement::Supplement;

#[test]
fn release_versions() {
    let check = |text: &str, expected: Option<(u64, u64, u64)>| {
        let expected = expected.map(|(a, b, c)| ModuleVersion::Release(a, b, c));
        assert_eq!(ModuleVersion::parse_release(text), expected, "{text}");
    };
    check("v0.30.2", Some((0, 30, 2)));
    check("v1.0.0", Some((1, 0, 0)));
    check("v0.30.0-alpha.1", None);
    check("v0.30", None);
    check("0.30.0", None);
    check("v0.30.0.1", None);
    check("v0.+1.0", None);
    check("v0.9999999999.0", None);
    assert!(ModuleVersion::Checkout > ModuleVersion::Release(9, 9, 9), "a checkout is the newest");
    assert!(ModuleVersion::Release(0, 30, 10) > ModuleVersion::Release(0, 30, 9));
}

fn located(value: &str) -> Located {
    Located { value: value.to_owned(), span: Span { start: 0, end: 1 } }
}

#[test]
fn package_group_versions() {
    let register = |group: &str, version: &str| Register {
        group_name: None,
        group: Some(located(group)),
        version: Some(located(version)),
    };
    let ok = |group: &str, version: &str| Ok((group.to_owned(), version.to_owned()));
    assert_eq!(package_group_version(Some(&register("batch", "v1")), None, "v1"), ok("batch", "v1"));
    // register.go wins over the directory name.
    assert_eq!(
        package_group_version(Some(&register("batch", "v1beta1")), Some(&located("batch")), "x"),
        ok("batch", "v1beta1")
    );
    assert_eq!(package_group_version(None, Some(&located("apps")), "v1beta2"), ok("apps", "v1beta2"));
    assert_eq!(package_group_version(Some(&Register::default()), Some(&located("apps")), "v1"), ok("apps", "v1"));
    assert_eq!(package_group_version(None, None, "v1"), Err(GroupVersionProblem::Unknown));
    assert_eq!(
        package_group_version(Some(&register("batch", "v1")), Some(&located("apps")), "v1"),
        Err(GroupVersionProblem::Conflict { doc: located("apps"), register: "batch".to_owned() })
    );
}

fn kind(name: &str, introduced: &str) -> KindLifecycle {
    KindLifecycle {
        kind: name.to_owned(),
        introduced: Version::parse(introduced).expect("a version literal of this test"),
        deprecated: None,
        removed: None,
        replacement: None,
        span: Span { start: 0, end: 1 },
    }
}

fn resource(name: &str) -> TypeTags {
    TypeTags { name: name.to_owned(), resource: true, resource_name: None }
}

/// `group/version/kind resource introduced enabled`, in rendering order.
fn summary(generator: &Generator) -> Vec<String> {
    generator
        .entries()
        .iter()
        .map(|e| {
            let gvk = GroupVersionKind::new(&e.group, &e.version, &e.kind);
            format!("{gvk} {} {} {}", e.resource, e.introduced, e.enabled_by_default)
        })
        .collect()
}

#[test]
fn newest_first_union() {
    let mut generator = Generator::new(Supplement::default(), None);
    let newer = [kind("Widget", "1.30"), kind("WidgetList", "1.30")];
    generator.add_package("g", "v1beta1", &newer, &[resource("Widget")]).expect("adds");
    // An older release: Widget is taken already, Gadget (deleted since) is new.
    let older = [kind("Widget", "1.20"), kind("Gadget", "1.20"), kind("Scale", "1.20")];
    assert_eq!(generator.new_kinds("g", "v1beta1", &older).len(), 2);
    let tags = [resource("Widget"), resource("Gadget"), TypeTags { resource: false, ..resource("Scale") }];
    generator.add_package("g", "v1beta1", &older, &tags).expect("adds");
    assert!(generator.new_kinds("g", "v1beta1", &older).is_empty(), "lists and non-resources are remembered too");
    generator.add_package("g", "v1alpha1", &[kind("Widget", "1.10")], &[resource("Widget")]).expect("adds");
    generator.add_package("g", "v1", &[kind("Widget", "1.31")], &[resource("Widget")]).expect("adds");
    assert_eq!(
        summary(&generator),
        [
            "g/v1/Widget widgets 1.31 true",
            // A beta from before 1.24 is on by default; from 1.24 on, off.
            "g/v1beta1/Gadget gadgets 1.20 true",
            "g/v1beta1/Widget widgets 1.30 false",
            "g/v1alpha1/Widget widgets 1.10 false",
        ]
    );
    let errors = generator.add_package("g", "v2", &[kind("Ghost", "1.32")], &[]).expect_err("no type");
    assert_eq!(errors[0].message, "type Ghost has a lifecycle but is not declared in the package");
}

/// A type without `+genclient` is a resource only when the supplement
/// declares it one (core/v1 Binding), in that version alone.
#[test]
fn supplement_resource_types() {
    let supplement = xtask::k8s::supplement::parse_supplement(
        "[[resource_type]]\ngroup = \"\"\nversion = \"v1\"\nkind = \"Binding\"\nsource = \"test\"\n",
    )
    .expect("parses");
    let kinds = [kind("Binding", "1.0"), kind("PodStatusResult", "1.0")];
    let tags = [
        TypeTags { resource: false, ..resource("Binding") },
        TypeTags { resource: false, ..resource("PodStatusResult") },
    ];
    for (with_supplement, expected) in [(true, &["/v1/Binding bindings 1.0 true"][..]), (false, &[][..])] {
        let supplement = if with_supplement { supplement.clone() } else { Supplement::default() };
        let mut generator = Generator::new(supplement, None);
        generator.add_package("", "v1", &kinds, &tags).expect("adds");
        generator.add_package("", "v2", &kinds, &tags).expect("adds");
        assert_eq!(summary(&generator), expected, "with the supplement: {with_supplement}");
    }
    let missing_source = xtask::k8s::supplement::parse_supplement(
        "[[resource_type]]\ngroup = \"\"\nversion = \"v1\"\nkind = \"Binding\"\nsource = \" \"\n",
    );
    assert!(missing_source.is_err());
}
