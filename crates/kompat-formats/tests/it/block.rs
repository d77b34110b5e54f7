//! The block tree builder ([`kompat_formats::yaml::block::build`]) against
//! the parser: for every document the skim splits off, a tree the builder
//! gives is the tree [`parse_documents`] gives of that document (values,
//! kinds, every span byte for byte), and every document the skim validates
//! the builder reads. On small cases, every YAML and JSON fixture, the
//! synthetic manifest tree and mutated manifests.

use kompat_formats::manifest::skimmed_documents as documents;
use kompat_formats::yaml::block::build;
use kompat_formats::yaml::{parse_documents, Node};
use kompat_testkit::mutate::{self, mutate, Rng};

use crate::skim::{synthetic_tree_files, workspace, MANIFEST_SEED};

/// How the builder did on a stream: documents it built, documents the skim
/// validated.
#[derive(Default, Debug, Clone, Copy, PartialEq)]
struct Count {
    built: usize,
    validated: usize,
}

/// Holds the builder to the parser on every document of `text`.
#[track_caller]
fn agree(name: &str, text: &str) -> Count {
    let mut count = Count::default();
    let Some(docs) = documents(text) else { return count };
    for (span, validated) in docs {
        let built = build(text, span);
        count.validated += usize::from(validated);
        let Some(built) = built else {
            assert!(
                !validated,
                "{name}: the skim validated a document the builder leaves: {:?}",
                &text[span.start..span.end]
            );
            continue;
        };
        count.built += 1;
        let doc = &text[span.start..span.end];
        let parsed = match parse_documents(doc) {
            Ok(parsed) => parsed,
            Err(err) => panic!("{name}: built a document the parser refuses ({}):\n{doc}", err.message),
        };
        assert_eq!(parsed.len(), 1, "{name}: {} documents parsed of:\n{doc}", parsed.len());
        let mut expected = parsed.into_iter().next().unwrap_or_else(|| Node::Seq(Vec::new(), span));
        expected.shift(span.start);
        assert_eq!(built, expected, "{name}: the trees differ:\n{doc}");
        assert_exact(name, &built);
    }
    count
}

/// Every `Vec` of a built tree is allocated at its length, and every text
/// is held in place when it fits there (24 bytes), else allocated at its
/// length (at most the string type's smallest allocation, 32 bytes): no
/// spare capacity outlives the build.
#[track_caller]
fn assert_exact(name: &str, node: &Node) {
    let text = |s: &kompat_formats::yaml::Scalar| {
        let (value, span) = (&s.value, s.span);
        assert_eq!(
            value.is_heap_allocated(),
            value.len() > 24,
            "{name}: {value:?} at {span:?} held in the wrong place"
        );
        if value.is_heap_allocated() {
            let capacity = value.capacity();
            assert!(capacity <= value.len().max(32), "{name}: spare capacity in {value:?} at {span:?}: {capacity}");
        }
    };
    match node {
        Node::Scalar(s) => text(s),
        Node::Seq(items, span) => {
            assert_eq!(items.capacity(), items.len(), "{name}: spare capacity in the sequence at {span:?}");
            items.iter().for_each(|item| assert_exact(name, item));
        }
        Node::Map(entries, span) => {
            assert_eq!(entries.capacity(), entries.len(), "{name}: spare capacity in the mapping at {span:?}");
            for (key, value) in entries {
                text(key);
                assert_exact(name, value);
            }
        }
    }
}

