//! Parse errors located by byte spans, and the wording every text format
//! shares for them.

use kompat_span::{LineIndex, Span};

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

    /// `line:col: message`, at the start of the error's span in the text
    /// `lines` indexes; the message alone when the error has no span.
    pub fn located(&self, lines: &LineIndex) -> String {
        match self.span {
            Some(span) => {
                let (line, col) = lines.line_col(span.start);
                format!("{line}:{col}: {}", self.message)
            }
            None => self.message.clone(),
        }
    }
}

/// A TOML syntax or type error in `text` as a located parse error, its
/// message as the `toml` crate words it (without its own rendering of the
/// location), starting lower-case.
///
/// Every such error has a span. The `toml` crate gives none for one: a key
/// of more dotted parts than it allows (`recursion limit`, beyond 80 parts,
/// in a table header or before `=`), which is located here at that key.
/// Anything else the crate leaves unlocated is put at the start of the file.
/// An unknown field or variant (serde's ``unknown field `x`, expected one of
/// `a`, `b` ``) gets the "did you mean" hint every format gives.
pub fn toml_syntax_error(text: &str, err: &toml::de::Error) -> ParseError {
    let mut message = lower_first(err.message().trim_end_matches('.').trim());
    if let Some(hint) = unknown_field_hint(&message) {
        message.push_str(&format!(" (did you mean `{hint}`?)"));
    }
    let span = match (err.span(), deep_key(text)) {
        (Some(span), _) => Span::from(span),
        (None, Some(key)) => {
            message = format!("{message}: a key has at most {TOML_MAX_KEY_PARTS} dotted parts");
            key
        }
        (None, None) => Span::default(),
    };
    ParseError { span: Some(span), message }
}

/// The most dotted parts the `toml` crate reads in one key.
pub const TOML_MAX_KEY_PARTS: usize = 80;

/// The first key of `text` with more than [`TOML_MAX_KEY_PARTS`] dotted
/// parts: a run of bare or quoted parts joined by `.` (at least
/// `TOML_MAX_KEY_PARTS` dots), outside strings and comments.
fn deep_key(text: &str) -> Option<Span> {
    let bytes = text.as_bytes();
    let (mut i, mut start, mut dots) = (0, None, 0usize);
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'.' | b'"' | b'\'' | b'_' | b'-' => {}
            _ if b.is_ascii_alphanumeric() => {}
            b' ' | b'\t' if start.is_some() => {
                i += 1;
                continue;
            }
            _ => {
                if let Some(s) = start.take().filter(|_| dots >= TOML_MAX_KEY_PARTS) {
                    return Some(Span::new(s, i));
                }
                dots = 0;
                if b == b'#' {
                    i += bytes[i..].iter().position(|&c| c == b'\n').unwrap_or(bytes.len() - i);
                    continue;
                }
                i += 1;
                continue;
            }
        }
        start.get_or_insert(i);
        match b {
            b'.' => {
                dots += 1;
                i += 1;
            }
            b'"' | b'\'' => i = string_end(bytes, i),
            _ => i += 1,
        }
    }
    start.filter(|_| dots >= TOML_MAX_KEY_PARTS).map(|s| Span::new(s, bytes.len()))
}

/// The end of the TOML string starting at `start` (its opening quote):
/// basic or literal, on one line or multi-line.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let multi = bytes.get(start..start + 3).is_some_and(|q| q.iter().all(|&c| c == quote));
    let mut i = start + if multi { 3 } else { 1 };
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 2,
            b'\n' if !multi => return i,
            c if c == quote && !multi => return i + 1,
            c if c == quote && bytes.get(i..i + 3).is_some_and(|q| q.iter().all(|&c| c == quote)) => {
                // Up to two more quotes may close a multi-line string.
                let mut end = i + 3;
                while end < bytes.len() && bytes[end] == quote && end < i + 5 {
                    end += 1;
                }
                return end;
            }
            _ => i += 1,
        }
    }
    bytes.len()
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

// The one "did you mean" helper of the workspace is the runtime's, used by
// every text format for keys and values.
use kompat_runtime::suggest::did_you_mean;

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
