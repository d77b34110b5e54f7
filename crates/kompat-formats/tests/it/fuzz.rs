//! Bounded, deterministic mutation fuzzing of the declaration parsers: no
//! input may make them panic, and whatever parses must render and parse back.

use kompat_formats::{parse_k8s_yaml, parse_toml, render_k8s_yaml, render_toml};

const YAML_SEED: &str = "# header\n\n- name: WatchList\n  versionedSpecs:\n  - default: false\n    lockToDefault: false\n    preRelease: Alpha\n    version: \"1.27\"\n  - default: true\n    lockToDefault: false\n    preRelease: Beta\n    version: \"1.32\"\n    minCompatibilityVersion: \"1.31\"\n- name: KMSv1\n  versionedSpecs: []\n";

const TOML_SEED: &str = "[[feature]]\nname = \"WatchList\"\ndescription = \"d\"\ndependencies = [\"KMSv1\"]\nratchet = { tolerated_since = \"1.31\" }\nspecs = [\n  { version = \"1.27\", stage = \"Alpha\", default = false },\n  { version = \"1.32\", stage = \"Beta\", default = true, lockToDefault = true, minCompatibilityVersion = \"1.31\" },\n]\n\n[[feature]]\nname = \"KMSv1\"\nspecs = []\n";

use kompat_testkit::mutate;

use mutate::{mutate, Rng};

#[test]
fn yaml_parser_never_panics() {
    let mut rng = Rng(0x6b6f_6d70_6174_0001);
    let mut accepted = 0;
    for _ in 0..mutate::iterations(3000) {
        let input = mutate(YAML_SEED, &mut rng);
        if let Ok(file) = parse_k8s_yaml(&input) {
            accepted += 1;
            let rendered = render_k8s_yaml(file.features());
            let again = parse_k8s_yaml(&rendered).expect("rendered YAML parses");
            assert_eq!(render_k8s_yaml(again.features()), rendered, "input:\n{input}");
        }
    }
    assert!(accepted > 0, "the mutations never produced a valid file");
}

#[test]
fn toml_parser_never_panics() {
    let mut rng = Rng(0x6b6f_6d70_6174_0002);
    let mut accepted = 0;
    for _ in 0..mutate::iterations(3000) {
        let input = mutate(TOML_SEED, &mut rng);
        if let Ok(file) = parse_toml(&input) {
            accepted += 1;
            let rendered = render_toml(file.features.features());
            let again = parse_toml(&rendered).expect("rendered TOML parses");
            assert_eq!(again.features.features(), file.features.features(), "input:\n{input}");
        }
    }
    assert!(accepted > 0, "the mutations never produced a valid file");
}

const API_SEED: &str = "[[api]]\ngroup = \"batch\"\nversion = \"v1beta1\"\nkind = \"CronJob\"\nresource = \"cronjobs\"\nintroduced = \"1.8\"\ndeprecated = \"1.21\"\nremoved = \"1.25\"\nreplacement = \"batch/v1/CronJob\"\nenabled_by_default = true\n\n[[api]]\ngroup = \"batch\"\nversion = \"v1\"\nkind = \"CronJob\"\nresource = \"cronjobs\"\nintroduced = \"1.21\"\n\n[groups.\"batch\"]\npriority = [\"v1\", \"v1beta1\"]\n\n[storage_overrides]\n\"batch/cronjobs\" = { version = \"v1\", until = \"1.38\" }\n";

/// API declarations: parsing and building the API set (every check of
/// `ApiSet::build`) never panic, and every error is located in the input.
#[test]
fn api_toml_parser_never_panics() {
    let mut rng = Rng(0x6b6f_6d70_6174_0003);
    let (mut accepted, mut built) = (0, 0);
    for _ in 0..mutate::iterations(3000) {
        let input = mutate(API_SEED, &mut rng);
        match kompat_formats::parse_toml(&input).map(|file| file.apis) {
            Ok(file) => {
                accepted += 1;
                match file.build() {
                    Ok(_) => built += 1,
                    Err(errors) => {
                        for e in errors {
                            let span = e.span.unwrap_or_else(|| panic!("unlocated: {}\n{input}", e.message));
                            assert!(span.end <= input.len(), "{}\n{input}", e.message);
                        }
                    }
                }
            }
            Err(errors) => assert!(!errors.is_empty(), "{input}"),
        }
    }
    assert!(accepted > 0 && built > 0, "accepted {accepted}, built {built}");
}

