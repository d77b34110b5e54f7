//! A tree builder for the skim's subset of YAML ([`crate::subset`]): block
//! mappings and sequences indented with spaces, plain and simple quoted
//! scalars (over several lines too), `[]`, `{}`, block scalars and
//! comments, read line by line straight into [`Node`]s, with no parser
//! events in between.
//!
//! [`build`] gives the tree [`super::parse_documents`] gives of the same
//! document (values, kinds and every span byte for byte: a test holds it
//! to this on every fixture, a synthetic tree, small cases and mutated
//! inputs), or `None` for anything it is not sure of (then the caller
//! parses the document). It decides with the skim's own readers of keys
//! and values, so the subsets are the same, and is only as lenient as
//! they are: a document it reads is one the skim validated.

use crate::subset::{self, spaces_at_start as spaces, Rest, Written};
use crate::yaml::{resolve_plain, CompactString, Node, Scalar, ScalarKind};
use kompat_span::Span;
use std::collections::HashSet;

/// How deep the builder follows nesting before it leaves a document to
/// the parser (the skim's own limit).
const MAX_BUILD_DEPTH: usize = 200;

/// The tree of the one document written at `span` of `text` (a top-level
/// block mapping), its spans in `text`; `None` when the document is beyond
/// the subset (or empty, or not a mapping).
pub fn build(text: &str, span: Span) -> Option<Node> {
    let doc = text.get(span.start..span.end)?;
    if !subset::bytes_in_subset(doc.as_bytes()) || subset::ends_in_spaces(doc.as_bytes()) {
        return None;
    }
    let mut builder = Builder {
        text,
        bytes: text.as_bytes(),
        end: span.end,
        pos: span.start,
        inline: None,
        peeked: None,
        depth: 0,
        entries: Vec::new(),
        items: Vec::new(),
        lines: Vec::new(),
    };
    let first = builder.peek()?;
    if first.indent != 0 || is_item(builder.content(&first)) {
        return None;
    }
    let root = builder.map(0)?;
    // Anything left over (a line less indented than the mapping cannot be)
    // is beyond the subset.
    if builder.peek().is_some() {
        return None;
    }
    Some(root)
}

/// A line with content, not a comment line.
#[derive(Clone, Copy)]
struct Line {
    /// Where the line's content starts: after its indentation, or for a
    /// compact mapping in a sequence item (`- key: value`), at the key.
    at: usize,
    /// The column of `at`.
    indent: usize,
    /// Where the line ends (its `\n`, or the document's end).
    end: usize,
}

struct Builder<'a> {
    text: &'a str,
    bytes: &'a [u8],
    /// The document's end.
    end: usize,
    /// The start of the next line to read.
    pos: usize,
    /// A line's rest read as a line of its own: the first entry of a
    /// compact mapping (`- key: value`).
    inline: Option<Line>,
    /// The last line [`Builder::peek`] found, with its start.
    peeked: Option<(usize, Line)>,
    depth: usize,
    /// The entries of the mappings being read, innermost last: each
    /// mapping's are copied out at their exact number when it ends (no
    /// `Vec` of a tree grows entry by entry).
    entries: Vec<(Scalar, Node)>,
    /// The items of the sequences being read, as `entries`.
    items: Vec<Node>,
    /// The lines of the scalar being read over several lines: for each,
    /// the line breaks before it and its text's start and end.
    lines: Vec<(usize, usize, usize)>,
}

fn is_item(content: &[u8]) -> bool {
    content.starts_with(b"- ") || content == b"-"
}

