//! Which top-level items of a file a reference pass parses: once the
//! derived enums are known, a file that may reference a gate is outlined
//! (see [`super::outline`]) and only its imports and the runs of items
//! (between two of the outline's cuts) whose bytes name something that can
//! matter are lexed and parsed; the other runs are skipped unread.
//!
//! A run is parsed when it holds, as a whole identifier in code (a byte
//! search, then a walk of the run that skips comments and literals:
//! [`runs_in_code`]; nothing below reads a name inside a comment or a
//! literal, whose contents are never paths or identifiers to syn, and a
//! gate call's string follows the function's name in code):
//! - a known name (a derived enum's, or an alias's visible beyond its
//!   module), a variant name of a derived enum, or `FeatureGates` /
//!   `ApiLifecycle` (the only derives `scan_items` reads; kube-rs'
//!   `CustomResource` and `#[kube]` count only on such a type);
//! - a name the file's top-level `use` or `type` items alias to a known name
//!   (`use crate::gates::Feature as F`, `type G = F`: followed through the
//!   file's other top-level aliases to the end);
//! - a gate function called with a string literal, as the file prefilter
//!   recognises one (`gate_call`).
//!
//! # Why a skipped run changes no finding
//!
//! The file's top-level `use` and `type` items are always parsed and bound
//! first (`Refs::bind_imports`), so the root scope's aliases, glob imports
//! and `use super::*` are the whole file's. What any other top-level item
//! adds to the state shared by items (`Refs`) is only the names it binds in
//! the root scope (`Refs::bind_names`); everything else it opens (blocks,
//! inline modules, impls and their `Self`, nested imports and aliases) is
//! inside its own bytes. So a run can affect a finding only by what it
//! records itself, or by a name it binds:
//! - A path `Owner::X` is recorded when its owner resolves to a known name.
//!   The owner (or, for `Self`, the impl's type) is written in the item;
//!   each alias step on the way is either an alias inside the item (its
//!   target is written in the item) or a top-level alias. After the last
//!   step inside the item, the name reached is written in the item and the
//!   rest of the way is top-level aliases only: that name is known, or a
//!   top-level alias leading to a known name (a selected local name). The
//!   same holds for `pub use Owner::*` re-exports and glob owners.
//! - A bare name becomes a finding only when it is a variant name, written
//!   in the item.
//! - An `enabled("Gate")` string needs the function's name followed by the
//!   literal, written in the item (`gate_call` is the prefilter's own test,
//!   sound for every occurrence).
//! - An alias visible beyond its module recorded inside an item
//!   (`mod m { pub use super::X as Y; }`) names its target `X` there: once
//!   `X` is known the run is parsed (the file matches the prefilter for `X`
//!   and is read again in that round). Before, the alias is not recorded,
//!   so `Y` may become known a round later than when every item is read;
//!   but the rounds go on until no name turns up, a file is read again in
//!   the round a name it uses becomes known, and a name known beyond those
//!   a file uses changes nothing in it: the final names, and what each
//!   file's last reading finds, are the same.
//! - A name bound at the top level shadows only glob imports (root aliases
//!   are looked up before bound names, and the root scope is the outermost),
//!   and only a variant name can make a shadowed bare name a finding: an
//!   item binding a variant's name holds that name, so it is parsed.
//! - A declaration needs `FeatureGates` or `ApiLifecycle` in its item.
//!
//! Skipped runs are not lexed, parsed or checked for syntax: a syntax error
//! in them is the compiler's to report, as in a file the prefilter skips
//! (parsing them only to check their syntax costs nearly all the time
//! saved: BENCHMARKS.md).
//! The outline still walks them, so an unclosed delimiter, string or
//! comment anywhere has the file parsed whole and reported. A selected run
//! that does not parse on its own also has the file parsed whole (the same
//! error as before).

use std::collections::{BTreeMap, BTreeSet};

use aho_corasick::AhoCorasick;

use crate::outline::{in_code, is_ident_byte};
use crate::search::{gate_call, internal, starts_ident, Result, DERIVES};

