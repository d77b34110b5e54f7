//! Rules declared once, as documented data.
//!
//! A rule is written in one place: its name (from which its kebab-case code
//! is derived, so the two can never differ), its default severity, a
//! one-line summary and its doc in clippy's template. [`declare_rule!`]
//! declares one rule as a `static`; [`declare_rules!`] declares a family of
//! rules as a kind enum (variant `BoundsTightened` is code
//! `bounds-tightened`) with its `ALL`, `code()`, `rule()` and `RULES`, or
//! gives the rules of a kind enum declared in a lower crate (which derives
//! its codes the same way, see `kompat_engine`'s kinds) with `RULES` and an
//! exhaustive `rule_of`.

use crate::{Diagnostic, Location, Severity, Text};

/// A lint rule: a stable kebab-case code, the severity its findings have
/// unless `[lint.levels]` says otherwise, a one-line summary and a doc in
/// clippy's template (`### What it does`, `### Why is this bad?`,
/// `### Example`, `### Use instead`). Declare one with [`crate::declare_rule!`]
/// or a family with [`crate::declare_rules!`].
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
    pub fn diag(&'static self, message: impl Into<Text>, location: impl Into<Option<Location>>) -> Diagnostic {
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
/// documentation in clippy's template, and the code is the static's name in
/// kebab-case.
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
///     pub BLUE_WIDGET: Warning, "a widget is declared"
/// }
/// assert_eq!(BLUE_WIDGET.code, "blue-widget");
/// assert!(BLUE_WIDGET.doc_text().starts_with("### What it does\nReports widgets.\n"));
/// // A doc written as a plain string keeps its indentation.
/// let plain = kompat_diag::Rule { doc: "### What it does\n  indented\n", ..BLUE_WIDGET };
/// assert_eq!(plain.doc_text(), "### What it does\n  indented\n");
/// ```
#[macro_export]
macro_rules! declare_rule {
    ($(#[doc = $doc:expr])* $vis:vis $name:ident: $severity:ident, $summary:literal $(,)?) => {
        $(#[doc = $doc])*
        $vis static $name: $crate::Rule = $crate::Rule {
            code: $crate::kebab_case!($name),
            severity: $crate::Severity::$severity,
            summary: $summary,
            doc: concat!($($doc, "\n"),*),
        };
    };
}

/// Declares a family of rules, each written once: its variant (the code in
/// UpperCamelCase), default severity, summary and doc in clippy's template.
///
/// With `enum`, it declares the kind enum itself, with `ALL` (every kind, in
/// declaration order), `code()`, `rule()` and `RULES` (every rule, in
/// declaration order). With `for Kind`, the kind enum is declared in a lower
/// crate (one that cannot see [`Rule`]), and the macro declares the family's
/// `RULES` and `rule_of`, an exhaustive match: a kind without a rule or a
/// rule without a kind does not compile. The codes are `Kind::code()`, which
/// such a crate derives from the variant the same way.
///
/// ```
/// kompat_diag::declare_rules! {
///     /// What is wrong with a widget.
///     pub enum WidgetRule {
///         /// ### What it does
///         /// Reports blue widgets.
///         ///
///         /// ### Why is this bad?
///         /// Blue widgets break upgrades.
///         ///
///         /// ### Example
///         /// `colour = "blue"`
///         ///
///         /// ### Use instead
///         /// `colour = "red"`
///         BlueWidget: Warning, "a widget is blue",
///         /// ### What it does
///         /// Reports widgets without a colour.
///         MissingColour: Error, "a widget has no colour",
///     }
/// }
/// assert_eq!(WidgetRule::ALL, [WidgetRule::BlueWidget, WidgetRule::MissingColour]);
/// assert_eq!(WidgetRule::MissingColour.code(), "missing-colour");
/// assert_eq!(WidgetRule::BlueWidget.rule().severity, kompat_diag::Severity::Warning);
/// assert_eq!(WidgetRule::RULES.iter().map(|r| r.code).collect::<Vec<_>>(), ["blue-widget", "missing-colour"]);
/// assert!(std::ptr::eq(WidgetRule::RULES[1], WidgetRule::MissingColour.rule()));
///
/// // Rules for a kind enum declared elsewhere.
/// // (whose codes must be the variants in kebab-case: a `code()` returning
/// // anything else does not compile).
/// #[derive(Clone, Copy)]
/// pub enum Shape { Round, Square }
/// impl Shape {
///     pub const fn code(self) -> &'static str {
///         match self { Shape::Round => "round", Shape::Square => "square" }
///     }
/// }
/// kompat_diag::declare_rules! {
///     for Shape {
///         /// ### What it does
///         /// Reports round shapes.
///         Round: Warning, "a shape is round",
///         /// ### What it does
///         /// Reports square shapes.
///         Square: Error, "a shape is square",
///     }
/// }
/// assert_eq!(rule_of(Shape::Square).code, "square");
/// assert_eq!(RULES.len(), 2);
/// ```
#[macro_export]
macro_rules! declare_rules {
    (
        $(#[$meta:meta])*
        $vis:vis enum $kind:ident {
            $( $(#[doc = $doc:expr])* $variant:ident: $severity:ident, $summary:literal ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $kind {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl $kind {
            /// Every kind, in declaration order.
            pub const ALL: [$kind; [$(stringify!($variant)),*].len()] = [$($kind::$variant),*];

            /// Every kind's rule, in declaration order.
            pub const RULES: &'static [&'static $crate::Rule] = &[$($kind::$variant.rule()),*];

            /// The stable code: the variant in kebab-case.
            pub const fn code(self) -> &'static str {
                self.rule().code
            }

            /// The rule findings of this kind belong to.
            pub const fn rule(self) -> &'static $crate::Rule {
                match self {
                    $($kind::$variant => {
                        static RULE: $crate::Rule = $crate::Rule {
                            code: $crate::kebab_case!($variant),
                            severity: $crate::Severity::$severity,
                            summary: $summary,
                            doc: concat!($($doc, "\n"),*),
                        };
                        &RULE
                    })*
                }
            }
        }
    };
    (
        for $kind:ident {
            $( $(#[doc = $doc:expr])* $variant:ident: $severity:ident, $summary:literal ),* $(,)?
        }
    ) => {
        // The kinds' codes are their variants in kebab-case.
        $(const _: () = assert!(
            $crate::__private::str_eq($kind::$variant.code(), $crate::kebab_case!($variant)),
            concat!("the code of ", stringify!($kind), "::", stringify!($variant), " is not its kebab-case"),
        );)*

        /// Every rule of the family, in declaration order.
        pub static RULES: &[&$crate::Rule] = &[$(rule_of($kind::$variant)),*];

        /// The rule findings of `kind` belong to.
        pub const fn rule_of(kind: $kind) -> &'static $crate::Rule {
            match kind {
                $($kind::$variant => {
                    static RULE: $crate::Rule = $crate::Rule {
                        code: $kind::$variant.code(),
                        severity: $crate::Severity::$severity,
                        summary: $summary,
                        doc: concat!($($doc, "\n"),*),
                    };
                    &RULE
                })*
            }
        }
    };
}

/// The kebab-case of an identifier, as a `&'static str` built at compile
/// time: `BoundsTightened` and `BOUNDS_TIGHTENED` are both
/// `bounds-tightened`.
///
/// ```
/// assert_eq!(kompat_diag::kebab_case!(BoundsTightened), "bounds-tightened");
/// assert_eq!(kompat_diag::kebab_case!(BOUNDS_TIGHTENED), "bounds-tightened");
/// assert_eq!(kompat_diag::kebab_case!(Ga), "ga");
/// ```
#[macro_export]
macro_rules! kebab_case {
    ($name:ident) => {{
        const NAME: &str = stringify!($name);
        const BYTES: [u8; $crate::__private::kebab_len(NAME)] = $crate::__private::kebab(NAME);
        const CODE: &str = match ::core::str::from_utf8(&BYTES) {
            Ok(code) => code,
            Err(_) => panic!("an identifier is ASCII"),
        };
        CODE
    }};
}

/// Compile-time helpers of the macros above; not an API.
#[doc(hidden)]
pub mod __private {
    /// Whether a dash goes before byte `i`: a word boundary of UpperCamelCase
    /// (an upper-case letter after a lower-case one or a digit).
    const fn boundary(name: &[u8], i: usize) -> bool {
        i > 0 && name[i].is_ascii_uppercase() && (name[i - 1].is_ascii_lowercase() || name[i - 1].is_ascii_digit())
    }

    /// `a == b`, at compile time.
    pub const fn str_eq(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The length of [`kebab`]'s output.
    pub const fn kebab_len(name: &str) -> usize {
        let name = name.as_bytes();
        let (mut i, mut len) = (0, 0);
        while i < name.len() {
            len += if boundary(name, i) { 2 } else { 1 };
            i += 1;
        }
        len
    }

    /// `name` (UpperCamelCase or SCREAMING_SNAKE_CASE) in kebab-case.
    pub const fn kebab<const N: usize>(name: &str) -> [u8; N] {
        let name = name.as_bytes();
        let mut out = [0u8; N];
        let (mut i, mut at) = (0, 0);
        while i < name.len() {
            if boundary(name, i) {
                out[at] = b'-';
                at += 1;
            }
            out[at] = if name[i] == b'_' { b'-' } else { name[i].to_ascii_lowercase() };
            at += 1;
            i += 1;
        }
        out
    }
}
