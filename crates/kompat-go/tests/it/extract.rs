//! Extraction rules of Kubernetes' compatibility_lifecycle tool, one small Go
//! file per case: what is read, what is skipped, and every error (located).

use kompat_span::LineIndex;

const HEADER: &str = "package features\n\nimport (\n\t\"k8s.io/apimachinery/pkg/util/version\"\n\t\"k8s.io/component-base/featuregate\"\n)\n\n";

/// Features as `Name[description]: version stage default lock [mcv]; ...`,
/// one per line, or the errors as `line:col: message`.
fn extract(text: &str) -> String {
    match kompat_go::parse_file(text) {
        Ok(file) => {
            assert_eq!(file.features.len(), file.keys.len());
            file.features
                .features()
                .iter()
                .map(|f| {
                    let specs: Vec<String> = f
                        .specs
                        .iter()
                        .map(|s| {
                            let v = |v: &Option<kompat_runtime::VersionLit>| {
                                v.as_ref().map_or("-".to_owned(), |v| {
                                    v.components().iter().map(u32::to_string).collect::<Vec<_>>().join(".")
                                })
                            };
                            let mut spec = format!("{} {} {} {}", v(&s.version), s.stage, s.default, s.lock_to_default);
                            if s.min_compatibility_version.is_some() {
                                spec.push_str(&format!(" mcv={}", v(&s.min_compatibility_version)));
                            }
                            spec
                        })
                        .collect();
                    let doc = f.description.as_ref().map(|d| format!("[{}]", d.replace('\n', "|"))).unwrap_or_default();
                    format!("{}{doc}: {}", f.name, specs.join("; "))
                })
                .collect::<Vec<_>>()
                .join("\n")
        }
        Err(errors) => {
            let lines = LineIndex::new(text);
            errors.iter().map(|e| e.located(&lines)).collect::<Vec<_>>().join("\n")
        }
    }
}

/// `body` after the standard header (package, version and featuregate imports).
fn check(body: &str, expected: &str) {
    let text = format!("{HEADER}{body}");
    assert_eq!(extract(&text), expected, "\n--- input ---\n{text}");
}

fn check_whole(text: &str, expected: &str) {
    assert_eq!(extract(text), expected, "\n--- input ---\n{text}");
}

#[test]
fn top_level_var_map() {
    check(
        "var gates = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tB: {\n\t\t{Version: version.MustParse(\"1.31\"), Default: false, PreRelease: featuregate.Alpha},\n\t\t{Version: version.MustParse(\"1.33\"), Default: true, PreRelease: featuregate.Beta},\n\t},\n\tA: {{Version: version.MustParse(\"1.0\"), Default: true, LockToDefault: true, PreRelease: featuregate.GA}},\n}\n",
        "B: 1.31 Alpha false false; 1.33 Beta true false\nA: 1.0 GA true true",
    );
}

#[test]
fn const_value_and_var_group() {
    check(
        "const unused = 1\n\nvar (\n\tother = 3\n\tgates = map[featuregate.Feature]featuregate.VersionedSpecs{\n\t\tA: {{Version: version.MustParse(\"1.2\"), PreRelease: featuregate.Beta}},\n\t}\n)\n",
        "A: 1.2 Beta false false",
    );
}

#[test]
fn returned_from_a_top_level_function() {
    check(
        "func Gates() map[featuregate.Feature]featuregate.VersionedSpecs {\n\treturn map[featuregate.Feature]featuregate.VersionedSpecs{\n\t\tA: {{Version: version.MustParse(\"0.4\"), PreRelease: featuregate.Alpha}},\n\t}\n}\n",
        "A: 0.4 Alpha false false",
    );
    // A method body counts like a function's.
    check(
        "func (r *registry) Gates() map[featuregate.Feature]featuregate.VersionedSpecs {\n\treturn map[featuregate.Feature]featuregate.VersionedSpecs{A: {{Version: version.MustParse(\"0.4\"), PreRelease: featuregate.Alpha}}}\n}\n",
        "A: 0.4 Alpha false false",
    );
}

