//! The I/O layer: atomic writes (all files or none), untouched files when
//! nothing changed, and stale-file detection with unified diffs.

use std::fs;
use std::path::Path;

use kompat_gen::{check_files, write_file_with, write_files, GeneratedFile};

fn file(path: &Path, contents: &str) -> GeneratedFile {
    GeneratedFile { path: path.to_owned(), contents: contents.to_owned() }
}

/// Every file name in `dir` and below, sorted, with `/` separators.
fn listing(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            let rel = path.strip_prefix(dir).map(|p| p.to_string_lossy().replace('\\', "/")).unwrap_or_default();
            if path.is_dir() {
                stack.push(path);
                out.push(format!("{rel}/"));
            } else {
                out.push(rel);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn writes_new_and_changed_files_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = dir.path().join("a.rs");
    let b = dir.path().join("nested/deeper/b.md");
    fs::write(&a, "same\n").expect("seed");
    let report = write_files(&[file(&a, "same\n"), file(&b, "new\n")]).expect("write");
    assert_eq!(report.unchanged, vec![a.clone()]);
    assert_eq!(report.written, vec![b.clone()]);
    assert_eq!(fs::read_to_string(&b).expect("read"), "new\n");
    assert_eq!(listing(dir.path()), ["a.rs", "nested/", "nested/deeper/", "nested/deeper/b.md"]);

    let report = write_files(&[file(&a, "changed\n"), file(&b, "new\n")]).expect("write");
    assert_eq!(report.written, vec![a.clone()]);
    assert_eq!(fs::read_to_string(&a).expect("read"), "changed\n");
}

#[test]
fn a_failing_write_leaves_every_file_untouched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = dir.path().join("a.rs");
    fs::write(&a, "old a\n").expect("seed");
    // `blocker` is a file, so nothing can be created below it.
    fs::write(dir.path().join("blocker"), "x").expect("seed");
    let files = [
        file(&a, "new a\n"),
        file(&dir.path().join("fresh/c.json"), "{}\n"),
        file(&dir.path().join("blocker/b.md"), "new b\n"),
    ];
    let err = write_files(&files).map(|_| ()).expect_err("blocked");
    assert!(err.path.ends_with("blocker/b.md"), "{err:?}");
    assert_eq!(fs::read_to_string(&a).expect("read"), "old a\n");
    // No temporary file and no created directory is left behind.
    assert_eq!(listing(dir.path()), ["a.rs", "blocker"]);
}

#[test]
fn a_streamed_file_is_written_whole_or_not_at_all() {
    let dir = tempfile::tempdir().expect("tempdir");
    let report = dir.path().join("reports/lint/report.json");
    write_file_with(&report, &mut |out| {
        for i in 0..3 {
            writeln!(out, "line {i}")?;
        }
        Ok(())
    })
    .expect("write");
    assert_eq!(fs::read_to_string(&report).expect("read"), "line 0\nline 1\nline 2\n");
    assert_eq!(listing(dir.path()), ["reports/", "reports/lint/", "reports/lint/report.json"]);

    // A writer failing halfway: the old file stays, no temporary file is
    // left; a failure in directories it created removes them.
    let failing = &mut |out: &mut dyn std::io::Write| {
        writeln!(out, "half")?;
        Err(std::io::Error::other("the findings ran out"))
    };
    let err = write_file_with(&report, failing).expect_err("failed");
    assert!(err.message.contains("the findings ran out"), "{err:?}");
    assert_eq!(fs::read_to_string(&report).expect("read"), "line 0\nline 1\nline 2\n");
    let fresh = dir.path().join("fresh/deeper/out.sarif");
    write_file_with(&fresh, failing).expect_err("failed");
    assert_eq!(listing(dir.path()), ["reports/", "reports/lint/", "reports/lint/report.json"]);
}

#[test]
fn a_directory_in_the_way_is_an_error_before_anything_is_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = dir.path().join("a.rs");
    fs::create_dir(dir.path().join("b.md")).expect("seed");
    let err = write_files(&[file(&a, "a\n"), file(&dir.path().join("b.md"), "b\n")]).map(|_| ()).expect_err("dir");
    assert!(err.message.starts_with("cannot read "), "{err:?}");
    assert_eq!(listing(dir.path()), ["b.md/"]);
}

#[test]
fn check_reports_stale_and_missing_files_with_diffs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fresh = dir.path().join("fresh.md");
    let stale = dir.path().join("stale.md");
    let crlf = dir.path().join("crlf.md");
    fs::write(&fresh, "one\n").expect("seed");
    fs::write(&stale, "one\ntwo\nthree\n").expect("seed");
    fs::write(&crlf, "one\r\ntwo\r\n").expect("seed");
    let missing = dir.path().join("missing.md");
    let got = check_files(&[
        file(&fresh, "one\n"),
        file(&stale, "one\n2\nthree\n"),
        file(&crlf, "one\ntwo\n"),
        file(&missing, "x\n"),
    ])
    .expect("check");
    assert_eq!(got.len(), 2);
    assert_eq!((got[0].path.as_path(), got[0].missing), (stale.as_path(), false));
    let shown = stale.display();
    assert_eq!(got[0].diff, format!("--- {shown}\n+++ {shown}\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"));
    assert_eq!((got[1].path.as_path(), got[1].missing), (missing.as_path(), true));
    assert!(got[1].diff.ends_with("@@ -0,0 +1 @@\n+x\n"), "{}", got[1].diff);
    // Checking writes nothing.
    assert!(!missing.exists());
}

/// Whether a file on disk is up to date, decided as it is read in chunks:
/// every case is checked through `check_files` (stale or not) and
/// `write_files` (unchanged or rewritten).
#[test]
fn up_to_date_across_read_chunks() {
    let long = "x".repeat(8191) + "\n" + &"y".repeat(9000) + "\n";
    let crlf_late = long.replace("\n", "\r\n");
    let mut longer = long.clone();
    longer.push('z');
    let mut changed_at_boundary = long.clone();
    changed_at_boundary.replace_range(8192..8193, "Y");
    let cases: [(&str, &str, &str, bool); 8] = [
        ("same", &long, &long, true),
        ("crlf after the first chunk", &crlf_late, &long, true),
        ("file longer", &longer, &long, false),
        ("file shorter", &long, &longer, false),
        ("differs at a chunk boundary", &changed_at_boundary, &long, false),
        ("empty file, empty contents", "", "", true),
        ("empty file", "", "a\n", false),
        ("short", "a\r\n", "a\n", true),
    ];
    for (name, on_disk, generated, current) in cases {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("out.rs");
        fs::write(&path, on_disk).expect("seed");
        let stale = check_files(&[file(&path, generated)]).expect("check");
        assert_eq!(stale.is_empty(), current, "{name}: check_files");
        let report = write_files(&[file(&path, generated)]).expect("write");
        assert_eq!(report.unchanged.len() == 1, current, "{name}: write_files");
        assert_eq!(fs::read_to_string(&path).expect("read"), if current { on_disk } else { generated }, "{name}");
    }
}
