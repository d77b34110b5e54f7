//! Extreme nesting in every declaration format is a located error (or reads
//! fine), never a stack overflow: 100k-deep YAML, TOML and Rust, and Rust
//! just inside and just outside the limits.

use kompat_project::{load, Error};

/// Loads `text` as the file `name`: `ok`, or the first error's
/// `line:col message` (the file must be named and located).
fn load_as(name: &str, text: &str) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write");
    match load(std::slice::from_ref(&path)) {
        Ok(_) => "ok".to_owned(),
        Err(Error { diagnostics: failures }) => {
            let first = &failures[0];
            let location = first.location.as_ref();
            assert_eq!(location.map(|l| l.path()), Some(path.as_path()), "{name}: {}", first.message);
            match location.and_then(|l| l.line_col()) {
                Some((line, col)) => format!("{line}:{col} {}", first.message),
                None => format!("?:? {}", first.message),
            }
        }
    }
}

fn check(name: &str, text: &str, expected: &str) {
    let got = load_as(name, text);
    assert!(got.ends_with(expected), "{name}: {got}");
}

const N: usize = 100_000;

#[test]
fn deep_yaml_and_toml() {
    check("flow.features.yaml", &"[".repeat(N), "invalid YAML: recursion limit exceeded");
    check("map.features.yaml", &"{a: ".repeat(N), "invalid YAML: recursion limit exceeded");
    check(
        "seq.features.yaml",
        &format!("{}x\n", "- ".repeat(N)),
        "invalid YAML: collections nest deeper than 1000 levels",
    );
    check(
        "arr.toml",
        &format!("feature = {}{}\n", "[".repeat(N), "]".repeat(N)),
        "cannot recurse further; max recursion depth met",
    );
    check(
        "tbl.toml",
        &format!("feature = {}1{}\n", "{a = ".repeat(N), "}".repeat(N)),
        "cannot recurse further; max recursion depth met",
    );
    // The toml crate does not locate these; kompat finds the key.
    let too_many_parts = "recursion limit: a key has at most 80 dotted parts";
    check("dotted.toml", &format!("feature.{} = 1\n", vec!["a"; N].join(".")), &format!("1:1 {too_many_parts}"));
    check("header.toml", &format!("x = 1\n[{}]\n", vec!["a"; N].join(".")), &format!("2:2 {too_many_parts}"));
}

/// Source text with `n` levels of one kind of nesting.
type Shape = fn(usize) -> String;

fn stmt(expr: String) -> String {
    format!("fn f() {{ let x = {expr}; }}\n")
}

/// `text` with a derive on its first item, so that the item is parsed (and
/// guarded) as one that may declare gates: only those are, in a file that
/// references none.
fn gated(text: &str) -> String {
    format!("#[derive(FeatureGates)]\n{text}")
}

#[test]
fn deep_rust() {
    let delimiters = "cannot parse Rust source: delimiters nest deeper than 256 levels";
    let syntax = "cannot parse Rust source: syntax nests deeper than 4096 levels";
    let parens = stmt(format!("{}1{}", "(".repeat(N), ")".repeat(N)));
    check("parens.rs", &gated(&parens), &format!("2:272 {delimiters}"));
    check("mods.rs", &gated(&format!("{}{}\n", "mod a { ".repeat(N), "}".repeat(N))), delimiters);
    check("brackets.rs", &gated(&format!("const X: () = {}{};\n", "[".repeat(N), "]".repeat(N))), delimiters);
    // Macro invocations nested as deep as delimiters may go read, each
    // level parsed or scanned once.
    let macros = stmt(format!("{}Feature::A{}", "m!(a, ".repeat(250), ")".repeat(250)));
    check("macros.rs", &gated(&macros), "ok");
    // A file that can neither declare nor reference a gate is not parsed.
    check("plain.rs", &parens, "ok");
    // Nesting without delimiters: just inside the limit reads, beyond it is an error.
    let shapes: [(&str, Shape); 12] = [
        ("unary", |n| stmt(format!("{}1", "-".repeat(n)))),
        ("binary", |n| stmt(format!("{}1", "1+".repeat(n)))),
        ("cast", |n| stmt(format!("1{}", " as u8".repeat(n)))),
        ("else-if", |n| stmt(format!("{}{{0}}", "if a {0} else ".repeat(n / 2)))),
        ("generics", |n| format!("type T = {}u8{};\n", "Vec<".repeat(n), ">".repeat(n))),
        ("return", |n| format!("fn f() {{ {}1; }}\n", "return ".repeat(n))),
        ("calls", |n| stmt(format!("y{}", "()\n".repeat(n)))),
        ("index", |n| stmt(format!("y{}", "[0]\n".repeat(n)))),
        ("methods", |n| stmt(format!("y{}", ".a()\n".repeat(n / 2)))),
        ("closures", |n| stmt(format!("{}1", "|x| ".repeat(n / 2)))),
        // Macro invocations are parsed (as expressions) or scanned too.
        ("macro-unary", |n| stmt(format!("m!({}1)", "-".repeat(n)))),
        ("macro-tokens", |n| stmt(format!("m!(target: {}1)", "-".repeat(n)))),
    ];
    for (name, shape) in shapes {
        check(&format!("{name}.rs"), &gated(&shape(4000)), "ok");
        check(&format!("{name}.rs"), &gated(&shape(N)), syntax);
    }
}
