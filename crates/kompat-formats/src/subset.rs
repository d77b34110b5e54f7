//! The skim's subset of YAML, line by line: the readers of a line's key,
//! value, plain scalar going on and quoted scalar, and the checks of a
//! document's bytes, which the skim ([`crate::skim`]) validates documents
//! with and the block builder ([`crate::yaml::block`]) builds trees with,
//! so that the two read the same subset.

use std::borrow::Cow;

use kompat_span::Span;

/// Whether the last line of `doc` has spaces and nothing else, with no line
/// break after it: after a block scalar the parser may read it as a line of
/// the scalar (`a: |\n x\n ` is `"x\n\n"`, where `a: |\n x\n` is `"x\n"`),
/// so such a document is the parser's.
pub(crate) fn ends_in_spaces(doc: &[u8]) -> bool {
    let last = memchr::memrchr(b'\n', doc).map_or(doc, |i| &doc[i + 1..]);
    !last.is_empty() && last.iter().all(|&b| b == b' ')
}

/// No tab, carriage return or other control character, and no character
/// YAML does not allow or reads as a line break (C1 controls, U+2028 and
/// U+2029, the byte-order mark, U+FFFE and U+FFFF).
pub(crate) fn bytes_in_subset(bytes: &[u8]) -> bool {
    // Printable ASCII and newlines, 64 bytes at a time; the rest byte by
    // byte.
    let plain = |b: u8| (0x20..0x7F).contains(&b) | (b == b'\n');
    if bytes.chunks(64).all(|chunk| chunk.iter().fold(true, |ok, &b| ok & plain(b))) {
        return true;
    }
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x20 && b != b'\n' || b == 0x7F {
            return false;
        }
        if b >= 0x80 {
            let rest = &bytes[i..];
            if rest.starts_with(&[0xC2]) && rest.get(1).is_some_and(|&c| c < 0xA0) {
                return false;
            }
            if rest.starts_with(&[0xE2, 0x80]) && matches!(rest.get(2), Some(0xA8 | 0xA9)) {
                return false;
            }
            if rest.starts_with(&[0xEF, 0xBB, 0xBF]) || rest.starts_with(&[0xEF, 0xBF, 0xBE]) {
                return false;
            }
            if rest.starts_with(&[0xEF, 0xBF, 0xBF]) {
                return false;
            }
        }
        i += 1;
    }
    true
}

/// A scalar as written on a line: its decoded text, resolution and span.
pub(crate) struct Written<'a> {
    pub(crate) value: Cow<'a, str>,
    /// Plain (resolved by the core schema when read), or quoted (a string).
    pub(crate) plain: bool,
    pub(crate) span: Span,
    /// A plain scalar's line goes on with a comment after it (false for a
    /// quoted scalar or a key).
    pub(crate) comment: bool,
}

/// The value part of a line, after `key:` or `- `.
pub(crate) enum Rest<'a> {
    /// Nothing (or a comment): a nested block follows, or null.
    Empty,
    Scalar(Written<'a>),
    /// `|` or `>`: the lines after it, more indented, are its text.
    Block,
    /// `[]` or `{}`.
    EmptyFlow,
    /// A quoted scalar that goes on over the next lines (without an escape
    /// on its first one): its quote.
    OpenQuote(u8),
}

/// Whether a line that goes on with a plain scalar is within the subset:
/// `Some(true)` when the scalar may go on after it, `Some(false)` when a
/// comment ends it there; `None` for what the subset leaves to the parser
/// (a line that starts as an item, a complex key or a value would, `- `,
/// `? ` or `: `, or holds `: ` or ends with `:`, which would be a mapping
/// where none may be). Any other first character is the scalar's: the
/// indicators that may not start a plain scalar may go on with one.
pub(crate) fn continuation(content: &[u8]) -> Option<bool> {
    if matches!(content, [b'-' | b'?' | b':'] | [b'-' | b'?' | b':', b' ', ..]) {
        return None;
    }
    let (_, comment) = plain_written(content)?;
    Some(!comment)
}

/// A plain scalar's text on its line, `s` from its first character: the
/// length written (up to a comment, ` #`, without the spaces before it or
/// at the end) and whether a comment follows; `None` when what is written
/// holds `: ` or ends with `:` (a mapping where none may be). One search
/// for `:` and `#`, eight bytes at a time: a `:` before the comment that
/// ends the line or is followed by a space is one of those two.
#[inline]
fn plain_written(s: &[u8]) -> Option<(usize, bool)> {
    let mut end = s.len();
    let mut comment = false;
    let mut from = 0;
    while let Some(i) = find_either(s, from, b':', b'#') {
        if s[i] == b'#' {
            if i > 0 && s[i - 1] == b' ' {
                end = i;
                comment = true;
                break;
            }
        } else if s.get(i + 1).is_none_or(|&b| b == b' ') {
            return None;
        }
        from = i + 1;
    }
    let written = s[..end].iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
    Some((written, comment))
}

