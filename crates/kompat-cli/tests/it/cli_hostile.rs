//! Hostile input end to end: alias bombs and deep nesting in every kind of
//! YAML input, special files in linted trees, oversized files. Every case
//! ends with exit code 0 or a located error (exit 2), never a hang or a
//! crash.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::dir_with;

const BOMB: &str = include_str!("../../../../fixtures/hostile/billion-laughs.yaml");

/// Runs kompat in `dir`; a run still going after a minute is killed and
/// fails the test (a FIFO opened for reading blocks forever).
fn run(dir: &Path, args: &[&str]) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kompat"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kompat");
    // Read stderr as it comes: a full pipe would block kompat.
    let mut pipe = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut pipe, &mut text);
        text
    });
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() < Duration::from_secs(60) => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                panic!("kompat {args:?} did not return");
            }
        }
    }
    let status = child.wait().expect("wait");
    (status.code().unwrap_or(-1), reader.join().unwrap_or_default())
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status();
    assert!(status.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

const FEATURES: &str =
    "[[feature]]\nname = \"A\"\nspecs = [{ version = \"1.30\", stage = \"Alpha\", default = false }]\n";

#[test]
fn alias_bombs_are_located_errors_in_every_reader() {
    let crd = format!("kind: CustomResourceDefinition\n{BOMB}");
    // (file name, contents, command)
    let cases: [(&str, &str, &[&str]); 4] = [
        ("bomb.yaml", BOMB, &["export", "--format", "json", "--decls", "bomb.yaml"]),
        ("bomb.yaml", BOMB, &["lint", "."]),
        ("x.features.yaml", BOMB, &["lint", "."]),
        ("crd.yaml", &crd, &["lint", "."]),
    ];
    for (name, text, args) in cases {
        let dir = dir_with(&[(name, text), ("features.toml", FEATURES)]);
        let (code, stderr) = run(dir.path(), args);
        assert_eq!(code, 2, "{name} {args:?}: {stderr}");
        assert!(stderr.contains("error: invalid YAML: document contains excessive aliasing: alias `*a"), "{stderr}");
        assert!(stderr.contains(&format!("{name}:")), "{name} {args:?}: unlocated: {stderr}");
    }
}

#[test]
fn deep_nesting_is_a_located_error() {
    let block: String = (0..1500).map(|i| format!("{}a:\n", " ".repeat(i))).collect();
    let deep = [
        ("flow.yaml", "[".repeat(100_000)),
        ("map.yaml", "{a: ".repeat(100_000)),
        ("seq.yaml", format!("{}x\n", "- ".repeat(100_000))),
        ("block.yaml", block),
    ];
    for (name, text) in &deep {
        for args in [&["lint", "."][..], &["export", "--format", "json", "--decls", name]] {
            let dir = dir_with(&[(name, text), ("features.toml", FEATURES)]);
            let (code, stderr) = run(dir.path(), args);
            assert_eq!(code, 2, "{name} {args:?}: {stderr}");
            assert!(stderr.contains(&format!("{name}:")), "{name} {args:?}: unlocated: {stderr}");
        }
    }
}

#[test]
fn special_files_never_block() {
    let dir = dir_with(&[("features.toml", FEATURES), ("deploy/run.sh", "widgetd --feature-gates=A=true\n")]);
    for name in ["pipe.yaml", "pipe.toml", "pipe.rs", "deploy/pipe.sh", "versioned_feature_list.yaml"] {
        mkfifo(&dir.path().join(name));
    }
    let (code, stderr) = run(dir.path(), &["lint", "."]);
    assert_eq!(code, 0, "{stderr}");
    // Named on the command line, a FIFO is a located error.
    for args in [
        &["lint", "pipe.yaml"][..],
        &["export", "--format", "json", "--decls", "pipe.toml"],
        &["lint", "--decls", "pipe.rs"],
    ] {
        let (code, stderr) = run(dir.path(), args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains("it is a FIFO, not a regular file"), "{args:?}: {stderr}");
    }
    let (code, stderr) = run(dir.path(), &["lint", "--baseline", "pipe.yaml", "features.toml"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("it is a FIFO, not a regular file"), "{stderr}");
}

#[test]
fn size_limits_are_located_errors() {
    let long_line = format!("a: {}\n", "x".repeat(kompat_project::MAX_LINE_BYTES + 1));
    let dir = dir_with(&[("features.toml", FEATURES), ("deploy.yaml", &format!("k: v\n{long_line}"))]);
    let (code, stderr) = run(dir.path(), &["lint", "."]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("error: line longer than 1 MiB, the most kompat reads"), "{stderr}");
    assert!(stderr.contains("deploy.yaml:2:1"), "{stderr}");

    let big = "# padding\n".repeat((kompat_project::MAX_FILE_BYTES / 10 + 1) as usize);
    let dir = dir_with(&[("features.toml", FEATURES), ("big.features.yaml", &big)]);
    let (code, stderr) = run(dir.path(), &["lint", "."]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("big.features.yaml is larger than 16 MiB, the most kompat reads"), "{stderr}");
}