const DEPLOY_SEED: &str = "kind: KubeletConfiguration\nfeatureGates:\n  A: true\n  \"B\": \"false\"\napiServer:\n  extraArgs:\n    feature-gates: \"C=true,D=false\"\n  extra:\n  - name: feature-gates\n    value: E=1\nspec:\n  containers:\n  - args: [\"--feature-gates=F=true,G=false\", '--feature-gates H=T', --runtime-config, api/all=true]\n---\nkind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nfeatureGates: {I: yes, J: \"no\"}\nruntimeConfig: {api/alpha: \"false\"}\nkubeadmConfigPatches:\n- |\n  kind: ClusterConfiguration\n  apiServer:\n    extraArgs:\n      feature-gates: K=true,L=maybe\n- \"kind: KubeletConfiguration\\nfeatureGates:\\n  M: on\\n\"\n";

/// Deployment material: no mutation makes the gate-setting scanner panic,
/// as YAML or as text, every setting it finds is inside the text, and a
/// limit error is located.
#[test]
fn deployment_scanner_never_panics() {
    use kompat_formats::deploy::{gate_settings, Material};
    let mut rng = Rng(0x6b6f_6d70_6174_0004);
    let mut found = 0;
    for _ in 0..mutate::iterations(3000) {
        let input = mutate(DEPLOY_SEED, &mut rng);
        for material in [Material::Yaml, Material::HelmValues, Material::Text, Material::Markdown] {
            match gate_settings(&input, material) {
                Ok(settings) => {
                    for setting in settings {
                        found += 1;
                        let span = setting.location;
                        assert!(span.start <= span.end && span.end <= input.len(), "{span:?}\n{input}");
                    }
                }
                Err(err) => assert!(err.span.is_some(), "unlocated: {}\n{input}", err.message),
            }
        }
    }
    assert!(found > 0, "the mutations never kept a setting");
}

const RBAC_SEEDS: [&str; 3] = [
    "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\nrules:\n- apiGroups: [\"\", apps]\n  resources: [pods, deployments/scale, \"*\"]\n  verbs: [get, list]\n  resourceNames: [a]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: n}\naggregationRule:\n  clusterRoleSelectors: []\nrules: []\n",
    "apiVersion: v1\nkind: List\nitems:\n- apiVersion: rbac.authorization.k8s.io/v1\n  kind: Role\n  metadata:\n    name: &n x\n  rules:\n  - apiGroups: [networking.k8s.io]\n    resources: &r [ingresses, ingresses/status]\n    verbs: [\"*\"]\n  - resources: *r\n    verbs: [*n]\n- apiVersion: v1\n  kind: RoleList\n  items: []\n",
    "{\"apiVersion\": \"rbac.authorization.k8s.io/v1\", \"kind\": \"ClusterRoleList\", \"items\": [{\"apiVersion\": \"rbac.authorization.k8s.io/v1\", \"kind\": \"ClusterRole\", \"metadata\": {\"name\": \"j\"}, \"rules\": [{\"apiGroups\": [\"batch\"], \"resources\": [\"cronjobs\"], \"verbs\": [\"create\"]}]}]}\n",
];

/// The text a role holds, in bytes.
fn role_bytes(role: &kompat_formats::rbac::Role) -> usize {
    role.kind.len()
        + role.name.as_ref().map_or(0, String::len)
        + role
            .rules
            .iter()
            .map(|r| {
                let strings =
                    r.api_groups.iter().chain(&r.verbs).chain(&r.resource_names).map(String::len).sum::<usize>();
                strings + r.resources.iter().map(|l| l.value.len()).sum::<usize>()
            })
            .sum::<usize>()
}

