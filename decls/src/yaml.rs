//! A small YAML tree with byte spans, built from saphyr-parser's events.
//!
//! Only what declaration and manifest files need: mappings, sequences and
//! scalars (with their style), every node with its byte span. Anchors and
//! aliases are rejected. Multi-document streams yield one root per document.

use saphyr_parser::{Event, Parser, ScalarStyle, Span as YamlSpan};

use crate::span::{ParseError, Span};

/// A YAML node with its byte span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    Scalar(Scalar),
    Seq(Vec<Node>, Span),
    Map(Vec<(Node, Node)>, Span),
}

/// A scalar: its text, whether it was written plain (unquoted), its span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scalar {
    pub value: String,
    pub plain: bool,
    pub span: Span,
}

impl Node {
    pub fn span(&self) -> Span {
        match self {
            Node::Scalar(s) => s.span,
            Node::Seq(_, span) | Node::Map(_, span) => *span,
        }
    }

    /// True for a plain `null`, `~` or empty scalar.
    pub fn is_null(&self) -> bool {
        matches!(self, Node::Scalar(s) if s.plain && matches!(s.value.as_str(), "" | "~" | "null" | "Null" | "NULL"))
    }

    /// What kind of node this is, for messages.
    pub fn describe(&self) -> String {
        match self {
            Node::Scalar(s) if self.is_null() && s.value.is_empty() => "nothing".to_owned(),
            Node::Scalar(s) => format!("`{}`", s.value),
            Node::Seq(..) => "a sequence".to_owned(),
            Node::Map(..) => "a mapping".to_owned(),
        }
    }

    /// The value of `key` in a mapping.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map(entries, _) => {
                entries.iter().find(|(k, _)| matches!(k, Node::Scalar(s) if s.value == key)).map(|(_, v)| v)
            }
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::Scalar(s) => Some(&s.value),
            _ => None,
        }
    }
}

/// Parses every document of a YAML stream.
pub fn parse_documents(text: &str) -> Result<Vec<Node>, ParseError> {
    let offsets = ByteOffsets::new(text);
    let mut stack: Vec<Frame> = Vec::new();
    let mut docs = Vec::new();
    let mut parser = Parser::new_from_str(text);
    while let Some(item) = parser.next_event() {
        let (event, span) = match item {
            Ok(pair) => pair,
            Err(err) => {
                let at = offsets.byte(err.marker().index());
                return Err(ParseError::at(Span::new(at, at), format!("invalid YAML: {}", err.info())));
            }
        };
        let span = offsets.span(span);
        let node = match event {
            Event::StreamStart | Event::StreamEnd | Event::DocumentStart(_) | Event::Nothing => continue,
            Event::DocumentEnd => {
                continue;
            }
            Event::Alias(_) => return Err(ParseError::at(span, "YAML aliases are not supported")),
            Event::Scalar(value, style, anchor, _) => {
                if anchor != 0 {
                    return Err(ParseError::at(span, "YAML anchors are not supported"));
                }
                Node::Scalar(Scalar { value: value.into_owned(), plain: style == ScalarStyle::Plain, span })
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if anchor != 0 {
                    return Err(ParseError::at(span, "YAML anchors are not supported"));
                }
                let is_map = matches!(event, Event::MappingStart(..));
                stack.push(Frame { is_map, start: span.start, items: Vec::new() });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = stack.pop() else {
                    return Err(ParseError::at(span, "invalid YAML: unbalanced collection"));
                };
                let end = frame.items.last().map_or(span.end, |n| n.span().end.max(span.start));
                let whole = Span::new(frame.start, end.max(frame.start));
                if frame.is_map {
                    let mut entries = Vec::new();
                    let mut items = frame.items.into_iter();
                    while let (Some(k), Some(v)) = (items.next(), items.next()) {
                        entries.push((k, v));
                    }
                    Node::Map(entries, whole)
                } else {
                    Node::Seq(frame.items, whole)
                }
            }
        };
        match stack.last_mut() {
            Some(frame) => frame.items.push(node),
            None => docs.push(node),
        }
    }
    Ok(docs)
}

struct Frame {
    is_map: bool,
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

    #[test]
    fn spans_point_at_the_text() {
        let text = "- name: Wé\n  list:\n  - \"1.2\"\n---\nk: v\n";
        let docs = parse_documents(text).unwrap();
        assert_eq!(docs.len(), 2);
        let Node::Seq(items, _) = &docs[0] else { panic!("seq") };
        let name = items[0].get("name").unwrap();
        assert_eq!(&text[name.span().start..name.span().end], "Wé");
        let Node::Seq(list, _) = items[0].get("list").unwrap() else { panic!("seq") };
        let Node::Scalar(s) = &list[0] else { panic!("scalar") };
        assert_eq!((s.value.as_str(), s.plain), ("1.2", false));
        assert_eq!(&text[s.span.start..s.span.end], "\"1.2\"");
        assert_eq!(docs[1].get("k").and_then(Node::as_str), Some("v"));
    }

    #[test]
    fn errors() {
        let err = parse_documents("a: [1, 2\n").unwrap_err();
        assert!(err.message.starts_with("invalid YAML: "), "{}", err.message);
        assert_eq!(parse_documents("a: &x 1\nb: *x\n").unwrap_err().message, "YAML anchors are not supported");
    }
}
