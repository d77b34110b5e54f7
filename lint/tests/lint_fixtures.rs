//! `fixtures/lint/<code>/`: one seeded violation per rule. Each fixture must
//! produce findings of exactly its rule's code, and its rendered diagnostics
//! (rustc style, no colour) are snapshots.

mod common;

use std::path::Path;

use common::kompat_in;

#[test]
fn each_fixture_produces_exactly_its_rule() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/lint");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("fixtures/lint")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 19, "only {} fixtures", dirs.len());
    for dir in dirs {
        let code = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let args_text = std::fs::read_to_string(dir.join("args")).expect("args file");
        let mut args: Vec<&str> = vec!["lint"];
        args.extend(args_text.lines().filter(|l| !l.is_empty()));

        let mut json_args = args.clone();
        json_args.extend(["--format", "json"]);
        let (_, stdout, stderr) = kompat_in(&dir, &json_args);
        let report: serde_json::Value =
            serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{code}: {err}\n{stdout}{stderr}"));
        let codes: Vec<&str> =
            report["diagnostics"].as_array().expect("array").iter().filter_map(|d| d["code"].as_str()).collect();
        assert!(!codes.is_empty(), "{code}: no finding");
        assert!(codes.iter().all(|c| *c == code), "{code}: produced {codes:?}");

        let mut human_args = args.clone();
        human_args.extend(["--format", "human"]);
        let (_, human, _) = kompat_in(&dir, &human_args);
        insta::assert_snapshot!(code.clone(), human);
    }
}
