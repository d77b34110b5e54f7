//! Code generation: the `FeatureGates` impl with `static` tables of the
//! completed specs, computed at compile time by `kompat_engine::validate`, and
//! the `ApiLifecycle` impl with the lifecycle completed by
//! `kompat_engine::api::complete_lifecycle` (through `ApiSet::build`).
//!
//! The pipeline is parse → validate → expand; on any error the output is every
//! error plus the stub impl of `fallback.rs`, so users see no follow-on errors.

use kompat_engine::api::{Api, ApiDecl};
use kompat_engine::Validated;
use kompat_runtime::{FeatureSpec, Version};
use std::collections::HashMap;

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use syn::DeriveInput;

use crate::ast::{ApiInput, Input};
use crate::ctxt::Ctxt;
use crate::valid;

use crate::fallback::{self, inherent_items, krate};

/// `#[derive(FeatureGates)]`.
pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let Some((ast, validated)) = valid::feature_gates(&cx, input) else {
        return cx.check().err().map(|err| err.into_compile_error()).unwrap_or_default();
    };
    let result = cx.check().and_then(|()| impl_enum(&ast, &validated));
    match result {
        Ok(tokens) => tokens,
        Err(err) => {
            let mut tokens = err.into_compile_error();
            tokens.extend(fallback::expand(&ast));
            tokens
        }
    }
}

