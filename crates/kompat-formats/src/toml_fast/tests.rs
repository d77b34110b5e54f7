//! The fast path against the general reader: on every kompat TOML file of the
//! repository, on mutations of them, and on small cases at each rule of the
//! shape, the fast path either declines or returns exactly what the general
//! reader returns (spans included).

use std::path::{Path, PathBuf};

use super::parse;
use crate::kompat_toml::parse_toml_general;

use kompat_testkit::mutate;

/// Whether the fast path read `text`; fails when it returned anything but
/// the general reader's file.
fn agrees(text: &str) -> bool {
    let Some(fast) = parse(text) else { return false };
    match parse_toml_general(text) {
        Ok(general) => assert_eq!(fast, general, "the fast path differs on:\n{text:?}"),
        Err(errors) => panic!("the fast path accepted what the general reader rejects ({errors:?}):\n{text:?}"),
    }
    true
}

/// `text` is read by the fast path (`fast`) or left to the general reader,
/// and never read differently.
fn check(text: &str, fast: bool) {
    assert_eq!(agrees(text), fast, "fast path {}:\n{text:?}", if fast { "declined" } else { "accepted" });
}

const SPEC: &str = "{ version = \"1.8\", stage = \"Alpha\", default = false }";

fn feature(body: &str) -> String {
    format!("[[feature]]\nname = \"A\"\n{body}")
}

#[test]
fn the_shape() {
    check("", true);
    check("# only a comment\n\n  \t\n", true);
    check(&feature(&format!("specs = [\n  {SPEC},\n]\n")), true);
    check(&feature(&format!("specs = [{SPEC}]")), true);
    check(&feature(&format!("specs = [ # comment\n\n  {SPEC} , # another\n  {SPEC}\n]\n")), true);
    check(&feature("specs = []\n"), true);
    check("[[feature]]\nname = \"A\"\n", true);
    check("\t[[feature]]   # header comment\n  name\t=\t'A'  \n", true);
    check("[[feature]]\r\nname = \"A\"\r\nspecs = [\r\n  { stage = \"Beta\", default = true },\r\n]\r\n", true);
    check(&feature("description = \"a gate, é, with\ttab\"\ndependencies = [\"B\", 'C\\D']\n"), true);
    check(&feature("description = \"\"\ndependencies = []\n"), true);
    check(&feature("ratchet = { tolerated_since = \"1.31\" }\n"), true);
    check(&feature("specs = [{ version = \"1.32\", stage = \"Beta\", default = true, lockToDefault = true, minCompatibilityVersion = \"1.31\" }]\n"), true);
    check(&feature("specs = [{default=false,stage='GA'}]\n"), true);
    check("[[feature]]\nname = \"A\"\n\n[[feature]]\nname = \"B\"\n", true);
    check("[[feature]]\nname = \"A\"# no space\n", true);
    check(&feature("specs = [{}]\n"), false);
    check(&feature("ratchet = {}\n"), false);
}

#[test]
fn declined_syntax() {
    // Escapes, multi-line strings, other headers, top-level keys, dotted and
    // quoted keys, other value types: all left to the general reader.
    check(&feature("description = \"a \\\"quoted\\\" word\"\n"), false);
    check(&feature("description = \"\"\"\nlong\"\"\"\n"), false);
    check(&feature("description = '''x'''\n"), false);
    check("[[ feature ]]\nname = \"A\"\n", false);
    check("[[feature]]\nname = \"A\"\n[[api]]\ngroup = \"g\"\n", false);
    check("[groups]\n", false);
    check("title = \"x\"\n[[feature]]\nname = \"A\"\n", false);
    check("[[feature]]\nname.x = \"A\"\n", false);
    check("[[feature]]\n\"name\" = \"A\"\n", false);
    check(&feature("specs = [{ version = 1.8, stage = \"Alpha\", default = false }]\n"), false);
    check(&feature("specs = [{ stage = \"Alpha\", default = false, }]\n"), false);
    check(&feature("specs = [{ stage = \"Alpha\",\n default = false }]\n"), false);
    check(&feature("specs = [,]\n"), false);
    check(&feature("dependencies = [\"B\",,]\n"), false);
    check(&feature("dependencies = [\"B\" \"C\"]\n"), false);
    check(&feature("specs = [{ stage = \"Alpha\", default = falsey }]\n"), false);
    check(&feature("specs = \"not an array\"\n"), false);
    check("\u{feff}[[feature]]\nname = \"A\"\n", false);
    check("[[feature]]\rname = \"A\"\n", false);
    check("[[feature]] # a \u{7f} in a comment\nname = \"A\"\n", false);
    check("[[feature]] # a \r in a comment\nname = \"A\"\n", false);
    check(&feature("description = \"a \u{1} control\"\n"), false);
    check("[[feature]]\nname = \"A\" name = \"B\"\n", false);
    check("[[feature]]x\nname = \"A\"\n", false);
    check(&feature("description = \"unterminated\n"), false);
}

