//! Where an alias of a derived enum names it: `use gates::Feature as F;`
//! only in the scopes of its own file that see that `use` (its module, the
//! blocks inside, inline modules under `use super::*`); an alias visible
//! beyond its module (`pub use`, `pub type`) in every file. The files are
//! read as a walk reads them (each file's first read knowing the names the
//! files before it met, in every order), and the findings are those of a
//! full parse of every file.

use kompat_rust::memory::{Text, Texts};
use kompat_rust::{first_read_rules_out, scan_with, EarlyNames, Parse};

const GATES: &str = r#"
#[derive(Clone, Copy, kompat::FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.30", stage = "Alpha", default = false))]
    A,
    #[kompat(spec(version = "1.30", stage = "Alpha", default = false))]
    B,
}
"#;

/// The gates of a scan's references, sorted, or its errors.
fn gates(files: &Texts, parse: Parse) -> Vec<String> {
    let mut gates: Vec<String> = match scan_with(&mut files.clone(), parse) {
        Ok(found) => found
            .scan
            .refs
            .into_iter()
            .map(|r| {
                let (line, column) = r.location.line_col().unwrap_or_default();
                format!("{} {}:{line}:{column}", r.gate, r.location.path().display())
            })
            .collect(),
        Err(err) => err.iter().map(|d| format!("error: {}", d.one_line())).collect(),
    };
    gates.sort();
    gates
}

/// The references to `Feature` (declared in `src/gates.rs`) in `sources`
/// (`src/f0.rs`, `src/f1.rs`, ...): `expected` names the referenced gates
/// with their files, whatever order the walk reads the files in.
fn check(sources: &[&str], expected: &[&str]) {
    let mut all = vec![GATES];
    all.extend(sources);
    let path = |i: usize| if i == 0 { "src/gates.rs".to_owned() } else { format!("src/f{}.rs", i - 1) };
    let mut held = Texts::default();
    for (i, text) in all.iter().enumerate() {
        held.push(Text::new(path(i), *text));
    }
    let full = gates(&held, Parse::Every);
    let short: Vec<String> =
        full.iter().map(|g| g.split(':').next().unwrap_or_default().replace("src/", "").to_owned()).collect();
    assert_eq!(short, expected, "{sources:#?}");
    // The walk's orders: each file first, the rest in order and reversed.
    for first in 0..all.len() {
        for reversed in [false, true] {
            let mut order: Vec<usize> = (0..all.len()).filter(|&i| i != first).collect();
            if reversed {
                order.reverse();
            }
            order.insert(0, first);
            let early = EarlyNames::new();
            let mut read: Vec<(usize, Text, kompat_rust::Keep)> = order
                .iter()
                .map(|&i| (i, Text::new(path(i), all[i]), kompat_rust::first_read(all[i], &early)))
                .collect();
            read.sort_by_key(|(i, _, _)| *i);
            let mut files = Texts::default();
            for (_, text, keep) in read {
                files.push_read(text, keep);
            }
            assert_eq!(gates(&files, Parse::Candidates), full, "{order:?}: {sources:#?}");
        }
    }
}

#[test]
fn an_alias_names_the_enum_only_where_it_is_seen() {
    // In its own file.
    check(&["use crate::gates::Feature as F;\nfn f() { F::A; }"], &["A f0.rs"]);
    check(&["use crate::gates::{Feature as F, Other};\nfn f() { let _ = [F::A, F::B]; }"], &["A f0.rs", "B f0.rs"]);
    check(&["type F = crate::gates::Feature;\nfn f() { F::B; }"], &["B f0.rs"]);
    // Not in another file: `F` there is another name.
    check(&["use crate::gates::Feature as F;\nfn f() { F::A; }", "fn g() { F::A; F::B; }"], &["A f0.rs"]);
    check(&["type F = crate::gates::Feature;", "use other::F;\nfn g() { F::A; }"], &[]);
    check(&["fn g() { F::A; }", "use crate::gates::Feature as F;"], &[]);
}

