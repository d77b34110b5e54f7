//! The spanned YAML tree every YAML reader goes through: no panic, bounded
//! memory and time (alias budget, depth limit), every error located inside
//! the input, and what parses can be rendered and compared. And the
//! manifests' fast path against it: `read_stream` (each document skimmed,
//! parsed only when its tree is needed) gives the parse's objects, or its
//! error, and the documents by kind it keeps are those a second scan finds.
//! And the block tree builder against the parser: every document the skim
//! validates is built, and every tree built is the parser's tree of that
//! document, spans included.
#![no_main]

use kompat_formats::manifest::{documents_of_kinds, objects_in, read_stream};
use kompat_formats::manifest::skimmed_documents as documents;
use kompat_formats::yaml::block::build;
use kompat_formats::yaml::{parse_documents, Node, ScalarKind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for (span, validated) in documents(text).unwrap_or_default() {
        let Some(built) = build(text, span) else {
            assert!(!validated, "a validated document is not built");
            continue;
        };
        let parsed = parse_documents(&text[span.start..span.end]).expect("a built document parses");
        assert_eq!(parsed.len(), 1);
        let mut expected = parsed.into_iter().next().expect("one document");
        expected.shift(span.start);
        assert_eq!(built, expected);
    }
    let full = parse_documents(text);
    match (&full, read_stream(text)) {
        (Ok(docs), Ok(stream)) => {
            assert_eq!(stream.objects(), objects_in(docs));
            let wanted = |kind: &str| kind == "List" || kind == "CustomResourceDefinition";
            if let Some(kept) = stream.documents_of_kinds(wanted) {
                assert_eq!(Some(kept), documents_of_kinds(text, wanted));
            }
        }
        (Err(a), Err(b)) => assert_eq!(*a, b),
        (a, b) => panic!("the full parse says {:?}, the fast path {:?}", a.as_ref().err(), b.err()),
    }
    match full {
        Ok(docs) => {
            for doc in &docs {
                let span = doc.span();
                assert!(span.start <= span.end && span.end <= text.len());
                let _ = doc.render();
                assert!(doc.same(doc) || contains_nan(doc));
            }
        }
        Err(err) => {
            let span = err.span.expect("located");
            assert!(span.start <= span.end && span.end <= text.len(), "{}", err.message);
        }
    }
});

/// NaN is not equal to itself, in YAML as anywhere.
fn contains_nan(node: &Node) -> bool {
    match node {
        Node::Scalar(s) => matches!(s.kind, ScalarKind::Number(n) if n.is_nan()),
        Node::Seq(items, _) => items.iter().any(contains_nan),
        Node::Map(entries, _) => entries.iter().any(|(_, v)| contains_nan(v)),
    }
}
