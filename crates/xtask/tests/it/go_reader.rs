//! The Go reader on small files of our own, in the shapes Kubernetes'
//! generators and API packages use: lifecycles, group/version, type tags, and
//! every problem located.

use kompat_formats::ParseError;
use kompat_span::LineIndex;
use xtask::k8s::lifecycle::parse_lifecycle;
use xtask::k8s::package::{parse_doc_group, parse_register, parse_type_tags};
use xtask::k8s::supplement::parse_supplement;

/// Errors as `line:col: message`, one per line.
fn located(text: &str, errors: &[ParseError]) -> String {
    let lines = LineIndex::new(text);
    errors.iter().map(|e| e.located(&lines)).collect::<Vec<_>>().join("\n")
}

/// Lifecycles as `Kind introduced deprecated removed replacement`, one per line.
#[track_caller]
fn check_lifecycle(body: &str, expected: &str) {
    let text = format!("package v1beta1\n\n{body}");
    let got = match parse_lifecycle(&text) {
        Ok(kinds) => kinds
            .iter()
            .map(|k| {
                let show = |v: Option<kompat_runtime::Version>| v.map_or("-".to_owned(), |v| v.to_string());
                let replacement = k.replacement.as_ref().map_or("-".to_owned(), |r| r.to_string());
                let list = if k.is_list() { " (list)" } else { "" };
                format!("{} {} {} {} {replacement}{list}", k.kind, k.introduced, show(k.deprecated), show(k.removed))
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Err(errors) => located(&text, &errors),
    };
    assert_eq!(got, expected.trim(), "for:\n{text}");
}

const INTRODUCED: &str = "func (in *CronJob) APILifecycleIntroduced() (major, minor int) {\n\treturn 1, 8\n}\n";

#[test]
fn lifecycles() {
    check_lifecycle(INTRODUCED, "CronJob 1.8 - - -");
    check_lifecycle(
        &format!(
            "import (\n\tschema \"k8s.io/apimachinery/pkg/runtime/schema\"\n)\n\n{INTRODUCED}\
             func (in *CronJob) APILifecycleDeprecated() (major, minor int) {{ return 1, 21 }}\n\
             func (in *CronJob) APILifecycleReplacement() schema.GroupVersionKind {{\n\
             \treturn schema.GroupVersionKind{{Group: \"batch\", Version: \"v1\", Kind: \"CronJob\"}}\n}}\n\
             func (in *CronJob) APILifecycleRemoved() (major, minor int) {{ return 1, 25 }}\n"
        ),
        "CronJob 1.8 1.21 1.25 batch/v1/CronJob",
    );
    // The core group is written with an empty Group, or none at all.
    check_lifecycle(
        "func (in *Binding) APILifecycleIntroduced() (major, minor int) { return 1, 0 }\n\
         func (in *Binding) APILifecycleReplacement() schema.GroupVersionKind {\n\
         \treturn schema.GroupVersionKind{Version: `v1`, Kind: \"Pod\"}\n}\n",
        "Binding 1.0 - - /v1/Pod",
    );
    // Lists are read (and marked), other methods skipped, order kept.
    check_lifecycle(
        "func (in *B) APILifecycleIntroduced() (major, minor int) { return 1, 30 }\n\
         func (in *BList) APILifecycleIntroduced() (major, minor int) { return 1, 30 }\n\
         func (in *B) DeepCopyObject() runtime.Object { return in }\n\
         func helper() int { return 2 }\n\
         func (in *A) APILifecycleIntroduced() (major, minor int) {\n\t// a comment\n\treturn 1, 31\n}\n",
        "B 1.30 - - -\nBList 1.30 - - - (list)\nA 1.31 - - -",
    );
    // A value receiver is read the same way.
    check_lifecycle("func (in Thing) APILifecycleIntroduced() (major, minor int) { return 1, 2 }\n", "Thing 1.2 - - -");
    check_lifecycle("", "");
}

#[test]
fn lifecycle_problems_are_located() {
    check_lifecycle(
        "func (in *A) APILifecycleIntroduced() (major, minor int) {\n\treturn 1,\n}\n",
        "4:10: Go syntax error",
    );
    check_lifecycle(
        "func (in *A) APILifecycleDeprecated() (major, minor int) { return 1, 2 }\n",
        "3:11: A has lifecycle methods but no APILifecycleIntroduced",
    );
    check_lifecycle(
        "func (in *A) APILifecycleIntroduced() (major, minor int) { return 1, 2 }\n\
         func (in *A) APILifecycleIntroduced() (major, minor int) { return 1, 3 }\n",
        "4:1: A has a second APILifecycleIntroduced method",
    );
    check_lifecycle(
        "func (in *A) APILifecycleIntroduced() (major, minor int) { return minor, 2 }\n",
        "3:67: expected an integer literal, found identifier",
    );
    check_lifecycle(
        "func (in *A) APILifecycleIntroduced() (major, minor int) { return 1 }\n",
        "3:60: expected `return MAJOR, MINOR`",
    );
    check_lifecycle(
        "func (in *A) APILifecycleIntroduced() (major, minor int) { x := 1; return x, 2 }\n",
        "3:58: expected the body of APILifecycleIntroduced to be a single `return` of literals",
    );
    check_lifecycle(
        "func (in *A) APILifecycleIntroduced() (major, minor int) { return 1, 99999999999 }\n",
        "3:70: `99999999999` is not a decimal integer in range",
    );
    check_lifecycle(
        "func (in *A) APILifecycleIntroduced() (major, minor int) { return 1, 2 }\n\
         func (in *A) APILifecycleReplacement() schema.GroupVersionKind { return other() }\n",
        "4:73: expected a schema.GroupVersionKind literal, found call expression",
    );
    check_lifecycle(
        "func (in *A) APILifecycleIntroduced() (major, minor int) { return 1, 2 }\n\
         func (in *A) APILifecycleReplacement() schema.GroupVersionKind { return schema.GroupVersionKind{Group: \"g\", Kind: \"B\"} }\n",
        "4:73: a replacement needs a Version and a Kind",
    );
    check_lifecycle(
        "func (in *A) APILifecycleIntroduced() (major, minor int) { return 1, 2 }\n\
         func (in *A) APILifecycleReplacement() schema.GroupVersionKind { return schema.GroupVersionKind{Group: \"g\\n\", Version: \"v1\", Kind: \"B\"} }\n",
        "4:104: escape sequences are not supported in this string",
    );
    check_lifecycle(
        "func (in *A) APILifecycleIntroduced() (major, minor int) { return 1, 2 }\n\
         func (in *A) APILifecycleReplacement() schema.GroupVersionKind { return schema.GroupVersionKind{\"g\", \"v1\", \"B\"} }\n",
        "4:97: expected `Field: value` (keyed fields)",
    );
    check_lifecycle(
        "func (in *A) APILifecycleIntroduced() (major, minor int) { return 1, 2 }\n\
         func (in *A) APILifecycleSunset() (major, minor int) { return 1, 3 }\n",
        "4:1: unknown lifecycle method APILifecycleSunset: prerelease-lifecycle-gen writes Introduced, Deprecated, Removed and Replacement",
    );
    check_lifecycle(
        "func (in *[]A) APILifecycleIntroduced() (major, minor int) { return 1, 2 }\n",
        "3:6: expected a receiver `(in *Kind)` on a lifecycle method",
    );
}

/// `group/version` of a register.go, or its errors.
#[track_caller]
fn check_register(text: &str, expected: &str) {
    let got = match parse_register(text) {
        Ok(r) => {
            let show = |l: &Option<xtask::k8s::package::Located>| {
                l.as_ref().map_or("-".to_owned(), |l| format!("{:?}", l.value))
            };
            format!("GroupName={} group={} version={}", show(&r.group_name), show(&r.group), show(&r.version))
        }
        Err(errors) => located(text, &errors),
    };
    assert_eq!(got, expected, "for:\n{text}");
}

#[test]
fn register_files() {
    check_register(
        "package v1\n\nconst GroupName = \"batch\"\n\nvar SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: \"v1\"}\n",
        r#"GroupName="batch" group="batch" version="v1""#,
    );
    check_register(
        "package v1\n\nconst (\n\tGroupName = \"apps\"\n\tother = 1\n)\n\nvar (\n\tSchemeBuilder = x\n\tSchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: \"v1beta2\"}\n)\n",
        r#"GroupName="apps" group="apps" version="v1beta2""#,
    );
    check_register(
        "package v1\n\nvar SchemeGroupVersion = schema.GroupVersion{Group: \"\", Version: \"v1\"}\n",
        r#"GroupName=- group="" version="v1""#,
    );
    check_register(
        "package v1\n\nvar SchemeGroupVersion = schema.GroupVersion{Version: \"v1\"}\n",
        r#"GroupName=- group="" version="v1""#,
    );
    check_register("package v1\n\nfunc init() {}\n", "GroupName=- group=- version=-");
    check_register(
        "package v1\n\nvar SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: \"v1\"}\n",
        "3:53: GroupName is used but not declared",
    );
    check_register(
        "package v1\n\nvar SchemeGroupVersion = makeGV()\n",
        "3:26: expected SchemeGroupVersion = schema.GroupVersion{...}",
    );
    check_register("package v1\n\nconst GroupName = 7\n", "3:19: expected a string literal, found int literal");
    check_register("package v1\n\nvar SchemeGroupVersion = schema.GroupVersion{\n", "3:1: Go syntax error");
}

#[test]
fn doc_group_tags() {
    let check = |text: &str, expected: Option<&str>| {
        let got = parse_doc_group(text).map(|g| g.map(|g| g.value));
        assert_eq!(got, Ok(expected.map(str::to_owned)), "for:\n{text}");
    };
    check("// +k8s:deepcopy-gen=package\n// +groupName=batch\n\n// Package v1 ...\npackage v1\n", Some("batch"));
    check("/*\n+groupName=apps\n*/\npackage v1\n", Some("apps"));
    check("// +groupName=\npackage v1\n", Some(""));
    check("package v1\n\n// +groupName=late\nvar x = 1\n", None);
    check("// just a comment\npackage v1\n", None);
}

#[test]
fn type_tags() {
    let check = |text: &str, expected: &str| {
        let got = match parse_type_tags(text) {
            Ok(tags) => tags
                .iter()
                .map(|t| {
                    let name = t.resource_name.as_deref().unwrap_or("-");
                    format!("{} resource={} name={name}", t.name, t.resource)
                })
                .collect::<Vec<_>>()
                .join("\n"),
            Err(errors) => located(text, &errors),
        };
        assert_eq!(got, expected.trim(), "for:\n{text}");
    };
    check(
        "package v1\n\n// +genclient\n// +genclient:nonNamespaced\n\n// Pod is a resource.\ntype Pod struct{}\n\n\
         // PodList is not.\ntype PodList struct{}\n\n// +genclient\n// +genclient:noVerbs\ntype Eviction struct{}\n\n\
         // +genclient\n// +resourceName=gizmoes\ntype Gizmo struct{}\n\n// +genclient\ntype (\n\tA struct{}\n\tB int\n)\n",
        "Pod resource=true name=-\nPodList resource=false name=-\nEviction resource=false name=-\n\
         Gizmo resource=true name=gizmoes\nA resource=true name=-\nB resource=true name=-",
    );
    // Tags above an earlier declaration do not carry over.
    check("package v1\n\n// +genclient\nvar x = 1\n\ntype Late struct{}\n", "Late resource=false name=-");
    check("package v1\n\ntype Broken struct {\n", "3:1: Go syntax error");
}

#[test]
fn supplements() {
    let check = |text: &str, expected: &str| {
        let got = match parse_supplement(text) {
            Ok(s) => format!("{} entries; endpoints={:?}", s.len(), s.resource_of("", "Endpoints"),),
            Err(errors) => located(text, &errors),
        };
        assert_eq!(got, expected, "for:\n{text}");
    };
    check("", "0 entries; endpoints=None");
    check(
        "[[resource]]\ngroup = \"\"\nkind = \"Endpoints\"\nresource = \"endpoints\"\nsource = \"registry\"\n",
        "1 entries; endpoints=Some(\"endpoints\")",
    );
    check(
        "[[resource]]\ngroup = \"\"\nkind = \"Endpoints\"\nresource = \"endpoints\"\nsource = \" \"\n",
        "5:10: every supplement entry names its source",
    );
    check(
        "[[resource]]\ngroup = \"\"\nkind = \"Endpoints\"\nresource = \"endpoints\"\n",
        "1:1: missing field `source`",
    );
    check(
        "[[colour]]\n",
        "1:3: unknown field `colour`, expected one of `resource`, `enabled_by_default`, `resource_type`, `replacement`",
    );
}

/// A package's methods spread over the generated file and a hand-written
/// one: merged per kind, each kind with the file of its first method, each
/// error with its file.
#[test]
fn lifecycles_over_two_files() {
    use xtask::k8s::lifecycle::parse_lifecycle_package;
    let generated =
        "package v1\n\nfunc (in *Endpoints) APILifecycleIntroduced() (major, minor int) {\n\treturn 1, 0\n}\n";
    let hand =
        "package v1\n\nfunc (in *Endpoints) APILifecycleDeprecated() (major, minor int) {\n\treturn 1, 33\n}\n\n\
                func (in *ComponentStatus) APILifecycleIntroduced() (major, minor int) {\n\treturn 1, 0\n}\n";
    let kinds = parse_lifecycle_package(&[generated, hand]).unwrap_or_else(|errors| panic!("{errors:?}"));
    let got: Vec<String> = kinds
        .iter()
        .map(|(k, file)| format!("{} {} {:?} file {file}", k.kind, k.introduced, k.deprecated.map(|v| v.to_string())))
        .collect();
    assert_eq!(got, ["Endpoints 1.0 Some(\"1.33\") file 0", "ComponentStatus 1.0 None file 1"]);
    // The same method in both files; a kind whose Introduced is nowhere.
    let cases = [
        (hand.replace("Deprecated", "Introduced"), "1 3:1: Endpoints has a second APILifecycleIntroduced method"),
        (hand.replace("Endpoints", "Other"), "1 3:11: Other has lifecycle methods but no APILifecycleIntroduced"),
    ];
    for (hand, expected) in cases {
        let errors = parse_lifecycle_package(&[generated, &hand]).expect_err("an error");
        let (file, error) = &errors[0];
        let texts = [generated, hand.as_str()];
        assert_eq!(format!("{file} {}", located(texts[*file], std::slice::from_ref(error))), expected);
    }
}