#[test]
fn not_extracted() {
    // Returned from a nested block, assigned inside a function, a named map
    // type, another value type, a local variable: none is read.
    check(
        "func Gates() map[featuregate.Feature]featuregate.VersionedSpecs {\n\tif true {\n\t\treturn map[featuregate.Feature]featuregate.VersionedSpecs{A: {}}\n\t}\n\tm := map[featuregate.Feature]featuregate.VersionedSpecs{B: {}}\n\treturn m\n}\n\ntype specs map[featuregate.Feature]featuregate.VersionedSpecs\n\nvar c = specs{C: {}}\n\nvar d = map[featuregate.Feature]featuregate.FeatureSpec{D: {Default: true}}\n\nvar e = map[featuregate.Feature]other.VersionedSpecs{E: {}}\n",
        "",
    );
}

#[test]
fn several_maps_keep_every_entry() {
    check(
        "var a = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tA: {{Version: version.MustParse(\"1.31\"), PreRelease: featuregate.Alpha}},\n}\n\nvar b = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tA: {{Version: version.MustParse(\"1.31\"), PreRelease: featuregate.Alpha}},\n\tB: {{Version: version.MustParse(\"1.32\"), PreRelease: featuregate.Alpha}},\n}\n",
        "A: 1.31 Alpha false false\nA: 1.31 Alpha false false\nB: 1.32 Alpha false false",
    );
}

#[test]
fn feature_name_is_the_key_identifier() {
    // The constant's string is not read: the key's last selector is the name.
    check(
        "const RuntimeClassInImageCriApi featuregate.Feature = \"RuntimeClassInImageCriAPI\"\n\nvar m = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tRuntimeClassInImageCriApi: {{Version: version.MustParse(\"1.29\"), PreRelease: featuregate.Alpha}},\n\tgenericfeatures.APIListChunking: {{Version: version.MustParse(\"1.8\"), PreRelease: featuregate.GA, Default: true}},\n}\n",
        "RuntimeClassInImageCriApi: 1.29 Alpha false false\nAPIListChunking: 1.8 GA true false",
    );
}

#[test]
fn import_alias() {
    check_whole(
        "package features\n\nimport (\n\tfg \"k8s.io/component-base/featuregate\"\n\tv \"k8s.io/apimachinery/pkg/util/version\"\n)\n\nvar a = map[fg.Feature]fg.VersionedSpecs{\n\tA: {{Version: v.MustParse(\"1.31\"), PreRelease: fg.Beta}},\n}\n\n// Under the alias, the package's own name does not match.\nvar b = map[featuregate.Feature]featuregate.VersionedSpecs{B: {}}\n",
        "A: 1.31 Beta false false",
    );
}

#[test]
fn files_without_the_featuregate_import_declare_nothing() {
    check_whole(
        "package features\n\nimport \"example.io/featuregate\"\n\nvar a = map[featuregate.Feature]featuregate.VersionedSpecs{A: {{Version: version.MustParse(\"1.31\"), PreRelease: featuregate.Beta}}}\n",
        "",
    );
    // A raw-string import is not the literal Kubernetes' tool compares with.
    check_whole(
        "package features\n\nimport `k8s.io/component-base/featuregate`\n\nvar a = map[featuregate.Feature]featuregate.VersionedSpecs{A: {{Version: version.MustParse(\"1.31\"), PreRelease: featuregate.Beta}}}\n",
        "",
    );
}

#[test]
fn booleans_from_same_file_constants() {
    check(
        "const (\n\ton = true\n\talias = on\n)\n\nvar off = false\n\nvar m = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tA: {{Version: version.MustParse(\"1.31\"), Default: alias, LockToDefault: off, PreRelease: featuregate.GA}},\n}\n",
        "A: 1.31 GA true false",
    );
}

#[test]
fn versions() {
    check(
        "var m = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tA: {\n\t\t{Version: version.MajorMinor(0, 9), PreRelease: featuregate.Alpha},\n\t\t{Version: version.MajorMinor(0, 10), PreRelease: featuregate.Beta},\n\t\t{Version: version.MustParse(\"0.10\"), Default: true, PreRelease: featuregate.Beta, MinCompatibilityVersion: version.MajorMinor(0, 10)},\n\t},\n}\n",
        "A: 0.9 Alpha false false; 0.10 Beta false false; 0.10 Beta true false mcv=0.10",
    );
}

