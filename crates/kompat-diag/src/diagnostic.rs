//! The diagnostic: severity, optional code, message, location, labels, notes.

use crate::{Location, Text};

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    /// `error`, `warning` or `note`, as every output format spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// One problem: an input error (no code, always an error) or a finding of a
/// declared rule (built with [`crate::Rule::diag`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule's stable kebab-case code; `None` for input errors.
    pub code: Option<&'static str>,
    pub severity: Severity,
    /// Lower-case start, no trailing period. Shared when many findings say
    /// the same ([`Text`] clones are reference counts).
    pub message: Text,
    pub location: Option<Location>,
    /// The feature, API (GROUP/VERSION/KIND) or CRD version concerned.
    pub subject: Option<Text>,
    pub notes: Vec<String>,
    /// Other places the diagnostic is about.
    pub labels: Vec<Label>,
}

/// A secondary place of a diagnostic, with what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub location: Location,
    /// Lower-case start, no trailing period.
    pub message: String,
}

impl Diagnostic {
    /// An input error: unreadable or malformed input, a usage error.
    pub fn error(message: impl Into<Text>) -> Diagnostic {
        Diagnostic {
            code: None,
            severity: Severity::Error,
            message: message.into(),
            location: None,
            subject: None,
            notes: Vec::new(),
            labels: Vec::new(),
        }
    }

    /// The same diagnostic at `location` (or at none).
    pub fn at(mut self, location: impl Into<Option<Location>>) -> Diagnostic {
        self.location = location.into();
        self
    }

    pub fn with_subject(mut self, subject: impl Into<Text>) -> Diagnostic {
        self.subject = Some(subject.into());
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn with_notes(mut self, notes: impl IntoIterator<Item = String>) -> Diagnostic {
        self.notes.extend(notes);
        self
    }

    pub fn with_label(mut self, location: Location, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { location, message: message.into() });
        self
    }

    pub fn with_labels(mut self, labels: impl IntoIterator<Item = Label>) -> Diagnostic {
        self.labels.extend(labels);
        self
    }

    /// `file:line:col: message` (or `file: message`, or the message alone):
    /// the one-line form for `Display`, logs and build scripts.
    pub fn one_line(&self) -> String {
        match &self.location {
            Some(loc) => format!("{}: {}", loc.display(), self.message),
            None => self.message.to_string(),
        }
    }

    /// The order every output uses: file, line, column, code, then message;
    /// diagnostics without a file last. Stable; sorted in place: the order
    /// is found over indices, then the diagnostics are moved into it (a
    /// stable sort of the diagnostics themselves would hold a copy of half
    /// of them), and a run whose findings are in order already (one file's)
    /// moves nothing.
    pub fn sort(diags: &mut [Diagnostic]) {
        if diags.is_sorted_by(|a, b| Diagnostic::order(a, b).is_le()) {
            return;
        }
        let mut order: Vec<usize> = (0..diags.len()).collect();
        order.sort_by(|&a, &b| Diagnostic::order(&diags[a], &diags[b]));
        // `order[i]` is the index of the diagnostic that goes to `i`: each
        // cycle of the permutation is followed once, by swaps.
        for start in 0..order.len() {
            let mut at = start;
            loop {
                let from = order[at];
                order[at] = at;
                if from == start || from == at {
                    break;
                }
                diags.swap(at, from);
                at = from;
            }
        }
    }

    /// Two diagnostics in [`Diagnostic::sort`]'s order: the file as every
    /// output shows it (`Path::display`, in [`path_order`]), the line and
    /// column ([`place_order`]), the code, then the message; diagnostics
    /// with a location first.
    fn order(a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        let located = match (&a.location, &b.location) {
            (Some(x), Some(y)) => path_order(x.path(), y.path()).then_with(|| place_order(x, y)),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        located.then_with(|| a.code().cmp(b.code())).then_with(|| a.message.cmp(&b.message))
    }

    /// The code, or `""` for an input error.
    pub fn code(&self) -> &'static str {
        self.code.unwrap_or("")
    }
}

/// The order of two locations in one file by line and column (a whole
/// file first, as line and column `(0, 0)`), without finding either: in
/// one text, a span that starts later starts on a later line, or later on
/// the same line, when both starts are on character boundaries (a column
/// counts characters). Two locations in different texts, or a start inside
/// a character, are compared by their lines and columns, found.
fn place_order(x: &Location, y: &Location) -> std::cmp::Ordering {
    match (x.lines().zip(x.range()), y.lines().zip(y.range())) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, Some(_)) => std::cmp::Ordering::Less,
        (Some(_), None) => std::cmp::Ordering::Greater,
        (Some((lx, rx)), Some((ly, ry)))
            if lx.shares(ly) && lx.text().is_char_boundary(rx.start) && lx.text().is_char_boundary(ry.start) =>
        {
            rx.start.cmp(&ry.start)
        }
        _ => x.line_col().cmp(&y.line_col()),
    }
}

