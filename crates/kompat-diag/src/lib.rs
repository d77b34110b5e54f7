//! kompat's one diagnostic type.
//!
//! Below this crate, problems are values about *indices* (`kompat-engine`'s
//! `Problem`, API problems, plan findings) or about *byte spans* of one text
//! (`kompat-formats`' `ParseError`, `kompat-crd`'s findings). Above it, every
//! problem is a [`Diagnostic`]: a severity, an optional stable code, a message
//! and a [`Location`] (file, span, line and column), with secondary labels and
//! notes. Input errors (exit code 2) and lint findings are the same type, so
//! every output format renders them the same way.
//!
//! Lint rules are declared once, as documented data, with [`declare_rule!`]
//! (one rule) or [`declare_rules!`] (a family, as a kind enum): name (the
//! code is its kebab-case), default [`Severity`], summary and a doc in
//! clippy's template. A
//! finding is built through its rule ([`Rule::diag`]), so a rule's severity
//! is stated in exactly one place.
//!
//! [`render`] writes diagnostics as rustc-style text (through
//! codespan-reporting, over the [`FileTable`] this crate builds from their
//! locations): the `kompat` binary and `kompat_gen::Builder`'s errors print
//! the same text.
//!
//! **Architecture Invariant:** no I/O and no terminal knowledge here: text is
//! coloured only when the caller asks.

mod diagnostic;
mod files;
mod location;
mod render;
mod rule;
mod text;

pub use diagnostic::{Diagnostic, Label, Severity};
pub use files::FileTable;
pub use location::Location;
pub use render::{render, short_line};
#[doc(hidden)]
pub use rule::__private;
pub use rule::Rule;
pub use text::Text;
