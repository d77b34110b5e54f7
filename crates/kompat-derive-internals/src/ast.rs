//! The typed IR of a `#[derive(FeatureGates)]` enum and of a
//! `#[derive(ApiLifecycle)]` type, linked back to the `syn` input for spans,
//! and their conversion into `kompat-engine` declarations.
//!
//! `kompat lint` (through `kompat-project`) calls [`Input::from_syn`] on every
//! `#[derive(FeatureGates)]` enum it finds in source, then [`Input::decls`] to
//! lint them as declarations.

use kompat_engine::api::ApiDecl;
use kompat_engine::{FeatureDecl, SpecDecl};
use kompat_runtime::Ratchet;
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{Data, DeriveInput, Fields, Ident};

use crate::attr;
use crate::ctxt::Ctxt;

/// A fieldless enum with its attributes.
pub struct Input<'a> {
    pub original: &'a DeriveInput,
    pub ident: &'a Ident,
    pub attrs: attr::Container,
    pub variants: Vec<Variant<'a>>,
}

/// One variant: one feature gate.
pub struct Variant<'a> {
    pub original: &'a syn::Variant,
    pub ident: &'a Ident,
    pub attrs: attr::Variant,
    /// Whether parsing this variant recorded an error. Such a variant's
    /// declaration is left out of validation, so that a half-parsed variant
    /// causes no follow-on problems.
    pub broken: bool,
}

impl<'a> Input<'a> {
    /// Parses the enum, recording every mistake in `cx`. `None` when the input
    /// is not an enum at all.
    pub fn from_syn(cx: &Ctxt, input: &'a DeriveInput) -> Option<Input<'a>> {
        let data = match &input.data {
            Data::Enum(data) => data,
            Data::Struct(data) => {
                cx.error_spanned_by(data.struct_token, "#[derive(FeatureGates)] is only for fieldless enums");
                return None;
            }
            Data::Union(data) => {
                cx.error_spanned_by(data.union_token, "#[derive(FeatureGates)] is only for fieldless enums");
                return None;
            }
        };
        if !input.generics.params.is_empty() || input.generics.where_clause.is_some() {
            cx.error_spanned_by(&input.generics, "#[derive(FeatureGates)] does not support generic enums");
        }
        if data.variants.is_empty() {
            cx.error_spanned_by(
                &input.ident,
                "#[derive(FeatureGates)] needs at least one variant (one per feature gate)",
            );
        }
        let attrs = attr::Container::from_ast(cx, &input.attrs);
        let variants = data
            .variants
            .iter()
            .map(|variant| {
                let before = cx.error_count();
                if !matches!(variant.fields, Fields::Unit) {
                    cx.error_spanned_by(
                        &variant.fields,
                        "#[derive(FeatureGates)] requires unit variants: a variant is a feature gate and carries no data",
                    );
                }
                if let Some((eq, expr)) = &variant.discriminant {
                    cx.error_spanned_by(
                        quote::quote!(#eq #expr),
                        "#[derive(FeatureGates)] assigns variant indices itself; remove the explicit discriminant",
                    );
                }
                let attrs = attr::Variant::from_ast(cx, variant);
                Variant { original: variant, ident: &variant.ident, attrs, broken: cx.error_count() > before }
            })
            .collect();
        Some(Input { original: input, ident: &input.ident, attrs, variants })
    }

    /// The variant with this Rust name.
    pub fn variant(&self, ident: &Ident) -> Option<&Variant<'a>> {
        self.variants.iter().find(|v| v.ident == ident)
    }

    /// The declarations of every variant, in order. Dependencies name gates
    /// (a variant's `name` override applies); an identifier that is no
    /// variant is kept as written, for validation to report.
    pub fn decls(&self) -> Vec<FeatureDecl> {
        self.variants.iter().map(|v| v.decl(self)).collect()
    }
}

impl Variant<'_> {
    /// The gate name: the `name` override, else the variant name.
    pub fn name(&self) -> String {
        match &self.attrs.name {
            Some(lit) => lit.value(),
            None => self.ident.to_string(),
        }
    }

