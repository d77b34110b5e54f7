//! Where a diagnostic is: a file, and optionally a byte span in its text with
//! the span's 1-based line and column.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use kompat_span::{LineIndex, Span};

/// A place in an input. Either a whole file ([`Location::file`]) or a span of
/// its text ([`Location::span`]); the line and column are computed from the
/// span when asked, so they always agree with it. The path and the text are
/// shared: the locations in one file ([`Location::indexed`]) hold one copy
/// of its path, and one line index, found once, the first time a line or
/// column in the file is asked (most files have no finding, and their lines
/// are never found).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    path: Arc<Path>,
    /// The file's text, with its line index, and the span in it.
    at: Option<At>,
}

/// The span as 32-bit numbers: a location is held by every object of a
/// manifest and every finding, and kompat reads no text of 4 GiB
/// (`kompat_project::MAX_FILE_BYTES` is 16 MiB); a larger offset would be
/// clamped to `u32::MAX`. Equal when the texts and the spans are (the line
/// and column follow from them).
#[derive(Debug, Clone, PartialEq, Eq)]
struct At {
    lines: LineIndex,
    start: u32,
    end: u32,
}

fn narrow(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Location {
    /// A file as a whole (for example one that could not be read).
    pub fn file(path: impl Into<PathBuf>) -> Location {
        Location { path: Arc::from(path.into()), at: None }
    }

    /// A span of a file's text; `lines` is the text's line index.
    pub fn span(path: impl Into<PathBuf>, text: Arc<str>, lines: &LineIndex, span: Span) -> Location {
        Location::span_shared(Arc::from(path.into()), text, lines, span)
    }

    /// [`Location::span`] with the path shared, not copied: the file's
    /// loader keeps one `Arc<Path>` for every location in it. The location
    /// shares `lines` when it indexes `text` itself (the same `Arc`), and
    /// has an index of its own otherwise.
    pub fn span_shared(path: Arc<Path>, text: Arc<str>, lines: &LineIndex, span: Span) -> Location {
        if Arc::ptr_eq(lines.text(), &text) {
            Location::indexed(path, lines, span)
        } else {
            Location::indexed(path, &LineIndex::shared(text), span)
        }
    }

    /// A span of the text `lines` indexes, sharing the index (and the
    /// path): no line is found here, only when one is asked.
    pub fn indexed(path: Arc<Path>, lines: &LineIndex, span: Span) -> Location {
        let len = lines.text().len();
        let start = span.start.min(len);
        let end = span.end.clamp(start, len);
        Location { path, at: Some(At { lines: lines.clone(), start: narrow(start), end: narrow(end) }) }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The span in the file's text, when the location is more than the file.
    pub fn range(&self) -> Option<Span> {
        self.at.as_ref().map(|at| Span::new(at.start as usize, at.end as usize))
    }

    /// The 1-based line and column (in characters) of the span's start.
    /// Found in the text's line index, which is built on the first call for
    /// any location in the text.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        self.at.as_ref().map(|at| at.lines.line_col(at.start as usize))
    }

    /// The file's text, when the location has a span.
    pub fn text(&self) -> Option<&Arc<str>> {
        self.at.as_ref().map(|at| at.lines.text())
    }

    /// The file's text with its line index (shared by the locations in the
    /// file), when the location has a span.
    pub fn lines(&self) -> Option<&LineIndex> {
        self.at.as_ref().map(|at| &at.lines)
    }

    /// The path as shared by the locations in the file.
    pub(crate) fn shared_path(&self) -> &Arc<Path> {
        &self.path
    }

    /// The text the span covers.
    pub fn snippet(&self) -> Option<&str> {
        let at = self.at.as_ref()?;
        at.lines.text().get(at.start as usize..at.end as usize)
    }

    /// `file:line:col`, or `file` without a span.
    pub fn display(&self) -> String {
        match self.line_col() {
            Some((line, col)) => format!("{}:{line}:{col}", self.path.display()),
            None => self.path.display().to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, span: (usize, usize), expected: (&str, (usize, usize), &str)) {
        let lines = LineIndex::new(text);
        let loc = Location::span("f.toml", Arc::from(text), &lines, Span::new(span.0, span.1));
        assert_eq!((loc.display().as_str(), loc.line_col().unwrap_or_default(), loc.snippet().unwrap_or("")), expected);
    }

    #[test]
    fn spans_are_located_and_clamped() {
        check("a = 1\nb = 2\n", (6, 7), ("f.toml:2:1", (2, 1), "b"));
        check("a = 1\nbé = 2\n", (10, 11), ("f.toml:2:4", (2, 4), "="));
        // A span past the end is clamped to the text, never a panic.
        check("a", (5, 9), ("f.toml:1:2", (1, 2), ""));
        check("abc", (2, 1), ("f.toml:1:3", (1, 3), ""));
    }

    /// The line and column of `offset` in `text` found the plain way: the
    /// `\n`s before it, and the characters (bytes inside a character)
    /// since the last.
    fn plain_line_col(text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let before = &text.as_bytes()[..offset];
        let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let line = before.iter().filter(|&&b| b == b'\n').count();
        (line + 1, text.get(start..offset).map_or(offset - start, |s| s.chars().count()) + 1)
    }

    /// Every offset of `text` (and two past its end), located in one
    /// shared index, has the plain line and column.
    #[track_caller]
    fn check_every_offset(text: &str) {
        let lines = LineIndex::new(text);
        let path: Arc<Path> = Arc::from(Path::new("f.yaml"));
        for offset in 0..text.len() + 2 {
            let loc = Location::indexed(path.clone(), &lines, Span::new(offset, offset + 1));
            assert_eq!(loc.line_col(), Some(plain_line_col(text, offset)), "{text:?} at {offset}");
        }
    }

    #[test]
    fn line_col_at_every_offset_is_the_plain_one() {
        check_every_offset("");
        check_every_offset("a");
        check_every_offset("\n");
        check_every_offset("\n\n\n");
        check_every_offset("a = 1\nb = 2\n");
        check_every_offset("ab\r\ncd\r\n\r\nef");
        // Characters of two, three and four bytes: offsets inside them too.
        check_every_offset("é\nßé=1\n€\n𝄞x\n");
        check_every_offset("kind: Pod\nmetadata:\n  name: ünïcödé\n  labels: {a: b}\n");
        check_every_offset(&"x\n".repeat(40));
    }

    #[test]
    fn the_index_is_shared_and_built_once_on_first_ask() {
        let text = "a: 1\nb: 2\nc: é\n".repeat(50);
        let lines = LineIndex::new(&text);
        let path: Arc<Path> = Arc::from(Path::new("f.yaml"));
        let locs: Vec<Location> =
            (0..text.len()).map(|o| Location::indexed(path.clone(), &lines, Span::new(o, o + 1))).collect();
        // Locating finds no line.
        assert!(!lines.is_built());
        assert!(locs.iter().all(|l| l.lines().is_some_and(|i| i.shares(&lines))));
        let first = locs[7].line_col();
        assert!(lines.is_built());
        let starts = lines.line_starts().as_ptr();
        for (offset, loc) in locs.iter().enumerate() {
            assert_eq!(loc.line_col(), Some(plain_line_col(&text, offset)));
            // The one index, never built again.
            assert!(loc.lines().is_some_and(|i| i.line_starts().as_ptr() == starts));
        }
        assert_eq!(first, Some((2, 3)));
    }

    #[test]
    fn a_span_shares_the_index_of_its_own_text_only() {
        let text: Arc<str> = Arc::from("a\nb\n");
        let lines = LineIndex::shared(text.clone());
        let shared = Location::span("f", text.clone(), &lines, Span::new(2, 3));
        assert!(shared.lines().is_some_and(|i| i.shares(&lines)));
        // An equal text, not the same: an index of its own, the same place.
        let own = Location::span("f", Arc::from("a\nb\n"), &lines, Span::new(2, 3));
        assert!(own.lines().is_some_and(|i| !i.shares(&lines)));
        assert_eq!((own.line_col(), &own), (Some((2, 1)), &shared));
        // A text that differs: located in itself, not in `lines`.
        let other = Location::span("f", Arc::from("abc"), &lines, Span::new(2, 3));
        assert_eq!((other.line_col(), other == shared), (Some((1, 3)), false));
        assert!(!lines.is_built());
    }

    /// A location is held by every object and finding: a path, an index
    /// and two offsets, no more.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_location_is_four_words() {
        assert_eq!(std::mem::size_of::<Location>(), 32);
    }

    #[test]
    fn a_whole_file_has_no_position() {
        let loc = Location::file("dir/f.yaml");
        assert_eq!((loc.display(), loc.line_col(), loc.range()), ("dir/f.yaml".to_owned(), None, None));
    }
}
