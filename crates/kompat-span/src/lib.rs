//! Byte spans of a source text and the line/column index over one.
//!
//! Every text format in kompat (the YAML tree, kompat TOML, manifests, plan
//! files, Go and Rust sources, CRDs) reports positions as a [`Span`], and the
//! diagnostics turn a span into a line and column with a [`LineIndex`].
//!
//! **Architecture Invariant:** a leaf crate: no dependencies, so the
//! diagnostics use it without any text format.

use std::sync::Arc;

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

/// Maps byte offsets to 1-based line and column (columns count characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset of the start of every line.
    starts: Vec<usize>,
    text: Arc<str>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        LineIndex::shared(Arc::from(text))
    }

    /// The index of a text already shared, without copying it.
    pub fn shared(text: Arc<str>) -> LineIndex {
        // Sized first: the index of a large manifest is millions of lines,
        // and a vector grown by doubling holds up to twice that.
        // (A count the compiler vectorises.)
        let lines = 1 + text.bytes().filter(|&b| b == b'\n').count();
        let mut starts = Vec::with_capacity(lines);
        starts.push(0);
        for_each_line_break(text.as_bytes(), |i| starts.push(i + 1));
        LineIndex { starts, text }
    }

    /// The byte offset of the start of every line: 0, then one past each
    /// `\n` (codespan-reporting's `line_starts`).
    pub fn line_starts(&self) -> &[usize] {
        &self.starts
    }

    /// The indexed text.
    pub fn text(&self) -> &Arc<str> {
        &self.text
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

    /// The 0-based line that holds `offset` (the last line for an offset
    /// past the text's end, as codespan-reporting's `line_index`).
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset) - 1
    }

    /// The 1-based line and column of `offset` (clamped to the text).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_of(offset);
        let start = self.starts[line];
        let col = self.text.get(start..offset).map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }
}

/// Calls `f` with the offset of every `\n` of `bytes`, in order: eight bytes
/// at a time, each break of a word found from a mask of its breaks, not a
/// byte at a time nor a char searcher's call per line.
fn for_each_line_break(bytes: &[u8], mut f: impl FnMut(usize)) {
    const LOW7: u64 = u64::from_le_bytes([0x7f; 8]);
    const BREAKS: u64 = u64::from_le_bytes([b'\n'; 8]);
    let (words, rest) = bytes.as_chunks::<8>();
    for (n, word) in words.iter().enumerate() {
        // A byte of `x` is zero where the word has a `\n`; `mask` has the
        // high bit of exactly those bytes (no carry crosses a byte).
        let x = u64::from_le_bytes(*word) ^ BREAKS;
        let mut mask = !(((x & LOW7) + LOW7) | x | LOW7);
        while mask != 0 {
            f(n * 8 + (mask.trailing_zeros() / 8) as usize);
            mask &= mask - 1;
        }
    }
    let tail = words.len() * 8;
    for (i, &b) in rest.iter().enumerate() {
        if b == b'\n' {
            f(tail + i);
        }
    }
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

    #[track_caller]
    fn check_starts(text: &str, expected: &[usize]) {
        assert_eq!(LineIndex::new(text).line_starts(), expected, "{text:?}");
    }

    #[test]
    fn line_starts_in_and_across_words() {
        check_starts("", &[0]);
        check_starts("\n", &[0, 1]);
        check_starts("abc", &[0]);
        // Breaks at each place of an eight-byte word, in the tail after the
        // last word, several in one word, `\r\n`, and bytes with the high bit
        // set (which the word test must not take for a break).
        check_starts("0123456\n", &[0, 8]);
        check_starts("01234567\n", &[0, 9]);
        check_starts("\n\n\n\n\n\n\n\n\n", &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        check_starts("ab\r\ncd\r\nef\r\ngh", &[0, 4, 8, 12]);
        check_starts("ééééé\nßß\n\u{b}\t\u{7f}", &[0, 11, 16]);
        let long = "x".repeat(21) + "\n" + &"y".repeat(13) + "\n\n" + &"z".repeat(7);
        check_starts(&long, &[0, 22, 36, 37]);
        for n in 0..40 {
            let text: String = (0..n).map(|i| if i % 3 == 2 { '\n' } else { 'a' }).collect();
            let expected: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
            check_starts(&text, &expected);
        }
    }
}
