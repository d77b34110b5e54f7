//! Alias bombs end in a located error within a few MB, measured in-process:
//! this test binary counts every allocation (the counting global allocator
//! of `kompat_testkit::counting_alloc`) and records the peak of live bytes while each bomb
//! is parsed.
//!
//! Each test holds `SERIAL` throughout, so no other test allocates while one
//! measures.

use kompat_testkit::counting_alloc::{peak_of, Counting, SERIAL};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most any bomb may hold live at once, beyond what was live before.
const CAP: usize = 4 << 20;

/// `levels` levels of `width` aliases each, in flow or block style, as
/// sequences or as mappings merged with `<<`.
fn bomb(levels: usize, width: usize, shape: &str) -> String {
    let mut text = String::new();
    match shape {
        "seq" => text.push_str(&format!("a0: &a0 [{}]\n", vec!["lol"; width].join(", "))),
        _ => text.push_str("a0: &a0 {lol: lol}\n"),
    }
    for level in 1..=levels {
        let prev = format!("*a{}", level - 1);
        let items = vec![prev.as_str(); width].join(", ");
        match shape {
            "seq" => text.push_str(&format!("a{level}: &a{level} [{items}]\n")),
            "merge" => text.push_str(&format!("a{level}: &a{level} {{<<: [{items}], k{level}: v}}\n")),
            _ => {
                text.push_str(&format!("a{level}: &a{level}\n"));
                for i in 0..width {
                    text.push_str(&format!("  k{i}: {prev}\n"));
                }
            }
        }
    }
    text
}

#[test]
fn alias_bombs_fail_within_a_few_mb() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let fixture = include_str!("../../../fixtures/hostile/billion-laughs.yaml");
    let cases: Vec<(&str, String)> = vec![
        ("fixture", fixture.to_owned()),
        ("seq 9x9", bomb(9, 9, "seq")),
        ("seq 30x30", bomb(30, 30, "seq")),
        ("map 12x12", bomb(12, 12, "map")),
        ("merge 12x12", bomb(12, 12, "merge")),
    ];
    for (name, text) in &cases {
        let (result, peak) = peak_of(|| kompat_formats::yaml::parse_documents(text));
        let err = result.err();
        let message = err.as_ref().map(|e| e.message.as_str()).unwrap_or("parsed");
        assert!(
            message.starts_with("invalid YAML: document contains excessive aliasing: alias `*a"),
            "{name}: {message}"
        );
        assert!(err.and_then(|e| e.span).is_some(), "{name}: unlocated");
        assert!(peak < CAP, "{name}: peak {peak} bytes");
        println!("{name}: peak {peak} bytes");
        // The feature-list reader goes through the same tree.
        let (result, peak) = peak_of(|| kompat_formats::parse_k8s_yaml(text));
        assert!(result.is_err(), "{name}: feature list parsed");
        assert!(peak < CAP, "{name} as a feature list: peak {peak} bytes");
    }
}

/// Nested anchors cost nothing extra: each anchored collection is kept once,
/// not copied at every level that contains it (which cost depth times size).
#[test]
fn nested_anchors_are_not_copied() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let depth = 300;
    let mut text: String = (0..depth).map(|i| format!("{}- &a{i}\n", " ".repeat(i))).collect();
    text.push_str(&format!("{}- [{}]\n", " ".repeat(depth), vec!["1"; 2000].join(", ")));
    text.push_str(&format!("- *a{}\n", depth - 1));
    let (result, peak) = peak_of(|| kompat_formats::yaml::parse_documents(&text));
    let docs = result.unwrap_or_else(|err| panic!("{}", err.message));
    // The innermost list is there twice: where it is written and at the alias.
    let mut node = &docs[0];
    for _ in 0..depth {
        node = &node.as_seq().unwrap_or_default()[0];
    }
    assert_eq!(node.as_seq().map(<[_]>::len), Some(1));
    let last = docs[0].as_seq().and_then(|s| s.last()).and_then(|n| n.as_seq()).and_then(|s| s.first());
    assert_eq!(last.and_then(|n| n.as_seq()).map(<[_]>::len), Some(2000));
    assert!(peak < CAP, "peak {peak} bytes");
    println!("nested anchors: peak {peak} bytes");
}
