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
