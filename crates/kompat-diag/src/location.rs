//! Where a diagnostic is: a file, and optionally a byte span in its text with
//! the span's 1-based line and column.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use kompat_span::{LineIndex, Span};

/// A place in an input. Either a whole file ([`Location::file`]) or a span of
/// its text ([`Location::span`]); the line and column are computed from the
/// span once, so they always agree with it. The path and the text are
/// shared: the locations in one file ([`Location::span_shared`]) hold one
/// copy of its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    path: Arc<Path>,
    /// The file's text and the span in it, with the span's start line and
    /// column.
    at: Option<At>,
}

/// The span and its line and column as 32-bit numbers: a location is held
/// by every object of a manifest and every finding, and kompat reads no text
/// of 4 GiB (`kompat_project::MAX_FILE_BYTES` is 16 MiB); a larger offset
/// would be clamped to `u32::MAX`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct At {
    text: Arc<str>,
    start: u32,
    end: u32,
    line: u32,
    column: u32,
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
    /// loader keeps one `Arc<Path>` for every location in it.
    pub fn span_shared(path: Arc<Path>, text: Arc<str>, lines: &LineIndex, span: Span) -> Location {
        let start = span.start.min(text.len());
        let span = Span::new(start, span.end.clamp(start, text.len()));
        let (line, column) = lines.line_col(span.start);
        let at =
            At { text, start: narrow(span.start), end: narrow(span.end), line: narrow(line), column: narrow(column) };
        Location { path, at: Some(at) }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The span in the file's text, when the location is more than the file.
    pub fn range(&self) -> Option<Span> {
        self.at.as_ref().map(|at| Span::new(at.start as usize, at.end as usize))
    }

    /// The 1-based line and column (in characters) of the span's start.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        self.at.as_ref().map(|at| (at.line as usize, at.column as usize))
    }

    /// The file's text, when the location has a span.
    pub fn text(&self) -> Option<&Arc<str>> {
        self.at.as_ref().map(|at| &at.text)
    }

    /// The text the span covers.
    pub fn snippet(&self) -> Option<&str> {
        let at = self.at.as_ref()?;
        at.text.get(at.start as usize..at.end as usize)
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

    #[test]
    fn a_whole_file_has_no_position() {
        let loc = Location::file("dir/f.yaml");
        assert_eq!((loc.display(), loc.line_col(), loc.range()), ("dir/f.yaml".to_owned(), None, None));
    }
}