impl<'a> Builder<'a> {
    fn content(&self, line: &Line) -> &'a [u8] {
        &self.bytes[line.at..line.end]
    }

    /// The end of the line starting at `start`.
    fn line_end(&self, start: usize) -> usize {
        memchr::memchr(b'\n', &self.bytes[start..self.end]).map_or(self.end, |i| start + i)
    }

    /// After the line ending at `end`.
    fn next_start(&self, end: usize) -> usize {
        (end + 1).min(self.end)
    }

    /// The next line with content, comment lines and blank ones skipped
    /// (not consumed: [`Builder::consume`] does).
    fn peek(&mut self) -> Option<Line> {
        if let Some(line) = self.inline {
            return Some(line);
        }
        // A line is looked at two or three times (by a value, then by its
        // collection): its end is found once.
        if let Some((_, line)) = self.peeked.filter(|&(at, _)| at == self.pos) {
            return Some(line);
        }
        while self.pos < self.end {
            let start = self.pos;
            let end = self.line_end(start);
            let indent = spaces(&self.bytes[start..end]);
            if start + indent == end || self.bytes[start + indent] == b'#' {
                self.pos = self.next_start(end);
                continue;
            }
            let line = Line { at: start + indent, indent, end };
            self.peeked = Some((start, line));
            return Some(line);
        }
        None
    }

    /// Moves past `line`.
    fn consume(&mut self, line: &Line) {
        self.inline = None;
        self.pos = self.next_start(line.end);
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_BUILD_DEPTH).then_some(())
    }

    /// A collection opening on `line`, more indented than its parent.
    fn nested(&mut self, line: &Line) -> Option<Node> {
        if is_item(self.content(line)) {
            self.seq(line.indent, false)
        } else {
            self.map(line.indent)
        }
    }

    /// The block mapping at `indent`, its first line next.
    fn map(&mut self, indent: usize) -> Option<Node> {
        self.enter()?;
        let base = self.entries.len();
        let mut many: Option<HashSet<CompactString>> = None;
        while let Some(line) = self.peek() {
            if line.indent < indent {
                break;
            }
            let content = self.content(&line);
            if line.indent > indent || is_item(content) {
                return None;
            }
            let (key_len, colon) = subset::key_end(content)?;
            if key_len > 1000 {
                return None;
            }
            let key = subset::key_text(self.text, line.at, &content[..key_len])?;
            if key.plain && key.value == "<<" {
                return None;
            }
            let again = match &mut many {
                Some(keys) => !keys.insert(CompactString::from(&*key.value)),
                None => self.entries[base..].iter().any(|(k, _)| k.value == key.value),
            };
            if again {
                return None;
            }
            let key = scalar(key);
            let after = colon + 1;
            let value = self.value(&line, after, indent, Some(key.span.end))?;
            self.entries.push((key, value));
            if many.is_none() && self.entries.len() - base > 16 {
                // Many keys: a set of them instead of a scan per key.
                many = Some(self.entries[base..].iter().map(|(k, _)| k.value.clone()).collect());
            }
        }
        self.depth -= 1;
        let entries: Vec<(Scalar, Node)> = self.entries.drain(base..).collect();
        let first = entries.first()?.0.span.start;
        let last = entries.last()?.1.span().end;
        Some(Node::Map(entries, Span::new(first, last)))
    }

    /// The block sequence at `indent`, its first item next; `indentless`
    /// when it is a mapping value at its key's indentation.
    fn seq(&mut self, indent: usize, indentless: bool) -> Option<Node> {
        self.enter()?;
        let base = self.items.len();
        let mut start = None;
        while let Some(line) = self.peek() {
            if line.indent < indent {
                break;
            }
            let content = self.content(&line);
            if line.indent > indent {
                return None;
            }
            if !is_item(content) {
                break;
            }
            let gap = spaces(&content[1..]);
            let rest = &content[1 + gap..];
            let rest_at = line.at + 1 + gap;
            if start.is_none() {
                // An indentless sequence starts after its first dash (and
                // a comment after it); an indented one at the dash.
                start = Some(match (indentless, rest.first()) {
                    (false, _) => line.at,
                    (true, None | Some(b'#')) => line.end,
                    (true, Some(_)) => rest_at,
                });
            }
            if rest.starts_with(b"- ") || rest == b"-" || rest.starts_with(b"? ") || rest == b"?" {
                return None;
            }
            if !rest.is_empty() && rest[0] != b'#' && subset::key_end(rest).is_some() {
                // `- key: value`: a mapping at the key's column.
                let column = indent + 1 + gap;
                self.inline = Some(Line { at: rest_at, indent: column, end: line.end });
                let item = self.map(column)?;
                self.items.push(item);
                continue;
            }
            let item = self.value(&line, 1, indent, None)?;
            self.items.push(item);
        }
        self.depth -= 1;
        let items: Vec<Node> = self.items.drain(base..).collect();
        let last = items.last()?.span().end;
        Some(Node::Seq(items, Span::new(start?, last)))
    }

    /// The value written after `line`'s indicator (`key:` or `-`), which
    /// ends `after` bytes into its content, in the collection at `parent`:
    /// on the line, or a collection on the lines after it, or null (at
    /// `key_end` for a key, at the line's end for an item).
    fn value(&mut self, line: &Line, after: usize, parent: usize, key_end: Option<usize>) -> Option<Node> {
        let content = self.content(line);
        let tail = &content[after..];
        let gap = spaces(tail);
        let rest = &tail[gap..];
        let rest_at = line.at + after + gap;
        if rest.is_empty() || rest[0] == b'#' {
            self.consume(line);
            return match self.peek() {
                Some(next) if next.indent > parent => self.nested(&next),
                Some(next) if key_end.is_some() && next.indent == parent && is_item(self.content(&next)) => {
                    self.seq(parent, true)
                }
                _ => {
                    let at = key_end.unwrap_or(line.end);
                    Some(Node::Scalar(Scalar {
                        value: CompactString::default(),
                        kind: ScalarKind::Null,
                        span: Span::new(at, at),
                    }))
                }
            };
        }
        match subset::value(self.text, rest_at, rest)? {
            Rest::Empty => None,
            Rest::Scalar(w) if w.plain => {
                let comment = rest.windows(2).any(|pair| pair == b" #");
                self.consume(line);
                if comment {
                    Some(Node::Scalar(scalar(w)))
                } else {
                    self.plain_lines(w, parent)
                }
            }
            Rest::Scalar(w) => {
                // A quoted scalar's span runs to its line's end (spaces and
                // a comment after it included), as the parser's does.
                self.consume(line);
                Some(Node::Scalar(Scalar {
                    value: exact(w.value),
                    kind: ScalarKind::String,
                    span: Span::new(w.span.start, line.end),
                }))
            }
            Rest::EmptyFlow => {
                self.consume(line);
                let span = Span::new(rest_at, line.end);
                Some(if rest[0] == b'[' { Node::Seq(Vec::new(), span) } else { Node::Map(Vec::new(), span) })
            }
            Rest::OpenQuote(quote) => {
                self.consume(line);
                self.quoted_lines(rest_at, &rest[1..], quote, parent)
            }
            Rest::Block => {
                self.consume(line);
                self.block_scalar(rest_at, rest, parent)
            }
        }
    }

    /// A plain scalar whose first line is read (`first`): the lines after
    /// it indented beyond `parent` go on with it, folded.
    fn plain_lines(&mut self, first: Written<'a>, parent: usize) -> Option<Node> {
        self.lines.clear();
        let mut end = first.span.end;
        let mut breaks = 0;
        let mut at = self.pos;
        while at < self.end {
            let line_end = self.line_end(at);
            let line = &self.bytes[at..line_end];
            let indent = spaces(line);
            if indent == line.len() {
                breaks += 1;
                at = self.next_start(line_end);
                continue;
            }
            let content = &line[indent..];
            if indent <= parent || content[0] == b'#' {
                break;
            }
            let goes_on = subset::continuation(content)?;
            let mut written = content.len();
            if !goes_on {
                written = content.windows(2).position(|pair| pair == b" #").map_or(written, |i| i + 1);
            }
            let written = trim_end(&content[..written]);
            self.text.get(at + indent..at + indent + written.len())?;
            self.lines.push((breaks, at + indent, at + indent + written.len()));
            end = at + indent + written.len();
            breaks = 0;
            at = self.next_start(line_end);
            self.pos = at;
            if !goes_on {
                break;
            }
        }
        let value = if self.lines.is_empty() {
            exact(first.value)
        } else {
            // Folded: a space between lines, or a line break per blank line.
            let gaps = |breaks: usize| breaks.max(1);
            let len = first.value.len() + self.lines.iter().map(|&(b, from, to)| gaps(b) + to - from).sum::<usize>();
            let mut value = String::with_capacity(len);
            value.push_str(&first.value);
            for &(breaks, from, to) in &self.lines {
                let gap = if breaks == 0 { " " } else { "\n" };
                (0..gaps(breaks)).for_each(|_| value.push_str(gap));
                value.push_str(self.text.get(from..to)?);
            }
            CompactString::from(value)
        };
        let kind = resolve_plain(&value);
        Some(Node::Scalar(Scalar { value, kind, span: Span::new(first.span.start, end) }))
    }

    /// A quoted scalar opening at `start` and left open at its line's end
    /// (`first` is its text on that line, after the quote): the lines after
    /// it, indented beyond `parent`, go on with it until its closing quote.
    fn quoted_lines(&mut self, start: usize, first: &[u8], quote: u8, parent: usize) -> Option<Node> {
        let mut value = String::new();
        push_quoted(&mut value, trim_end(first), quote, self.text, start + 1)?;
        let mut breaks = 0;
        let mut at = self.pos;
        while at < self.end {
            let line_end = self.line_end(at);
            let line = &self.bytes[at..line_end];
            let indent = spaces(line);
            at = self.next_start(line_end);
            if indent == line.len() {
                breaks += 1;
                continue;
            }
            if indent <= parent {
                return None;
            }
            let content = &line[indent..];
            if breaks == 0 {
                value.push(' ');
            } else {
                (0..breaks).for_each(|_| value.push('\n'));
            }
            breaks = 0;
            match subset::quoted_close(content, quote)? {
                Some(close) => {
                    push_quoted(&mut value, &content[..close], quote, self.text, line_end - line.len() + indent)?;
                    self.pos = at;
                    let span = Span::new(start, line_end);
                    return Some(Node::Scalar(Scalar { value: exact(value.into()), kind: ScalarKind::String, span }));
                }
                None => push_quoted(&mut value, trim_end(content), quote, self.text, line_end - line.len() + indent)?,
            }
        }
        None
    }

    /// A block scalar whose header (`|` or `>`, perhaps a chomping
    /// indicator, perhaps a comment) is `header`, at `header_at`, in the collection at
    /// `parent`; its lines are next.
    fn block_scalar(&mut self, header_at: usize, header: &[u8], parent: usize) -> Option<Node> {
        let folded = header[0] == b'>';
        let chomp = header.get(1).copied().filter(|&b| b == b'-' || b == b'+');
        // Each text line with the blank lines before it; those after the
        // last in `breaks`.
        self.lines.clear();
        let mut breaks = 0;
        let mut text_indent: Option<usize> = None;
        let mut longest_blank = 0;
        let mut start = None;
        let mut end = self.end;
        let mut at = self.pos;
        while at < self.end {
            let line_end = self.line_end(at);
            let line = &self.bytes[at..line_end];
            let indent = spaces(line);
            // An all-space line longer than the text's indentation holds
            // spaces of the text, once that indentation is known.
            let blank = indent == line.len() && text_indent.is_none_or(|t| indent <= t);
            if blank {
                longest_blank = longest_blank.max(line.len());
                breaks += 1;
                at = self.next_start(line_end);
                continue;
            }
            match text_indent {
                None if indent <= parent => {
                    end = at + indent;
                    break;
                }
                None => text_indent = Some(indent),
                Some(t) if indent >= t => {}
                Some(_) if indent <= parent => {
                    end = at + indent;
                    break;
                }
                Some(_) => return None,
            }
            let t = text_indent?;
            start.get_or_insert(at + t);
            self.lines.push((breaks, at + t, line_end));
            breaks = 0;
            at = self.next_start(line_end);
        }
        let Some(t) = text_indent else {
            // No text: empty, its span where the next line's content
            // starts, or from the header to the document's end.
            // Kept, its blank lines are its text.
            let value = if chomp == Some(b'+') { "\n".repeat(breaks) } else { String::new() };
            self.pos = at;
            let span = if at < self.end { Span::new(end, end) } else { Span::new(header_at, self.end) };
            return Some(Node::Scalar(Scalar { value: value.into(), kind: ScalarKind::String, span }));
        };
        // All-space lines before the text longer than its indentation:
        // beyond the subset.
        if longest_blank > t {
            return None;
        }
        self.pos = at;
        // The parser ends the text with a line break even where the
        // document ends without one.
        let last = match chomp {
            Some(b'-') => 0,
            Some(_) => breaks + 1,
            None => 1,
        };
        // Measured, then written at its length.
        let mut len = last;
        block_text(self.text, &self.lines, folded, |piece| len += piece.len())?;
        let mut value = String::with_capacity(len);
        block_text(self.text, &self.lines, folded, |piece| value.push_str(piece))?;
        (0..last).for_each(|_| value.push('\n'));
        let span = Span::new(start?, end);
        Some(Node::Scalar(Scalar { value: value.into(), kind: ScalarKind::String, span }))
    }
}

