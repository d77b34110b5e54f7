//! A small YAML tree with byte spans, built from saphyr-parser's events: the
//! one tree of every YAML input (Kubernetes feature lists, CRD manifests,
//! deployment material).
//!
//! Mappings, sequences and scalars, every node with its byte span; mapping
//! keys keep theirs too, and a key given twice is an error (as in Go's YAML
//! decoders). Multi-document streams yield one root per document.
//! Anchors and aliases are resolved by copying the anchored node (the copy
//! keeps the anchor's spans). Plain scalars are resolved with the YAML 1.2
//! core schema, so `1`, `1.0` and `"1"` compare as YAML says they do.

use std::collections::BTreeMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span as YamlSpan};

use crate::span::{ParseError, Span};

/// A YAML node with its byte span.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Scalar(Scalar),
    Seq(Vec<Node>, Span),
    Map(Vec<(Scalar, Node)>, Span),
}

/// A scalar: its text, how it resolves, its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    pub value: String,
    pub kind: ScalarKind,
    pub span: Span,
}

/// What a scalar resolves to (YAML 1.2 core schema for plain scalars; every
/// quoted or block scalar is a string).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ScalarKind {
    Null,
    Bool(bool),
    Number(f64),
    String,
}

impl Node {
    pub fn span(&self) -> Span {
        match self {
            Node::Scalar(s) => s.span,
            Node::Seq(_, span) | Node::Map(_, span) => *span,
        }
    }

    /// The value of `key` in a mapping.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|(_, v)| v)
    }

    /// The key and value of `key` in a mapping.
    pub fn entry(&self, key: &str) -> Option<(&Scalar, &Node)> {
        match self {
            Node::Map(entries, _) => entries.iter().find(|(k, _)| k.value == key).map(|(k, v)| (k, v)),
            _ => None,
        }
    }

    /// The text of any scalar as written (`1.10` stays `1.10`, `true` is
    /// `true`), for inputs that read every value as text.
    pub fn text(&self) -> Option<&str> {
        match self {
            Node::Scalar(s) => Some(&s.value),
            _ => None,
        }
    }

    /// The text of a string scalar.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::Scalar(s) if s.kind == ScalarKind::String => Some(&s.value),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Node::Scalar(Scalar { kind: ScalarKind::Bool(b), .. }) => Some(*b),
            _ => None,
        }
    }

    pub fn as_number(&self) -> Option<f64> {
        match self {
            Node::Scalar(Scalar { kind: ScalarKind::Number(n), .. }) => Some(*n),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Node::Scalar(Scalar { kind: ScalarKind::Null, .. }))
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match self {
            Node::Seq(items, _) => Some(items),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[(Scalar, Node)]> {
        match self {
            Node::Map(entries, _) => Some(entries),
            _ => None,
        }
    }

    /// Equality of content, ignoring spans and key order.
    pub fn same(&self, other: &Node) -> bool {
        match (self, other) {
            (Node::Scalar(a), Node::Scalar(b)) => a.same(b),
            (Node::Seq(a, _), Node::Seq(b, _)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y)),
            (Node::Map(a, _), Node::Map(b, _)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| other.get(&k.value).is_some_and(|w| v.same(w)))
            }
            _ => false,
        }
    }

    /// A short rendering for messages: scalars as written, collections as
    /// compact flow YAML.
    pub fn render(&self) -> String {
        match self {
            Node::Scalar(s) => s.render(),
            Node::Seq(items, _) => {
                let items: Vec<String> = items.iter().map(Node::render).collect();
                format!("[{}]", items.join(", "))
            }
            Node::Map(entries, _) => {
                let entries: Vec<String> =
                    entries.iter().map(|(k, v)| format!("{}: {}", k.render(), v.render())).collect();
                format!("{{{}}}", entries.join(", "))
            }
        }
    }

    /// What kind of node this is, for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            Node::Scalar(s) => match s.kind {
                ScalarKind::Null => "null",
                ScalarKind::Bool(_) => "a boolean",
                ScalarKind::Number(_) => "a number",
                ScalarKind::String => "a string",
            },
            Node::Seq(..) => "a sequence",
            Node::Map(..) => "a mapping",
        }
    }
}

impl Scalar {
    /// Equality of the resolved value.
    pub fn same(&self, other: &Scalar) -> bool {
        match (self.kind, other.kind) {
            (ScalarKind::Number(a), ScalarKind::Number(b)) => a == b,
            (ScalarKind::String, ScalarKind::String) => self.value == other.value,
            (a, b) => a == b,
        }
    }

