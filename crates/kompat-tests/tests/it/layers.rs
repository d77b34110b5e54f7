//! The workspace's layers, enforced.
//!
//! No module import cycles inside a crate: for every crate under `crates/`,
//! the files of `src/` (each one module) and the modules each names through a
//! `crate::`, `super::` or `self::` path (in `use` items and in code; comments,
//! strings and `#[cfg(test)]` modules aside) form a graph without cycles, so
//! every crate reads bottom-up. A cycle fails the test, named file by file.
//!
//! And the crates at the bottom stay there: `kompat-span` is a leaf, and the
//! diagnostics (`kompat-diag`) depend on it, never on the text formats.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Crates whose cycles are known and being removed, with the reason. Each
/// entry is temporary: remove it when the crate is free of cycles.
const ALLOWED: &[(&str, &str)] = &[];

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A module path (`["attr", "api"]`; the crate root is empty).
type ModPath = Vec<String>;

/// Every file module of one crate's `src/` (binaries under `src/bin/` are
/// crates of their own and skipped), by module path.
fn modules(src: &Path) -> BTreeMap<ModPath, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path != src.join("bin") {
                    stack.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).expect("below src");
            let mut parts: Vec<String> =
                relative.with_extension("").iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                let last = parts.pop();
                if !parts.is_empty() && last.as_deref() != Some("mod") {
                    continue; // A `lib.rs` or `main.rs` below the root is an ordinary module name.
                }
            }
            out.insert(parts, path);
        }
    }
    out
}

/// `text` with comments, string and character literals blanked out (same
/// length, newlines kept), so that only code remains.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, s: &[u8]| {
        out.extend(s.iter().map(|&c| if c == b'\n' { '\n' } else { ' ' }));
    };
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            i + rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut j = i;
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            j
        } else if (rest.starts_with(b"r\"") || rest.starts_with(b"r#") || rest.starts_with(b"br"))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            let start = if rest[0] == b'b' { 2 } else { 1 };
            let hashes = rest[start..].iter().take_while(|&&c| c == b'#').count();
            if rest.get(start + hashes) == Some(&b'"') {
                let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                let body = start + hashes + 1;
                let len = rest[body..].windows(close.len()).position(|w| w == close.as_slice()).unwrap_or(rest.len());
                (i + body + len + close.len()).min(b.len())
            } else {
                i
            }
        } else if rest[0] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(b.len())
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\u{..}'), not a lifetime.
            let close = rest.iter().skip(1).take(11).position(|&c| c == b'\'');
            match close {
                Some(n) if n == 1 || (rest.get(1) == Some(&b'\\') && n >= 2) => i + n + 2,
                _ => i,
            }
        } else {
            i
        };
        if end > i {
            blank(&mut out, &b[i..end]);
            i = end;
        } else {
            let ch = text[i..].chars().next().expect("in text");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// The code of `text` without `#[cfg(test)]` items (test modules use their
/// parent freely).
fn without_test_items(code: &str) -> String {
    let mut out = code.to_owned();
    let mut from = 0;
    while let Some(at) = out[from..].find("#[cfg(test)]").map(|p| p + from) {
        let Some(open) = out[at..].find(['{', ';']).map(|p| p + at) else { break };
        let mut end = open + 1;
        if out.as_bytes()[open] == b'{' {
            let mut depth = 0;
            for (j, c) in out[open..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = open + j + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
        let blanked: String = out[at..end].chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
        out.replace_range(at..end, &blanked);
        from = end;
    }
    out
}

/// The inline modules (`mod name {`) open at every byte of `code`.
fn inline_modules(code: &str) -> Vec<Vec<String>> {
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut at = Vec::with_capacity(code.len());
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if code[i..].starts_with("mod ") && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))
        {
            let name: String = code[i + 4..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let after = code[i + 4 + name.len()..].trim_start();
            if after.starts_with('{') {
                stack.push((name, depth + 1));
            }
        }
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => {
                if stack.last().is_some_and(|(_, d)| *d == depth) {
                    stack.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        at.push(stack.iter().map(|(n, _)| n.clone()).collect());
        i += 1;
    }
    at
}

/// Every path tail after `prefix::` at byte `start` of `code`, a `{..}`
/// group expanded: `a::{b, c::d}` gives `a::b` and `a::c::d`.
fn tails(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut segments = Vec::new();
    let mut rest = code;
    loop {
        let ident: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if !ident.is_empty() {
            segments.push(ident.clone());
            rest = &rest[ident.len()..];
            if let Some(more) = rest.strip_prefix("::") {
                rest = more;
                continue;
            }
            out.push(segments);
            return out;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item_start = 0;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' | ',' if depth == 1 => {
                        for tail in tails(group[item_start..j].trim_start()) {
                            out.push(segments.iter().cloned().chain(tail).collect());
                        }
                        item_start = j + 1;
                        if c == '}' {
                            return out;
                        }
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
        }
        out.push(segments);
        return out;
    }
}

/// The modules of one crate each file module names, by module path.
fn edges(modules: &BTreeMap<ModPath, PathBuf>) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let mut graph: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for (module, path) in modules {
        let text = std::fs::read_to_string(path).expect("read a source file");
        let code = without_test_items(&code_only(&text));
        let inline = inline_modules(&code);
        let bytes = code.as_bytes();
        let targets = graph.entry(module.clone()).or_default();
        for keyword in ["crate::", "super::", "self::"] {
            for (at, _) in code.match_indices(keyword) {
                if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':') {
                    continue;
                }
                let mut base: ModPath = module.iter().cloned().chain(inline[at].iter().cloned()).collect();
                let mut rest = &code[at..];
                if let Some(r) = rest.strip_prefix("crate::") {
                    base.clear();
                    rest = r;
                } else {
                    while let Some(r) = rest.strip_prefix("super::").or_else(|| rest.strip_prefix("self::")) {
                        if rest.starts_with("super::") {
                            base.pop();
                        }
                        rest = r;
                    }
                }
                for tail in tails(rest) {
                    let full: ModPath = base.iter().cloned().chain(tail).collect();
                    let target = (0..=full.len()).rev().map(|n| &full[..n]).find(|p| modules.contains_key(*p));
                    if let Some(target) = target.filter(|t| *t != module.as_slice()) {
                        targets.insert(target.to_vec());
                    }
                }
            }
        }
    }
    graph
}

/// One cycle of `graph`, if it has any, as the modules along it.
fn find_cycle(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Option<Vec<ModPath>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &ModPath,
        graph: &BTreeMap<ModPath, BTreeSet<ModPath>>,
        marks: &mut BTreeMap<ModPath, Mark>,
        path: &mut Vec<ModPath>,
    ) -> Option<Vec<ModPath>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = path.iter().position(|p| p == node).expect("open nodes are on the path");
                return Some(path[start..].to_vec());
            }
            None => {}
        }
        marks.insert(node.clone(), Mark::Open);
        path.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, marks, path) {
                return Some(cycle);
            }
        }
        path.pop();
        marks.insert(node.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    graph.keys().find_map(|node| visit(node, graph, &mut marks, &mut Vec::new()))
}

