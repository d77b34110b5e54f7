//! The token reading of references (`kompat_go::references`) against the
//! syntax tree's (`kompat_go::references_parsed`): the same references on
//! small cases, on every Go fixture of the repository, on files shaped like
//! `scripts/gen-go-tree`'s, and on every mutation of a user file that still
//! parses; and the same references for a gate whatever the number of other
//! gates declared.

use std::collections::BTreeSet;
use std::path::Path;

use kompat_go::{GatePackage, GoRef};
use kompat_span::LineIndex;
use kompat_testkit::mutate::{iterations, mutate, Rng};

/// A package `example.io/app/features` (package clause `features`)
/// declaring gates A and B.
fn package_ab() -> GatePackage {
    GatePackage {
        package: "features".to_owned(),
        gates: BTreeSet::from(["A".to_owned(), "B".to_owned()]),
        ..GatePackage::default()
    }
}

fn render(text: &str, found: &[GoRef]) -> String {
    let lines = LineIndex::new(text);
    found
        .iter()
        .map(|r| {
            let (line, col) = lines.line_col(r.span.start);
            format!("{line}:{col} {}", r.gate)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Both readings of `text` with `resolve`, rendered: `(tokens, tree)`.
fn both<'p>(text: &str, resolve: impl Fn(&str) -> Option<&'p GatePackage> + Copy) -> (String, String) {
    let show = |found: Result<Vec<GoRef>, _>| match found {
        Ok(found) => render(text, &found),
        Err(errors) => format!("{errors:?}"),
    };
    (show(kompat_go::references(text, resolve)), show(kompat_go::references_parsed(text, resolve)))
}

/// The references of a file importing `imports` with `body`, read both
/// ways: they must agree.
#[track_caller]
fn read(imports: &str, body: &str) -> String {
    let text = format!("package user\n\nimport (\n{imports}\n)\n\n{body}\n");
    let package = package_ab();
    let (tokens, tree) = both(&text, |path| (path == "example.io/app/features").then_some(&package));
    assert_eq!(tokens, tree, "the readings differ on\n{text}");
    tokens
}

const PLAIN: &str = "\t\"example.io/app/features\"";

#[test]
fn tokens_read_as_the_tree_does() {
    let cases: &[(&str, &str, &str)] = &[
        (PLAIN, "var x = features.A", "7:18 A"),
        (PLAIN, "var x = features.A; var y = features.B", "7:18 A, 7:38 B"),
        (PLAIN, "func f() bool { return g.Enabled(features.A) && features.B == \"\" }", "7:43 A, 7:58 B"),
        // Whitespace and comments between the tokens.
        (PLAIN, "var x = features.\n\tA", "8:2 A"),
        (PLAIN, "var x = features /* c */ . /* d */ B", "7:36 B"),
        (PLAIN, "var x = features. // c\n\tA", "8:2 A"),
        // Not in comments, strings, raw strings or runes.
        (PLAIN, "// features.A\nvar x = 1 /* features.B */", ""),
        (PLAIN, "var x = \"features.A\" + `features.B`", ""),
        (PLAIN, "var x = \"\\\"features.A\" + features.B", "7:35 B"),
        (PLAIN, "var x = `a\nfeatures.A\n` + features.B", "9:14 B"),
        (PLAIN, "var x, y = '\\'', features.A", "7:27 A"),
        (PLAIN, "var x = \"/*\" + features.A + \"*/\"", "7:25 A"),
        // A field of something else, another name, an undeclared gate.
        (PLAIN, "var x = s.features.A", ""),
        (PLAIN, "var x = f().features.A", ""),
        (PLAIN, "var x = feature.A + features.C + features.Enabled", ""),
        (PLAIN, "var x = features.A.B", "7:18 A"),
        (PLAIN, "var x = 1.5 + features.A", "7:24 A"),
        // Composite literals, calls, conversions, keys of other maps.
        (PLAIN, "var m = map[string]bool{string(features.A): true}", "7:41 A"),
        (PLAIN, "var s = []any{features.A, features.B}", "7:24 A, 7:36 B"),
        // Import names.
        ("\tfeats \"example.io/app/features\"", "var x = feats.A + features.B", "7:15 A"),
        ("\t_ \"example.io/app/features\"", "var x = features.A", ""),
        ("\t. \"example.io/app/features\"", "var x = features.A", ""),
        ("\t\"example.io/other/features\"", "var x = features.A", ""),
        ("\tf1 \"example.io/app/features\"; f2 \"example.io/app/features\"", "var x = f1.A + f2.B", "7:12 A, 7:19 B"),
        ("\t`example.io/app/features`", "var x = features.A", "7:18 A"),
        // Unicode identifiers and text.
        (PLAIN, "var é = \"é\" + features.A // é", "7:24 A"),
        // Shadowing is not the tree's concern either: a local of the import's
        // name still counts.
        (PLAIN, "func f(features struct{ A int }) int {\n\treturn features.A\n}", "8:18 A"),
        // Spec maps: the tree tells keys from references.
        (
            "\t\"example.io/app/features\"\n\t\"k8s.io/component-base/featuregate\"",
            "var m = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tfeatures.A: {},\n}\nvar n = map[featuregate.Feature]bool{features.B: true}",
            "11:47 B",
        ),
        // Syntax the grammar has not learnt yet: tokens still count.
        (PLAIN, "func f() *int {\n\t_ = features.A\n\treturn new(int32(5) + 1)\n}", "8:15 A"),
    ];
    let mut wrong = Vec::new();
    for (imports, body, expected) in cases {
        let got = read(imports, body);
        if got != *expected {
            wrong.push(format!("{body:?}: {got:?}, not {expected:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn headers_of_every_shape() {
    let package = package_ab();
    let resolve = |path: &str| (path == "example.io/app/features").then_some(&package);
    let cases = [
        ("package user\nimport \"example.io/app/features\"\nvar x = features.A\n", "3:18 A"),
        ("package user; import \"example.io/app/features\"; var x = features.A", "1:66 A"),
        ("// Doc.\npackage user\n\nimport \"fmt\"\nimport f \"example.io/app/features\"\n\nvar x = f.A\n", "7:11 A"),
        ("package user\nimport ()\nimport (\n)\nvar x = features.A\n", ""),
        ("package user\n\nvar x = features.A\n", ""),
        // An import after a declaration, an unterminated string or comment:
        // the tree decides.
        ("package user\nvar x = features.A\nimport \"example.io/app/features\"\n", ""),
        ("package user\nimport \"example.io/app/features\"\nvar x = features.A + \"\n", ""),
        ("package user\nimport \"example.io/app/features\"\nvar x = features.A /*", ""),
        ("package user\nimport \"example.io/app/features\"\nvar x = features.A\nvar y = `", ""),
    ];
    for (text, expected) in cases {
        let (tokens, tree) = both(text, resolve);
        assert_eq!(tokens, tree, "the readings differ on\n{text}");
        if tree == expected || text.contains("+ \"") || text.ends_with(['*', '`']) || text.contains("A\nimport") {
            // Broken text: whatever the tree recovers, the token reading
            // agrees (it gives the file to the tree).
            continue;
        }
        assert_eq!(tokens, expected, "\n{text}");
    }
}

/// Every identifier of `text`: the gates a package may declare, so that
/// every selector on an imported package is a candidate.
/// Names the fixtures use as types are left out: the tree reads `pkg.T` in
/// a type as a type, the tokens cannot tell, and a gate, a constant, is
/// never a type in Go that compiles.
fn identifiers(text: &str) -> BTreeSet<String> {
    const TYPES: &[&str] = &["Feature", "GroupVersion", "GroupVersionKind"];
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_'))
        .filter(|w| !TYPES.contains(w))
        .map(str::to_owned)
        .collect()
}

/// Both readings of `text`, every import resolving to a package named after
/// its path's last element that declares every identifier of the text.
fn both_any_import(text: &str) -> (String, String) {
    let gates = identifiers(text);
    let packages: std::collections::HashMap<String, GatePackage> = text
        .split('"')
        .filter(|s| !s.is_empty() && !s.contains(char::is_whitespace))
        .map(|path| {
            let name = path.rsplit('/').next().unwrap_or(path).to_owned();
            (path.to_owned(), GatePackage { package: name, gates: gates.clone(), ..GatePackage::default() })
        })
        .collect();
    both(text, |path| packages.get(path))
}

fn go_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            go_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "go") {
            out.push(path);
        }
    }
}

#[test]
fn every_go_fixture_reads_the_same_with_its_own_references() {
    // A file of a declaring package: one reading for both kinds of
    // references gives what the two readings give.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut files = Vec::new();
    go_files(&root, &mut files);
    let mut found = 0;
    let mut kept_trees = 0;
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let clause = text.lines().find_map(|l| l.strip_prefix("package ")).unwrap_or_default().trim();
        let names = identifiers(&text);
        let package = GatePackage { package: clause.to_owned(), gates: names.clone(), own: names };
        let resolve = |import: &str| import.ends_with("/features").then_some(&package);
        let both = kompat_go::references_with_own(&text, resolve, &package).map(|r| render(&text, &r));
        let apart = kompat_go::references_parsed(&text, resolve).and_then(|mut refs| {
            refs.extend(kompat_go::own_references(&text, &package)?);
            refs.sort_by_key(|r| r.span.start);
            Ok(render(&text, &refs))
        });
        assert_eq!(format!("{both:?}"), format!("{apart:?}"), "{}", path.display());
        // From the tree its declarations were read from, when they read.
        if let Ok((_, syntax)) = kompat_go::parse_declarations_keeping(&text) {
            let kept = render(&text, &kompat_go::references_with_own_kept(&text, &syntax, resolve, &package));
            assert_eq!(format!("{:?}", Ok::<_, ()>(kept)), format!("{both:?}"), "{}", path.display());
            kept_trees += 1;
        }
        found += usize::from(both.is_ok_and(|r| !r.is_empty()));
    }
    assert!(found > 5, "only {found} fixtures have references");
    assert!(kept_trees > 5, "only {kept_trees} fixtures read with their declarations' tree");
}

#[test]
fn every_go_fixture_reads_the_same() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut files = Vec::new();
    go_files(&root, &mut files);
    assert!(files.len() > 40, "{} Go fixtures under {}", files.len(), root.display());
    let mut found = 0;
    let mut differ = Vec::new();
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let (tokens, tree) = both_any_import(&text);
        if tokens != tree {
            differ.push(format!("{}: {tokens:?} by tokens, {tree:?} by the tree", path.display()));
        }
        found += usize::from(!tree.is_empty());
    }
    assert!(differ.is_empty(), "the readings differ on\n{}", differ.join("\n"));
    assert!(found > 5, "only {found} fixtures have references");
}

