//! Which Rust code references a gate: through macros, aliases, glob imports
//! and re-exports, and, as soundly, what does not (a bare name counts only
//! where a glob import of the derived enum is in scope).

use kompat_rust::memory::{Text, Texts};
use kompat_rust::{scan_with, Parse};

const GATES: &str = r#"
#[derive(Clone, Copy, kompat::FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.30", stage = "Alpha", default = false))]
    A,
    #[kompat(spec(version = "1.30", stage = "Alpha", default = false))]
    B,
    #[kompat(name = "Sea")]
    #[kompat(spec(version = "1.30", stage = "Alpha", default = false))]
    C,
}
"#;

/// The gates referenced in `sources` (next to the enum above), sorted, with
/// and without the prefilter (which must agree).
fn check(sources: &[&str], expected: &[&str]) {
    let mut files = Texts::default();
    files.push(Text::new("src/gates.rs", GATES));
    for (i, text) in sources.iter().enumerate() {
        files.push(Text::new(format!("src/f{i}.rs"), *text));
    }
    for parse in [Parse::Candidates, Parse::Every] {
        let scan = scan_with(&mut files.clone(), parse);
        let mut gates: Vec<String> = match scan {
            Ok(found) => found.scan.refs.into_iter().map(|r| r.gate).collect(),
            Err(err) => err.iter().map(|d| format!("error: {}", d.one_line())).collect(),
        };
        gates.sort();
        assert_eq!(gates, expected, "{parse:?}: {sources:#?}");
    }
}

