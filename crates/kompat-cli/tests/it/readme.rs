//! The README is the product's front door, so it is kept true mechanically:
//! every command in it runs from a clone, and every output it shows is what
//! the command prints. The same holds for the guide its reference material
//! moved to, `docs/GUIDE.md`.
//!
//! - A ```` ```console ```` block is a session: `$ COMMAND` lines, each
//!   followed by the output it prints (stdout, then stderr). A line `...`
//!   stands for any number of lines, which is how the README marks an
//!   excerpt; everything else must match line for line (trailing spaces
//!   aside).
//! - A ```` ```sh ```` block lists commands without their output: each must
//!   run without a usage or input error (exit 0, or 1 for findings).
//!
//! A `$ cd DIR` line (no output) runs the block's later commands in DIR, as
//! a shell session would; every block starts at the root again.
//!
//! Commands run through `sh` in a scratch copy of the files the README
//! names (`fixtures/`, `crates/kompat-k8s/data/`), with the built `kompat` first on
//! `PATH`, so `kompat gen` in the README writes into the copy. `cargo run --`
//! is the same binary; `cargo install` and `cargo test` are the two commands
//! this test does not run: a release build of the whole binary, or the
//! network, for the first (`cli_adoption.rs` checks with `cargo metadata`
//! that each install line names the package holding `kompat`, and that it
//! may be published), the test suite itself for the second.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One command of the README, where it is, and the output it shows (for a
/// `console` block).
#[derive(Debug)]
struct Example {
    line: usize,
    /// The fenced block the command is in, counted from 0.
    block: usize,
    command: String,
    expected: Option<Vec<String>>,
}

/// The commands of a Markdown text, in order.
fn examples(markdown: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut fence: Option<&str> = None;
    let mut block = 0;
    for (idx, line) in markdown.lines().enumerate() {
        let number = idx + 1;
        match fence {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    fence = Some(info.trim());
                    block += 1;
                }
            }
            Some(_) if line.starts_with("```") => fence = None,
            Some("console") => {
                if let Some(command) = line.strip_prefix("$ ") {
                    out.push(Example { line: number, block, command: command.to_string(), expected: Some(Vec::new()) });
                } else {
                    let last = out.last_mut().and_then(|e| e.expected.as_mut());
                    let last = last.unwrap_or_else(|| panic!("README.md:{number}: output before any `$ ` command"));
                    last.push(line.trim_end().to_string());
                }
            }
            Some("sh") => {
                let command = match line.find(" #") {
                    Some(i) => &line[..i],
                    None => line,
                }
                .trim();
                if command.is_empty() || command.starts_with('#') {
                    continue;
                }
                out.push(Example { line: number, block, command: command.to_string(), expected: None });
            }
            Some(_) => {}
        }
    }
    out
}

/// Whether `actual` matches `expected`, where a `...` line stands for any
/// number of lines.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
        Some((first, rest)) => actual.first().is_some_and(|a| a.trim_end() == first) && matches(rest, &actual[1..]),
    }
}

/// What the test does with a command: run it as written, or not at all
/// (with the reason).
fn plan(command: &str) -> Result<String, &'static str> {
    if command.starts_with("cargo install ") {
        return Err("a release build, or the network; checked by cli_adoption.rs");
    }
    if command == "cargo test" {
        return Err("the test suite itself");
    }
    if let Some(rest) = command.strip_prefix("cargo run --bin kompat -- ") {
        return Ok(format!("kompat {rest}"));
    }
    assert!(
        command.starts_with("kompat ") || command.contains("| kompat "),
        "README command `{command}` is neither kompat nor one this test knows how to skip: teach the test"
    );
    Ok(command.to_string())
}

/// A scratch directory holding what the README's commands read.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for sub in ["fixtures", "crates/kompat-k8s/data"] {
        copy_tree(&repo_root().join(sub), &dir.path().join(sub));
    }
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("dir entry");
        let kind = entry.file_type().expect("file type");
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}

fn run(dir: &Path, command: &str) -> (i32, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_kompat")).parent().expect("bin dir").to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("PATH");
    let out = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("OUT_DIR")
        .output()
        .expect("run sh");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// Runs every command of `file` (relative to the repository root) in a
/// scratch copy; the failures, and how many commands ran.
fn check_file(file: &str) -> (Vec<String>, usize) {
    let text = std::fs::read_to_string(repo_root().join(file)).unwrap_or_else(|err| panic!("{file}: {err}"));
    let examples = examples(&text);
    assert!(examples.len() >= 10, "{file}: too few commands found: {examples:#?}");
    let dir = scratch();
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut cwd = (0, dir.path().to_path_buf());
    for example in &examples {
        if cwd.0 != example.block {
            cwd = (example.block, dir.path().to_path_buf());
        }
        if let Some(sub) = example.command.strip_prefix("cd ") {
            let sub = sub.split(" #").next().unwrap_or_default().trim();
            cwd.1 = cwd.1.join(sub);
            let shown = example.expected.as_ref().is_some_and(|e| !e.is_empty());
            if !cwd.1.is_dir() || shown {
                failures.push(format!(
                    "{file}:{}: `{}`: no such directory, or output shown",
                    example.line, example.command
                ));
            }
            continue;
        }
        let Ok(command) = plan(&example.command) else { continue };
        ran += 1;
        let (code, output) = run(&cwd.1, &command);
        let actual: Vec<&str> = output.lines().collect();
        match &example.expected {
            Some(expected) if !matches(expected, &actual) => failures.push(format!(
                "{file}:{}: `{}` printed (exit {code}):\n{output}\nthe file shows:\n{}\n",
                example.line,
                example.command,
                expected.join("\n")
            )),
            None if code != 0 && code != 1 => {
                failures.push(format!("{file}:{}: `{}` exited {code}:\n{output}", example.line, example.command))
            }
            _ => {}
        }
    }
    (failures, ran)
}

#[test]
fn every_readme_command_runs_and_prints_what_the_readme_shows() {
    let (failures, ran) = check_file("README.md");
    assert!(ran >= 10, "ran only {ran} commands");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_guide_command_runs_and_prints_what_the_guide_shows() {
    let (failures, ran) = check_file("docs/GUIDE.md");
    assert!(ran >= 10, "ran only {ran} commands");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The README's error excerpt of the derive is the real compiler output.
#[test]
fn facade_guide_error_excerpt_is_the_trybuild_output() {
    let guide = std::fs::read_to_string(repo_root().join("crates/kompat/README.md")).expect("crates/kompat/README.md");
    let start = guide.find("```text\n").expect("a text block") + "```text\n".len();
    let excerpt = &guide[start..start + guide[start..].find("```").expect("end of block")];
    let stderr = std::fs::read_to_string(repo_root().join("crates/kompat-macros/tests/ui/many-errors-at-once.stderr"))
        .expect("the trybuild output");
    assert!(stderr.starts_with(excerpt), "{excerpt}\n---\n{stderr}");
}

#[test]
fn the_matcher_honours_excerpts() {
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    let cases: &[(&str, &str, bool)] = &[
        ("a\nb", "a\nb", true),
        ("a\nb", "a\nb\nc", false),
        ("a\n...", "a\nb\nc", true),
        ("...\nc", "a\nb\nc", true),
        ("a\n...\nc", "a\nc", true),
        ("a\n...\nc", "a\nb", false),
        ("b", "a\nb", false),
        ("", "", true),
    ];
    for (expected, actual, want) in cases {
        let actual: Vec<&str> = actual.lines().collect();
        assert_eq!(matches(&lines(expected), &actual), *want, "{expected:?} vs {actual:?}");
    }
}