#[test]
fn typed_spec_literals_and_unknown_keys() {
    check(
        "var m = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tA: featuregate.VersionedSpecs{\n\t\tfeaturegate.FeatureSpec{Version: version.MustParse(\"1.31\"), PreRelease: featuregate.Deprecated, Owner: \"x\"},\n\t},\n}\n",
        "A: 1.31 Deprecated false false",
    );
}

#[test]
fn a_value_that_is_not_a_literal_has_no_specs() {
    check("var m = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tA: specsOfA,\n}\n", "A: ");
}

#[test]
fn doc_comments_become_descriptions() {
    check(
        "const (\n\t// owner: @someone\n\t//\n\t// Enables the widget cache.\n\tWidgetCache featuregate.Feature = \"WidgetCache\"\n\n\t// Not the doc: a blank line follows.\n\n\tBare featuregate.Feature = \"Bare\"\n)\n\n// Single declaration.\nconst Single featuregate.Feature = \"Single(\"\n\nvar m = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tWidgetCache: {{Version: version.MustParse(\"1.31\"), PreRelease: featuregate.Alpha}},\n\tBare: {{Version: version.MustParse(\"1.31\"), PreRelease: featuregate.Alpha}},\n\tSingle: {{Version: version.MustParse(\"1.31\"), PreRelease: featuregate.Alpha}},\n}\n",
        "WidgetCache[owner: @someone||Enables the widget cache.]: 1.31 Alpha false false\nBare: 1.31 Alpha false false\nSingle[Single declaration.]: 1.31 Alpha false false",
    );
}