/// Small cases: `check(input, built)`, whether the builder reads the one
/// document (and then, as every test here, that it reads it as the parser
/// does).
#[test]
fn small_cases() {
    #[track_caller]
    fn check(text: &str, built: bool) {
        let count = agree(&format!("{text:?}"), text);
        assert_eq!(count.built == 1, built, "{text:?}: {count:?}");
    }
    // Scalars on their key's line.
    check("a: 1\n", true);
    check("a: 1", true);
    check("a: x y  \nb: 'q'\nc: \"r s\"\n", true);
    check("a: 'it''s'\nb: ''\nc: \"\"\n", true);
    check("a: ~\nb: null\nc: true\nd: 1.5\ne: 0x1F\nf: -3\ng: .inf\nh: v1\n", true);
    check("a: x # c\nb: 'q'  # c\nc: \"r\"   \nd: x#y\ne: http://a:b/c\n", true);
    check("\"a\": 1\n'b': 2\n\"c d\":\n'e''f': 3\n", true);
    check("é: ü\nb: 'ß'\n", true);
    // A last line of spaces with no line break after it: the parser's
    // (after a block scalar it may be a line of the scalar; found by
    // fuzzing).
    check("a: >\n 2\n ", false);
    check("a: |\n x\n ", false);
    check("a: |\n x\n\n ", false);
    check("a: x\n   ", false);
    check("a: |\n x\n \n", true);
    check("a: |\n x\n \nb: 1\n", true);
    // Empty values.
    check("a:\nb:   \nc:  # c\n", true);
    check("a:\n\n\n", true);
    check("a: []\nb: {}\nc: []  # c\nd: {}  \n", true);
    // Nested mappings and sequences, indented or not.
    check("a:\n  b:\n    c: 1\n  d: 2\ne: 3\n", true);
    check("a:\n- x\n- y\nb: 1\n", true);
    check("a:\n  - x\n  - y\nb: 1\n", true);
    check("a:\n-\n- # c\n-   \n- x\n", true);
    check("a:\n- b: 1\n  c: 2\n- d:\n  - x\n  e: []\n-   f: 1\n    g: 2\n", true);
    check("a:\n- # c\n  b: 1\n-\n  - x\n  - y\n", true);
    check("a:\n- \n  b: 1\n", true);
    check("a:\n- - x\n", false);
    check("a:\n- ? x\n", false);
    // Comments between entries and at ends of lines.
    check("# head\na: 1 # c\n# between\n  # indented\nb:\n  # inside\n  c: 2 # c\n# tail\n", true);
    // Multi-line plain scalars.
    check("a: x\n  y\nb: 1\n", true);
    check("a: x\n  y\n\n  z  \n\n\n  w\nb: 1\n", true);
    check("a: x\n  y # c\nb: 1\n", true);
    check("a: x\n  y\n  # c\nb: 1\n", true);
    check("a:\n- x\n  y\n- 1\n  2\n", true);
    check("a:\n- b: x\n    y\n\n  c: 1\n", true);
    check("a: x\n  - y\n", false);
    check("a: x\n  y: z\n", false);
    check("a: x\n y\n", true);
    // Multi-line quoted scalars.
    check("a: 'x\n  y'\nb: 1\n", true);
    check("a: \"x  \n\n  y\n   z\"  # c\nb: 1\n", true);
    check("a: 'x''\n  y''z\n\n\n  w'\n", true);
    check("a:\n- 'x\n  # y\n  - z'\n- 1\n", true);
    check("a: 'x\n  '\n", true);
    check("a: 'x\ny'\n", false);
    check("a: \"x\n  \\n\"\n", false);
    // Block scalars.
    check("a: |\n  x\n  y\nb: 1\n", true);
    check("a: |\n  x\n\n  y\n\nb: 1\n", true);
    check("a: |-\n  x\n\n\nb: |+\n  y\n\n\nc: >\n  z\n  w\n\n  v\n   m\n  n\n", true);
    check("a: >-\n\n  x\n  y\n", true);
    check("a: |\n  x\n# c\nb: 1", true);
    check("a: |  # c\n  x\n    y\n  z", true);
    check("a:\n  b: |\n    x\n  # c\n  c: >+\n    y\n", true);
    check("a:\n- |\n  x\n- >\n  y\n- z\n", true);
    check("a: |\n  #!/bin/sh\n  echo: hi # no comment\n", true);
    check("a: |\nb: 1\n", true);
    check("a: |-\n\n\nb: 1\n", true);
    check("a:\n  b: >\n  c: 1\n", true);
    check("a: |\n", true);
    check("a: >-\n\n\n", true);
    check("a: |+\nb: 1\n", true);
    check("a: |+\n\n\nb: 1\n", true);
    check("a: >+\n  \n\n", true);
    check("a: |-\n  \nb: 1", true);
    check("a: |\n  x\n    \n  y\n", true);
    check("a: >\n  x\n    \n  y\n", true);
    check("a: |\n  x\n    \n", true);
    check("a: >-\n  x\n     \n\nb: 1\n", true);
    check("a: |2\n  x\n", false);
    check("a: |\n    x\n   y\n", false);
    // Trailing spaces, a document ending without a newline, CRLF.
    check("a: 1   \nb:   \n  c: 2   ", true);
    check("a: 1\r\nb: 2\r\n", false);
    check("a:\tb\n", false);
    // Markers.
    check("---\na: 1\n", true);
    check("--- # c\na: 1\n---\n", true);
    check("a: 1\n...\n", false);
    // Beyond the subset.
    check("a: &x 1\nb: *x\n", false);
    check("a: !!str 1\n", false);
    check("a: [1]\n", false);
    check("a: {b: 1}\n", false);
    check("<<: {a: 1}\n", false);
    check("a: 1\na: 2\n", false);
    check("a: 1\n\"a\": 2\n", false);
    check("- a\n", false);
    check("  a: 1\n", false);
    check("a: 1\n- b\n", false);
    check("a:\n  b: 1\n c: 2\n", false);
    check("a:\n  - x\n  b: 1\n", false);
    check("a: b: c\n", false);
    check("", false);
    check("# only\n", false);
}

