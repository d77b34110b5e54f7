//! One reading of Rust declarations: every compile-fail UI input of the
//! derives (`crates/kompat-macros/tests/ui/*.rs`) goes through kompat's source reader, and
//! the reader must report exactly the derive's errors that trybuild checks in
//! the `.stderr` next to it: the same messages, in the same order, at the same
//! line and column. rustc's own errors there (with a code, `error[E...]`) and
//! warnings are not the derive's and are left out.

use std::path::{Path, PathBuf};

use kompat_rust::memory::{Text, Texts};
use kompat_rust::scan;

/// One error: its message and where it starts (1-based line and column).
type Reported = (String, usize, usize);

/// The derive's errors in a trybuild `.stderr`: each `error: MESSAGE`
/// heading with the `--> FILE:LINE:COL` line under it.
fn expected(stderr: &str) -> Vec<Reported> {
    let mut out = Vec::new();
    let mut lines = stderr.lines();
    while let Some(line) = lines.next() {
        let Some(message) = line.strip_prefix("error: ") else { continue };
        let at = lines.next().and_then(|l| l.trim_start().strip_prefix("--> "));
        let position = at.and_then(|at| {
            let mut parts = at.rsplitn(3, ':');
            let column = parts.next()?.parse().ok()?;
            let line = parts.next()?.parse().ok()?;
            Some((line, column))
        });
        let Some((line, column)) = position else {
            panic!("`error: {message}` without a `--> file:line:col` line under it:\n{stderr}");
        };
        out.push((message.to_owned(), line, column));
    }
    out
}

/// What the reader reports for `text`.
fn actual(path: &Path, text: &str) -> Vec<Reported> {
    let mut files = Texts::default();
    files.push(Text::new(path, text));
    let Err(err) = scan(&mut files) else {
        return Vec::new();
    };
    err.iter()
        .map(|d| {
            let (line, column) = d.location.as_ref().and_then(|l| l.line_col()).unwrap_or((0, 0));
            (d.message.to_string(), line, column)
        })
        .collect()
}

fn ui_inputs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kompat-macros/tests/ui");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display()));
    let mut inputs: Vec<PathBuf> =
        entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "rs")).collect();
    inputs.sort();
    inputs
}

#[test]
fn the_reader_reports_exactly_the_derives_errors() {
    let mut failures = Vec::new();
    let mut errors = 0;
    let inputs = ui_inputs();
    for input in &inputs {
        let read =
            |path: &Path| std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        let text = read(input);
        let expected = expected(&read(&input.with_extension("stderr")));
        let name = input.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let actual = actual(&Path::new("tests/ui").join(&name), &text);
        if actual != expected {
            failures.push(format!("{name}\n  derive: {expected:?}\n  reader: {actual:?}"));
        }
        errors += expected.len();
    }
    assert!(failures.is_empty(), "the reader and the derive disagree:\n{}", failures.join("\n"));
    // Not vacuous: every compile-fail case, and their errors, were compared.
    assert!(inputs.len() >= 60, "only {} UI inputs", inputs.len());
    assert!(errors >= inputs.len(), "only {errors} derive errors in {} UI inputs", inputs.len());
}

/// The `.stderr` reader itself: a derive error is kept with its position,
/// rustc's coded errors and warnings are not.
#[test]
fn stderr_headings() {
    let stderr = "error: unknown stage \"beta\"; did you mean \"Beta\"?\n --> tests/ui/x.rs:7:45\n  |\n\n\
                  error[E0565]: malformed `feature` attribute input\n --> tests/ui/x.rs:7:5\n\n\
                  warning: crate-level attribute\n --> tests/ui/x.rs:7:5\n\n\
                  error: second\n  --> tests/ui/x.rs:11:3\n";
    assert_eq!(
        expected(stderr),
        [("unknown stage \"beta\"; did you mean \"Beta\"?".to_owned(), 7, 45), ("second".to_owned(), 11, 3)]
    );
}
