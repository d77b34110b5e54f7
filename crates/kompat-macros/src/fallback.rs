//! The output when the input is invalid: a stub `FeatureGates` or
//! `ApiLifecycle` impl (and the enum's inherent forwarding items) next to the
//! errors, so that uses of the trait elsewhere cause no follow-on errors
//! ("trait not implemented"). Nothing is emitted
//! for generic enums deriving `FeatureGates`, where an impl would itself be
//! wrong.

use proc_macro2::TokenStream;
use quote::quote;

use crate::expand::{inherent_items, krate};
use kompat_derive_internals::ast::{ApiInput, Input};

pub fn expand(input: &Input) -> TokenStream {
    let generics = &input.original.generics;
    if !generics.params.is_empty() || generics.where_clause.is_some() {
        return TokenStream::new();
    }
    let krate = krate(&input.attrs.krate);
    let ident = input.ident;
    let inherent = inherent_items(input);
    quote! {
        const _: () = {
            use #krate::__private as __kompat;

            #[automatically_derived]
            impl __kompat::FeatureGates for #ident {
                type Flags = [bool; 0];
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

            #inherent
        };
    }
}

/// The stub `ApiLifecycle` impl of an invalid API type: placeholder
/// constants, so that uses of the trait cause no follow-on errors.
pub fn expand_api(input: &ApiInput) -> TokenStream {
    let krate = krate(&input.attrs.krate);
    let ident = input.ident;
    let (impl_generics, ty_generics, where_clause) = input.original.generics.split_for_impl();
    quote! {
        const _: () = {
            use #krate::__private as __kompat;

            #[automatically_derived]
            impl #impl_generics __kompat::ApiLifecycle for #ident #ty_generics #where_clause {
                const API: __kompat::ApiEntry = __kompat::ApiEntry {
                    group: "",
                    version: "",
                    kind: "",
                    resource: "",
                    introduced: __kompat::Version::new(0, 0),
                    deprecated: __kompat::None,
                    removed: __kompat::None,
                    replacement: __kompat::None,
                    enabled_by_default: __kompat::None,
                };
                const INTRODUCED: __kompat::Version = __kompat::Version::new(0, 0);
                const DEPRECATED: __kompat::Option<__kompat::Version> = __kompat::None;
                const REMOVED: __kompat::Option<__kompat::Version> = __kompat::None;
                const REPLACEMENT: __kompat::Option<__kompat::StaticGvk> = __kompat::None;
                const ENABLED_BY_DEFAULT: bool = false;
            }
        };
    }
}