/// The order of two paths as every output shows them (`Path::display`, the
/// text `to_string_lossy` gives), without reading either as UTF-8 in the
/// usual cases: the same bytes are the same text, and two paths whose bytes
/// agree in ASCII up to a first difference that is ASCII in one of them
/// (or up to the end of one) are in their bytes' order (in UTF-8, and in
/// the replacement character, every byte of a character that is not ASCII
/// is above every ASCII byte). Otherwise the texts are compared.
fn path_order(a: &std::path::Path, b: &std::path::Path) -> std::cmp::Ordering {
    let (x, y) = (a.as_os_str().as_encoded_bytes(), b.as_os_str().as_encoded_bytes());
    let same = x.iter().zip(y).take_while(|(p, q)| p == q).count();
    let ascii_at = |bytes: &[u8]| bytes.get(same).is_none_or(u8::is_ascii);
    if x[..same].is_ascii() && (ascii_at(x) || ascii_at(y)) {
        return x.cmp(y);
    }
    a.to_string_lossy().cmp(&b.to_string_lossy())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs of paths (every pair of `paths`, both ways) are in the order of
    /// their texts as shown: ASCII, prefixes, separators, UTF-8 of two,
    /// three and four bytes, and (on Unix) bytes that are not UTF-8.
    #[test]
    fn paths_ordered_as_their_texts() {
        let mut paths: Vec<std::path::PathBuf> = [
            "",
            "a",
            "a/",
            "a/b",
            "a-b",
            "a.b",
            "a0",
            "ab",
            "A",
            "a b",
            "a/é",
            "é",
            "éa",
            "e",
            "f",
            "z",
            "~",
            "\u{7f}",
            "\u{80}",
            "\u{ff}",
            "\u{100}",
            "\u{fffd}",
            "\u{fffe}",
            "\u{10000}",
            "a/\u{10ffff}",
            "日本",
        ]
        .iter()
        .map(std::path::PathBuf::from)
        .collect();
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let raw: [&[u8]; 12] = [
                b"\xff",
                b"a\xff",
                b"a\xfe",
                b"\x80",
                b"\xc3",
                b"\xc3a",
                b"\xc3\xa9\xff",
                b"\xe6\x97",
                b"\xef\xbf\xbd",
                b"\xef\xbf\xbe",
                b"\xf0\x90\x80",
                b"a/\xed\xa0\x80",
            ];
            paths.extend(raw.iter().map(|bytes| std::path::PathBuf::from(std::ffi::OsStr::from_bytes(bytes))));
        }
        for a in &paths {
            for b in &paths {
                let expected = a.to_string_lossy().cmp(&b.to_string_lossy());
                assert_eq!(path_order(a, b), expected, "{a:?} against {b:?}");
            }
        }
    }

    #[test]
    fn sorted_by_file_line_column_code_then_message_and_unlocated_last() {
        let lines = kompat_span::LineIndex::new("a\nb\nc\n");
        let text: std::sync::Arc<str> = std::sync::Arc::from("a\nb\nc\n");
        let at =
            |path: &str, offset| Location::span(path, text.clone(), &lines, kompat_span::Span::new(offset, offset + 1));
        let mut diags = vec![
            Diagnostic::error("z"),
            Diagnostic::error("b2").at(at("b.toml", 2)),
            Diagnostic::error("a3").at(at("a.toml", 4)),
            Diagnostic::error("a1-second").at(at("a.toml", 0)),
            Diagnostic::error("a1-first").at(at("a.toml", 0)),
            Diagnostic::error("whole").at(Location::file("a.toml")),
        ];
        Diagnostic::sort(&mut diags);
        let order: Vec<String> = diags.iter().map(Diagnostic::one_line).collect();
        assert_eq!(
            order,
            ["a.toml: whole", "a.toml:1:1: a1-first", "a.toml:1:1: a1-second", "a.toml:3:1: a3", "b.toml:2:1: b2", "z"]
        );
    }

    /// Sorts diagnostics named `file:offset:message` (subjects tell equal
    /// ones apart) and returns them as `file:line:col: message subject`.
    #[track_caller]
    fn check_sorted(input: &[&str], expected: &[&str]) {
        let lines = kompat_span::LineIndex::new("a\nb\nc\n");
        let text: std::sync::Arc<str> = std::sync::Arc::from("a\nb\nc\n");
        let mut diags: Vec<Diagnostic> = input
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let mut parts = d.split(':');
                let (file, offset, message) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next());
                let offset: usize = offset.parse().unwrap_or(0);
                let at = Location::span(file, text.clone(), &lines, kompat_span::Span::new(offset, offset + 1));
                Diagnostic::error(message.unwrap_or("m")).at(at).with_subject(format!("#{i}"))
            })
            .collect();
        Diagnostic::sort(&mut diags);
        let got: Vec<String> =
            diags.iter().map(|d| format!("{} {}", d.one_line(), d.subject.as_deref().unwrap_or(""))).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn sorted_in_place_stable_whatever_the_permutation() {
        check_sorted(&[], &[]);
        check_sorted(&["a:0"], &["a:1:1: m #0"]);
        // In order already: as it is.
        check_sorted(&["a:0", "a:2", "b:0"], &["a:1:1: m #0", "a:2:1: m #1", "b:1:1: m #2"]);
        // Reversed: a cycle of two and a fixed point.
        check_sorted(&["b:0", "a:2", "a:0"], &["a:1:1: m #2", "a:2:1: m #1", "b:1:1: m #0"]);
        // A cycle of three.
        check_sorted(&["c:0", "a:0", "b:0"], &["a:1:1: m #1", "b:1:1: m #2", "c:1:1: m #0"]);
        check_sorted(&["b:0", "c:0", "a:0"], &["a:1:1: m #2", "b:1:1: m #0", "c:1:1: m #1"]);
        // Equal diagnostics keep their order (told apart by subject).
        check_sorted(
            &["b:0", "a:0", "b:0", "a:0", "a:0"],
            &["a:1:1: m #1", "a:1:1: m #3", "a:1:1: m #4", "b:1:1: m #0", "b:1:1: m #2"],
        );
        // File as a string (`a-b` before `a/b`), then line, column, message.
        check_sorted(
            &["a/b:0:x", "a-b:4:y", "a-b:2:z", "a-b:2:w"],
            &["a-b:2:1: w #3", "a-b:2:1: z #2", "a-b:3:1: y #1", "a/b:1:1: x #0"],
        );
    }

    /// The order of many diagnostics (paths, whole files, spans at every
    /// offset of texts with characters of several bytes, inside them and
    /// past the end, two texts under one path) is the order by the path as
    /// shown, the line and column found, the code and the message.
    #[test]
    fn sorted_as_by_the_lines_and_columns_found() {
        use kompat_span::{LineIndex, Span};
        use std::path::Path;
        use std::sync::Arc;
        let texts = ["a\nbb\n\nc", "éé\nxé\r\nß\n", "\u{1F600}z\ny"];
        let mut diags = Vec::new();
        for (t, text) in texts.iter().enumerate() {
            for path in ["p/a", "p-a", "q"] {
                let shared: Arc<Path> = Arc::from(Path::new(path));
                let lines = LineIndex::new(text);
                for offset in 0..=text.len() + 2 {
                    let at = Location::indexed(shared.clone(), &lines, Span::new(offset, offset + 1));
                    let code = ["b-rule", "a-rule"][(offset + t) % 2];
                    let mut diag = Diagnostic::error(format!("m{}", offset % 3)).at(at);
                    diag.code = Some(code);
                    diags.push(diag);
                }
                diags.push(Diagnostic::error("whole").at(Location::file(path)));
            }
        }
        diags.push(Diagnostic::error("nowhere"));
        // A fixed shuffle.
        let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
        for i in (1..diags.len()).rev() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            diags.swap(i, (rng % (i as u64 + 1)) as usize);
        }
        let mut sorted = diags.clone();
        Diagnostic::sort(&mut sorted);
        let key = |d: &Diagnostic| {
            let at =
                d.location.as_ref().map(|l| (l.path().to_string_lossy().into_owned(), l.line_col().unwrap_or((0, 0))));
            (at.is_none(), at, d.code(), d.message.to_string())
        };
        let mut expected = diags;
        expected.sort_by_key(key);
        let show = |ds: &[Diagnostic]| ds.iter().map(|d| format!("{:?}", key(d))).collect::<Vec<_>>();
        assert_eq!(show(&sorted), show(&expected));
    }

    /// Sorting the diagnostics of files read once each, at character
    /// boundaries, finds no line: the files' indexes are left for the
    /// output to build, on every core.
    #[test]
    fn sorting_finds_no_line() {
        use kompat_span::{LineIndex, Span};
        let files: Vec<(std::sync::Arc<std::path::Path>, LineIndex)> = ["b", "a", "c"]
            .iter()
            .map(|p| (std::sync::Arc::from(std::path::Path::new(p)), LineIndex::new("x: 1\ny: é\n")))
            .collect();
        let mut diags = Vec::new();
        for offset in [10, 0, 5, 12, 3, 8] {
            for (path, lines) in &files {
                diags.push(Diagnostic::error("m").at(Location::indexed(
                    path.clone(),
                    lines,
                    Span::new(offset, offset),
                )));
            }
        }
        Diagnostic::sort(&mut diags);
        assert!(files.iter().all(|(_, lines)| !lines.is_built()));
        let got: Vec<String> = diags.iter().map(Diagnostic::one_line).collect();
        let expected: Vec<String> = ["a", "b", "c"]
            .iter()
            .flat_map(|p| ["1:1", "1:4", "2:1", "2:4", "2:5", "3:1"].map(|at| format!("{p}:{at}: m")))
            .collect();
        assert_eq!(got, expected);
    }
}
