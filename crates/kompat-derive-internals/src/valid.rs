//! Validation: `kompat_engine::validate` on the enum's declarations, each
//! problem reported at the span of the attribute or value it is about, plus
//! the few rules that only exist because a gate is an enum variant; and
//! `kompat_engine::api::ApiSet::build` on an API type's declaration.
//!
//! The rules and message texts are the core's; nothing here re-implements
//! them. The core reports problems by index (`decl`, `spec`, `Field`); this
//! module maps indices to spans.
//!
//! [`feature_gates`] and [`api_lifecycle`] are everything a derive checks
//! before it expands: the macros call them, and so does kompat's source
//! reader, so `kompat lint` reports exactly the compiler's errors.

use std::collections::HashMap;

use kompat_engine::api::{Api, ApiConfig, ApiField, ApiSet};
use kompat_engine::{FeatureDecl, Field, Problem, ProblemKind, Validated};
use kompat_runtime::gate::builtin_specs;
use proc_macro2::TokenStream;
use quote::ToTokens;

use syn::DeriveInput;

use crate::ast::{ApiInput, Input, Variant};
use crate::attr::ApiAttr;
use crate::ctxt::Ctxt;

/// Parses and validates a `#[derive(FeatureGates)]` input, recording every
/// error in `cx`: what the derive reports. `None` when the input is not an
/// enum at all; otherwise the parsed enum and the core's result, whose
/// feature set is in variant order when `cx` holds no errors.
pub fn feature_gates<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<(Input<'a>, Validated)> {
    let ast = Input::from_syn(cx, input)?;
    let validated = validate(&ast, cx);
    Some((ast, validated))
}

/// Parses and validates a `#[derive(ApiLifecycle)]` input, recording every
/// error in `cx`: what the derive reports. `None` when the input is a union;
/// otherwise the parsed type and, when it is valid, its completed API.
pub fn api_lifecycle<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<(ApiInput<'a>, Option<Api>)> {
    let ast = ApiInput::from_syn(cx, input)?;
    let api = validate_api(&ast, cx);
    Some((ast, api))
}

/// Validates every variant of `input` that parsed cleanly and records each
/// problem in `cx`. Returns the core's result, whose feature set is in variant
/// order when `cx` holds no errors.
pub fn validate(input: &Input, cx: &Ctxt) -> Validated {
    let included: Vec<&Variant> = input.variants.iter().filter(|v| !v.broken).collect();
    let broken: Vec<String> = input.variants.iter().filter(|v| v.broken).map(Variant::name).collect();
    let decls: Vec<FeatureDecl> = included.iter().map(|v| v.decl(input)).collect();
    let validated = kompat_engine::validate(&decls);
    for problem in &validated.problems {
        let Some(variant) = included.get(problem.decl) else {
            continue;
        };
        if problem.kind == ProblemKind::UnknownDependency && refers_to(problem, &decls, &broken) {
            // The dependency is a variant whose attributes have errors.
            continue;
        }
        cx.error_spanned_by(problem_tokens(variant, problem), &problem.message);
    }
    check_names(cx, &included, &validated);
    validated
}

/// Whether a dependency problem is about one of `names`.
fn refers_to(problem: &Problem, decls: &[FeatureDecl], names: &[String]) -> bool {
    let Field::Dependency(pos) = problem.field else {
        return false;
    };
    decls.get(problem.decl).and_then(|d| d.dependencies.get(pos)).is_some_and(|dep| names.contains(dep))
}

/// The tokens a problem points at: the value of the field it names, else the
/// whole `spec(...)`, else the gate name.
fn problem_tokens(variant: &Variant, problem: &Problem) -> TokenStream {
    if let Field::Dependency(pos) = problem.field {
        if let Some(dep) = variant.attrs.depends_on.get(pos) {
            return dep.to_token_stream();
        }
    }
    let Some(spec) = problem.spec.and_then(|idx| variant.attrs.specs.get(idx)) else {
        return variant.name_tokens();
    };
    let value = match problem.field {
        Field::Version => spec.version.as_ref().map(|v| v.lit.to_token_stream()),
        Field::Stage => spec.stage.as_ref().map(|s| s.lit.to_token_stream()),
        Field::Default => spec.default.as_ref().map(ToTokens::to_token_stream),
        Field::LockToDefault => spec.locked.as_ref().map(ToTokens::to_token_stream),
        Field::MinCompatibilityVersion => spec.min_compatibility.as_ref().map(|v| v.lit.to_token_stream()),
        Field::Feature | Field::Spec | Field::Dependency(_) => None,
    };
    value.unwrap_or_else(|| spec.tokens.clone())
}