/// On a line that goes on with a quoted scalar of `quote` left open:
/// `Some(Some(index))` of its closing quote (then only spaces or a comment
/// may follow), `Some(None)` when the scalar goes on; `None` for an escape,
/// or anything but a comment after the closing quote.
pub(crate) fn quoted_close(content: &[u8], quote: u8) -> Option<Option<usize>> {
    let close = closing_quote(content, 0, quote)?;
    if let Some(i) = close {
        let after = &content[i + 1..];
        let spaces = spaces_at_start(after);
        if spaces < after.len() && !(spaces > 0 && after[spaces] == b'#') {
            return None;
        }
    }
    Some(close)
}

/// The index of the `quote` that closes a quoted scalar in `content`, from
/// `from` on: `Some(None)` when it does not close there; `None` for an
/// escape (`"..."` with `\`; `''` in `'...'` is a quote, not the close).
#[inline]
fn closing_quote(content: &[u8], from: usize, quote: u8) -> Option<Option<usize>> {
    // The quote, and for `"` the backslash: searched eight bytes at a time.
    let other = if quote == b'"' { b'\\' } else { quote };
    let mut i = from;
    while let Some(at) = find_either(content, i, quote, other) {
        if content[at] != quote {
            return None;
        }
        if quote == b'\'' && content.get(at + 1) == Some(&b'\'') {
            i = at + 2;
            continue;
        }
        return Some(Some(at));
    }
    Some(None)
}

/// Where a line's key ends and its `:` is: `(key length, colon index)`, for
/// a plain key (up to `: ` or a final `:`) or a quoted one.
#[inline]
pub(crate) fn key_end(content: &[u8]) -> Option<(usize, usize)> {
    match content.first()? {
        b'"' | b'\'' => {
            let close = quoted_end(content)?;
            let colon = close;
            if content.get(colon) != Some(&b':') {
                return None;
            }
            match content.get(colon + 1) {
                None | Some(b' ') => Some((close, colon)),
                _ => None,
            }
        }
        _ => {
            // The first `: ` (or final `:`), unless a comment comes first:
            // `:` and `#` searched eight bytes at a time.
            let mut from = 0;
            while let Some(i) = find_either(content, from, b':', b'#') {
                if content[i] == b':' {
                    if content.get(i + 1).is_none_or(|&b| b == b' ') {
                        return Some((i, i));
                    }
                } else if i > 0 && content[i - 1] == b' ' {
                    return None;
                }
                from = i + 1;
            }
            None
        }
    }
}

/// The index just past a quoted scalar's closing quote, when it closes on
/// this line without an escape (`"..."` without `\`, `'...'` with `''`).
#[inline]
pub(crate) fn quoted_end(content: &[u8]) -> Option<usize> {
    closing_quote(content, 1, content[0])?.map(|i| i + 1)
}

/// A key as the parser reads it.
#[inline]
pub(crate) fn key_text<'a>(text: &'a str, at: usize, key: &[u8]) -> Option<Written<'a>> {
    let first = *key.first()?;
    if first == b'"' || first == b'\'' {
        return quoted(text, at, key);
    }
    // A plain key: no leading indicator, no trailing space.
    if key.ends_with(b" ") || !plain_start(key) {
        return None;
    }
    let value = text.get(at..at + key.len())?;
    Some(Written { value: Cow::Borrowed(value), plain: true, span: Span::new(at, at + key.len()), comment: false })
}

/// A quoted scalar (the whole of `written`, quotes included).
#[inline]
fn quoted<'a>(text: &'a str, at: usize, written: &[u8]) -> Option<Written<'a>> {
    let inner = text.get(at + 1..at + written.len() - 1)?;
    let value = if written[0] == b'\'' && inner.contains("''") {
        Cow::Owned(inner.replace("''", "'"))
    } else {
        Cow::Borrowed(inner)
    };
    Some(Written { value, plain: false, span: Span::new(at, at + written.len()), comment: false })
}