/// The search for what makes a run worth parsing, built once per reference
/// round and shared by every thread.
pub(super) struct Select {
    search: AhoCorasick,
    /// Whether `enabled` is also a name (a variant or an enum): then every
    /// whole identifier `enabled` counts, not only a gate call.
    enabled_is_name: bool,
}

impl Select {
    /// A search for the `known` names and the derived enums' `variants`.
    pub(super) fn new<'a>(known: &'a BTreeSet<String>, variants: impl Iterator<Item = &'a String>) -> Result<Select> {
        let mut names: BTreeSet<&str> = known.iter().map(String::as_str).collect();
        names.extend(variants.map(String::as_str));
        names.extend(DERIVES);
        // `enabled` is searched for on its own: a gate call's may stand
        // inside an identifier (`is_enabled`).
        let enabled_is_name = names.remove("enabled");
        Ok(Select { search: whole_names(names)?, enabled_is_name })
    }

    /// Whether each run of `text` (from the start or a cut to the next cut
    /// or the end) is to be parsed; `local` are the file's top-level aliases
    /// of known names ([`local_names`]).
    pub(super) fn runs(&self, text: &str, cuts: &[usize], local: &[String]) -> Vec<bool> {
        let bytes = text.as_bytes();
        let mut hits = whole_identifiers(&self.search, bytes);
        for start in memchr::memmem::find_iter(bytes, b"enabled") {
            let end = start + "enabled".len();
            if (self.enabled_is_name && whole_identifier(bytes, start, end)) || gate_call(bytes, start, end) {
                hits.push(start);
            }
        }
        if !local.is_empty() {
            // One search for all of them: a file may alias a name many times.
            let Ok(search) = whole_names(local.iter().map(String::as_str)) else { return vec![true; cuts.len() + 1] };
            hits.extend(whole_identifiers(&search, bytes));
        }
        runs_in_code(bytes, cuts, hits)
    }
}

/// Which runs of `bytes` (from the start or a cut to the next cut or the
/// end) hold one of `hits` (offsets, in any order) in code, not in a
/// comment or a literal: only code is read for references and
/// declarations, and a name in a string (a test's Rust source, a message)
/// or a comment is none.
pub(super) fn runs_in_code(bytes: &[u8], cuts: &[usize], mut hits: Vec<usize>) -> Vec<bool> {
    hits.sort_unstable();
    hits.dedup();
    let mut keep = vec![false; cuts.len() + 1];
    let mut rest = hits.as_slice();
    while let Some(&first) = rest.first() {
        let run = cuts.partition_point(|&cut| cut <= first);
        let from = if run == 0 { 0 } else { cuts[run - 1] };
        let end = cuts.get(run).copied().unwrap_or(bytes.len());
        let within = rest.partition_point(|&hit| hit < end);
        keep[run] = in_code(bytes, from, &rest[..within]).contains(&true);
        rest = &rest[within..];
    }
    keep
}

/// A search for where `names` (identifiers, ASCII) stand as whole
/// identifiers ([`whole_identifiers`]).
fn whole_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<AhoCorasick> {
    AhoCorasick::builder().match_kind(aho_corasick::MatchKind::LeftmostLongest).build(names).map_err(internal)
}

/// Where the names of `search` ([`whole_names`]) stand in `bytes` as whole
/// identifiers. One leftmost-longest pass (with the searcher's prefilter)
/// finds every identifier of the text that is one of the names: such an
/// identifier is preceded and followed by characters no identifier holds,
/// so no match of another name covers its start, and no longer name
/// matches where it starts.
fn whole_identifiers(search: &AhoCorasick, bytes: &[u8]) -> Vec<usize> {
    search
        .find_iter(bytes)
        .filter(|found| whole_identifier(bytes, found.start(), found.end()))
        .map(|found| found.start())
        .collect()
}