/// A user file as `scripts/gen-go-tree` writes them: a gate check, a
/// mention in a comment, or neither, then helpers.
fn generated(n: usize) -> String {
    let mut imports = "\t\"fmt\"\n".to_owned();
    let mut extra = String::new();
    match n % 10 {
        0 => {
            imports
                .push_str("\tutilfeature \"k8s.io/apiserver/pkg/util/feature\"\n\t\"example.io/synth/pkg/features\"\n");
            extra = format!(
                "func gated() bool {{\n\treturn utilfeature.DefaultFeatureGate.Enabled(features.KubeGate{:04})\n}}\n\n",
                n % 300
            );
        }
        1 => extra = "// The featuregate package is mentioned here only in a comment.\n\n".to_owned(),
        _ => {}
    }
    let body: String = (0..5)
        .map(|k| {
            format!(
                "// helper{k} computes a value.\nfunc helper{k}(items []string) (int, error) {{\n\ttotal := 0\n\tfor i, item := range items {{\n\t\tif len(item) > {k} {{\n\t\t\ttotal += i * {k}\n\t\t}}\n\t}}\n\treturn total, fmt.Errorf(\"helper{k}: %d\", total)\n}}\n\n"
            )
        })
        .collect();
    format!("/*\nSynthetic file {n}.\n*/\n\npackage p{:04}\n\nimport (\n{imports})\n\n{extra}{body}", n / 20)
}

