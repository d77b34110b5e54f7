//! Walking linted trees: only regular files, special files skipped without
//! being opened, unreadable entries reported with their path.

use std::fs;
use std::path::Path;
use std::process::Command;

use kompat_project::{walk_files, SourceFile};

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status();
    assert!(status.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

fn relative(dir: &Path, files: &[std::path::PathBuf]) -> Vec<String> {
    files.iter().map(|f| f.strip_prefix(dir).unwrap_or(f).display().to_string()).collect()
}

#[test]
fn special_files_are_skipped_and_refused_by_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    fs::create_dir(dir.path().join("sub")).expect("mkdir");
    fs::write(dir.path().join("b.toml"), "").expect("write");
    fs::write(dir.path().join("sub/a.yaml"), "").expect("write");
    mkfifo(&dir.path().join("a.toml"));
    mkfifo(&dir.path().join("sub/pipe.yaml"));
    let listed = walk_files(dir.path()).map(|files| relative(dir.path(), &files)).map_err(|e| e.to_string());
    assert_eq!(listed, Ok(vec!["b.toml".to_owned(), "sub/a.yaml".to_owned()]));

    let pipe = dir.path().join("a.toml");
    let expected = format!("{0}: cannot read {0}: it is a FIFO, not a regular file", pipe.display());
    assert_eq!(walk_files(&pipe).map_err(|e| e.to_string()), Err(expected.clone()));
    assert_eq!(SourceFile::read(&pipe).map(|_| ()).map_err(|e| e.to_string()), Err(expected));
    let dir_err = SourceFile::read(dir.path()).map(|_| ()).map_err(|e| e.to_string());
    assert!(dir_err.is_err_and(|e| e.ends_with("it is a directory, not a regular file")));
}

#[test]
fn unreadable_entries_are_located_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    fs::create_dir(dir.path().join("closed")).expect("mkdir");
    fs::write(dir.path().join("closed/a.toml"), "").expect("write");
    fs::write(dir.path().join("secret.toml"), "").expect("write");
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(dir.path().join("closed"), fs::Permissions::from_mode(0o000)).expect("chmod");
    fs::set_permissions(dir.path().join("secret.toml"), fs::Permissions::from_mode(0o000)).expect("chmod");
    let got = walk_files(dir.path()).map_err(|e| e.to_string());
    // Root (CAP_DAC_OVERRIDE) reads everything; permissions only bind
    // other users, and then both entries are reported.
    let enforced = fs::read_dir(dir.path().join("closed")).is_err();
    fs::set_permissions(dir.path().join("closed"), fs::Permissions::from_mode(0o755)).expect("chmod");
    if enforced {
        let closed = dir.path().join("closed");
        let secret = dir.path().join("secret.toml");
        let expected = format!(
            "{0}: cannot read {0}: Permission denied\n{1}: cannot read {1}: Permission denied",
            closed.display(),
            secret.display()
        );
        assert_eq!(got, Err(expected));
    } else {
        eprintln!("permissions are not enforced for this user: both entries are readable");
        assert_eq!(
            got.map(|files| relative(dir.path(), &files)),
            Ok(vec!["closed/a.toml".into(), "secret.toml".into()])
        );
    }
}