/// Each variant must register a gate of its own, or `variant as usize` would
/// not index the feature set. The core accepts a name declared twice with
/// identical specs and skips `AllAlpha`/`AllBeta` when their specs match the
/// built-in ones; here both are errors. (Conflicting specs are already
/// reported by the core.)
fn check_names(cx: &Ctxt, variants: &[&Variant], validated: &Validated) {
    let conflicting = |idx: usize| {
        validated.problems.iter().any(|p| p.decl == idx && p.kind == ProblemKind::ConflictingRedeclaration)
    };
    // Each name's first variant: one pass, each name computed once (a
    // search of the earlier variants for every variant was quadratic, and
    // most of the derive's time on 1,000 gates; issue 18).
    let mut first_of: HashMap<String, &Variant> = HashMap::new();
    for (idx, variant) in variants.iter().enumerate() {
        let name = variant.name();
        let first = first_of.get(&name).copied();
        if first.is_none() {
            first_of.insert(name.clone(), variant);
        }
        if conflicting(idx) {
            continue;
        }
        if builtin_specs(&name).is_some() {
            cx.error_spanned_by(
                variant.name_tokens(),
                format_args!("`{name}` is a built-in gate of every feature gate; choose another name"),
            );
        } else if let Some(first) = first {
            cx.error_spanned_by(
                variant.name_tokens(),
                format_args!("duplicate gate name `{name}`: variant `{}` already registers it", first.ident),
            );
        }
    }
}

/// Validates the declaration of an API type with `ApiSet::build`, the same
/// checks and messages as an `[[api]]` TOML entry, each problem recorded at
/// the value it is about. Returns the completed API when it is valid.
///
/// When some keys had errors, the keys that parsed are still checked, but
/// only problems about a value that is written are reported: a missing
/// `introduced` whose literal was invalid would be a follow-on error.
pub fn validate_api(input: &ApiInput, cx: &Ctxt) -> Option<Api> {
    let api = input.attrs.api.as_ref()?;
    let decl = input.partial_decl()?;
    match ApiSet::build(&ApiConfig { apis: vec![decl], ..ApiConfig::default() }) {
        Ok(set) if !api.broken => set.apis().first().cloned(),
        Ok(_) => None,
        Err(problems) => {
            for problem in problems {
                match field_tokens(input, api, &problem.field) {
                    Some(tokens) => cx.error_spanned_by(tokens, &problem),
                    None if !api.broken => cx.error_spanned_by(&api.tokens, &problem),
                    None => {}
                }
            }
            None
        }
    }
}

/// The tokens of the value a problem about `field` is about, if written
/// (the type's name for a defaulted kind).
fn field_tokens(input: &ApiInput, api: &ApiAttr, field: &ApiField) -> Option<TokenStream> {
    let lit = |lit: &Option<syn::LitStr>| lit.as_ref().map(ToTokens::to_token_stream);
    match field {
        ApiField::Group => lit(&api.group),
        ApiField::Version => lit(&api.version),
        ApiField::Kind => lit(&api.kind).or_else(|| Some(input.ident.to_token_stream())),
        ApiField::Resource => lit(&api.resource),
        ApiField::Introduced => api.introduced.as_ref().map(|r| r.lit.to_token_stream()),
        ApiField::Deprecated => api.deprecated.as_ref().map(|r| r.lit.to_token_stream()),
        ApiField::Removed => api.removed.as_ref().map(|r| r.lit.to_token_stream()),
        ApiField::Replacement => lit(&api.replacement),
        ApiField::EnabledByDefault => api.enabled_by_default.as_ref().map(ToTokens::to_token_stream),
        ApiField::Entry | ApiField::Priority { .. } | ApiField::StorageOverride { .. } => None,
    }
}