#[test]
fn errors() {
    let map = |spec: &str| {
        format!("var m = map[featuregate.Feature]featuregate.VersionedSpecs{{\n\tA: {{\n\t\t{spec},\n\t}},\n}}\n")
    };
    let cases = [
        ("&featuregate.FeatureSpec{}", "10:3: expect FeatureSpec to be a CompositeLit"),
        ("{version.MustParse(\"1.31\"), false}", "10:4: cannot parse FeatureSpec"),
        ("{Version: \"1.31\", PreRelease: featuregate.Beta}", "10:13: expect FeatureSpec Version to be a function call"),
        ("{Version: version.Parse(\"1.31\"), PreRelease: featuregate.Beta}", "10:13: unrecognized function call in FeatureSpec Version"),
        ("{Version: version.MustParse(v131), PreRelease: featuregate.Beta}", "10:31: cannot parse a non BasicLit to basicStringLiteral"),
        ("{Version: version.MustParse(), PreRelease: featuregate.Beta}", "10:30: cannot parse a non BasicLit to basicStringLiteral"),
        ("{Version: version.MustParse(131), PreRelease: featuregate.Beta}", "10:31: cannot parse a non STRING token to basicStringLiteral"),
        ("{Version: version.MajorMinor(one, 31), PreRelease: featuregate.Beta}", "10:32: cannot parse a non BasicLit to basicIntLiteral"),
        ("{Version: version.MajorMinor(1, \"31\"), PreRelease: featuregate.Beta}", "10:35: cannot parse a non INT token to basicIntLiteral"),
        ("{Version: version.MajorMinor(0x1, 31), PreRelease: featuregate.Beta}", "10:32: strconv.ParseInt: parsing \"0x1\": invalid syntax"),
        ("{Version: version.MajorMinor(1, 99999999999999999999), PreRelease: featuregate.Beta}", "10:35: strconv.ParseInt: parsing \"99999999999999999999\": value out of range"),
        ("{Version: version.MajorMinor(1, 9999999999), PreRelease: featuregate.Beta}", "10:31: invalid version \"1.9999999999\": version component out of range"),
        ("{Version: version.MustParse(\"v1.31\"), PreRelease: featuregate.Beta}", "10:31: invalid version \"v1.31\": version components must be non-negative integers"),
        ("{Version: version.MustParse(\"1.31\"), Default: yes, PreRelease: featuregate.Beta}", "10:49: cannot parse yes into bool"),
        ("{Version: version.MustParse(\"1.31\"), Default: !false, PreRelease: featuregate.Beta}", "10:49: cannot parse  into bool"),
        ("{Version: version.MustParse(\"1.31\"), Default: pkg.On, PreRelease: featuregate.Beta}", "10:49: cannot parse pkg.On into bool"),
        ("{Version: version.MustParse(\"1.31\"), PreRelease: featuregate.PreAlpha}", "10:52: unknown PreRelease `featuregate.PreAlpha`, expected one of `Alpha`, `Beta`, `GA`, `Deprecated`"),
        ("{Version: version.MustParse(\"1.31\"), PreRelease: \"Beta\"}", "10:52: unknown PreRelease `\"Beta\"`, expected one of `Alpha`, `Beta`, `GA`, `Deprecated`"),
        ("{Version: version.MustParse(\"1.31\")}", "10:3: FeatureSpec has no PreRelease"),
        (
            "{Version: version.MustParse(\"1.32\"), PreRelease: featuregate.Beta},\n\t\t{Version: version.MustParse(\"1.31\"), PreRelease: featuregate.GA}",
            "11:13: VersionedSpecs in feature A are not ordered by version, diff: 1.31 comes after 1.32",
        ),
    ];
    let mismatches: Vec<String> = cases
        .iter()
        .filter_map(|(spec, expected)| {
            let got = extract(&format!("{HEADER}{}", map(spec)));
            (got != *expected).then(|| format!("{spec}\n  expected: {expected}\n  got:      {got}"))
        })
        .collect();
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn boolean_cycles_are_errors() {
    check(
        "const (\n\ta = b\n\tb = a\n)\n\nvar m = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tA: {{Version: version.MustParse(\"1.31\"), Default: a, PreRelease: featuregate.Beta}},\n}\n",
        "10:6: cannot parse a into bool",
    );
}

#[test]
fn map_keys_must_be_identifiers() {
    check(
        "var m = map[featuregate.Feature]featuregate.VersionedSpecs{\n\t\"A\": {},\n}\n",
        "9:2: cannot read a feature name from this map key: expected the feature's constant (`MyFeature` or `features.MyFeature`)",
    );
}

#[test]
fn syntax_errors_are_located() {
    check_whole(
        "package features\n\nvar x = map[string]int{\"a\": 1\n",
        "3:1: cannot parse Go source: unexpected `var`",
    );
    check_whole("package features\n\nfunc f() {\n\tx := ) 1\n}\n", "4:7: cannot parse Go source: unexpected `)`");
}

#[test]
fn package_and_imports_are_reported() {
    let file = kompat_go::parse_file(
        "package widgets\n\nimport (\n\t\"fmt\"\n\tfg \"k8s.io/component-base/featuregate\"\n\t_ \"embed\"\n)\n",
    );
    let file = match &file {
        Ok(file) => file,
        Err(errors) => panic!("{errors:?}"),
    };
    assert_eq!(file.package, "widgets");
    let imports: Vec<(String, Option<String>)> =
        file.imports.iter().map(|i| (i.path.clone(), i.name.clone())).collect();
    assert_eq!(
        imports,
        [
            ("fmt".to_owned(), None),
            ("k8s.io/component-base/featuregate".to_owned(), Some("fg".to_owned())),
            ("embed".to_owned(), Some("_".to_owned()))
        ]
    );
    assert!(file.imports_featuregate());
}

#[test]
fn mentions_featuregate_is_the_quoted_import_path() {
    assert!(kompat_go::mentions_featuregate(b"import \"k8s.io/component-base/featuregate\"\n"));
    assert!(!kompat_go::mentions_featuregate(b"// see k8s.io/component-base/featuregate\n"));
    assert!(!kompat_go::mentions_featuregate(b"import \"k8s.io/component-base/featuregate/testing\"\n"));
}
