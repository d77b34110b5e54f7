//! The diagnostic: severity, optional code, message, location, labels, notes.

use crate::Location;

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
    /// Lower-case start, no trailing period.
    pub message: String,
    pub location: Option<Location>,
    /// The feature, API (GROUP/VERSION/KIND) or CRD version concerned.
    pub subject: Option<String>,
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
    pub fn error(message: impl Into<String>) -> Diagnostic {
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

    pub fn with_subject(mut self, subject: impl Into<String>) -> Diagnostic {
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
            None => self.message.clone(),
        }
    }

    /// The order every output uses: file, line, column, code, then message;
    /// diagnostics without a file last.
    pub fn sort(diags: &mut [Diagnostic]) {
        diags.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()).then_with(|| a.message.cmp(&b.message)));
    }

    fn sort_key(&self) -> (bool, String, (usize, usize), &'static str) {
        match &self.location {
            Some(loc) => (false, loc.path().display().to_string(), loc.line_col().unwrap_or((0, 0)), self.code()),
            None => (true, String::new(), (0, 0), self.code()),
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
}
