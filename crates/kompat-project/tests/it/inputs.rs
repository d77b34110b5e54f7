//! The one input classification: which files of a directory count and what
//! each input is, with every file read once and I/O errors reported.

use std::path::Path;

use kompat_project::inputs::classify;

const FEATURES: &str = "- name: A\n  versionedSpecs:\n  - default: false\n    lockToDefault: false\n    preRelease: Alpha\n    version: \"1.30\"\n";
const CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n";
const POD: &str = "spec:\n  containers:\n  - args: [--feature-gates=A=true]\n";

/// Writes `files` into a fresh directory, classifies `named` (the directory
/// itself when `None`) and lists each input as `path kind [named]`.
#[track_caller]
fn check(files: &[(&str, &str)], named: Option<&str>, expected: &[&str]) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(&path, text).expect("write");
    }
    let path = named.map_or_else(|| dir.path().to_owned(), |n| dir.path().join(n));
    let inputs = classify(&[path]).unwrap_or_else(|err| panic!("{err}"));
    let got: Vec<String> = inputs
        .inputs
        .iter()
        .map(|i| {
            let rel = i.path().strip_prefix(dir.path()).unwrap_or(Path::new("?"));
            format!("{} {:?}{}", rel.display(), i.kind, if i.named { " named" } else { "" })
        })
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn directories() {
    check(
        &[
            ("Cargo.toml", "[package]\nname = \"x\"\n"),
            ("Dockerfile", "CMD [\"x\"]\n"),
            ("apis.toml", "[[api]]\n"),
            ("broken.toml", "[[feature]\n"),
            ("clippy.toml", "not toml ["),
            ("crd.yaml", CRD),
            ("crd.features.yaml", CRD),
            ("features.toml", "[[feature]]\nname = \"A\"\nspecs = []\n"),
            ("image.png", "\u{1}"),
            ("list.yaml", FEATURES),
            ("notes.md", "Run `x --feature-gates=A=true`.\n"),
            ("pod.yaml", POD),
            ("run.sh", "x\n"),
            ("src/lib.rs", "fn f() {}\n"),
            ("versioned_feature_list.yaml", FEATURES),
            ("x.features.yml", FEATURES),
        ],
        None,
        &[
            "Dockerfile Deployment",
            "apis.toml KompatToml",
            "broken.toml KompatToml",
            "crd.features.yaml CrdManifest",
            "crd.yaml CrdManifest",
            "features.toml KompatToml",
            "notes.md Deployment",
            "pod.yaml Deployment",
            "run.sh Deployment",
            "src/lib.rs Rust",
            "versioned_feature_list.yaml FeatureList",
            "x.features.yml FeatureList",
        ],
    );
}

#[test]
fn named_files() {
    let cases: [(&str, &str, &str); 9] = [
        ("list.yaml", FEATURES, "list.yaml FeatureList named"),
        ("pod.yaml", POD, "pod.yaml Deployment named"),
        // Not YAML at all: reported as a malformed feature list.
        ("broken.yaml", "a: [b\n", "broken.yaml FeatureList named"),
        ("empty.yaml", "[]\n", "empty.yaml Deployment named"),
        ("crd.yml", CRD, "crd.yml CrdManifest named"),
        ("Cargo.toml", "[package]\n", "Cargo.toml KompatToml named"),
        ("main.rs", "fn main() {}\n", "main.rs Rust named"),
        ("run.sh", "x\n", "run.sh Deployment named"),
        ("notes.txt", "x\n", "notes.txt Other named"),
    ];
    for (name, text, expected) in cases {
        check(&[(name, text)], Some(name), &[expected]);
    }
}

#[test]
fn io_errors_are_reported_with_their_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("missing.yaml");
    let not_utf8 = dir.path().join("run.sh");
    std::fs::write(&not_utf8, [0xff, 0xff]).expect("write");
    let err = match classify(&[missing.clone(), dir.path().to_owned()]) {
        Ok(inputs) => panic!("expected errors, got {} inputs", inputs.inputs.len()),
        Err(err) => err,
    };
    let got: Vec<(Option<&Path>, bool)> = err
        .diagnostics
        .iter()
        .map(|f| (f.location.as_ref().map(|l| l.path()), f.message.contains("missing.yaml")))
        .collect();
    assert_eq!(got, [(Some(missing.as_path()), true), (Some(not_utf8.as_path()), false)], "{err}");
}

