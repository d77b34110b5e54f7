//! Byte spans, line/column lookup and parse errors.

/// A byte range in a source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl From<std::ops::Range<usize>> for Span {
    fn from(range: std::ops::Range<usize>) -> Span {
        Span::new(range.start, range.end)
    }
}

/// A problem in a declaration text. Messages start lower-case and have no
/// trailing period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub span: Option<Span>,
    pub message: String,
}

impl ParseError {
    pub fn at(span: Span, message: impl Into<String>) -> ParseError {
        ParseError { span: Some(span), message: message.into() }
    }
}

/// A TOML syntax or type error as a located parse error, its message as the
/// `toml` crate words it (without its own rendering of the location),
/// starting lower-case.
/// An unknown field or variant (serde's ``unknown field `x`, expected one of
/// `a`, `b` ``) gets the "did you mean" hint every format gives.
pub fn toml_syntax_error(err: &toml::de::Error) -> ParseError {
    let mut message = lower_first(err.message().trim_end_matches('.').trim());
    if let Some(hint) = unknown_field_hint(&message) {
        message.push_str(&format!(" (did you mean `{hint}`?)"));
    }
    ParseError { span: err.span().map(Span::from), message }
}

/// The field (or enum variant) an ``unknown field `x`, expected ...`` message
/// most likely meant, from the ones it lists.
fn unknown_field_hint(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("unknown field `").or_else(|| message.strip_prefix("unknown variant `"))?;
    let (unknown, expected) = rest.split_once('`')?;
    let expected = expected.strip_prefix(", expected ")?;
    let known = expected.split('`').skip(1).step_by(2);
    did_you_mean(unknown, known)
}

/// `message` with its first character lower-cased; "invalid TOML" if empty.
pub(crate) fn lower_first(message: &str) -> String {
    let mut chars = message.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => "invalid TOML".to_owned(),
    }
}

/// Maps byte offsets to 1-based line and column (columns count characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset of the start of every line.
    starts: Vec<usize>,
    text: std::sync::Arc<str>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        LineIndex::shared(std::sync::Arc::from(text))
    }

    /// The index of a text already shared, without copying it.
    pub fn shared(text: std::sync::Arc<str>) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts, text }
    }

    /// The byte offset of 1-based `line` and `column` (columns count
    /// characters), the inverse of [`LineIndex::line_col`]: a column past the
    /// end of its line is the line's end, a line past the last the text's
    /// end. Costs a lookup plus, on a line that is not ASCII, a walk
    /// along it.
    pub fn offset(&self, line: usize, column: usize) -> usize {
        let Some(&start) = self.starts.get(line.saturating_sub(1)) else {
            return self.text.len();
        };
        let end = self.starts.get(line.max(1)).copied().unwrap_or(self.text.len());
        let text = &self.text[start..end];
        let chars = column.saturating_sub(1);
        let ascii = chars.min(text.len());
        if text.as_bytes()[..ascii].is_ascii() {
            // One byte per character up to the column.
            return start + ascii;
        }
        start + text.char_indices().nth(chars).map_or(text.len(), |(i, _)| i)
    }

    /// The 1-based line and column of `offset` (clamped to the text).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let col = self.text.get(start..offset).map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }
}

/// The one "did you mean" helper of the workspace (the runtime's), used by
/// every text format for keys and values.
pub use kompat_core::suggest::did_you_mean;

/// The one wording of an unknown key in every text format: ``unknown key
/// `x`, expected one of `a`, `b` `` (``expected `a` `` when there is one),
/// with a "did you mean" hint when a known key is close.
pub fn unknown_key_message(key: &str, known: &[&str]) -> String {
    let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
    let mut message = match list.as_slice() {
        [] => format!("unknown key `{key}`, no keys are allowed here"),
        [only] => format!("unknown key `{key}`, expected {only}"),
        _ => format!("unknown key `{key}`, expected one of {}", list.join(", ")),
    };
    if let Some(hint) = did_you_mean(key, known.iter().copied()) {
        message.push_str(&format!(" (did you mean `{hint}`?)"));
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column() {
        let idx = LineIndex::new("ab\ncdé\n\nx");
        let cases =
            [(0, (1, 1)), (1, (1, 2)), (3, (2, 1)), (5, (2, 3)), (7, (2, 4)), (8, (3, 1)), (9, (4, 1)), (99, (4, 2))];
        for (offset, expected) in cases {
            assert_eq!(idx.line_col(offset), expected, "offset {offset}");
        }
    }

    #[test]
    fn offset_of_line_and_column() {
        let text = "ab\ncdé\n\nx";
        let idx = LineIndex::new(text);
        // Every offset on a character boundary round-trips.
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            let (line, col) = idx.line_col(offset);
            assert_eq!(idx.offset(line, col), offset, "offset {offset} at {line}:{col}");
        }
        // Past the end of a line, of the text, and line 0.
        let cases = [((1, 9), 3), ((2, 9), 8), ((4, 5), 10), ((9, 1), 10), ((0, 2), 1), ((2, 0), 3)];
        for ((line, col), expected) in cases {
            assert_eq!(idx.offset(line, col), expected, "{line}:{col}");
        }
    }

    #[test]
    fn hints() {
        let known = ["default", "lockToDefault", "preRelease", "version"];
        assert_eq!(did_you_mean("verison", known), Some("version"));
        // serde's unknown fields get the same hint.
        let cases = [
            ("unknown field `verison`, expected one of `version`, `stage`", Some("version")),
            ("unknown field `decl`, expected `decls`", Some("decls")),
            ("unknown field `zzz`, expected one of `version`, `stage`", None),
            ("unknown variant `rst`, expected one of `rust`, `json`", Some("rust")),
            ("invalid type: integer `3`, expected a string", None),
        ];
        for (message, expected) in cases {
            assert_eq!(unknown_field_hint(message), expected, "{message}");
        }
        assert_eq!(unknown_key_message("prio", &["priority"]), "unknown key `prio`, expected `priority`");
        assert_eq!(
            unknown_key_message("defualt", &["default", "version"]),
            "unknown key `defualt`, expected one of `default`, `version` (did you mean `default`?)"
        );
    }
}
