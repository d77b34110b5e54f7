//! A small YAML tree with byte spans, built from saphyr-parser's events: the
//! one tree of every YAML input (Kubernetes feature lists, CRD manifests,
//! deployment material).
//!
//! Mappings, sequences and scalars, every node with its byte span; mapping
//! keys keep theirs too, and a key given twice is an error (as in Go's YAML
//! decoders). Multi-document streams yield one root per document.
//! Anchors and aliases are resolved by copying the anchored node (the copy
//! keeps the anchor's spans), under Go's yaml.v3 alias budget, so a small
//! "billion laughs" file is an error instead of gigabytes; merge keys
//! (`<<`) are applied as Go's decoders apply them; nesting is limited to
//! [`MAX_DEPTH`]. Plain scalars are resolved with the YAML 1.2
//! core schema, so `1`, `1.0` and `"1"` compare as YAML says they do.

pub mod block;

use std::collections::{BTreeMap, HashMap, HashSet};

use saphyr_parser::{Event, Parser, ScalarStyle, Span as YamlSpan};

use crate::span::ParseError;
use kompat_span::Span;

/// The text of a [`Scalar`]: a `str` (it derefs to one) held in place up to
/// 24 bytes.
pub use compact_str::CompactString;

/// A YAML node with its byte span.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Scalar(Scalar),
    Seq(Vec<Node>, Span),
    Map(Vec<(Scalar, Node)>, Span),
}

/// A scalar: its text, how it resolves, its span. The text is held in
/// place when it is short (most keys and values of a manifest), so that a
/// tree of many scalars is not an allocation per scalar.
#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    pub value: CompactString,
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

    /// Moves every span of the tree `by` bytes on: a document parsed on its
    /// own, placed in the text it was cut from.
    pub fn shift(&mut self, by: usize) {
        self.shift_signed(by as isize);
    }

    /// [`Node::shift`], back when `by` is negative (never before the text's
    /// start): a tree read where its text was, placed where a copy of it is.
    pub fn shift_signed(&mut self, by: isize) {
        let moved = |span: &mut Span| {
            *span = Span::new(span.start.saturating_add_signed(by), span.end.saturating_add_signed(by))
        };
        match self {
            Node::Scalar(s) => moved(&mut s.span),
            Node::Seq(items, span) => {
                moved(span);
                items.iter_mut().for_each(|item| item.shift_signed(by));
            }
            Node::Map(entries, span) => {
                moved(span);
                for (key, value) in entries {
                    moved(&mut key.span);
                    value.shift_signed(by);
                }
            }
        }
    }

    /// A copy of the tree with every span `by` bytes on (back when
    /// negative, never before the text's start): [`Node::shift`] of a
    /// clone, in one walk instead of two (a CRD's schema shared by its
    /// copies in other files is copied this way where one is read).
    pub fn shifted(&self, by: isize) -> Node {
        let moved = |span: Span| Span::new(span.start.saturating_add_signed(by), span.end.saturating_add_signed(by));
        let scalar = |s: &Scalar| Scalar { value: s.value.clone(), kind: s.kind, span: moved(s.span) };
        match self {
            Node::Scalar(s) => Node::Scalar(scalar(s)),
            Node::Seq(items, span) => Node::Seq(items.iter().map(|item| item.shifted(by)).collect(), moved(*span)),
            Node::Map(entries, span) => {
                Node::Map(entries.iter().map(|(key, value)| (scalar(key), value.shifted(by))).collect(), moved(*span))
            }
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
            (Node::Map(a, _), Node::Map(b, _)) if a.len() <= 16 => {
                a.len() == b.len() && a.iter().all(|(k, v)| other.get(&k.value).is_some_and(|w| v.same(w)))
            }
            (Node::Map(a, _), Node::Map(b, _)) => {
                // Keys are unique: one index instead of a scan per key.
                let index: std::collections::HashMap<&str, &Node> =
                    b.iter().map(|(k, v)| (k.value.as_str(), v)).collect();
                a.len() == b.len() && a.iter().all(|(k, v)| index.get(k.value.as_str()).is_some_and(|w| v.same(w)))
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
                    self.value.to_string()
                }
            }
            _ => self.value.to_string(),
        }
    }
}