/// Whether `start..end` of `bytes` is a whole identifier (as far as ASCII
/// tells: a non-ASCII neighbour counts as a boundary, a superset).
fn whole_identifier(bytes: &[u8], start: usize, end: usize) -> bool {
    starts_ident(bytes, start) && bytes.get(end).is_none_or(|&b| !is_ident_byte(b))
}

/// The file's top-level aliases (alias -> target, as its `use` and `type`
/// items bind them) that lead to a `known` name, followed through the other
/// top-level aliases: found backwards from the known names, so that a long
/// chain of aliases costs linear time.
pub(super) fn local_names(aliases: &BTreeMap<String, String>, known: &BTreeSet<String>) -> Vec<String> {
    let mut by_target: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (alias, target) in aliases {
        by_target.entry(target.as_str()).or_default().push(alias.as_str());
    }
    let mut leading: BTreeSet<&str> = BTreeSet::new();
    let mut pending: Vec<&str> = known.iter().map(String::as_str).collect();
    while let Some(name) = pending.pop() {
        for &alias in by_target.get(name).into_iter().flatten() {
            if !known.contains(alias) && leading.insert(alias) {
                pending.push(alias);
            }
        }
    }
    leading.into_iter().map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs of `text` a search for `Feature` (variants `WatchList`,
    /// `enabled`-free) selects, cut at every line start.
    fn check(text: &str, local: &[&str], expected: &[bool]) {
        let known: BTreeSet<String> = ["Feature".to_owned()].into();
        let variants = ["WatchList".to_owned()];
        let select = match Select::new(&known, variants.iter()) {
            Ok(select) => select,
            Err(err) => panic!("{err:?}"),
        };
        let cuts: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).filter(|&i| i < text.len()).collect();
        let local: Vec<String> = local.iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(select.runs(text, &cuts, &local), expected, "{text}");
    }

    #[test]
    fn runs() {
        check("fn a() {}\nfn b() { Feature::X }\n", &[], &[false, true]);
        check("fn a() { WatchList }\nconst WatchList: u8 = 0;\nconst WatchLists: u8 = 0;", &[], &[true, true, false]);
        check("fn a() { F::X }\nfn b() { MyF::X }\n", &["F"], &[true, false]);
        check(
            "fn a() { g.enabled(\"X\") }\nfn b() { g.enabled(x) }\nfn c() { is_enabled::<T>() }",
            &[],
            &[true, false, true],
        );
        check("struct S { enabled: bool }\n#[derive(FeatureGates)]\n// ApiLifecycle\n", &[], &[false, true, false]);
        // Only code counts: not a name in a comment, a string or a literal.
        check(
            "fn a() { \"Feature::X\"; }\n/// Feature::X\nfn b() {}\nconst C: &str = r#\"WatchList\"#;\nfn c() { F::X; }\n",
            &["F"],
            &[false, false, false, false, true],
        );
        check("fn a() { /* Feature */ Feature::X }\nfn b() { s(\"enabled(\\\"X\\\")\") }\n", &[], &[true, false]);
        check("fn a() { g.enabled(\"X\"); \"WatchList\" }\n", &[], &[true]);
        check("fn a() { xFeature::X; Feature_::X; r#Feature::X }", &[], &[true]);
        check("fn a() { xFeature::X; Feature_::X; }", &[], &[false]);
    }

    #[test]
    fn local_aliases_lead_to_known_names() {
        let known: BTreeSet<String> = ["Feature".to_owned()].into();
        let aliases: BTreeMap<String, String> = [("F", "Feature"), ("G", "F"), ("E", "Box"), ("L", "M"), ("M", "L")]
            .into_iter()
            .map(|(a, t)| (a.to_owned(), t.to_owned()))
            .collect();
        assert_eq!(local_names(&aliases, &known), ["F", "G"]);
        // A long chain, and many aliases: linear.
        let n = 100_000;
        let chain: BTreeMap<String, String> = (0..n)
            .map(|i| (format!("A{i}"), if i == 0 { "Feature".to_owned() } else { format!("A{}", i - 1) }))
            .collect();
        assert_eq!(local_names(&chain, &known).len(), n);
    }
}