    /// The scalar as it would be written in flow YAML.
    pub fn render(&self) -> String {
        match self.kind {
            ScalarKind::String => {
                let needs_quotes = self.value.is_empty()
                    || resolve_plain(&self.value) != ScalarKind::String
                    || self.value.contains([':', '#', ',', '[', ']', '{', '}', '"', '\'', '\n'])
                    || self.value.starts_with([' ', '-', '*', '&', '!', '|', '>', '%', '@', '`', '?'])
                    || self.value.ends_with(' ');
                if needs_quotes {
                    format!("{:?}", self.value)
                } else {
                    self.value.clone()
                }
            }
            _ => self.value.clone(),
        }
    }
}

/// Resolves a plain scalar with the YAML 1.2 core schema.
fn resolve_plain(text: &str) -> ScalarKind {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return ScalarKind::Null,
        "true" | "True" | "TRUE" => return ScalarKind::Bool(true),
        "false" | "False" | "FALSE" => return ScalarKind::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return ScalarKind::Number(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => return ScalarKind::Number(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return ScalarKind::Number(f64::NAN),
        _ => {}
    }
    if let Some(hex) = text.strip_prefix("0x") {
        if let Ok(n) = i64::from_str_radix(hex, 16) {
            return ScalarKind::Number(n as f64);
        }
    }
    if let Some(oct) = text.strip_prefix("0o") {
        if let Ok(n) = i64::from_str_radix(oct, 8) {
            return ScalarKind::Number(n as f64);
        }
    }
    let numeric = text.trim_start_matches(['-', '+']);
    let looks_numeric = numeric.starts_with(|c: char| c.is_ascii_digit())
        || (numeric.starts_with('.') && numeric[1..].starts_with(|c: char| c.is_ascii_digit()));
    if looks_numeric && text.chars().all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')) {
        if let Ok(n) = text.parse::<f64>() {
            return ScalarKind::Number(n);
        }
    }
    ScalarKind::String
}

/// Parses every document of a YAML stream. An empty document is a null
/// scalar.
pub fn parse_documents(text: &str) -> Result<Vec<Node>, ParseError> {
    let offsets = ByteOffsets::new(text);
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: BTreeMap<usize, Node> = BTreeMap::new();
    let mut docs = Vec::new();
    let mut parser = Parser::new_from_str(text);
    while let Some(item) = parser.next_event() {
        let (event, span) = match item {
            Ok(pair) => pair,
            Err(err) => {
                let at = offsets.byte(err.marker().index());
                let mut info = err.info().trim_end_matches('.').to_owned();
                if let Some(first) = info.get(..1) {
                    info = first.to_lowercase() + &info[1..];
                }
                return Err(ParseError::at(Span::new(at, at), format!("invalid YAML: {info}")));
            }
        };
        let span = offsets.span(span);
        let (node, anchor) = match event {
            Event::StreamStart | Event::StreamEnd | Event::DocumentStart(_) | Event::DocumentEnd | Event::Nothing => {
                continue
            }
            Event::Alias(id) => match anchors.get(&id) {
                Some(node) => (node.clone(), 0),
                None => return Err(ParseError::at(span, "invalid YAML: unknown alias")),
            },
            Event::Scalar(value, style, anchor, _) => {
                let kind = if style == ScalarStyle::Plain { resolve_plain(&value) } else { ScalarKind::String };
                (Node::Scalar(Scalar { value: value.into_owned(), kind, span }), anchor)
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                let is_map = matches!(event, Event::MappingStart(..));
                stack.push(Frame { is_map, anchor, start: span.start, items: Vec::new() });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = stack.pop() else {
                    return Err(ParseError::at(span, "invalid YAML: unbalanced collection"));
                };
                // Block collections end with their last item; flow ones with
                // their closing bracket.
                let closes = matches!(text.get(span.start..span.end), Some("]" | "}"));
                let end = match frame.items.last() {
                    Some(last) if !closes => last.span().end,
                    _ => span.end,
                };
                let whole = Span::new(frame.start, end.max(frame.start));
                let node = if frame.is_map {
                    let mut entries: Vec<(Scalar, Node)> = Vec::new();
                    let mut items = frame.items.into_iter();
                    while let (Some(k), Some(v)) = (items.next(), items.next()) {
                        let Node::Scalar(key) = k else {
                            return Err(ParseError::at(k.span(), "complex mapping keys are not supported"));
                        };
                        if entries.iter().any(|(e, _)| e.value == key.value) {
                            return Err(ParseError::at(key.span, format!("duplicate key `{}`", key.value)));
                        }
                        entries.push((key, v));
                    }
                    Node::Map(entries, whole)
                } else {
                    Node::Seq(frame.items, whole)
                };
                (node, frame.anchor)
            }
        };
        if anchor != 0 {
            anchors.insert(anchor, node.clone());
        }
        match stack.last_mut() {
            Some(frame) => frame.items.push(node),
            None => docs.push(node),
        }
    }
    Ok(docs)
}