/// The text of a block scalar's lines (each with the blank lines before
/// it, its start and end), piece by piece, folded when `folded`; `None`
/// when a line is not text.
fn block_text(text: &str, lines: &[(usize, usize, usize)], folded: bool, mut piece: impl FnMut(&str)) -> Option<()> {
    let mut prev_normal = false;
    for (i, &(before, from, to)) in lines.iter().enumerate() {
        let line = text.get(from..to)?;
        let normal = !line.starts_with(' ');
        let breaks = if i == 0 || (folded && prev_normal && normal) { before } else { before + 1 };
        if i > 0 && folded && prev_normal && normal && before == 0 {
            piece(" ");
        }
        (0..breaks).for_each(|_| piece("\n"));
        piece(line);
        prev_normal = normal;
    }
    Some(())
}

/// A scalar's text at its length: copied when the skim borrowed it,
/// trimmed when it built it (escapes read, `''` made `'`).
fn exact(value: std::borrow::Cow<'_, str>) -> CompactString {
    match value {
        std::borrow::Cow::Borrowed(text) => CompactString::from(text),
        std::borrow::Cow::Owned(mut text) => {
            text.shrink_to_fit();
            CompactString::from(text)
        }
    }
}

/// A scalar read by the skim's readers, as the tree holds it.
fn scalar(w: Written<'_>) -> Scalar {
    let kind = if w.plain { resolve_plain(&w.value) } else { ScalarKind::String };
    Scalar { value: exact(w.value), kind, span: w.span }
}

fn trim_end(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1)]
}

/// Appends a piece of a quoted scalar written at `at` (`''` read as `'`
/// in a single-quoted one).
fn push_quoted(value: &mut String, piece: &[u8], quote: u8, text: &str, at: usize) -> Option<()> {
    let piece = text.get(at..at + piece.len())?;
    if quote == b'\'' && piece.contains("''") {
        value.push_str(&piece.replace("''", "'"));
    } else {
        value.push_str(piece);
    }
    Some(())
}
