//! The output when the input is invalid: a stub `FeatureGates` or
//! `ApiLifecycle` impl (and the enum's inherent forwarding items) next to the
//! errors, so that uses of the trait elsewhere cause no follow-on errors
//! ("trait not implemented"). Nothing is emitted
//! for generic enums deriving `FeatureGates`, where an impl would itself be
//! wrong. Both name the facade through [`krate`], which the full expansion
//! shares.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Path;

use crate::ast::{ApiInput, Input};

/// The path generated code uses for the facade: `crate = "..."`, else `::kompat`.
pub fn krate(written: &Option<Path>) -> Path {
    written.clone().unwrap_or_else(|| syn::parse_quote!(::kompat))
}

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

/// The trait's everyday items as inherent items of the enum, forwarding to
/// the trait: a crate that uses the enum (a binary beside the library that
/// declares it) calls `Feature::gate(...)` or `Feature::X.name()` without
/// importing `kompat::FeatureGates`, whose import rustc would otherwise
/// suggest by a path the user's crate cannot name (`kompat_runtime::...`).
/// They have the enum's visibility and are documented, so `missing_docs`
/// and `dead_code` stay quiet (and clippy's `self_named_constructors`, for
/// an enum named `Gate`).
pub fn inherent_items(input: &Input) -> TokenStream {
    let ident = input.ident;
    let vis = &input.original.vis;
    quote! {
        #[automatically_derived]
        #[allow(dead_code, clippy::self_named_constructors)]
        impl #ident {
            /// Every gate, in declaration order (`FeatureGates::ALL`).
            #vis const ALL: &'static [Self] = <Self as __kompat::FeatureGates>::ALL;
            /// The gate names, indexed like `ALL` (`FeatureGates::NAMES`).
            #vis const NAMES: &'static [&'static str] = <Self as __kompat::FeatureGates>::NAMES;

            /// A runtime gate at `emulation`; `min_compatibility` of `None`
            /// means emulation - 1 (`FeatureGates::gate`).
            #[inline]
            #vis fn gate(
                emulation: __kompat::Version,
                min_compatibility: __kompat::Option<__kompat::Version>,
            ) -> __kompat::TypedGate<Self> {
                <Self as __kompat::FeatureGates>::gate(emulation, min_compatibility)
            }

            /// The gate name, its `--feature-gates` key (`FeatureGates::name`).
            #[inline]
            #vis fn name(self) -> &'static str {
                <Self as __kompat::FeatureGates>::name(self)
            }

            /// The gate's completed specs, oldest first (`FeatureGates::spec_list`).
            #[inline]
            #vis fn spec_list(self) -> &'static [__kompat::FeatureSpec] {
                <Self as __kompat::FeatureGates>::spec_list(self)
            }

            /// The gate's position in declaration order (`FeatureGates::index`).
            #[inline]
            #vis fn index(self) -> usize {
                <Self as __kompat::FeatureGates>::index(self)
            }

            /// The gate at `index`, if any (`FeatureGates::from_index`).
            #[inline]
            #vis fn from_index(index: usize) -> __kompat::Option<Self> {
                <Self as __kompat::FeatureGates>::from_index(index)
            }

            /// The gate named `name`, if any (`FeatureGates::from_name`).
            #[inline]
            #vis fn from_name(name: &str) -> __kompat::Option<Self> {
                <Self as __kompat::FeatureGates>::from_name(name)
            }

            /// The registered feature set (`FeatureGates::feature_set`).
            #[inline]
            #vis fn feature_set() -> __kompat::Arc<__kompat::FeatureSet> {
                <Self as __kompat::FeatureGates>::feature_set()
            }
        }
    }
}