fn describe(cycle: &[ModPath], modules: &BTreeMap<ModPath, PathBuf>, src: &Path) -> String {
    let file = |m: &ModPath| modules[m].strip_prefix(src).expect("below src").display().to_string();
    let mut names: Vec<String> = cycle.iter().map(file).collect();
    names.push(file(&cycle[0]));
    names.join(" -> ")
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let mut crates: Vec<PathBuf> = std::fs::read_dir(crates_dir())
        .expect("crates/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("src").is_dir())
        .collect();
    crates.sort();
    assert!(crates.len() > 10, "found the crates: {crates:?}");
    let mut failures = Vec::new();
    for krate in &crates {
        let name = krate.file_name().expect("a name").to_string_lossy().into_owned();
        let src = krate.join("src");
        let modules = modules(&src);
        let cycle = find_cycle(&edges(&modules));
        let allowed = ALLOWED.iter().any(|(n, _)| *n == name);
        match (cycle, allowed) {
            (Some(cycle), false) => failures.push(format!("{name}: {}", describe(&cycle, &modules, &src))),
            (None, true) => failures.push(format!("{name}: no cycle left, remove its entry from ALLOWED")),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "module import cycles:\n{}", failures.join("\n"));
}

/// The graph of small crates written out as `(file, text)` pairs.
fn graph_of(files: &[(&str, &str)]) -> Option<String> {
    let dir = std::env::temp_dir().join(format!("kompat-cycles-{}-{}", std::process::id(), files.len()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create a directory");
        std::fs::write(&path, text).expect("write a file");
    }
    let modules = modules(&dir);
    let found = find_cycle(&edges(&modules)).map(|c| describe(&c, &modules, &dir));
    let _ = std::fs::remove_dir_all(&dir);
    found
}

/// A small crate's `src/`: `(file, text)` pairs.
type Files<'a> = &'a [(&'a str, &'a str)];

#[test]
fn finds_cycles_and_only_cycles() {
    let cases: &[(Files, Option<&str>)] = &[
        // Two siblings through `crate::`.
        (
            &[("lib.rs", "mod a; mod b;"), ("a.rs", "use crate::b::X;"), ("b.rs", "use crate::a::Y;")],
            Some("a.rs -> b.rs -> a.rs"),
        ),
        // One way only.
        (&[("lib.rs", "mod a; mod b;"), ("a.rs", "use crate::b::X;"), ("b.rs", "pub struct X;")], None),
        // `super::` and a group.
        (
            &[
                ("m/mod.rs", "mod a; mod b;"),
                ("m/a.rs", "use super::{b::X, Z};"),
                ("m/b.rs", "fn f() { super::a::g() }"),
            ],
            Some("m/a.rs -> m/b.rs -> m/a.rs"),
        ),
        // Through three files.
        (
            &[("a.rs", "use crate::b::X;"), ("b.rs", "use crate::c::X;"), ("c.rs", "use crate::a::X;")],
            Some("a.rs -> b.rs -> c.rs -> a.rs"),
        ),
        // Comments, strings and test modules do not count.
        (&[("a.rs", "// crate::b::X\nuse crate::b::X;"), ("b.rs", "const S: &str = \"crate::a::X\";")], None),
        (&[("a.rs", "use crate::b::X;"), ("b.rs", "#[cfg(test)]\nmod tests { use crate::a::X; }")], None),
        // `super::` inside an inline module is the file itself.
        (&[("a.rs", "use crate::b::X;"), ("b.rs", "mod inner { use super::X; }")], None),
        // The parent named by `super::` and a child by `self::`.
        (&[("m/mod.rs", "use self::a::X;"), ("m/a.rs", "use super::Y;")], Some("m/mod.rs -> m/a.rs -> m/mod.rs")),
    ];
    for (files, expected) in cases {
        assert_eq!(graph_of(files).as_deref(), *expected, "{files:?}");
    }
}

/// The names of the `[dependencies]` of the crate in `crates/<name>`.
fn dependencies(name: &str) -> Vec<String> {
    let manifest = std::fs::read_to_string(crates_dir().join(name).join("Cargo.toml")).expect("read a manifest");
    let mut out = Vec::new();
    let mut in_dependencies = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
            continue;
        }
        if in_dependencies && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or(line);
            out.push(name.to_owned());
        }
    }
    out
}