/// Lists the objects of every input as `path GROUP/VERSION/KIND line:col`.
#[track_caller]
fn check_objects(files: &[(&str, &str)], expected: &[&str]) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    let inputs = classify(&[dir.path().to_owned()]).unwrap_or_else(|err| panic!("{err}"));
    let mut got = Vec::new();
    for input in &inputs.inputs {
        let rel = input.path().strip_prefix(dir.path()).unwrap_or(Path::new("?")).display().to_string();
        for o in input.manifest_objects().unwrap_or_else(|err| panic!("{err}")) {
            let (line, col) = o.location.line_col().unwrap_or((0, 0));
            got.push(format!("{rel} {}/{}/{} {line}:{col}", o.group, o.version, o.kind));
        }
    }
    assert_eq!(got, expected);
}

#[test]
fn manifests_in_yaml_json_and_crd_files() {
    check_objects(
        &[
            // The CRD is an object too: whether its apiVersion is served
            // depends on the target version, as for any other object.
            (
                "crd.yaml",
                "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n---\napiVersion: batch/v1beta1\nkind: CronJob\n",
            ),
            ("ingress.json", "{\n  \"apiVersion\": \"extensions/v1beta1\", \"kind\": \"Ingress\"\n}\n"),
            ("package.json", "{\"name\": \"x\"}\n"),
            ("pod.yaml", "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - args: [--feature-gates=A=true]\n"),
            ("template.yaml", "apiVersion: v1\nkind: {{ .Kind }\n"),
            ("values.yaml", "replicas: 1\n"),
        ],
        &[
            "crd.yaml apiextensions.k8s.io/v1beta1/CustomResourceDefinition 1:13",
            "crd.yaml batch/v1beta1/CronJob 4:13",
            "ingress.json extensions/v1beta1/Ingress 2:17",
            "pod.yaml /v1/Pod 1:13",
        ],
    );
    // A JSON file without an object is not read in a directory, and is
    // "other" when named.
    check(&[("package.json", "{\"name\": \"x\"}\n")], None, &[]);
    check(&[("package.json", "{\"name\": \"x\"}\n")], Some("package.json"), &["package.json Other named"]);
    check(&[("pod.json", "{\"apiVersion\": \"v1\", \"kind\": \"Pod\"}")], None, &["pod.json Deployment"]);
}

#[test]
fn json_crd_manifests() {
    let crd = "{\"apiVersion\": \"apiextensions.k8s.io/v1\", \"kind\": \"CustomResourceDefinition\"}";
    check(&[("widgets.json", crd)], None, &["widgets.json CrdManifest"]);
    check(&[("widgets.json", crd)], Some("widgets.json"), &["widgets.json CrdManifest named"]);
}

#[test]
fn manifests_beyond_the_limits_are_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let deep = format!("apiVersion: v1\nkind: Pod\nx: {}{}\n", "[".repeat(5000), "]".repeat(5000));
    std::fs::write(dir.path().join("deep.yaml"), deep).expect("write");
    let inputs = classify(&[dir.path().join("deep.yaml")]).unwrap_or_else(|err| panic!("{err}"));
    // Named and unparsable: reported as malformed when loaded as a feature list.
    assert!(inputs.inputs.iter().all(|i| i.manifest_objects().is_ok()));
    let inputs = classify(&[dir.path().to_owned()]).unwrap_or_else(|err| panic!("{err}"));
    let errors: Vec<String> =
        inputs.inputs.iter().filter_map(|i| i.manifest_objects().err()).map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("deep.yaml"), "{errors:?}");
}

#[test]
fn rbac_roles_in_yaml_and_json_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let files = [
        ("role.yaml", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: manager\nrules:\n- apiGroups: [extensions]\n  resources: [ingresses]\n  verbs: [get]\n"),
        ("roles.json", "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n {\"apiVersion\": \"rbac.authorization.k8s.io/v1\", \"kind\": \"Role\", \"metadata\": {\"name\": \"r\"}}]}\n"),
        ("template.yaml", "apiVersion: rbac.authorization.k8s.io/v1\nkind: {{ .Kind }\n"),
        ("script.sh", "kubectl create clusterrole x --verb=get --resource=pods\n"),
    ];
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    let inputs = classify(&[dir.path().to_owned()]).unwrap_or_else(|err| panic!("{err}"));
    let mut got = Vec::new();
    for input in &inputs.inputs {
        let rel = input.path().strip_prefix(dir.path()).unwrap_or(Path::new("?")).display().to_string();
        for role in input.rbac_roles() {
            let at = |l: &kompat_diag::Location| l.line_col().map_or("-".to_owned(), |(l, c)| format!("{l}:{c}"));
            let resources: Vec<String> = role
                .rules
                .iter()
                .flat_map(|r| &r.resources)
                .map(|r| format!("{}@{}", r.value, at(&r.location)))
                .collect();
            got.push(format!("{rel} {} {} {}", role.kind, at(&role.location), resources.join(",")));
        }
    }
    assert_eq!(got, ["role.yaml ClusterRole 4:9 ingresses@7:15", "roles.json Role 2:86 "]);
}