struct Frame {
    is_map: bool,
    anchor: usize,
    start: usize,
    items: Vec<Node>,
}

/// saphyr's markers count characters; spans here are bytes.
struct ByteOffsets {
    /// Byte offset of every character, plus the text length; empty when the
    /// text is ASCII (offsets are then equal).
    table: Vec<usize>,
    len: usize,
}

impl ByteOffsets {
    fn new(text: &str) -> ByteOffsets {
        let table = if text.is_ascii() {
            Vec::new()
        } else {
            text.char_indices().map(|(i, _)| i).chain(std::iter::once(text.len())).collect()
        };
        ByteOffsets { table, len: text.len() }
    }

    fn byte(&self, char_index: usize) -> usize {
        if self.table.is_empty() {
            char_index.min(self.len)
        } else {
            self.table.get(char_index).copied().unwrap_or(self.len)
        }
    }

    fn span(&self, span: YamlSpan) -> Span {
        Span::new(self.byte(span.start.index()), self.byte(span.end.index()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Vec<Node> {
        match parse_documents(text) {
            Ok(docs) => docs,
            Err(err) => panic!("{text:?}: {}", err.message),
        }
    }

    #[test]
    fn spans_point_at_the_text() {
        let text = "- name: Wé\n  list:\n  - \"1.2\"\n---\nk: v\n";
        let docs = parse(text);
        assert_eq!(docs.len(), 2);
        let name = docs[0].as_seq().and_then(|s| s[0].get("name")).map(Node::span);
        assert_eq!(name.map(|s| &text[s.start..s.end]), Some("Wé"));
        let list = docs[0].as_seq().and_then(|s| s[0].get("list")).and_then(Node::as_seq);
        let item = list.map(|l| &l[0]);
        assert_eq!(item.and_then(Node::as_str), Some("1.2"));
        assert_eq!(item.map(|n| &text[n.span().start..n.span().end]), Some("\"1.2\""));
        assert_eq!(docs[1].get("k").and_then(Node::as_str), Some("v"));
        let key = docs[1].entry("k").map(|(k, _)| k.span);
        assert_eq!(key.map(|s| &text[s.start..s.end]), Some("k"));
    }

    #[test]
    fn scalars_resolve_with_the_core_schema() {
        let cases: [(&str, ScalarKind); 11] = [
            ("1", ScalarKind::Number(1.0)),
            ("1.0", ScalarKind::Number(1.0)),
            ("-2e3", ScalarKind::Number(-2000.0)),
            ("0x10", ScalarKind::Number(16.0)),
            ("'1'", ScalarKind::String),
            ("true", ScalarKind::Bool(true)),
            ("False", ScalarKind::Bool(false)),
            ("~", ScalarKind::Null),
            ("v1", ScalarKind::String),
            ("1.2.3", ScalarKind::String),
            ("yes", ScalarKind::String),
        ];
        for (text, kind) in cases {
            let docs = parse(&format!("k: {text}\n"));
            let Some(Node::Scalar(s)) = docs[0].get("k") else { panic!("{text}: no scalar") };
            assert_eq!(s.kind, kind, "{text}");
        }
        let docs = parse("a: 0.0\nb: 0\nc: [1, x]\nd: [1.0, x]\n");
        let same = |a: &str, b: &str| docs[0].get(a).zip(docs[0].get(b)).is_some_and(|(x, y)| x.same(y));
        assert!(same("a", "b"));
        assert!(same("c", "d"));
    }

    #[test]
    fn anchors_are_copied() {
        let docs = parse("a: &x {k: 1}\nb: *x\n");
        assert!(docs[0].get("b").and_then(|b| b.get("k")).is_some_and(|k| k.as_number() == Some(1.0)));
    }

    #[test]
    fn errors() {
        let message = |text: &str| parse_documents(text).err().map(|e| e.message);
        let unclosed = message("a: [1, 2\n").unwrap_or_default();
        assert!(unclosed.starts_with("invalid YAML: "), "{unclosed}");
        assert_eq!(message("a: 1\na: 2\n").as_deref(), Some("duplicate key `a`"));
        assert_eq!(message("? [a]\n: 1\n").as_deref(), Some("complex mapping keys are not supported"));
    }

    #[test]
    fn render() {
        let docs = parse("a: {b: [1, \"x y\", \"true\", ''], c: ~}\n");
        assert_eq!(docs[0].get("a").map(Node::render).as_deref(), Some(r#"{b: [1, x y, "true", ""], c: ~}"#));
    }
}