#[test]
fn an_alias_in_an_inline_module() {
    check(&["mod m {\n    use crate::gates::Feature as F;\n    fn f() { F::A; }\n}"], &["A f0.rs"]);
    // Not outside it, nor in a module inside it without `use super::*`.
    check(&["mod m {\n    use crate::gates::Feature as F;\n}\nfn g() { F::A; }"], &[]);
    check(&["use crate::gates::Feature as F;\nmod m {\n    fn f() { F::A; }\n}"], &[]);
    check(&["use crate::gates::Feature as F;\nmod m {\n    use super::*;\n    fn f() { F::B; }\n}"], &["B f0.rs"]);
    // In a block.
    check(&["fn f() {\n    use crate::gates::Feature as F;\n    F::A;\n}\nfn g() { F::B; }"], &["A f0.rs"]);
    // A module in another file sees nothing of its parent's aliases: the
    // reader reads each file alone (`use super::*` there is not followed
    // to the parent's file).
    check(&["use crate::gates::Feature as F;\nmod tests;", "use super::*;\nfn t() { F::A; }"], &[]);
}

#[test]
fn an_alias_visible_beyond_its_module_names_the_enum_everywhere() {
    check(&["pub use crate::gates::Feature as F;", "fn g() { F::A; }"], &["A f1.rs"]);
    check(&["fn g() { F::A; }", "pub(crate) use crate::gates::Feature as F;"], &["A f0.rs"]);
    check(&["pub type G = crate::gates::Feature;", "fn g() { G::B; }"], &["B f1.rs"]);
    check(&["mod m {\n    pub use crate::gates::Feature as F;\n}", "use crate::m::F;\nfn g() { F::B; }"], &["B f1.rs"]);
    // An alias of it, in a third file.
    check(&["pub use crate::gates::Feature as F;", "pub use crate::F as G;", "fn g() { G::A; }"], &["A f2.rs"]);
    // In a string it is none.
    check(&["const S: &str = \"pub use crate::gates::Feature as F;\";", "fn g() { F::A; }"], &[]);
}

#[test]
fn glob_imports() {
    check(&["use crate::gates::Feature::*;\nfn f() { A; }"], &["A f0.rs"]);
    check(&["use crate::gates::Feature as F;\nuse F::*;\nfn f() { B; }"], &["B f0.rs"]);
    // A glob of a private alias of another file imports nothing.
    check(&["use crate::gates::Feature as F;", "use F::*;\nfn g() { A; }"], &[]);
    // A re-export of every variant, through a visible alias.
    check(&["pub use crate::gates::Feature as F;", "use F::*;\nfn g() { A; }"], &["A f1.rs"]);
    check(&["pub use crate::gates::Feature::*;", "fn g() {}"], &["A f0.rs", "B f0.rs"]);
}

/// A file's own alias is not among the names the walk's first reads search
/// every file for; an alias visible beyond its module is.
#[test]
fn a_file_local_alias_is_not_searched_for_in_the_whole_tree() {
    let early = EarlyNames::new();
    let names = |early: &EarlyNames| first_read_names(early);
    kompat_rust::first_read(GATES, &early);
    kompat_rust::first_read("use crate::gates::Feature as F;\nfn f() { F::A; }", &early);
    kompat_rust::first_read("mod tests {\n    use super::Feature as G;\n}", &early);
    kompat_rust::first_read("type H = crate::gates::Feature;", &early);
    assert_eq!(names(&early), ["Feature"]);
    kompat_rust::first_read("pub use crate::gates::Feature as Gate;", &early);
    assert_eq!(names(&early), ["Feature", "Gate"]);
    // A file that names only `F` is ruled out for the enum and the visible
    // alias, and never searched for `F`.
    let plain = "fn g() { F::A; }";
    assert_eq!(first_read_rules_out(plain, &["Feature", "Gate"]), Some(vec!["Feature".into(), "Gate".into()]));
    let mut files = Texts::default();
    files.push(Text::new("src/gates.rs", GATES));
    files.push_first_read(Text::new("src/f0.rs", "use crate::gates::Feature as F;"), &early);
    files.push_first_read(Text::new("src/f1.rs", plain), &early);
    assert_eq!(gates(&files, Parse::Candidates), Vec::<String>::new());
}

/// The names the first reads of `early` search every file for, as a file
/// that names each of them (`Name::X`) shows: it is not ruled out for them.
fn first_read_names(early: &EarlyNames) -> Vec<String> {
    // A file that names nothing is ruled out for every name searched for.
    match kompat_rust::first_read("fn nothing() {}", early) {
        kompat_rust::Keep::Release(names) => names.iter().cloned().collect(),
        kompat_rust::Keep::Text => Vec::new(),
    }
}
