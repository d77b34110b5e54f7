//! Every TOML reader of kompat-formats (kompat TOML declarations, plan files)
//! locates every error at its line and column, including those of deep
//! nesting and of the `toml` crate's own limits (`fixtures/hostile/toml/`,
//! each file saying where its error is in its first line, `# expect L:C`).

use std::path::{Path, PathBuf};

use kompat_formats::plan::parse_plan;
use kompat_formats::{parse_toml, ParseError};
use kompat_span::LineIndex;

/// The hostile TOML fixtures with the line and column each expects.
fn cases() -> Vec<(PathBuf, String, (usize, usize))> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/hostile/toml");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display())) {
        let path = entry.unwrap_or_else(|err| panic!("{err}")).path();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        let expect = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect "))
            .and_then(|lc| lc.split_once(':'))
            .and_then(|(l, c)| Some((l.parse().ok()?, c.parse().ok()?)))
            .unwrap_or_else(|| panic!("{}: no `# expect LINE:COL` first line", path.display()));
        out.push((path, text, expect));
    }
    out.sort();
    assert!(out.len() >= 10, "the fixtures are missing");
    out
}

/// The first error `read` reports for every fixture is at the line and
/// column the fixture expects.
#[track_caller]
fn check<T>(reader: &str, read: impl Fn(&str) -> Result<T, Vec<ParseError>>) {
    for (path, text, expect) in cases() {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let Err(errors) = read(&text) else { panic!("{reader}: {name} parsed") };
        let first = &errors[0];
        let span = first.span.unwrap_or_else(|| panic!("{reader}: {name}: unlocated: {}", first.message));
        let at = LineIndex::new(&text).line_col(span.start);
        assert_eq!(at, expect, "{reader}: {name}: {}", first.message);
    }
}

#[test]
fn kompat_toml_errors_are_located() {
    check("kompat TOML", parse_toml);
}

#[test]
fn plan_errors_are_located() {
    check("plan", parse_plan);
}

#[test]
fn a_key_of_too_many_parts_is_named_so() {
    let text = format!("a = 1\n{} = 2\n", vec!["k"; 81].join("."));
    let errors = parse_toml(&text).err().unwrap_or_default();
    assert_eq!(errors[0].message, "recursion limit: a key has at most 80 dotted parts");
    // 80 parts are read.
    let text = format!("{} = 2\n", vec!["k"; 80].join("."));
    assert!(parse_toml(&text).err().unwrap_or_default().iter().all(|e| !e.message.contains("recursion")));
}
