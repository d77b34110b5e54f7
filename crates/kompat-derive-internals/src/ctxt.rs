//! The error accumulator shared by every phase (serde_derive's `Ctxt`).
//!
//! Parsing and validation never stop at the first mistake: each one is
//! recorded here with its span, and [`Ctxt::check`] folds them into a single
//! `syn::Error` so the user sees every error of the item at once.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;

/// Collects errors; consume it with [`Ctxt::check`].
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    pub fn new() -> Ctxt {
        Ctxt::default()
    }

    /// Records an error spanning the tokens of `obj` (first to last token).
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, obj: T, msg: M) {
        self.errors.borrow_mut().push(syn::Error::new_spanned(obj.into_token_stream(), msg));
    }

    /// Records an error at `span`.
    pub fn error_at<M: Display>(&self, span: Span, msg: M) {
        self.errors.borrow_mut().push(syn::Error::new(span, msg));
    }

    /// Records an error produced by `syn` (e.g. a malformed attribute).
    pub fn syn_error(&self, err: syn::Error) {
        self.errors.borrow_mut().push(err);
    }

    /// How many errors were recorded so far.
    pub fn error_count(&self) -> usize {
        self.errors.borrow().len()
    }

    /// Consumes the context: `Ok` when no error was recorded, otherwise every
    /// error combined, in the order recorded.
    #[must_use = "the errors must be emitted"]
    pub fn check(self) -> syn::Result<()> {
        let mut errors = self.errors.into_inner().into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}
