//! Byte spans of a source text and the line/column index over one.
//!
//! Every text format in kompat (the YAML tree, kompat TOML, manifests, plan
//! files, Go and Rust sources, CRDs) reports positions as a [`Span`], and the
//! diagnostics turn a span into a line and column with a [`LineIndex`].
//!
//! **Architecture Invariant:** a leaf crate: no dependencies, so the
//! diagnostics use it without any text format.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

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
///
/// A shared handle: its clones hold one text and one list of line starts,
/// and the starts are found the first time a line or column is asked of any
/// of them (once, whichever clone or thread asks first). A location is made
/// for every object of every file read, but lines and columns are wanted
/// only for the files a finding is in.
#[derive(Clone)]
pub struct LineIndex(Arc<Indexed>);

struct Indexed {
    text: Arc<str>,
    /// Byte offset of the start of every line, found on first use.
    starts: OnceLock<Vec<usize>>,
    /// The line [`LineIndex::line_of`] found last, where it starts the next
    /// search (any line will do: it is a hint).
    last: AtomicUsize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        LineIndex::shared(Arc::from(text))
    }

    /// The index of a text already shared, without copying it. Finds no
    /// line yet: that is done on first use.
    pub fn shared(text: Arc<str>) -> LineIndex {
        LineIndex(Arc::new(Indexed { text, starts: OnceLock::new(), last: AtomicUsize::new(0) }))
    }

    /// The byte offset of the start of every line: 0, then one past each
    /// `\n` (codespan-reporting's `line_starts`). Found on the first call
    /// on this index or any of its clones.
    pub fn line_starts(&self) -> &[usize] {
        self.0.starts.get_or_init(|| line_starts(self.0.text.as_bytes()))
    }

    /// Whether the line starts have been found ([`LineIndex::line_starts`]).
    pub fn is_built(&self) -> bool {
        self.0.starts.get().is_some()
    }

    /// Whether `other` is a clone of this index (the same text and starts,
    /// not merely equal ones).
    pub fn shares(&self, other: &LineIndex) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The indexed text.
    pub fn text(&self) -> &Arc<str> {
        &self.0.text
    }

    /// The byte offset of 1-based `line` and `column` (columns count
    /// characters), the inverse of [`LineIndex::line_col`]: a column past the
    /// end of its line is the line's end, a line past the last the text's
    /// end. Costs a lookup plus, on a line that is not ASCII, a walk
    /// along it.
    pub fn offset(&self, line: usize, column: usize) -> usize {
        let (starts, all) = (self.line_starts(), &self.0.text);
        let Some(&start) = starts.get(line.saturating_sub(1)) else {
            return all.len();
        };
        let end = starts.get(line.max(1)).copied().unwrap_or(all.len());
        let text = &all[start..end];
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
    ///
    /// Lines are mostly asked in order (findings are sorted, then written
    /// out in turn, several to a file): the search starts from the line
    /// found last, by any clone, and gallops forward from it, a few steps
    /// to a line close after it rather than a search of the whole file.
    pub fn line_of(&self, offset: usize) -> usize {
        let starts = self.line_starts();
        let last = self.0.last.load(Ordering::Relaxed).min(starts.len() - 1);
        let line = if starts[last] <= offset {
            // `starts[low] <= offset`, and the line is before `high`.
            let (mut low, mut step) = (last, 1);
            let high = loop {
                let high = low.saturating_add(step);
                match starts.get(high) {
                    Some(&start) if start <= offset => (low, step) = (high, step.saturating_mul(2)),
                    _ => break high.min(starts.len()),
                }
            };
            low + starts[low..high].partition_point(|&s| s <= offset) - 1
        } else {
            // Before the last line found, which is not the first.
            starts[..last].partition_point(|&s| s <= offset) - 1
        };
        if line != last {
            self.0.last.store(line, Ordering::Relaxed);
        }
        line
    }

    /// The 1-based line and column of `offset` (clamped to the text).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let text = &self.0.text;
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.line_starts()[line];
        let col = text.get(start..offset).map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }
}

/// Equal when the texts are: the line starts follow from the text.
impl PartialEq for LineIndex {
    fn eq(&self, other: &LineIndex) -> bool {
        self.shares(other) || self.0.text == other.0.text
    }
}

impl Eq for LineIndex {}

impl std::fmt::Debug for LineIndex {
    /// The text; the line starts follow from it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineIndex").field("text", &self.0.text).finish_non_exhaustive()
    }
}

/// The byte offset of the start of every line of `bytes`.
fn line_starts(bytes: &[u8]) -> Vec<usize> {
    // Sized first: the index of a large manifest is millions of lines, and
    // a vector grown by doubling holds up to twice that.
    let mut starts = Vec::with_capacity(1 + count_line_breaks(bytes));
    starts.push(0);
    for_each_line_break(bytes, |i| starts.push(i + 1));
    starts
}

/// How many `\n` `bytes` holds, 32 bytes at a time (a sum of byte
/// compares the compiler vectorises).
fn count_line_breaks(bytes: &[u8]) -> usize {
    let (blocks, rest) = bytes.as_chunks::<32>();
    let mut count = 0;
    for block in blocks {
        // At most 32 in a block: no overflow of the byte sum.
        let in_block = block.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'));
        count += usize::from(in_block);
    }
    count + rest.iter().filter(|&&b| b == b'\n').count()
}