/// The generated tree's declaring package, with `count` gates.
fn kube_features(count: usize) -> GatePackage {
    GatePackage {
        package: "features".to_owned(),
        gates: (0..count).map(|i| format!("KubeGate{i:04}")).collect(),
        ..GatePackage::default()
    }
}

#[test]
fn generated_files_read_the_same() {
    let package = kube_features(300);
    let resolve = |path: &str| (path == "example.io/synth/pkg/features").then_some(&package);
    for n in 0..40 {
        let text = generated(n);
        let (tokens, tree) = both(&text, resolve);
        assert_eq!(tokens, tree, "the readings differ on\n{text}");
        assert_eq!(tokens.is_empty(), n % 10 != 0, "\n{text}");
    }
}

/// `package` when `path` is the generated tree's declaring package.
fn synth_features<'p>(package: &'p GatePackage, path: &str) -> Option<&'p GatePackage> {
    (path == "example.io/synth/pkg/features").then_some(package)
}

#[test]
fn references_to_a_gate_do_not_depend_on_how_many_others_are_declared() {
    // One gate, then the same among a thousand: the same references to it.
    let text = generated(0);
    for parsed in [false, true] {
        let refs = |package: &GatePackage| {
            let found = if parsed {
                kompat_go::references_parsed(&text, |path| synth_features(package, path))
            } else {
                kompat_go::references(&text, |path| synth_features(package, path))
            };
            render(&text, &found.unwrap_or_default())
        };
        let mut one = kube_features(0);
        one.gates.insert("KubeGate0000".to_owned());
        assert_eq!(refs(&one), "14:57 KubeGate0000");
        assert_eq!(refs(&kube_features(1000)), refs(&one));
    }
}

