//! End-to-end tests of the adoption helpers: shell completions, man pages,
//! `--version`, `kompat init`, and the GitHub Action / pre-commit hooks that
//! drive the binary.

mod common;

use common::kompat_in;

/// The visible subcommands, as `kompat --help` lists them.
fn subcommands() -> Vec<String> {
    let (code, out, err) = kompat_in(std::env::temp_dir().as_path(), &["--help"]);
    assert_eq!(code, 0, "{err}");
    let commands = out.split("Commands:").nth(1).and_then(|s| s.split("Options:").next()).unwrap_or("");
    let names: Vec<String> = commands
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(String::from)
        .collect();
    assert!(names.len() >= 10, "too few subcommands parsed from --help: {names:?}");
    names
}

#[test]
fn completions_name_every_subcommand_in_every_shell() {
    let dir = std::env::temp_dir();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = kompat_in(&dir, &["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        for name in subcommands() {
            assert!(out.contains(&name), "{shell} completion lacks `{name}`");
        }
    }
}

#[test]
fn completions_reject_an_unknown_shell() {
    let (code, out, err) = kompat_in(std::env::temp_dir().as_path(), &["completions", "tcsh"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("invalid value 'tcsh'"), "{err}");
}

#[test]
fn manpage_on_stdout_has_name_synopsis_and_every_subcommand() {
    let (code, out, err) = kompat_in(std::env::temp_dir().as_path(), &["manpage"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(".ie \\n(.g .ds Aq"), "not roff: {}", &out[..out.len().min(80)]);
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS", ".SH SUBCOMMANDS"] {
        assert!(out.contains(section), "missing {section}");
    }
    for name in subcommands() {
        assert!(out.contains(&format!("kompat\\-{}", name.replace('-', "\\-"))), "man page lacks `{name}`");
    }
}

#[test]
fn manpage_out_dir_writes_one_page_per_subcommand() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out_dir = dir.path().join("man/man1");
    let (code, out, err) = kompat_in(dir.path(), &["manpage", "--out-dir", "man/man1"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let mut expected: Vec<String> = subcommands().iter().map(|n| format!("kompat-{n}.1")).collect();
    expected.push("kompat.1".into());
    expected.sort();
    let mut written: Vec<String> = std::fs::read_dir(&out_dir)
        .expect("out dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(written, expected);
    let lint = std::fs::read_to_string(out_dir.join("kompat-lint.1")).expect("lint page");
    assert!(lint.contains(".SH NAME\nkompat\\-lint"), "{lint}");
    assert!(lint.contains(".SH SYNOPSIS") && lint.contains("\\-\\-format"), "{lint}");
}

#[test]
fn version_names_the_commit_when_built_from_git() {
    let (code, out, err) = kompat_in(std::env::temp_dir().as_path(), &["--version"]);
    assert_eq!(code, 0, "{err}");
    let line = out.trim_end();
    let expected = concat!("kompat ", env!("CARGO_PKG_VERSION"));
    assert!(line.starts_with(expected), "{line}");
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if workspace.join(".git").exists() {
        // `kompat 0.1.0 (abc1234)` or `(abc1234-dirty)`.
        let inner = line.strip_prefix(expected).and_then(|s| s.strip_prefix(" (")).and_then(|s| s.strip_suffix(')'));
        let hash = inner.map(|s| s.trim_end_matches("-dirty")).unwrap_or("");
        assert!(hash.len() >= 7 && hash.bytes().all(|b| b.is_ascii_hexdigit()), "no commit in `{line}`");
    } else {
        assert_eq!(line, expected);
    }
}
