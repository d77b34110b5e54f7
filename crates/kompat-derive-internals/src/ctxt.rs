//! The error accumulator shared by every phase (serde_derive's `Ctxt`).
//!
//! Parsing and validation never stop at the first mistake: each one is
//! recorded here with its span, and [`Ctxt::check`] folds them into a single
//! `syn::Error` so the user sees every error of the item at once.
//!
//! A context must be consumed by [`Ctxt::check`]: dropping one unchecked
//! would lose its errors silently, so it panics instead (a bug in the caller,
//! found by the first test that reaches it), unless the thread is already
//! panicking.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;

/// Collects errors; consume it with [`Ctxt::check`] (dropping it unchecked
/// panics).
pub struct Ctxt {
    /// `None` once checked.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Default for Ctxt {
    fn default() -> Ctxt {
        Ctxt::new()
    }
}

impl Ctxt {
    pub fn new() -> Ctxt {
        Ctxt { errors: RefCell::new(Some(Vec::new())) }
    }

    /// Records `err`; the context is live until [`Ctxt::check`] consumes it.
    fn push(&self, err: syn::Error) {
        if let Some(errors) = self.errors.borrow_mut().as_mut() {
            errors.push(err);
        }
    }

    /// Records an error spanning the tokens of `obj` (first to last token).
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, obj: T, msg: M) {
        self.push(syn::Error::new_spanned(obj.into_token_stream(), msg));
    }

    /// Records an error at `span`.
    pub fn error_at<M: Display>(&self, span: Span, msg: M) {
        self.push(syn::Error::new(span, msg));
    }

    /// Records an error produced by `syn` (e.g. a malformed attribute).
    pub fn syn_error(&self, err: syn::Error) {
        self.push(err);
    }

    /// How many errors were recorded so far.
    pub fn error_count(&self) -> usize {
        self.errors.borrow().as_ref().map_or(0, Vec::len)
    }

    /// Consumes the context: `Ok` when no error was recorded, otherwise every
    /// error combined, in the order recorded.
    #[must_use = "the errors must be emitted"]
    pub fn check(self) -> syn::Result<()> {
        let mut errors = self.errors.borrow_mut().take().into_iter().flatten();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if self.errors.get_mut().is_some() && !std::thread::panicking() {
            panic!("kompat internal error: a derive error context was dropped without `Ctxt::check`");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(messages: &[&str]) -> syn::Result<()> {
        let cx = Ctxt::new();
        for m in messages {
            cx.error_at(Span::call_site(), m);
        }
        assert_eq!(cx.error_count(), messages.len());
        cx.check()
    }

    #[test]
    fn check_returns_every_error_in_order() {
        let cases: [(&[&str], Option<Vec<&str>>); 3] =
            [(&[], None), (&["a"], Some(vec!["a"])), (&["a", "b", "c"], Some(vec!["a", "b", "c"]))];
        for (messages, expected) in cases {
            let got = errors(messages).err().map(|e| e.into_iter().map(|e| e.to_string()).collect::<Vec<_>>());
            let expected = expected.map(|v| v.into_iter().map(str::to_owned).collect::<Vec<_>>());
            assert_eq!(got, expected, "{messages:?}");
        }
    }

    #[test]
    fn dropping_an_unchecked_context_panics() {
        for with_error in [false, true] {
            let dropped = std::panic::catch_unwind(|| {
                let cx = Ctxt::new();
                if with_error {
                    cx.error_at(Span::call_site(), "lost");
                }
            });
            assert!(dropped.is_err(), "with_error: {with_error}");
        }
    }

    #[test]
    fn an_unchecked_context_does_not_panic_while_panicking() {
        // A second panic would abort; the first one's payload comes through.
        let unwound = std::panic::catch_unwind(|| {
            let _cx = Ctxt::new();
            std::panic::panic_any("first");
        });
        let payload = unwound.err().and_then(|p| p.downcast_ref::<&str>().copied());
        assert_eq!(payload, Some("first"));
    }
}