const SEED: &str = r#"package user

import (
	"fmt"
	feats "example.io/app/features"
	"example.io/app/features"
)

// Enabled reports features.A in a comment.
func Enabled(s struct{ features struct{ A bool } }) bool {
	x := `features.B
raw` + "features.A\"" + string('\'')
	fmt.Println(x, 1.5, features . B, s.features.A)
	return feats.A == features./* c */A
}
"#;

#[test]
fn mutations_that_parse_read_the_same() {
    // Wherever the tree has no syntax error, the token reading finds the
    // same references: mutations of a user file, kept when they parse.
    let mut rng = Rng(0x6f6c_6578_6564);
    let mut parsed = 0;
    for _ in 0..iterations(3000) {
        let text = mutate(SEED, &mut rng);
        if kompat_go::parse_file(&text).is_err() {
            continue;
        }
        parsed += 1;
        let (tokens, tree) = both_any_import(&text);
        assert_eq!(tokens, tree, "the readings differ on\n{text}");
    }
    assert!(parsed > 100, "only {parsed} mutations parse");
}

/// The header's import paths, or `-` when the header leaves them open.
fn header(text: &str) -> String {
    kompat_go::header_imports(text.as_bytes()).map_or("-".to_owned(), |paths| paths.join(" "))
}

#[test]
fn header_imports() {
    let cases = [
        ("package a\n\nimport (\n\t\"fmt\"\n\tf \"example.io/x/features\"\n\t_ \"embed\"\n\t. \"dot\"\n)\n\nfunc f() {}\n", "fmt example.io/x/features embed dot"),
        ("// Doc.\npackage a; import \"fmt\"; import `raw/path`\nvar x = 1\n", "fmt raw/path"),
        ("package a\n\nfunc f() {}\n", ""),
        ("package a\n", ""),
        ("", ""),
        // The word `import` after the header: perhaps a late declaration.
        ("package a\nimport \"fmt\"\nvar x = 1\nimport \"late\"\n", "-"),
        ("package a\nimport \"fmt\"\nvar x = 1 // Callers import this package.\n", "-"),
        // Comments in the header are lexed: not a declaration.
        ("package a\nimport \"fmt\"\n// Callers import this package.\n", "fmt"),
        // Only the whole word: `imports`, `reimport` are not it.
        ("package a\nimport \"fmt\"\nvar imports, reimport = 1, 2\n", "fmt"),
        // A header that does not lex, or an import of another shape.
        ("package a\nimport \"fmt\n", "-"),
        ("package a\nimport (\n\t\"fmt\"\n", "-"),
        ("package a\nimport 5\n", "-"),
    ];
    for (text, expected) in cases {
        assert_eq!(header(text), expected, "\n{text}");
    }
}

#[test]
fn header_imports_are_the_trees() {
    // Where the tree parses and the header is read, its imports are the
    // tree's: mutations of a user file.
    let mut rng = Rng(0x6865_6164_6572);
    let mut read = 0;
    for _ in 0..iterations(3000) {
        let text = mutate(SEED, &mut rng);
        let Ok(file) = kompat_go::parse_file(&text) else { continue };
        let Some(paths) = kompat_go::header_imports(text.as_bytes()) else { continue };
        read += 1;
        let tree: Vec<&str> = file.imports.iter().map(|i| i.path.as_str()).collect();
        assert_eq!(paths, tree, "\n{text}");
    }
    assert!(read > 100, "only {read} mutations read");
}