/// RBAC roles from YAML and JSON manifests (`List` items too): no panic,
/// every location inside the input, and no more text out than the parsed
/// documents hold (aliases are bounded by the YAML parser).
#[test]
fn rbac_reader_never_panics() {
    let mut rng = Rng(0x6b6f_6d70_6174_0101);
    let mut roles = 0;
    for i in 0..mutate::iterations(6000) {
        let input = mutate(RBAC_SEEDS[i % RBAC_SEEDS.len()], &mut rng);
        let Ok(docs) = kompat_formats::yaml::parse_documents(&input) else { continue };
        let found = kompat_formats::rbac::roles_in(&docs);
        roles += found.len();
        let bytes: usize = found.iter().map(role_bytes).sum();
        assert!(bytes <= 64 * input.len() + 64, "{bytes} bytes of roles from\n{input}");
        for role in &found {
            let spans = std::iter::once(role.location)
                .chain(role.rules.iter().flat_map(|r| r.resources.iter().map(|l| l.location)));
            for span in spans {
                assert!(span.start <= span.end && span.end <= input.len(), "{span:?} in\n{input}");
            }
        }
    }
    assert!(roles > 0, "the mutations never produced a role");
}

/// Regression cases: deeply nested `List`s, an alias-heavy role, and many
/// tiny roles stay bounded (the parser's limits are input errors).
#[test]
fn rbac_reader_of_extreme_shapes_is_bounded() {
    let mut nested = String::new();
    for depth in 0..2000 {
        nested.push_str(&format!("{}- {{apiVersion: v1, kind: List, items: \n", " ".repeat(depth % 8)));
    }
    let _ = kompat_formats::yaml::parse_documents(&nested).map(|docs| kompat_formats::rbac::roles_in(&docs));
    let json =
        format!("{}{}", "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [".repeat(5000), "]}".repeat(5000));
    if let Ok(docs) = kompat_formats::yaml::parse_documents(&json) {
        assert!(kompat_formats::rbac::roles_in(&docs).is_empty());
    }
    let mut bomb = String::from("a: &a [get, get, get, get, get, get, get, get, get, get]\n");
    for level in 0..12 {
        bomb.push_str(&format!(
            "b{level}: &b{level} [{}]\n",
            vec![if level == 0 { "*a".to_owned() } else { format!("*b{}", level - 1) }; 10].join(", ")
        ));
    }
    bomb.push_str("apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nrules:\n- resources: [pods]\n  verbs: *b11\n");
    if let Ok(docs) = kompat_formats::yaml::parse_documents(&bomb) {
        let bytes: usize = kompat_formats::rbac::roles_in(&docs).iter().map(role_bytes).sum();
        assert!(bytes < 64 << 20, "{bytes}");
    }
    let many = "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nrules: [{resources: [a], verbs: [b]}]\n"
        .repeat(20_000);
    let docs = kompat_formats::yaml::parse_documents(&many).expect("many small roles parse");
    assert_eq!(kompat_formats::rbac::roles_in(&docs).len(), 20_000);
}

/// `is_template`: no panic on any line (a `{{` at the end, multi-byte
/// characters beside it), and a file with no `{{` is never a template.
#[test]
fn is_template_never_panics() {
    let seeds = [
        "kind: ConfigMap\ndata:\n  a: \"{{ .Values.x }}\"\n",
        "é{{\n}}ü\n{{é}}",
        "a: {{\nb: }}\n{{- if .Values.x }}\n",
    ];
    let mut rng = Rng(0x6b6f_6d70_6174_0102);
    let mut templates = 0;
    for i in 0..mutate::iterations(20000) {
        let input = mutate(seeds[i % seeds.len()], &mut rng);
        let template = kompat_formats::yaml::is_template(&input);
        templates += usize::from(template);
        assert!(!template || input.contains("{{"), "{input}");
    }
    assert!(templates > 0);
    for text in ["{{", "{{}", "{{é", "é{{}}", "{{\u{0}}}", "}}{{", &"{{".repeat(100_000)] {
        let _ = kompat_formats::yaml::is_template(text);
    }
}
