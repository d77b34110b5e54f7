//! The output when the input is invalid: a stub `FeatureGates` impl next to
//! the errors, so that uses of the trait elsewhere cause no follow-on errors
//! ("trait not implemented"). Nothing is emitted for generic enums, where an
//! impl would itself be wrong.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::Input;
use crate::expand::krate;

pub fn expand(input: &Input) -> TokenStream {
    let generics = &input.original.generics;
    if !generics.params.is_empty() || generics.where_clause.is_some() {
        return TokenStream::new();
    }
    let krate = krate(input);
    let ident = input.ident;
    quote! {
        const _: () = {
            use #krate::__private as __kompat;

            #[automatically_derived]
            impl __kompat::FeatureGates for #ident {
                const ALL: &'static [Self] = &[];
                const NAMES: &'static [&'static str] = &[];
                fn specs() -> &'static [&'static [__kompat::FeatureSpec]] {
                    &[]
                }
                fn dependencies() -> &'static [&'static [usize]] {
                    &[]
                }
                fn descriptions() -> &'static [__kompat::Option<&'static str>] {
                    &[]
                }
                fn ratchets() -> &'static [__kompat::Option<__kompat::Ratchet>] {
                    &[]
                }
                fn lint_allows() -> &'static [&'static [__kompat::LintAllow]] {
                    &[]
                }
                fn index(self) -> usize {
                    ::core::unreachable!()
                }
                fn from_index(_: usize) -> __kompat::Option<Self> {
                    __kompat::None
                }
                fn from_name(_: &str) -> __kompat::Option<Self> {
                    __kompat::None
                }
                fn feature_set() -> __kompat::Arc<__kompat::FeatureSet> {
                    ::core::unreachable!()
                }
            }
        };
    }
}