/// Resolves a plain scalar with the YAML 1.2 core schema.
pub(crate) fn resolve_plain(text: &str) -> ScalarKind {
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

/// How deep collections may nest, aliases expanded included. Go's YAML
/// parser stops at 10000; kompat's readers walk trees recursively on threads
/// with small stacks, so the limit is lower, and far above any real file.
pub const MAX_DEPTH: usize = 1000;

/// Whether a parse error is about a resource limit (the alias budget or the
/// nesting depth) rather than the syntax: readers that tolerate YAML they
/// cannot parse (templated deployment material) still report these, since
/// the input is hostile, not merely templated.
pub fn is_limit_error(err: &ParseError) -> bool {
    let message = err.message.as_str();
    message.starts_with(EXCESSIVE_ALIASING)
        || message.ends_with(&format!("nest deeper than {MAX_DEPTH} levels"))
        || message == "invalid YAML: recursion limit exceeded"
}

/// Whether `text` holds a Go template action (`{{ ... }}` on one line), as
/// Helm templates and the fragments build scripts render do: YAML that does
/// not parse and holds one is a template, not malformed YAML.
pub fn is_template(text: &str) -> bool {
    text.lines().any(|line| line.find("{{").is_some_and(|open| line[open + 2..].contains("}}")))
}

const EXCESSIVE_ALIASING: &str = "invalid YAML: document contains excessive aliasing";

/// Below this many decoded nodes, up to 99% of them may come from aliases
/// (Go's yaml.v3, `alias_ratio_range_low`).
const ALIAS_RATIO_RANGE_LOW: u64 = 400_000;
/// From this many decoded nodes on, at most 10% may come from aliases
/// (`alias_ratio_range_high`).
const ALIAS_RATIO_RANGE_HIGH: u64 = 4_000_000;

/// The share of decoded nodes that may come from alias expansion, as yaml.v3
/// allows it: 99% for small and medium documents, scaling down to 10% for
/// very large ones.
fn allowed_alias_ratio(decoded: u64) -> f64 {
    if decoded <= ALIAS_RATIO_RANGE_LOW {
        0.99
    } else if decoded >= ALIAS_RATIO_RANGE_HIGH {
        0.10
    } else {
        let range = (ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW) as f64;
        0.99 - 0.89 * ((decoded - ALIAS_RATIO_RANGE_LOW) as f64 / range)
    }
}

/// yaml.v3's alias budget for one document: every node a decoder would visit
/// is counted (mapping keys too), and those visited through an alias are
/// counted again as aliased. A document fails once more than 100 nodes came
/// from aliases, more than 1000 were decoded, and the aliased share exceeds
/// [`allowed_alias_ratio`]. yaml.v3 checks at every node; within one alias
/// the aliased share only grows, so checking once per alias with its whole
/// weight decides the same documents, before anything is copied.
#[derive(Default)]
struct AliasBudget {
    decoded: u64,
    aliased: u64,
}

impl AliasBudget {
    /// Counts one alias to a node of `weight` decoded nodes; false when the
    /// document would exceed the budget.
    fn admit(&mut self, weight: u64) -> bool {
        // The alias node itself is decoded outside the expansion.
        self.decoded += 1 + weight;
        self.aliased += weight;
        !(self.aliased > 100
            && self.decoded > 1000
            && self.aliased as f64 / self.decoded as f64 > allowed_alias_ratio(self.decoded))
    }
}

/// An anchored node, with what copying it costs.
struct Anchored {
    node: Node,
    /// Nodes a decoder visits to decode it (aliases inside expanded).
    weight: u64,
    /// Its nesting height (a scalar is 0).
    height: usize,
}

/// The anchored nodes of a stream. An anchored collection is kept here once
/// and stands in the tree as a placeholder (an empty collection of the same
/// kind and span) until the stream is read: copying it where it is written
/// would copy every anchored collection it contains again, and nested
/// anchors would cost their depth times their size.
#[derive(Default)]
struct Anchors {
    nodes: BTreeMap<usize, Anchored>,
    /// Placeholder span -> anchor.
    placeholders: HashMap<Span, usize>,
}

impl Anchors {
    /// The anchored collection `node` stands for, if it is a placeholder.
    fn behind(&self, node: &Node) -> Option<&Anchored> {
        let span = match node {
            Node::Seq(items, span) if items.is_empty() => span,
            Node::Map(entries, span) if entries.is_empty() => span,
            _ => return None,
        };
        let anchored = self.nodes.get(self.placeholders.get(span)?)?;
        let same_kind =
            matches!((node, &anchored.node), (Node::Seq(..), Node::Seq(..)) | (Node::Map(..), Node::Map(..)));
        same_kind.then_some(anchored)
    }

    /// Replaces every placeholder in `node` by a copy of what it stands for.
    /// The copies make up the tree the alias budget admitted, so the work is
    /// bounded by it; the depth is bounded by [`MAX_DEPTH`].
    fn resolve(&self, node: &mut Node) {
        if let Some(anchored) = self.behind(node) {
            *node = anchored.node.clone();
        }
        match node {
            Node::Seq(items, _) => items.iter_mut().for_each(|item| self.resolve(item)),
            Node::Map(entries, _) => entries.iter_mut().for_each(|(_, value)| self.resolve(value)),
            Node::Scalar(_) => {}
        }
    }
}

/// Parses every document of a YAML stream. An empty document is a null
/// scalar.
///
/// Aliases are expanded under yaml.v3's budget, nesting is limited to
/// [`MAX_DEPTH`], and merge keys (`<<: *a`, `<<: [*a, *b]`) are applied as Go's
/// decoders apply them: keys written in the mapping win over merged ones, and
/// among merged mappings the earlier one wins. Merged entries keep the spans
/// of where they are written.
pub fn parse_documents(text: &str) -> Result<Vec<Node>, ParseError> {
    let offsets = ByteOffsets::new(text);
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors = Anchors::default();
    let mut budget = AliasBudget::default();
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
        let (node, anchor, weight, height, merge_key) = match event {
            Event::DocumentStart(_) => {
                budget = AliasBudget::default();
                continue;
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => continue,
            Event::Alias(id) => {
                let Some(anchored) = anchors.nodes.get(&id) else {
                    return Err(ParseError::at(span, "invalid YAML: unknown alias"));
                };
                let name = alias_name(text, span);
                if stack.len() + anchored.height > MAX_DEPTH {
                    return Err(ParseError::at(
                        span,
                        format!("invalid YAML: alias `{name}` nests deeper than {MAX_DEPTH} levels"),
                    ));
                }
                if !budget.admit(anchored.weight) {
                    return Err(ParseError::at(
                        span,
                        format!(
                            "{EXCESSIVE_ALIASING}: alias `{name}` expands to {} nodes, beyond the budget of the \
                             document's size",
                            anchored.weight
                        ),
                    ));
                }
                (anchored.node.clone(), 0, 1 + anchored.weight, anchored.height, false)
            }
            Event::Scalar(value, style, anchor, _) => {
                budget.decoded += 1;
                let plain = style == ScalarStyle::Plain;
                let kind = if plain { resolve_plain(&value) } else { ScalarKind::String };
                let merge_key = plain && value == "<<";
                (Node::Scalar(Scalar { value: CompactString::from(value), kind, span }), anchor, 1, 0, merge_key)
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                budget.decoded += 1;
                if stack.len() >= MAX_DEPTH {
                    return Err(ParseError::at(
                        span,
                        format!("invalid YAML: collections nest deeper than {MAX_DEPTH} levels"),
                    ));
                }
                let is_map = matches!(event, Event::MappingStart(..));
                stack.push(Frame {
                    is_map,
                    anchor,
                    start: span.start,
                    items: Vec::new(),
                    merge_keys: Vec::new(),
                    weight: 1,
                    height: 0,
                });
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
                let (weight, height, anchor) = (frame.weight, frame.height + 1, frame.anchor);
                let node = if frame.is_map {
                    Node::Map(map_entries(frame.items, &frame.merge_keys, &anchors, &mut budget)?, whole)
                } else {
                    Node::Seq(frame.items, whole)
                };
                (node, anchor, weight, height, false)
            }
        };
        let node = match node {
            _ if anchor == 0 => node,
            Node::Scalar(_) => {
                anchors.nodes.insert(anchor, Anchored { node: node.clone(), weight, height });
                node
            }
            Node::Seq(_, span) | Node::Map(_, span) => {
                let placeholder = match node {
                    Node::Seq(..) => Node::Seq(Vec::new(), span),
                    _ => Node::Map(Vec::new(), span),
                };
                anchors.placeholders.insert(span, anchor);
                anchors.nodes.insert(anchor, Anchored { node, weight, height });
                placeholder
            }
        };
        match stack.last_mut() {
            Some(frame) => {
                if merge_key && frame.is_map && frame.items.len() % 2 == 0 {
                    frame.merge_keys.push(frame.items.len());
                }
                frame.weight += weight;
                frame.height = frame.height.max(height);
                frame.items.push(node);
            }
            None => docs.push(node),
        }
    }
    for doc in &mut docs {
        anchors.resolve(doc);
    }
    Ok(docs)
}

/// The alias as written (`*name`), for messages.
fn alias_name(text: &str, span: Span) -> &str {
    match text.get(span.start..span.end) {
        Some(written) if written.starts_with('*') => written.trim_end(),
        _ => "*",
    }
}

/// The entries of a mapping from its items (key, value, key, value...), with
/// merge keys applied: the items at `merge_keys` are plain `<<` keys.
fn map_entries(
    items: Vec<Node>,
    merge_keys: &[usize],
    anchors: &Anchors,
    budget: &mut AliasBudget,
) -> Result<Vec<(Scalar, Node)>, ParseError> {
    let mut written: Vec<(Scalar, Node)> = Vec::with_capacity(items.len() / 2);
    // Keys checked where they are written: the first complex key, or the
    // first key given again, is the error.
    let mut seen: HashSet<&str> = HashSet::new();
    let pairs = items.len() / 2;
    for idx in 0..pairs {
        let key = match &items[2 * idx] {
            Node::Scalar(key) => key,
            k => return Err(ParseError::at(k.span(), "complex mapping keys are not supported")),
        };
        // Most mappings are small: an earlier key is looked for among them,
        // with no set built (nor any key copied).
        let again = if pairs <= 16 {
            items[..2 * idx].iter().step_by(2).any(|k| matches!(k, Node::Scalar(k) if k.value == key.value))
        } else {
            !seen.insert(&key.value)
        };
        if again {
            return Err(ParseError::at(key.span, format!("duplicate key `{}`", key.value)));
        }
    }
    drop(seen);
    // Merged mappings, each with the index in `written` they go before.
    let mut merges: Vec<(usize, Node)> = Vec::new();
    let mut items = items.into_iter().enumerate();
    while let (Some((idx, k)), Some((_, v))) = (items.next(), items.next()) {
        let Node::Scalar(key) = k else { continue };
        if merge_keys.contains(&idx) {
            merges.push((written.len(), v));
        } else {
            written.push((key, v));
        }
    }
    if merges.is_empty() {
        return Ok(written);
    }
    // Keys written in the mapping win; among merged mappings, the first.
    let mut seen: HashSet<CompactString> = written.iter().map(|(k, _)| k.value.clone()).collect();
    let mut entries = Vec::with_capacity(written.len());
    let mut written = written.into_iter().enumerate().peekable();
    for (before, value) in merges {
        while let Some((_, entry)) = written.next_if(|(idx, _)| *idx < before) {
            entries.push(entry);
        }
        // An anchored mapping written in place (`<<: &b {...}`) is merged
        // from a copy, counted like an alias.
        let mut unfold = |node: Node| -> Result<Node, ParseError> {
            let Some(anchored) = anchors.behind(&node) else { return Ok(node) };
            if !budget.admit(anchored.weight) {
                return Err(ParseError::at(
                    node.span(),
                    format!(
                        "{EXCESSIVE_ALIASING}: merging this mapping copies {} nodes, beyond the budget of the \
                         document's size",
                        anchored.weight
                    ),
                ));
            }
            Ok(anchored.node.clone())
        };
        let sources = match unfold(value)? {
            value @ Node::Map(..) => vec![value],
            Node::Seq(items, _) if items.iter().all(|i| matches!(i, Node::Map(..))) => {
                items.into_iter().map(&mut unfold).collect::<Result<Vec<_>, _>>()?
            }
            other => {
                return Err(ParseError::at(other.span(), "map merge requires map or sequence of maps as the value"))
            }
        };
        for source in sources {
            let Node::Map(merged, _) = source else { continue };
            for (key, value) in merged {
                if seen.insert(key.value.clone()) {
                    entries.push((key, value));
                }
            }
        }
    }
    entries.extend(written.map(|(_, entry)| entry));
    Ok(entries)
}

struct Frame {
    is_map: bool,
    anchor: usize,
    start: usize,
    items: Vec<Node>,
    /// Indices in `items` of plain `<<` keys.
    merge_keys: Vec<usize>,
    /// Nodes decoded for this collection so far (itself included).
    weight: u64,
    /// The greatest height of its items.
    height: usize,
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

    /// A Go template action is `{{` then `}}` on one line.
    #[test]
    fn template_actions() {
        fn check(text: &str, expected: bool) {
            assert_eq!(super::is_template(text), expected, "{text:?}");
        }
        check("{{- if .Values.crds.enabled }}\nkind: X\n", true);
        check("name: {{ .Release.Name }}\n", true);
        check("kind: X\n", false);
        check("a: \"{{\"\nb: \"}}\"\n", false);
        check("a: }} {{\n", false);
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

    /// The mapping at `key` of the first document, as `key=value` pairs in
    /// order, values rendered.
    fn entries(text: &str, key: &str) -> Vec<String> {
        let docs = parse(text);
        let map = docs[0].get(key).and_then(Node::as_map).unwrap_or_default();
        map.iter().map(|(k, v)| format!("{}={}", k.value, v.render())).collect()
    }

    #[test]
    fn merge_keys_apply_as_go_applies_them() {
        let base = "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\n";
        let cases: [(&str, &[&str]); 7] = [
            // One mapping merged.
            ("m: {<<: *a}", &["x=1", "y=1"]),
            // Keys written in the mapping win, before or after the merge key.
            ("m: {y: 9, <<: *a}", &["y=9", "x=1"]),
            ("m: {<<: *a, x: 9}", &["y=1", "x=9"]),
            // In a list, the earlier mapping wins.
            ("m: {<<: [*a, *b]}", &["x=1", "y=1", "z=2"]),
            ("m: {<<: [*b, *a]}", &["y=2", "z=2", "x=1"]),
            // An inline mapping merges too.
            ("m: {<<: {q: 1}, r: 2}", &["q=1", "r=2"]),
            // A quoted `<<` is an ordinary key.
            ("m: {\"<<\": 1}", &["<<=1"]),
        ];
        for (doc, expected) in cases {
            assert_eq!(entries(&format!("{base}{doc}\n"), "m"), expected, "{doc}");
        }
    }

    #[test]
    fn merged_values_keep_where_they_are_written() {
        let text = "base: &v\n  served: true\n  schema: {type: object}\nv1beta1:\n  <<: *v\n  served: false\n";
        let docs = parse(text);
        let version = docs[0].get("v1beta1");
        let schema = version.and_then(|v| v.get("schema")).map(Node::span);
        assert_eq!(schema.map(|s| &text[s.start..s.end]), Some("{type: object}"));
        let served = version.and_then(|v| v.get("served"));
        assert_eq!(served.and_then(Node::as_bool), Some(false));
    }

    #[test]
    fn merge_errors() {
        let message = |text: &str| parse_documents(text).err().map(|e| (e.message, e.span.map(|s| s.start)));
        let wrong = Some(("map merge requires map or sequence of maps as the value".to_owned(), Some(8)));
        assert_eq!(message("m: {<<: 1}\n"), wrong);
        assert_eq!(message("m: {<<: [{a: 1}, 2]}\n").map(|m| m.0), wrong.map(|w| w.0));
        assert_eq!(message("m: {<<: {a: 1}, <<: {b: 1}}\n").map(|m| m.0), Some("duplicate key `<<`".to_owned()));
    }

    /// Nine levels of nine aliases: 9^9 nodes if expanded.
    fn laughs(levels: usize) -> String {
        let mut text = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for level in 1..=levels {
            let prev = format!("*a{}", level - 1);
            let items = [prev.as_str(); 9].join(", ");
            text.push_str(&format!("a{level}: &a{level} [{items}]\n"));
        }
        text
    }

    #[test]
    fn alias_budget() {
        // Two levels expand to some 1000 nodes, under 100 times the
        // document: within the budget; three levels are not.
        assert!(parse_documents(&laughs(2)).is_ok());
        assert!(parse_documents(&laughs(3)).is_err());
        let err = parse_documents(&laughs(9)).err();
        assert!(err.as_ref().is_some_and(is_limit_error));
        assert!(parse_documents("a: [").err().as_ref().is_some_and(|e| !is_limit_error(e)));
        let message = err.as_ref().map(|e| e.message.as_str()).unwrap_or_default();
        assert!(message.starts_with("invalid YAML: document contains excessive aliasing: alias `*a"), "{message}");
        let at = err.and_then(|e| e.span).map(|s| s.start).unwrap_or_default();
        assert!(laughs(9)[at..].starts_with("*a"), "{at}");
        // The same share of aliases in a large document is fine (the ratio,
        // not the count, decides), and so is a document without aliases.
        let mut big = String::from("base: &b {k: v}\n");
        for i in 0..2000 {
            big.push_str(&format!("e{i}: [1, 2, 3, *b]\n"));
        }
        assert!(parse_documents(&big).is_ok());
    }

    #[test]
    fn nesting_is_limited() {
        let deep = |open: &str, n: usize| open.repeat(n);
        let block: String = (0..3000).map(|i| format!("{}a:\n", " ".repeat(i))).collect();
        for text in [deep("[", 100_000), deep("{a: ", 100_000), deep("- ", 100_000), block] {
            let err = parse_documents(&text).err().map(|e| e.message).unwrap_or_default();
            assert!(err.contains("nest deeper than 1000 levels") || err.starts_with("invalid YAML"), "{err}");
        }
        // saphyr-parser stops flow collections at 255 levels; block ones
        // stop here.
        let err = parse_documents(&deep("[", 300)).err().map(|e| e.message);
        assert_eq!(err.as_deref(), Some("invalid YAML: recursion limit exceeded"));
        let err = parse_documents(&format!("{}x\n", deep("- ", 2000))).err().map(|e| e.message);
        assert_eq!(err.as_deref(), Some("invalid YAML: collections nest deeper than 1000 levels"));
        assert!(parse_documents(&format!("{}x\n", deep("- ", 999))).is_ok());
        // Aliases count with the depth of what they copy.
        let chain = format!("a: &a\n{}x\nb:\n{}*a\n", deep("- ", 600), deep("- ", 600));
        let err = parse_documents(&chain).err().map(|e| e.message);
        assert_eq!(err.as_deref(), Some("invalid YAML: alias `*a` nests deeper than 1000 levels"));
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
    fn shifted_is_a_shifted_clone() {
        let text = "a: &x {k: 1, l: [x, \"y\", ~]}\nb: *x\nc:\n- d: |\n    e\n  f: []\n---\n- 1\n- {}\n";
        for by in [0, 1, 4096] {
            for doc in parse(text) {
                let mut expected = doc.clone();
                expected.shift(by);
                assert_eq!(doc.shifted(by as isize), expected, "by {by}");
                assert_eq!(expected.shifted(-(by as isize)), doc, "back by {by}");
            }
        }
    }

    #[test]
    fn render() {
        let docs = parse("a: {b: [1, \"x y\", \"true\", ''], c: ~}\n");
        assert_eq!(docs[0].get("a").map(Node::render).as_deref(), Some(r#"{b: [1, x y, "true", ""], c: ~}"#));
    }
}
