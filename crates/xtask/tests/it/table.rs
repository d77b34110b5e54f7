//! The committed built-in API table (`crates/kompat-k8s/data/apis.toml`) is
//! what the generator writes: in its canonical form, under a current
//! `@generated` header (the supplement's digest included).
//!
//! The Kubernetes sources it was generated from are not in the repository;
//! the generator itself is tested on our own fixture tree (`tests/cli.rs`).

use kompat_k8s::{api_config, APIS_TOML, SUPPLEMENT_TOML};
use sha2::{Digest, Sha256};
use xtask::k8s::generate::{render_entries, sort_entries, Entry, HEADER_FIRST_LINE};

fn entries() -> Vec<Entry> {
    api_config().apis.iter().map(|d| Entry::from_decl(d).expect("every entry has `introduced`")).collect()
}

#[test]
fn in_canonical_form() {
    let body_start = APIS_TOML.find("\n[[api]]").expect("the table has entries");
    let entries = entries();
    let refs: Vec<&Entry> = entries.iter().collect();
    assert_eq!(render_entries(&refs), APIS_TOML[body_start..], "the table is not the generator's rendering");
    let mut sorted = refs.clone();
    sort_entries(&mut sorted);
    assert_eq!(sorted, refs, "entries are not in the generator's order");
}

#[test]
fn header_is_current() {
    let header: Vec<&str> = APIS_TOML.lines().take_while(|l| l.starts_with('#')).collect();
    assert_eq!(header.first().copied(), Some(HEADER_FIRST_LINE));
    let sources: Vec<&str> = header.iter().filter_map(|l| l.strip_prefix("# source: ")).collect();
    let modules: Vec<&str> = sources.iter().map(|s| s.split(' ').next().unwrap_or_default()).collect();
    assert_eq!(modules, ["k8s.io/api", "k8s.io/apiextensions-apiserver", "k8s.io/kube-aggregator"]);
    let mut newest = Vec::new();
    for source in &sources {
        // `k8s.io/api (21 tags): kubernetes-1.16.15 kubernetes-1.17.17 ...`: one
        // release tag per minor, every minor from 1.16 on.
        let (_, tags) = source.split_once("): ").unwrap_or_else(|| panic!("{source}: no tags"));
        let minors: Vec<u64> = tags
            .split(' ')
            .map(|tag| {
                let release = tag.strip_prefix("kubernetes-1.").unwrap_or_else(|| panic!("{source}: {tag}"));
                release.split('.').next().and_then(|m| m.parse().ok()).unwrap_or_else(|| panic!("{source}: {tag}"))
            })
            .collect();
        assert_eq!(minors.first(), Some(&16), "{source}: not read from 1.16 on");
        let expected: Vec<u64> = (16..=*minors.last().unwrap_or(&0)).collect();
        assert_eq!(minors, expected, "{source}: not one tag per release");
        assert!(source.contains(&format!("({} tags)", minors.len())), "{source}");
        newest.push(*minors.last().unwrap_or(&0));
    }
    assert!(newest.iter().all(|m| *m == newest[0]), "the repositories were read up to different releases: {newest:?}");
    // A size line per release read.
    for minor in 16..=newest[0] {
        let prefix = format!("#   1.{minor}: ");
        assert!(header.iter().any(|l| l.starts_with(&prefix) && l.ends_with(" listed")), "no size line for 1.{minor}");
    }
    let digest: String = Sha256::digest(SUPPLEMENT_TOML.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    let supplement = header.iter().find_map(|l| l.strip_prefix("# supplement: ")).expect("a supplement line");
    assert!(
        supplement.ends_with(&format!("sha256 {digest}")),
        "data/supplement.toml changed since the table was generated; run scripts/gen-k8s-apis"
    );
    let count = format!("# {} API types.", api_config().apis.len());
    assert_eq!(header.last().copied(), Some(count.as_str()));
}
