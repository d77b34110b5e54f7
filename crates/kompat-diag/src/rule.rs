//! Rules declared once, as documented data.

use crate::{Diagnostic, Location, Severity};

/// A lint rule: a stable kebab-case code, the severity its findings have
/// unless `[lint.levels]` says otherwise, a one-line summary and a doc in
/// clippy's template (`### What it does`, `### Why is this bad?`,
/// `### Example`, `### Use instead`). Declare one with [`crate::declare_rule!`].
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    pub code: &'static str,
    pub severity: Severity,
    /// Lower-case start, no trailing period.
    pub summary: &'static str,
    /// Markdown, from the declaration's doc comment.
    pub doc: &'static str,
}

impl Rule {
    /// A finding of this rule, at its declared severity.
    pub fn diag(&'static self, message: impl Into<String>, location: impl Into<Option<Location>>) -> Diagnostic {
        Diagnostic {
            code: Some(self.code),
            severity: self.severity,
            message: message.into(),
            location: location.into(),
            subject: None,
            notes: Vec::new(),
            labels: Vec::new(),
        }
    }

    /// The doc as written: a doc comment's lines lose the one space every
    /// `/// ` line carries (a doc written as a plain string, whose lines do
    /// not all start with a space, is returned as it is).
    pub fn doc_text(&self) -> String {
        let from_comment = self.doc.lines().all(|l| l.is_empty() || l.starts_with(' '));
        if !from_comment {
            return self.doc.to_owned();
        }
        let mut out = String::with_capacity(self.doc.len());
        for line in self.doc.lines() {
            out.push_str(line.strip_prefix(' ').unwrap_or(line));
            out.push('\n');
        }
        out
    }
}

/// Declares a rule as a `static`, clippy style: the doc comment is the rule's
/// documentation in clippy's template.
///
/// ```
/// kompat_diag::declare_rule! {
///     /// ### What it does
///     /// Reports widgets.
///     ///
///     /// ### Why is this bad?
///     /// Widgets break upgrades.
///     ///
///     /// ### Example
///     /// ```toml
///     /// widget = true
///     /// ```
///     ///
///     /// ### Use instead
///     /// ```toml
///     /// widget = false
///     /// ```
///     pub WIDGET, "widget", Warning, "a widget is declared"
/// }
/// assert_eq!(WIDGET.code, "widget");
/// assert!(WIDGET.doc_text().starts_with("### What it does\nReports widgets.\n"));
/// // A doc written as a plain string keeps its indentation.
/// let plain = kompat_diag::Rule { doc: "### What it does\n  indented\n", ..WIDGET };
/// assert_eq!(plain.doc_text(), "### What it does\n  indented\n");
/// ```
#[macro_export]
macro_rules! declare_rule {
    ($(#[doc = $doc:expr])* $vis:vis $name:ident, $code:literal, $severity:ident, $summary:literal $(,)?) => {
        $(#[doc = $doc])*
        $vis static $name: $crate::Rule = $crate::Rule {
            code: $code,
            severity: $crate::Severity::$severity,
            summary: $summary,
            doc: concat!($($doc, "\n"),*),
        };
    };
}
