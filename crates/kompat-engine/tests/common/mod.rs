//! A compact notation for feature declarations in tests.
//!
//! One feature per line: `Name: SPEC; SPEC; ... [| deps=A,B]`, where a SPEC is
//! `VERSION STAGE DEFAULT [locked] [mcv=X.Y]`, `VERSION` may be `-` for a
//! missing version and DEFAULT is `t` or `f`.

use kompat_engine::{FeatureDecl, SpecDecl};
use kompat_runtime::{Stage, VersionLit};

pub fn decls(text: &str) -> Vec<FeatureDecl> {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).map(parse_feature).collect()
}

fn parse_feature(line: &str) -> FeatureDecl {
    let (main, deps) = match line.split_once('|') {
        Some((m, d)) => (m, Some(d.trim())),
        None => (line, None),
    };
    let (name, specs) = main.split_once(':').expect("`Name: specs`");
    let specs = specs.split(';').map(str::trim).filter(|s| !s.is_empty()).map(parse_spec).collect();
    let dependencies = deps
        .map(|d| d.strip_prefix("deps=").expect("deps=").split(',').map(|s| s.trim().to_owned()).collect())
        .unwrap_or_default();
    FeatureDecl { name: name.trim().to_owned(), specs, dependencies, ..FeatureDecl::default() }
}

fn parse_spec(text: &str) -> SpecDecl {
    let words: Vec<&str> = text.split_whitespace().collect();
    let version = match words[0] {
        "-" => None,
        v => Some(VersionLit::parse(v).expect("version")),
    };
    let stage = Stage::from_name(words[1]).expect("stage");
    let default = match words[2] {
        "t" => true,
        "f" => false,
        other => panic!("default must be t or f, got {other}"),
    };
    let mut spec = SpecDecl { version, default, lock_to_default: false, stage, min_compatibility_version: None };
    for extra in &words[3..] {
        match *extra {
            "locked" => spec.lock_to_default = true,
            e if e.starts_with("mcv=") => {
                spec.min_compatibility_version = Some(VersionLit::parse(&e[4..]).expect("mcv"))
            }
            other => panic!("unknown spec word {other}"),
        }
    }
    spec
}
