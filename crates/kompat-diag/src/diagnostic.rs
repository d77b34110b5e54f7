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
        // Each line and column found once (in its file's line index), not
        // at every comparison.
        let places: Vec<(usize, usize)> = diags.iter().map(Diagnostic::line_col).collect();
        let cmp = |a: usize, b: usize| Diagnostic::order((&diags[a], places[a]), (&diags[b], places[b]));
        if (1..diags.len()).all(|i| cmp(i - 1, i).is_le()) {
            return;
        }
        let mut order: Vec<usize> = (0..diags.len()).collect();
        order.sort_by(|&a, &b| cmp(a, b));
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

    /// Two diagnostics, each with its line and column, in [`Diagnostic::sort`]'s
    /// order.
    fn order((a, at_a): (&Diagnostic, (usize, usize)), (b, at_b): (&Diagnostic, (usize, usize))) -> std::cmp::Ordering {
        a.sort_key(at_a).cmp(&b.sort_key(at_b)).then_with(|| a.message.cmp(&b.message))
    }

    /// The line and column of the location, `(0, 0)` for none or a whole
    /// file.
    fn line_col(&self) -> (usize, usize) {
        self.location.as_ref().and_then(Location::line_col).unwrap_or((0, 0))
    }

    /// The file as every output shows it (`Path::display`, without the copy
    /// for a UTF-8 path), the line and column (`at`, as
    /// [`Diagnostic::line_col`] finds them), and the code.
    fn sort_key(&self, at: (usize, usize)) -> (bool, std::borrow::Cow<'_, str>, (usize, usize), &'static str) {
        match &self.location {
            Some(loc) => (false, loc.path().to_string_lossy(), at, self.code()),
            None => (true, std::borrow::Cow::Borrowed(""), (0, 0), self.code()),
        }
    }

    /// The code, or `""` for an input error.
    pub fn code(&self) -> &'static str {
        self.code.unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