#[test]
fn declined_errors() {
    // Whatever is wrong is reported by the general reader, with its spans.
    check("[[feature]]\nname = \"A\"\nname = \"B\"\n", false);
    check(&feature("unknown = \"x\"\n"), false);
    check(&feature("specs = [{ stage = \"Alpha\", default = false, color = \"red\" }]\n"), false);
    check(&feature("specs = [{ stage = \"Alpha\", stage = \"Beta\", default = false }]\n"), false);
    check(&feature("specs = [{ version = \"1.8\", default = false }]\n"), false);
    check(&feature("specs = [{ version = \"1.8\", stage = \"Alpha\" }]\n"), false);
    check(&feature("specs = [{ version = \"x\", stage = \"Alpha\", default = false }]\n"), false);
    check(&feature("specs = [{ version = \"1.8\", stage = \"Alfa\", default = false }]\n"), false);
    check(&feature("ratchet = { tolerated_since = \"soon\" }\n"), false);
    check(&feature("ratchet = { since = \"1.31\" }\n"), false);
    check("[[feature]]\ndescription = \"no name\"\n", false);
    check("[[feature]]\nname = \" \"\n", false);
    check("[[feature]]\nname = \"A\"\n[[feature]]\nname = \"A\"\n", false);
    check(&feature("dependencies = [true]\n"), false);
}

/// Every kompat TOML file of the repository with a `[[feature]]` table.
fn seeds() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut found = Vec::new();
    let mut dirs = vec![root.join("fixtures"), root.join("crates/kompat-k8s/data")];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display()));
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                if text.contains("[[feature]]") {
                    found.push((path, text));
                }
            }
        }
    }
    found.sort();
    found
}

#[test]
fn repository_files() {
    let seeds = seeds();
    assert!(seeds.len() > 10, "found only {} files", seeds.len());
    let mut fast = Vec::new();
    for (path, text) in &seeds {
        if agrees(text) {
            fast.push(
                path.strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")).unwrap_or(path).to_owned(),
            );
        }
    }
    // What `kompat export --format toml` writes takes the fast path.
    for expected in ["crates/kompat-k8s/data/features.toml", "fixtures/features.toml"] {
        assert!(fast.iter().any(|p| p == Path::new(expected)), "{expected} not read by the fast path: {fast:?}");
    }
}

/// Pieces the shared mutator lacks that matter to TOML's syntax.
const TOML_PIECES: &[&str] =
    &["\r", "\r\n", "\\", "\"\"\"", "'''", "true", "x", ".", "\u{7f}", "[[feature]]\n", "name = \"N\"\n", "[]", "{}"];

#[test]
fn mutations() {
    let mut rng = mutate::Rng(0x6b6f_6d70_6174_0f57);
    let seeds: Vec<String> = seeds().into_iter().map(|(_, text)| text).filter(|text| agrees(text)).collect();
    let (mut accepted, mut declined) = (0, 0);
    let iterations = mutate::iterations(3000);
    for _ in 0..iterations {
        let seed = &seeds[rng.below(seeds.len())];
        // A few whole entries of a large file, so that edits land in the
        // syntax.
        let start = seed[..seed.floor_char_boundary(rng.below(seed.len()))].rfind("[[feature]]").unwrap_or(0);
        let end = seed[start + 1..].match_indices("[[feature]]").nth(2).map_or(seed.len(), |(at, _)| start + 1 + at);
        let mut input = mutate::mutate(&seed[start..end], &mut rng);
        if rng.below(2) == 0 {
            let at = input.floor_char_boundary(rng.below(input.len() + 1));
            input.insert_str(at, TOML_PIECES[rng.below(TOML_PIECES.len())]);
        }
        if agrees(&input) {
            accepted += 1;
        } else {
            declined += 1;
        }
    }
    // Most mutations break the syntax (the general reader rejects about 97%
    // of them too); enough are read by both to compare.
    assert!(accepted * 100 >= iterations && declined > 0, "accepted {accepted}, declined {declined}");
}
