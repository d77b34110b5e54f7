//! The renderer's sandbox and limits, with fake renderers (shell scripts
//! written by the tests): deterministic output, a failure exit, a sleep past
//! the time limit, a flood past the output cap, the environment it sees,
//! and the kustomize trees and roots of a kubebuilder-shaped `config/`.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use kompat_project::render::{kustomize_roots, normalize, run, Failure, Limits};

const LIMITS: Limits = Limits { timeout: Duration::from_secs(20), max_output: 1 << 20 };

/// A fake renderer: an executable shell script with `body`.
fn script(dir: &Path, name: &str, body: &str) -> Vec<String> {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    vec![path.display().to_string()]
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

#[test]
fn output_is_returned_and_arguments_passed() {
    let dir = tempdir();
    let fake = script(dir.path(), "r", "echo \"args: $*\"; echo '---'; echo 'kind: X'");
    let out = run(&fake, &["template".into(), "a b".into()], LIMITS);
    assert_eq!(out, Ok("args: template a b\n---\nkind: X\n".to_owned()));
}

#[test]
fn a_failure_keeps_the_first_lines_of_stderr() {
    let dir = tempdir();
    let fake = script(dir.path(), "r", "for i in 1 2 3 4 5 6 7; do echo \"Error: line $i\" >&2; done; exit 3");
    match run(&fake, &[], LIMITS) {
        Err(Failure::Exit { status, stderr }) => {
            assert_eq!(status, "exited with status 3");
            assert_eq!(stderr, ["Error: line 1", "Error: line 2", "Error: line 3", "Error: line 4", "Error: line 5"]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_time_limit_kills_the_whole_group() {
    let dir = tempdir();
    let marker = dir.path().join("survived");
    // A child in the background that would outlive its parent.
    let fake = script(dir.path(), "r", &format!("(sleep 3; touch {}) & echo started >&2; sleep 30", marker.display()));
    let start = Instant::now();
    let limits = Limits { timeout: Duration::from_millis(500), ..LIMITS };
    match run(&fake, &[], limits) {
        Err(Failure::Timeout { limit, stderr }) => {
            assert_eq!(limit, Duration::from_millis(500));
            assert_eq!(stderr, ["started"]);
        }
        other => panic!("{other:?}"),
    }
    assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
    std::thread::sleep(Duration::from_secs(4));
    assert!(!marker.exists(), "a process of the group outlived the time limit");
}

#[test]
fn the_output_cap_stops_a_flood() {
    let dir = tempdir();
    let fake = script(dir.path(), "r", "yes 'apiVersion: v1'");
    let start = Instant::now();
    let limits = Limits { timeout: Duration::from_secs(30), max_output: 64 << 10 };
    assert_eq!(run(&fake, &[], limits), Err(Failure::OutputCap { cap: 64 << 10 }));
    assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
    assert!(Failure::OutputCap { cap: 64 << 10 }.reason().contains("over the cap (1 MiB)"));
}

#[test]
fn a_missing_program_is_said_so() {
    let got = run(&["kompat-no-such-renderer".to_owned()], &[], LIMITS);
    assert_eq!(got, Err(Failure::Missing { program: "kompat-no-such-renderer".to_owned() }));
    let got = run(&["./no/such/helm".to_owned()], &[], LIMITS);
    assert_eq!(got, Err(Failure::Missing { program: "./no/such/helm".to_owned() }));
}

#[test]
fn the_renderer_sees_a_fresh_home_no_proxy_and_no_stdin() {
    let dir = tempdir();
    let fake = script(
        dir.path(),
        "r",
        "echo \"cwd=$(pwd)\"; echo \"home=$HOME\"; echo \"helm=$HELM_CACHE_HOME\"; echo \"kube=$KUBECONFIG\"; \
         echo \"proxy=$HTTPS_PROXY\"; echo \"git=$GIT_ALLOW_PROTOCOL\"; echo \"secret=$KOMPAT_TEST_SECRET\"; \
         echo \"stdin=$(cat)\"; touch \"$HOME/written\"",
    );
    // The test's own environment is not passed on.
    std::env::set_var("KOMPAT_TEST_SECRET", "token");
    let out = run(&fake, &[], LIMITS).expect("runs");
    let line = |key: &str| -> String {
        out.lines().find_map(|l| l.strip_prefix(&format!("{key}="))).unwrap_or_default().to_owned()
    };
    let home = PathBuf::from(line("home"));
    assert!(home.starts_with(std::env::temp_dir()), "{out}");
    assert!(line("cwd").contains("kompat-render-"), "{out}");
    assert!(PathBuf::from(line("helm")).starts_with(home.parent().unwrap_or(&home)), "{out}");
    assert!(!Path::new(&line("kube")).exists(), "{out}");
    assert_eq!(line("proxy"), "http://127.0.0.1:9");
    assert_eq!(line("git"), "file");
    assert_eq!(line("secret"), "");
    assert_eq!(line("stdin"), "");
    // The sandbox is gone afterwards.
    assert!(!home.exists(), "{out}");
}

#[cfg(target_os = "linux")]
#[test]
fn the_renderer_has_no_network() {
    let dir = tempdir();
    // Only the loopback interface, or none at all, in the new namespace; or
    // else, where namespaces are refused, the proxy black hole.
    let fake = script(dir.path(), "r", "cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '");
    let out = run(&fake, &[], LIMITS).expect("runs");
    let interfaces: Vec<&str> = out.lines().collect();
    let host = std::fs::read_to_string("/proc/net/dev").unwrap_or_default();
    let isolated = std::process::Command::new("unshare").args(["--user", "--net", "true"]).status();
    if isolated.is_ok_and(|s| s.success()) {
        assert_eq!(interfaces, ["lo"], "the host has {host}");
    } else {
        eprintln!("note: user namespaces are refused here; the renderer has only the proxy black hole");
    }
}

/// A kubebuilder-shaped tree: `default` includes `../crd` and `../rbac`,
/// `crd` names its bases and a patch, `samples` stands alone.
#[test]
fn kustomize_roots_and_the_files_they_consume() {
    let dir = tempdir();
    let root = dir.path();
    let files = [
        (
            "config/default/kustomization.yaml",
            "namePrefix: w-\nresources:\n- ../crd\n- ../rbac\n- https://example.com/remote.yaml\ntransformers:\n- prefix.yaml\n",
        ),
        // Kustomize's own configuration, not an object of the cluster.
        ("config/default/prefix.yaml", "apiVersion: builtin\nkind: PrefixSuffixTransformer\n"),
        ("config/crd/kustomization.yaml", "resources:\n- bases/a.yaml\npatches:\n- path: patches/webhook_in_a.yaml\n"),
        ("config/crd/bases/a.yaml", "kind: CustomResourceDefinition\n"),
        ("config/crd/patches/webhook_in_a.yaml", "kind: CustomResourceDefinition\n"),
        ("config/crd/patches/unused.yaml", "kind: CustomResourceDefinition\n"),
        ("config/rbac/kustomization.yaml", "resources:\n- role.yaml\n"),
        ("config/rbac/role.yaml", "kind: ClusterRole\n"),
        ("config/samples/kustomization.yaml", "resources:\n- a.yaml\n"),
        ("config/samples/a.yaml", "kind: A\n"),
    ];
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    let dirs: Vec<PathBuf> =
        ["config/crd", "config/default", "config/rbac", "config/samples"].iter().map(|d| root.join(d)).collect();
    let roots = kustomize_roots(&dirs);
    let rel = |p: &Path| p.strip_prefix(normalize(root)).unwrap_or(p).display().to_string();
    let got: Vec<(String, Vec<String>, Vec<String>)> = roots
        .iter()
        .map(|t| {
            (
                rel(&normalize(&t.root)),
                t.dirs.iter().map(|d| rel(d)).collect(),
                t.files.iter().map(|f| rel(f)).collect(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "config/default".to_owned(),
                vec!["config/default".to_owned(), "config/rbac".to_owned(), "config/crd".to_owned()],
                vec![
                    "config/default/prefix.yaml".to_owned(),
                    "config/rbac/role.yaml".to_owned(),
                    "config/crd/bases/a.yaml".to_owned(),
                    "config/crd/patches/webhook_in_a.yaml".to_owned()
                ],
            ),
            ("config/samples".to_owned(), vec!["config/samples".to_owned()], vec!["config/samples/a.yaml".to_owned()]),
        ]
    );
}

/// Files a kustomization names outside its directory (`..`, absolute, a
/// link out) are kustomize's load-restriction errors: kompat neither reads
/// them nor takes them for origins; directories (`../base`) are followed.
#[test]
fn kustomize_files_outside_their_directory_are_not_read() {
    let dir = tempdir();
    let root = dir.path();
    std::fs::create_dir_all(root.join("project/overlay")).expect("mkdir");
    std::fs::create_dir_all(root.join("project/base")).expect("mkdir");
    std::fs::write(root.join("secret.yaml"), "kind: Secret\nmetadata:\n  name: s\n").expect("write");
    std::fs::write(root.join("project/base/kustomization.yaml"), "resources:\n- cm.yaml\n").expect("write");
    std::fs::write(root.join("project/base/cm.yaml"), "kind: ConfigMap\n").expect("write");
    let secret = root.join("secret.yaml");
    let kustomization = format!(
        "resources:\n- ../base\n- ../../secret.yaml\n- {}\n- ../base/cm.yaml\n- link.yaml\n- own.yaml\n",
        secret.display()
    );
    std::fs::write(root.join("project/overlay/kustomization.yaml"), kustomization).expect("write");
    std::fs::write(root.join("project/overlay/own.yaml"), "kind: ConfigMap\n").expect("write");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, root.join("project/overlay/link.yaml")).expect("link");
    let tree = kompat_project::render::kustomize_tree(&root.join("project/overlay"));
    let rel = |p: &Path| p.strip_prefix(normalize(root)).unwrap_or(p).display().to_string();
    let files: Vec<String> = tree.files.iter().map(|f| rel(f)).collect();
    assert_eq!(files, ["project/overlay/own.yaml", "project/base/cm.yaml"]);
}