/// Whether a plain scalar may start with these bytes (YAML's indicators
/// may not start one, but for `-`, `?` and `:` before a non-space).
#[inline]
fn plain_start(s: &[u8]) -> bool {
    match s.first() {
        None => false,
        Some(b'-' | b'?' | b':') => s.get(1).is_some_and(|&b| b != b' '),
        Some(b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"' | b'%') => false,
        Some(b'@' | b'`') => false,
        Some(_) => true,
    }
}

/// The value after `key: ` or `- ` (not empty, not a comment), at `at`.
pub(crate) fn value<'a>(text: &'a str, at: usize, rest: &[u8]) -> Option<Rest<'a>> {
    match rest[0] {
        b'"' | b'\'' => {
            let Some(close) = quoted_end(rest) else {
                // Not closed on this line: it goes on, unless an escape
                // leaves it to the parser.
                let escape = rest[0] == b'"' && rest.contains(&b'\\');
                return (!escape).then_some(Rest::OpenQuote(rest[0]));
            };
            let after = &rest[close..];
            let spaces = spaces_at_start(after);
            if spaces < after.len() && !(spaces > 0 && after[spaces] == b'#') {
                return None;
            }
            Some(Rest::Scalar(quoted(text, at, &rest[..close])?))
        }
        b'|' | b'>' => {
            let header = &rest[1..];
            let header = header.strip_prefix(b"-").or_else(|| header.strip_prefix(b"+")).unwrap_or(header);
            let spaces = spaces_at_start(header);
            if spaces < header.len() && !(spaces > 0 && header[spaces] == b'#') {
                return None;
            }
            Some(Rest::Block)
        }
        b'[' | b'{' => {
            let close = if rest[0] == b'[' { b']' } else { b'}' };
            if rest.get(1) != Some(&close) {
                return None;
            }
            let after = &rest[2..];
            let spaces = spaces_at_start(after);
            if spaces < after.len() && !(spaces > 0 && after[spaces] == b'#') {
                return None;
            }
            Some(Rest::EmptyFlow)
        }
        _ => {
            if !plain_start(rest) {
                return None;
            }
            // Up to a comment, without trailing spaces; `: ` or a final `:`
            // would be a mapping where none may be.
            let (written, comment) = plain_written(rest)?;
            let value = text.get(at..at + written)?;
            Some(Rest::Scalar(Written {
                value: Cow::Borrowed(value),
                plain: true,
                span: Span::new(at, at + written),
                comment,
            }))
        }
    }
}

/// The bytes of a word with each byte's high bit, and with each byte 1.
const HIGH: u64 = 0x8080_8080_8080_8080;
const ONES: u64 = 0x0101_0101_0101_0101;

/// The eight bytes of `s` from `at` (which has eight bytes), the first in
/// the low byte.
#[inline(always)]
fn word(s: &[u8], at: usize) -> u64 {
    let mut bytes = [0; 8];
    bytes.copy_from_slice(&s[at..at + 8]);
    u64::from_le_bytes(bytes)
}

/// The high bit of every byte of `x` equal to `b`, and no other bit
/// (exact: no carry from one byte into the next).
#[inline(always)]
fn equal_bytes(x: u64, b: u8) -> u64 {
    let x = x ^ (ONES * u64::from(b));
    let low = !HIGH;
    !(((x & low) + low) | x | low)
}