/// Calls `f` with the offset of every `\n` of `bytes`, in order: 32 bytes at
/// a time, each block's breaks a bit mask (byte compares the compiler
/// vectorises into one mask), each break found from the mask, not a test
/// per byte.
fn for_each_line_break(bytes: &[u8], mut f: impl FnMut(usize)) {
    let (blocks, rest) = bytes.as_chunks::<32>();
    for (n, block) in blocks.iter().enumerate() {
        let mut mask = block.iter().enumerate().fold(0u32, |mask, (i, &b)| mask | (u32::from(b == b'\n') << i));
        while mask != 0 {
            f(n * 32 + mask.trailing_zeros() as usize);
            mask &= mask - 1;
        }
    }
    let tail = blocks.len() * 32;
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
        // Breaks at each place of a block, in the tail after the last block,
        // several in one block, `\r\n`, and bytes with the high bit set
        // (which no search may take for a break).
        check_starts("0123456\n", &[0, 8]);
        check_starts("01234567\n", &[0, 9]);
        check_starts("\n\n\n\n\n\n\n\n\n", &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        check_starts("ab\r\ncd\r\nef\r\ngh", &[0, 4, 8, 12]);
        check_starts("ééééé\nßß\n\u{b}\t\u{7f}", &[0, 11, 16]);
        let long = "x".repeat(21) + "\n" + &"y".repeat(13) + "\n\n" + &"z".repeat(7);
        check_starts(&long, &[0, 22, 36, 37]);
        // Every length up to a few vector blocks, breaks dense and sparse.
        for every in [1, 3, 31, 32, 33, 65] {
            for n in 0..200 {
                let text: String = (0..n).map(|i| if i % every == every - 1 { '\n' } else { 'a' }).collect();
                let expected: Vec<usize> =
                    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
                check_starts(&text, &expected);
            }
        }
    }

    /// The line starts of `text` found the plain way, byte by byte.
    fn plain_starts(text: &str) -> Vec<usize> {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1));
        starts
    }

    /// A new index has found no line; its first use finds them once, for
    /// every clone, and they are the plain ones.
    #[track_caller]
    fn check_lazy(text: &str) {
        let index = LineIndex::new(text);
        let clone = index.clone();
        assert!(!index.is_built() && !clone.is_built(), "{text:?}");
        assert_eq!(clone.line_starts(), plain_starts(text), "{text:?}");
        assert!(index.is_built() && index.shares(&clone));
        assert_eq!(index.line_starts().as_ptr(), clone.line_starts().as_ptr(), "{text:?}");
    }

    #[test]
    fn lines_found_on_first_use_are_the_plain_ones() {
        check_lazy("");
        check_lazy("\n");
        check_lazy("abc");
        check_lazy("0123456\n");
        check_lazy("01234567\n");
        check_lazy("\n\n\n\n\n\n\n\n\n");
        check_lazy("ab\r\ncd\r\nef\r\ngh");
        check_lazy("ééééé\nßß\n\u{b}\t\u{7f}");
        check_lazy(&("x".repeat(21) + "\n" + &"y".repeat(13) + "\n\n" + &"z".repeat(7)));
        for every in [1, 3, 31, 32, 33, 65] {
            for n in 0..200 {
                let text: String = (0..n).map(|i| if i % every == every - 1 { '\n' } else { 'a' }).collect();
                check_lazy(&text);
            }
        }
    }

    #[test]
    fn lines_found_once_whichever_thread_asks_first() {
        let text = "a\nbb\nccc\n".repeat(1000);
        let index = LineIndex::new(&text);
        let found: Vec<usize> = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..4)
                .map(|_| {
                    let index = index.clone();
                    scope.spawn(move || index.line_starts().as_ptr().addr())
                })
                .collect();
            threads.into_iter().filter_map(|t| t.join().ok()).collect()
        });
        assert_eq!(found, vec![index.line_starts().as_ptr().addr(); 4]);
        assert_eq!(index.line_starts(), plain_starts(&text));
    }

    #[test]
    fn equal_when_the_texts_are() {
        let (a, b, c) = (LineIndex::new("x\ny"), LineIndex::new("x\ny"), LineIndex::new("x\nz"));
        b.line_starts();
        assert_eq!((a == b, a == c, a == a.clone(), a.shares(&b)), (true, false, true, false));
    }

    /// `line_of` every offset of `text` (and past it), asked in order, in
    /// reverse and scattered, of one index: the line a search of all the
    /// line starts finds, wherever the search before left off.
    #[track_caller]
    fn check_line_of(text: &str) {
        let index = LineIndex::new(text);
        let plain = plain_starts(text);
        let n = text.len() + 3;
        let scattered = (0..n).map(|i| i * 7919 % n);
        for offset in (0..n).chain((0..n).rev()).chain(scattered) {
            let expected = plain.partition_point(|&s| s <= offset) - 1;
            assert_eq!(index.line_of(offset), expected, "{text:?} at {offset}");
        }
    }

    #[test]
    fn line_of_wherever_the_last_search_ended() {
        check_line_of("");
        check_line_of("\n");
        check_line_of("abc");
        check_line_of("\n\n\n\n\n\n\n\n\n");
        check_line_of("a\n\nb\n");
        check_line_of("ab\r\ncd\r\nef\r\ngh");
        check_line_of("ééééé\nßß\n\u{b}\t\u{7f}");
        check_line_of(&"x\n".repeat(100));
        check_line_of(&"kind: Pod\n\n---\n".repeat(37));
    }
}