fn impl_enum(input: &Input, validated: &Validated) -> syn::Result<TokenStream> {
    let features = validated.set.features();
    let in_order =
        features.len() == input.variants.len() && features.iter().zip(&input.variants).all(|(f, v)| f.name == v.name());
    if !in_order {
        // Unreachable when validation reported nothing; never panic.
        return Err(syn::Error::new_spanned(input.ident, "kompat internal error: feature set out of variant order"));
    }
    let krate = krate(&input.attrs.krate);
    let ident = input.ident;
    let count = Literal::usize_unsuffixed(features.len());
    let variants: Vec<_> = input.variants.iter().map(|v| v.ident).collect();
    let names: Vec<&str> = features.iter().map(|f| f.name.as_str()).collect();
    let (spec_items, specs) = spec_tables(features.iter().map(|f| f.specs.as_slice()));
    let dependencies = repeat_or_list(features.iter().map(|f| {
        let deps = f.dependencies.iter().map(|&d| Literal::usize_unsuffixed(d));
        quote!(&[#(#deps),*])
    }));
    let descriptions = repeat_or_list(features.iter().map(|f| match &f.description {
        Some(text) => quote!(__kompat::Some(#text)),
        None => quote!(__kompat::None),
    }));
    let ratchets = repeat_or_list(features.iter().map(|f| match f.ratchet {
        Some(r) => {
            let since = version_tokens(r.tolerated_since);
            quote!(__kompat::Some(__kompat::Ratchet { tolerated_since: #since }))
        }
        None => quote!(__kompat::None),
    }));
    let by_name = by_name(&names);
    let inherent = inherent_items(input);
    Ok(quote! {
        const _: () = {
            use #krate::__private as __kompat;

            #(#spec_items)*

            #[automatically_derived]
            impl __kompat::FeatureGates for #ident {
                type Flags = [bool; #count];
                const ALL: &'static [Self] = &[#(Self::#variants),*];
                const NAMES: &'static [&'static str] = &[#(#names),*];

                fn specs() -> &'static [&'static [__kompat::FeatureSpec]] {
                    static SPECS: [&[__kompat::FeatureSpec]; #count] = #specs;
                    &SPECS
                }

                fn dependencies() -> &'static [&'static [usize]] {
                    static DEPENDENCIES: [&[usize]; #count] = #dependencies;
                    &DEPENDENCIES
                }

                fn descriptions() -> &'static [__kompat::Option<&'static str>] {
                    static DESCRIPTIONS: [__kompat::Option<&str>; #count] = #descriptions;
                    &DESCRIPTIONS
                }

                fn ratchets() -> &'static [__kompat::Option<__kompat::Ratchet>] {
                    static RATCHETS: [__kompat::Option<__kompat::Ratchet>; #count] = #ratchets;
                    &RATCHETS
                }

                #[inline]
                fn index(self) -> usize {
                    self as usize
                }

                fn from_index(index: usize) -> __kompat::Option<Self> {
                    <Self as __kompat::FeatureGates>::ALL.get(index).copied()
                }

                fn from_name(name: &str) -> __kompat::Option<Self> {
                    // Variant indices in byte order of their names.
                    static BY_NAME: [usize; #count] = [#(#by_name),*];
                    let names = <Self as __kompat::FeatureGates>::NAMES;
                    let found = BY_NAME.binary_search_by_key(&name, |&i| names.get(i).copied().unwrap_or_default());
                    let index = found.ok().and_then(|at| BY_NAME.get(at).copied())?;
                    <Self as __kompat::FeatureGates>::from_index(index)
                }

                fn feature_set() -> __kompat::Arc<__kompat::FeatureSet> {
                    static SET: __kompat::OnceLock<__kompat::Arc<__kompat::FeatureSet>> = __kompat::OnceLock::new();
                    <__kompat::Arc<__kompat::FeatureSet> as __kompat::Clone>::clone(
                        SET.get_or_init(|| __kompat::Arc::new(__kompat::build_feature_set::<Self>())),
                    )
                }
            }

            #inherent
        };
    })
}

/// The body of a table: `[item; N]` when every item is the same (no gate
/// has dependencies, a description, ...: the common case), else the list.
/// A repeat expression is one item for the compiler to check instead of one
/// per gate (issue 18).
fn repeat_or_list(items: impl Iterator<Item = TokenStream>) -> TokenStream {
    let items: Vec<TokenStream> = items.collect();
    if let Some((first, rest)) = items.split_first() {
        let text = first.to_string();
        if rest.iter().all(|item| item.to_string() == text) {
            let count = Literal::usize_unsuffixed(items.len());
            return quote!([#first; #count]);
        }
    }
    quote!([#(#items),*])
}

/// The completed specs of every gate: each distinct spec once as a `const`,
/// each distinct list once as a `static` of those constants, and the table
/// of references to the lists. Gates share most specs and many lists, and
/// one literal per spec of every gate (a `FeatureSpec` with its `Version`s
/// for each of them, and a promoted slice per gate) made the table most of
/// what the expansion cost to compile (issue 18). Returns the items and the
/// table's body.
fn spec_tables<'a>(lists: impl Iterator<Item = &'a [FeatureSpec]>) -> (Vec<TokenStream>, TokenStream) {
    let mut items = Vec::new();
    let mut spec_ids: HashMap<FeatureSpec, Ident> = HashMap::new();
    let mut list_ids: HashMap<&[FeatureSpec], Ident> = HashMap::new();
    let mut table = Vec::new();
    for list in lists {
        let next = list_ids.len();
        let id = list_ids.entry(list).or_insert_with(|| {
            let id = format_ident!("__KOMPAT_SPECS_{next}");
            let specs: Vec<Ident> = list
                .iter()
                .map(|spec| {
                    let next = spec_ids.len();
                    spec_ids
                        .entry(*spec)
                        .or_insert_with(|| {
                            let id = format_ident!("__KOMPAT_SPEC_{next}");
                            let value = spec_tokens(spec);
                            items.push(quote!(const #id: __kompat::FeatureSpec = #value;));
                            id
                        })
                        .clone()
                })
                .collect();
            let len = Literal::usize_unsuffixed(specs.len());
            items.push(quote!(static #id: [__kompat::FeatureSpec; #len] = [#(#specs),*];));
            id
        });
        table.push(quote!(&#id));
    }
    (items, repeat_or_list(table.into_iter()))
}

/// The variant indices sorted by name (byte order), for `from_name`'s
/// binary search: one array instead of a `match` over every name, which
/// cost more to compile than the rest of the expansion (issue 18). Lookups
/// by name on a gate go through the feature set's hashed index.
fn by_name(names: &[&str]) -> Vec<Literal> {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by_key(|&i| names[i]);
    order.into_iter().map(Literal::usize_unsuffixed).collect()
}

fn version_tokens(v: Version) -> TokenStream {
    let (major, minor) = (Literal::u32_unsuffixed(v.major), Literal::u32_unsuffixed(v.minor));
    quote!(__kompat::Version::new(#major, #minor))
}

fn spec_tokens(spec: &FeatureSpec) -> TokenStream {
    let version = version_tokens(spec.version);
    let stage = format_ident!("{}", spec.stage.name());
    let (default, lock) = (spec.default, spec.lock_to_default);
    let mcv = match spec.min_compatibility_version {
        Some(v) => {
            let v = version_tokens(v);
            quote!(__kompat::Some(#v))
        }
        None => quote!(__kompat::None),
    };
    quote! {
        __kompat::FeatureSpec {
            version: #version,
            default: #default,
            lock_to_default: #lock,
            stage: __kompat::Stage::#stage,
            min_compatibility_version: #mcv,
        }
    }
}

/// `#[derive(ApiLifecycle)]`.
pub fn derive_api(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let Some((ast, api)) = valid::api_lifecycle(&cx, input) else {
        return cx.check().err().map(|err| err.into_compile_error()).unwrap_or_default();
    };
    let result = cx.check().and_then(|()| match (&api, ast.decl()) {
        (Some(api), Some(decl)) => Ok(impl_api(&ast, &decl, api)),
        // Unreachable when validation reported nothing; never panic.
        _ => Err(syn::Error::new_spanned(ast.ident, "kompat internal error: API declaration without a result")),
    });
    match result {
        Ok(tokens) => tokens,
        Err(err) => {
            let mut tokens = err.into_compile_error();
            tokens.extend(fallback::expand_api(&ast));
            tokens
        }
    }
}

fn impl_api(input: &ApiInput, decl: &ApiDecl, api: &Api) -> TokenStream {
    let krate = krate(&input.attrs.krate);
    let ident = input.ident;
    let (impl_generics, ty_generics, where_clause) = input.original.generics.split_for_impl();
    let (group, version, kind, resource) = (&decl.group, &decl.version, &decl.kind, &decl.resource);
    let option_version = |v: Option<Version>| match v {
        Some(v) => {
            let v = version_tokens(v);
            quote!(__kompat::Some(#v))
        }
        None => quote!(__kompat::None),
    };
    let introduced = version_tokens(api.lifecycle.introduced);
    let (written_deprecated, written_removed) = (option_version(decl.deprecated), option_version(decl.removed));
    let (deprecated, removed) = (option_version(api.lifecycle.deprecated), option_version(api.lifecycle.removed));
    let replacement = match &api.replacement {
        Some(gvk) => {
            let (group, version, kind) = (&gvk.group, &gvk.version, &gvk.kind);
            quote!(__kompat::Some(__kompat::StaticGvk { group: #group, version: #version, kind: #kind }))
        }
        None => quote!(__kompat::None),
    };
    let written_enabled = match decl.enabled_by_default {
        Some(b) => quote!(__kompat::Some(#b)),
        None => quote!(__kompat::None),
    };
    let enabled = api.enabled_by_default;
    quote! {
        const _: () = {
            use #krate::__private as __kompat;

            #[automatically_derived]
            impl #impl_generics __kompat::ApiLifecycle for #ident #ty_generics #where_clause {
                const API: __kompat::ApiEntry = __kompat::ApiEntry {
                    group: #group,
                    version: #version,
                    kind: #kind,
                    resource: #resource,
                    introduced: #introduced,
                    deprecated: #written_deprecated,
                    removed: #written_removed,
                    replacement: #replacement,
                    enabled_by_default: #written_enabled,
                };
                const INTRODUCED: __kompat::Version = #introduced;
                const DEPRECATED: __kompat::Option<__kompat::Version> = #deprecated;
                const REMOVED: __kompat::Option<__kompat::Version> = #removed;
                const REPLACEMENT: __kompat::Option<__kompat::StaticGvk> = #replacement;
                const ENABLED_BY_DEFAULT: bool = #enabled;
            }
        };
    }
}