/// The index of the first byte of `s` from `from` on whose bit is set in
/// `select` of its word (a mask of high bits, [`equal_bytes`]), eight bytes
/// at a time: the words from `from`, then the last eight bytes of `s` for
/// what is left (the bytes before `from` masked off), or a test per byte
/// when `s` is shorter than a word. No test per byte: a line's key or
/// value is searched whole.
#[inline(always)]
fn find_word(s: &[u8], from: usize, select: impl Fn(u64) -> u64, byte: impl Fn(u8) -> bool) -> Option<usize> {
    let mut at = from;
    while at + 8 <= s.len() {
        let found = select(word(s, at));
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    if at >= s.len() {
        return None;
    }
    if s.len() < 8 {
        return s[at..].iter().position(|&b| byte(b)).map(|i| at + i);
    }
    let last = s.len() - 8;
    let found = select(word(s, last)) & (u64::MAX << (8 * (at - last)));
    (found != 0).then(|| last + (found.trailing_zeros() / 8) as usize)
}

/// The index of the first `a` or `b` in `s` from `from` on.
#[inline]
pub(crate) fn find_either(s: &[u8], from: usize, a: u8, b: u8) -> Option<usize> {
    find_word(s, from, |x| equal_bytes(x, a) | equal_bytes(x, b), |c| c == a || c == b)
}

/// How many spaces `s` starts with.
#[inline]
pub(crate) fn spaces_at_start(s: &[u8]) -> usize {
    find_word(s, 0, |x| !equal_bytes(x, b' ') & HIGH, |c| c != b' ').unwrap_or(s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every string of up to `len` bytes of `alphabet`, each also after a
    /// run of other bytes long enough to put it across a word's boundary.
    fn strings(alphabet: &[u8], len: usize) -> Vec<Vec<u8>> {
        let mut all: Vec<Vec<u8>> = vec![Vec::new()];
        let mut last = all.clone();
        for _ in 0..len {
            last = last.iter().flat_map(|s| alphabet.iter().map(move |&b| [s.as_slice(), &[b]].concat())).collect();
            all.extend(last.iter().cloned());
        }
        let mut out = Vec::new();
        for s in &all {
            for pad in [0, 3, 8, 13] {
                out.push([vec![b'a'; pad], s.clone()].concat());
                out.push([vec![b' '; pad], s.clone()].concat());
                out.push([s.clone(), vec![b'b'; pad]].concat());
            }
        }
        out
    }

    const ALPHABET: &[u8] = b" :#a\"\\'";

    /// The searches a word at a time find what a test per byte finds.
    #[test]
    fn word_searches_are_byte_searches() {
        for s in strings(ALPHABET, 5) {
            assert_eq!(spaces_at_start(&s), s.iter().position(|&b| b != b' ').unwrap_or(s.len()), "{s:?}");
            for (a, b) in [(b':', b'#'), (b'"', b'\\'), (b'\'', b'\''), (b' ', b' ')] {
                for from in [0, 1, 7, 8, 9, s.len(), s.len() + 1] {
                    let expected = s.iter().enumerate().skip(from).find(|&(_, &c)| c == a || c == b).map(|(i, _)| i);
                    assert_eq!(find_either(&s, from, a, b), expected, "{s:?} {from}");
                }
            }
        }
        // Bytes with the high bit set, and zeros, are no match.
        let s = [0x80, 0xBA, 0xA3, 0, 0xFF, 0x7F, 0x3A, 0x23, 0x20];
        assert_eq!(find_either(&s, 0, b':', b'#'), Some(6));
        assert_eq!(find_either(&s[..6], 0, b':', b'#'), None);
        assert_eq!(spaces_at_start(&s), 0);
    }

    /// The readers of a line's key, plain value, continuation and quoted
    /// scalar decide as their per-byte forms did.
    #[test]
    fn line_readers_are_the_per_byte_readers() {
        fn closing_quote_per_byte(content: &[u8], from: usize, quote: u8) -> Option<Option<usize>> {
            let mut i = from;
            while i < content.len() {
                let b = content[i];
                if quote == b'"' && b == b'\\' {
                    return None;
                }
                if b == quote {
                    if quote == b'\'' && content.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    return Some(Some(i));
                }
                i += 1;
            }
            Some(None)
        }
        fn key_end_per_byte(content: &[u8]) -> Option<(usize, usize)> {
            match content.first()? {
                b'"' | b'\'' => {
                    let close = closing_quote_per_byte(content, 1, content[0])??.checked_add(1)?;
                    match (content.get(close), content.get(close + 1)) {
                        (Some(b':'), None | Some(b' ')) => Some((close, close)),
                        _ => None,
                    }
                }
                _ => {
                    for i in 0..content.len() {
                        if content[i] == b':' && (i + 1 == content.len() || content[i + 1] == b' ') {
                            return Some((i, i));
                        }
                        if content[i] == b'#' && i > 0 && content[i - 1] == b' ' {
                            return None;
                        }
                    }
                    None
                }
            }
        }
        fn plain_per_byte(s: &[u8]) -> Option<(usize, bool)> {
            let mut end = s.len();
            let mut ends = false;
            for i in 1..s.len() {
                if s[i] == b'#' && s[i - 1] == b' ' {
                    end = i;
                    ends = true;
                    break;
                }
            }
            let written = &s[..end];
            let written = &written[..written.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1)];
            if written.ends_with(b":") || written.windows(2).any(|w| w == b": ") {
                return None;
            }
            Some((written.len(), ends))
        }
        for s in strings(ALPHABET, 5) {
            assert_eq!(key_end(&s), key_end_per_byte(&s), "{s:?}");
            assert_eq!(plain_written(&s), plain_per_byte(&s), "{s:?}");
            let dash = matches!(s.as_slice(), [b'-' | b'?' | b':'] | [b'-' | b'?' | b':', b' ', ..]);
            let expected = if dash { None } else { plain_per_byte(&s).map(|(_, ends)| !ends) };
            assert_eq!(continuation(&s), expected, "{s:?}");
            for quote in [b'"', b'\''] {
                for from in [0, 1, 2] {
                    assert_eq!(closing_quote(&s, from, quote), closing_quote_per_byte(&s, from, quote), "{s:?}");
                }
            }
        }
    }
}