    /// The tokens naming the gate, for spans: the `name` literal or the ident.
    pub fn name_tokens(&self) -> TokenStream {
        match &self.attrs.name {
            Some(lit) => lit.to_token_stream(),
            None => self.ident.to_token_stream(),
        }
    }

    /// The declaration as written. Keys that failed to parse are left at
    /// their defaults; callers skip [`Variant::broken`] variants.
    pub fn decl(&self, input: &Input) -> FeatureDecl {
        let specs = self
            .attrs
            .specs
            .iter()
            .map(|s| SpecDecl {
                version: s.version.as_ref().map(|v| v.value.clone()),
                default: s.default.as_ref().is_some_and(|b| b.value),
                lock_to_default: s.locked.as_ref().is_some_and(|b| b.value),
                stage: s.stage.as_ref().map_or(kompat_runtime::Stage::Alpha, |s| s.value),
                min_compatibility_version: s.min_compatibility.as_ref().map(|v| v.value.clone()),
            })
            .collect();
        let dependencies = self
            .attrs
            .depends_on
            .iter()
            .map(|dep| input.variant(dep).map_or_else(|| dep.to_string(), Variant::name))
            .collect();
        FeatureDecl {
            name: self.name(),
            specs,
            dependencies,
            description: self.attrs.description.clone(),
            ratchet: self.attrs.ratchet.as_ref().map(|r| Ratchet { tolerated_since: r.tolerated_since }),
        }
    }
}

/// A `#[derive(ApiLifecycle)]` type: one API version of a kind.
pub struct ApiInput<'a> {
    pub original: &'a DeriveInput,
    pub ident: &'a Ident,
    pub attrs: attr::ApiContainer,
}

impl<'a> ApiInput<'a> {
    /// Parses the type's attributes, recording every mistake in `cx`. `None`
    /// when the input is a union.
    pub fn from_syn(cx: &Ctxt, input: &'a DeriveInput) -> Option<ApiInput<'a>> {
        if let Data::Union(data) = &input.data {
            cx.error_spanned_by(data.union_token, "#[derive(ApiLifecycle)] is for API types: structs and enums");
            return None;
        }
        let attrs = attr::ApiContainer::from_ast(cx, &input.attrs, &input.ident);
        Some(ApiInput { original: input, ident: &input.ident, attrs })
    }

    /// The kind: `kind = "..."`, else the type's name.
    pub fn kind(&self) -> String {
        match self.attrs.api.as_ref().and_then(|api| api.kind.as_ref()) {
            Some(lit) => lit.value(),
            None => self.ident.to_string(),
        }
    }

    /// The declaration as written; `None` without a cleanly parsed `api(...)`.
    pub fn decl(&self) -> Option<ApiDecl> {
        self.attrs.api.as_ref().filter(|api| !api.broken)?;
        self.partial_decl()
    }

    /// The declaration from the keys that parsed, even if others had errors
    /// (those are left at their defaults); `None` without `api(...)`.
    pub fn partial_decl(&self) -> Option<ApiDecl> {
        let api = self.attrs.api.as_ref()?;
        let text = |lit: &Option<syn::LitStr>| lit.as_ref().map(syn::LitStr::value).unwrap_or_default();
        Some(ApiDecl {
            group: text(&api.group),
            version: text(&api.version),
            kind: self.kind(),
            resource: text(&api.resource),
            introduced: api.introduced.as_ref().map(|r| r.value),
            deprecated: api.deprecated.as_ref().map(|r| r.value),
            removed: api.removed.as_ref().map(|r| r.value),
            replacement: api.replacement.as_ref().map(syn::LitStr::value),
            enabled_by_default: api.enabled_by_default.as_ref().map(|b| b.value),
        })
    }
}