/// Streams of several documents: each is built and placed where it is.
#[test]
fn streams() {
    let text = "a: 1\n---\nb:\n- x\n--- # c\n\n---\nc: |\n  y\n";
    let count = agree("stream", text);
    assert_eq!(count, Count { built: 3, validated: 3 });
}

/// A mapping with many keys: duplicates are found beyond the small scan.
#[test]
fn many_keys() {
    let keys: String = (0..40).map(|i| format!("k{i}: {i}\n")).collect();
    assert_eq!(agree("many", &keys).built, 1);
    assert_eq!(agree("many again", &format!("{keys}k7: x\n")).built, 0);
    assert_eq!(agree("many again, quoted", &format!("{keys}\"k39\": x\n")).built, 0);
}

#[test]
fn every_fixture() {
    let mut files = Vec::new();
    kompat_testkit::files::yaml_files_below(&workspace().join("fixtures"), &mut files);
    kompat_testkit::files::yaml_files_below(&workspace().join("crates"), &mut files);
    assert!(files.len() > 50, "{} files", files.len());
    let mut built = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        built += agree(&path.display().to_string(), &text).built;
    }
    assert!(built > 50, "{built} documents built");
}

/// Block scalars, multi-line scalars and sequences at their key's
/// indentation, for the mutator to cut into.
const LINES_SEED: &str = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  data:\n    a: |-\n      x\n\n        y\n      z\n\n    b: >\n      folded\n      text\n\n       more\n      end\n    c: |+\n      kept\n\n    d: 'single\n      ''quoted''\n\n      text'\n    e: \"double\n      quoted\"  # c\n    f: plain\n      goes on\n\n      # c\n  list:\n  -\n  - # c\n  -   k: v\n      l:\n      - 1\n      m: []\n  other: {}\n";

#[test]
fn mutations_agree() {
    let mut rng = Rng(0x6b6f_6d70_6174_b10c);
    let mut built = 0;
    for i in 0..mutate::iterations(6000) {
        let seed = if i % 2 == 0 { MANIFEST_SEED } else { LINES_SEED };
        let input = mutate(seed, &mut rng);
        built += agree(&format!("mutation {i}"), &input).built;
    }
    eprintln!("{built} documents built");
    assert!(built > 1000, "{built} documents built");
}

#[test]
fn synthetic_tree() {
    let Some((dir, files)) = synthetic_tree_files("block") else { return };
    let mut count = Count::default();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        let c = agree(&path.display().to_string(), &text);
        count.built += c.built;
        count.validated += c.validated;
    }
    assert!(count.built >= count.validated && count.built > 100, "{count:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Nesting: within the skim's limit a deep document is built; beyond it,
/// left to the parser.
#[test]
fn deep_nesting() {
    let maps = |levels: usize| -> String { (0..levels).map(|i| format!("{}a{i}:\n", " ".repeat(i))).collect() };
    let items = |levels: usize| -> String {
        let mut text = String::from("a:\n");
        for i in 0..levels {
            text.push_str(&format!("{}-\n", " ".repeat(2 * i + 1)));
        }
        text
    };
    assert_eq!(agree("maps 150", &maps(150)).built, 1);
    assert_eq!(agree("maps 300", &maps(300)).built, 0);
    assert_eq!(agree("items 100", &items(100)).built, 1);
    assert_eq!(agree("items 300", &items(300)).built, 0);
}