#[test]
fn inside_macros() {
    check(&[r#"fn f(g: &G) { println!("{}", g.enabled(Feature::A)); }"#], &["A"]);
    check(&["fn f() -> Vec<Feature> { vec![Feature::A, Feature::C] }"], &["A", "Sea"]);
    check(&["fn f() -> Vec<Feature> { vec![Feature::B; 3] }"], &["B"]);
    check(&[r#"fn f(g: &G) { tracing::info!(enabled = g.enabled(Feature::A), "reconciling"); }"#], &["A"]);
    // Not expressions: the tokens are scanned.
    check(&[r#"fn f(g: &G) { tracing::debug!(target: "t", gate = ?Feature::B, "x"); }"#], &["B"]);
    check(&[r#"fn f(g: &G) { tracing::debug!(target: "t", on = g.enabled("A")); }"#], &["A"]);
    check(&["macro_rules! on { ($g:expr) => { $g.enabled(Feature::C) }; }"], &["Sea"]);
    check(&["fn f(g: &G) { my_macro! { let x = g.enabled(Feature::A); } }"], &["A"]);
    check(&["fn f(g: &G) { assert!(format!(\"{}\", matches!(g, Feature::A | Feature::B)).len() > 0); }"], &["A", "B"]);
    // Attribute macros' arguments are scanned too; `#[kompat(...)]` is not.
    check(&["#[tracing::instrument(fields(on = g.enabled(Feature::B)))]\nfn f(g: &G) {}"], &["B"]);
    check(&["#[kompat(x = Feature::A)]\nfn f() {}"], &[]);
    // Other owners inside macros are not references.
    check(&[r#"fn f() { tracing::info!(target: "t", Other::A); println!("{}", Other::B); }"#], &[]);
}

#[test]
fn through_aliases() {
    check(&["use crate::gates::Feature as F;\nfn f(g: &G) -> bool { g.enabled(F::A) }"], &["A"]);
    check(&["use crate::gates::{Feature as F, other};\nfn f() { let _ = [F::A, F::B]; }"], &["A", "B"]);
    check(&["type F = crate::gates::Feature;\nfn f() { let _ = F::C; }"], &["Sea"]);
    check(&["fn f() { use crate::gates::Feature as F; let _ = F::A; }"], &["A"]);
    check(&["use crate::gates::Feature as F;\nuse F as G;\nfn f() { let _ = G::B; }"], &["B"]);
    // A re-export under another name, used in another file.
    check(&["pub use crate::gates::Feature as Gate;", "use crate::Gate;\nfn f() { let _ = Gate::B; }"], &["B"]);
    check(&["pub type Gate = crate::gates::Feature;", "fn f() { let _ = crate::Gate::A; }"], &["A"]);
    // A name that aliases other things elsewhere too.
    check(&["pub use other::Thing as Gate;", "pub use crate::gates::Feature as Gate;", "fn f() { Gate::A; }"], &["A"]);
    check(&["pub use crate::gates::Feature as Gate;", "fn f() { Gate::B; }", "pub use other::Thing as Gate;"], &["B"]);
    // Unrelated renamed re-exports add nothing.
    check(&["pub use std::io::Result as IoResult;", "fn f() -> IoResult<()> { IoResult::Ok(()) }"], &[]);
    // Aliases of aliases, across files.
    check(&["pub use crate::gates::Feature as Gate;", "pub use crate::Gate as G2;", "fn f() { G2::C; }"], &["Sea"]);
    check(&["impl Feature { fn on(self) -> bool { matches!(self, Self::A) } }"], &["A"]);
    check(&["impl std::fmt::Display for Feature { fn fmt(&self) { let _ = Self::B; } }"], &["B"]);
    // An alias of something else, `Self` of another type.
    check(&["use other::Thing as Feature;\nfn f() { let _ = Feature::A; }"], &[]);
    check(&["impl Other { fn f() { let _ = Self::A; } }"], &[]);
    check(&["use crate::gates::Feature as F;\nmod m { fn f() { let _ = F::A; } }"], &[]);
}

#[test]
fn through_imports_and_reexports() {
    check(&["use crate::gates::Feature::{A, C as See};"], &["A", "Sea"]);
    check(&["pub use crate::gates::Feature::B;"], &["B"]);
    // A glob re-export exports every variant.
    check(&["pub use crate::gates::Feature::*;"], &["A", "B", "Sea"]);
    check(&["pub(crate) use crate::gates::Feature::*;"], &["A", "B", "Sea"]);
    // A private glob import references what is named under it.
    check(&["use crate::gates::Feature::*;"], &[]);
    check(&["use crate::gates::Feature::*;\nfn f(g: &G) -> bool { g.enabled(A) }"], &["A"]);
    check(&["use crate::gates::Feature::{self, *};\nfn f(x: Feature) { match x { B => {} _ => {} } }"], &["B"]);
    check(&["fn f() { use crate::gates::Feature::*; let _ = [A, C]; }"], &["A", "Sea"]);
    check(&["use crate::gates::Feature::*;\nmod tests { use super::*; fn t() { let _ = B; } }"], &["B"]);
    check(&["use crate::gates::Feature::*;\nfn f() { tracing::info!(target: \"t\", on = ?A); }"], &["A"]);
    check(&["use crate::gates::Feature as F;\nuse F::*;\nfn f() { let _ = C; }"], &["Sea"]);
}

#[test]
fn bare_names_need_a_glob_import_in_scope() {
    check(&["fn f() { let _ = A; }"], &[]);
    check(&["mod m { use crate::gates::Feature::*; }\nfn f() { let _ = A; }"], &[]);
    check(&["fn g() { use crate::gates::Feature::*; }\nfn f() { let _ = A; }"], &[]);
    check(&["use crate::gates::Feature::*;\nmod m { fn f() { let _ = A; } }"], &[]);
    check(&["use crate::gates::Feature::*;\nconst A: u8 = 1;\nfn f() { let _ = A; }"], &[]);
    check(&["use crate::gates::Feature::*;\nfn f() { fn B() {} B(); }"], &[]);
    check(&["use other::Mode::*;\nfn f() { let _ = A; }"], &[]);
    check(&["use crate::gates::Feature::*;\nfn f() { let _ = x.A; let _ = other::A; }"], &[]);
    check(&["use crate::gates::Feature::*;\nfn f() { tracing::info!(target: \"t\", x.A, other::B); }"], &[]);
}

/// The references to `Feature`'s gates A, B and Sea, as `gate path:line:col`,
/// in a crate that also derives `others` more enums (each with one gate of
/// its own, referenced too), with either parse.
fn references_among(others: usize, parse: Parse) -> Vec<String> {
    let mut files = Texts::default();
    files.push(Text::new("src/gates.rs", GATES));
    let mut uses = String::new();
    for i in 0..others {
        files.push(Text::new(
            format!("src/more{i}.rs"),
            format!(
                "#[derive(Clone, Copy, kompat::FeatureGates)]\npub enum More{i} {{\n    #[kompat(spec(version = \"1.30\", stage = \"Alpha\", default = false))]\n    Other{i},\n}}\n"
            ),
        ));
        uses.push_str(&format!("    let _ = More{i}::Other{i};\n"));
    }
    files.push(Text::new(
        "src/uses.rs",
        format!(
            "use crate::gates::Feature as F;\nfn f(g: &G) -> bool {{\n    tracing::info!(on = g.enabled(Feature::A));\n    let on = vec![F::B, Feature::C].len() > 0 && g.enabled(\"A\");\n{uses}    on\n}}\n"
        ),
    ));
    let found = scan_with(&mut files, parse).map(|found| found.scan.refs).unwrap_or_default();
    let mut refs: Vec<String> = found
        .iter()
        .filter(|r| ["A", "B", "Sea"].contains(&r.gate.as_str()))
        .map(|r| {
            let (line, col) = r.location.line_col().unwrap_or_default();
            format!("{} {}:{line}:{col}", r.gate, r.location.path().display())
        })
        .collect();
    refs.sort();
    let others_found = found.iter().filter(|r| r.gate.starts_with("Other")).count();
    assert_eq!(others_found, others, "{parse:?}: the other enums' references");
    refs
}

#[test]
fn references_do_not_depend_on_how_many_enums_are_derived() {
    // The same references to one enum's gates next to no other derived enum
    // and next to a hundred (one automaton over all their names).
    for parse in [Parse::Candidates, Parse::Every] {
        let alone = references_among(0, parse);
        assert_eq!(
            alone,
            ["A src/uses.rs:3:44", "A src/uses.rs:4:60", "B src/uses.rs:4:22", "Sea src/uses.rs:4:34"],
            "{parse:?}"
        );
        assert_eq!(references_among(100, parse), alone, "{parse:?}");
    }
}