#[test]
fn spans_are_a_leaf_and_diagnostics_need_no_text_format() {
    assert_eq!(dependencies("kompat-span"), Vec::<String>::new(), "kompat-span depends on nothing");
    let diag = dependencies("kompat-diag");
    assert!(diag.contains(&"kompat-span".to_owned()), "{diag:?}");
    for heavy in ["kompat-formats", "toml", "saphyr-parser", "serde", "kompat-engine", "kompat-runtime"] {
        assert!(!diag.iter().any(|d| d == heavy), "kompat-diag depends on {heavy}: {diag:?}");
    }
}

/// The layers of ARCHITECTURE.md's diagram, bottom first: a crate depends
/// (in `[dependencies]`) only on crates of lower layers.
const LAYERS: [&[&str]; 8] = [
    &["kompat-span", "kompat-runtime", "kompat-testkit"],
    &["kompat-diag", "kompat-engine"],
    &["kompat-formats", "kompat-derive-internals"],
    &["kompat-go", "kompat-rust", "kompat-crd", "kompat-k8s", "kompat-macros"],
    &["kompat-project", "kompat"],
    &["kompat-gen"],
    &["kompat-cli"],
    &["xtask", "kompat-tests"],
];

fn layer_of(name: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&name))
}

#[test]
fn crates_depend_only_on_the_layers_below_them() {
    let mut problems = Vec::new();
    let mut crates: Vec<String> = std::fs::read_dir(crates_dir())
        .expect("crates/")
        .flatten()
        .filter(|e| e.path().join("Cargo.toml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    crates.sort();
    for name in &crates {
        let Some(layer) = layer_of(name) else {
            problems.push(format!("{name} is in no layer (add it to LAYERS and to ARCHITECTURE.md)"));
            continue;
        };
        for dep in dependencies(name).iter().filter(|d| crates.contains(d)) {
            if layer_of(dep).is_none_or(|l| l >= layer) {
                problems.push(format!("{name} (layer {layer}) depends on {dep}, which is not below it"));
            }
        }
    }
    let map = std::fs::read_to_string(crates_dir().join("../ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    for name in &crates {
        if !map.contains(&format!("### `{name}`")) {
            problems.push(format!("ARCHITECTURE.md has no section `### `{name}``"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Crates that take text and return values: no file access outside their
/// tests (the loader, `kompat-project`, reads; `kompat-gen` writes).
const TEXT_IN_VALUES_OUT: [&str; 12] = [
    "kompat-span",
    "kompat-runtime",
    "kompat-engine",
    "kompat-diag",
    "kompat-formats",
    "kompat-derive-internals",
    "kompat-go",
    "kompat-rust",
    "kompat-crd",
    "kompat-k8s",
    "kompat-macros",
    "kompat",
];

#[test]
fn only_the_loader_reads_files() {
    let mut found = Vec::new();
    for name in TEXT_IN_VALUES_OUT {
        for (path, _) in modules(&crates_dir().join(name).join("src")).into_values().map(|p| (p, ())) {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            // Code before the file's tests, if it has any.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            if path.file_name().is_some_and(|n| n == "tests.rs") {
                continue;
            }
            for (idx, line) in code.lines().enumerate() {
                let line = line.trim_start();
                if line.starts_with("//") {
                    continue;
                }
                if ["std::fs", "File::open", "fs::read", "fs::write"].iter().any(|io| line.contains(io)) {
                    found.push(format!("{}:{}: {line}", path.display(), idx + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "file access in a text-in, values-out crate:\n{}", found.join("\n"));
}
