//! Values of keys: string, bool and version literals, stages, `crate = "path"`,
//! nested lists, and a key that may be given once ([`Once`]). Every mistake is
//! recorded in the [`Ctxt`] at the offending token and the value is skipped.

use kompat_runtime::{Stage, Version, VersionLit};
use proc_macro2::{Group, TokenStream};
use quote::{quote, ToTokens};
use syn::meta::ParseNestedMeta;
use syn::parse::discouraged::Speculative;
use syn::{Expr, ExprLit, Lit, LitBool, LitStr, Path, Token};

use super::suggest::{skip_value, KeyPlace};
use super::symbol::*;
use crate::ctxt::Ctxt;

/// A version literal with the string literal it came from.
#[derive(Clone)]
pub struct VersionAttr {
    pub value: VersionLit,
    pub lit: LitStr,
}

/// A stage with the string literal it came from.
#[derive(Clone)]
pub struct StageAttr {
    pub value: Stage,
    pub lit: LitStr,
}

/// A release (`MAJOR.MINOR`) with the string literal it came from.
#[derive(Clone)]
pub struct ReleaseAttr {
    pub value: Version,
    pub lit: LitStr,
}

/// A key that may be given once: the second occurrence is an error at its span.
pub(crate) struct Once<'c, T> {
    pub(crate) cx: &'c Ctxt,
    pub(crate) key: Symbol,
    pub(crate) level: KeyPlace,
    pub(crate) value: Option<T>,
    /// Whether the key was written at all (even with an invalid value).
    pub(crate) seen: bool,
}

impl<'c, T> Once<'c, T> {
    pub(crate) fn new(cx: &'c Ctxt, key: Symbol, level: KeyPlace) -> Self {
        Once { cx, key, level, value: None, seen: false }
    }

    pub(crate) fn seen(&mut self) {
        self.seen = true;
    }

    pub(crate) fn set<A: ToTokens>(&mut self, obj: A, value: T) {
        if self.value.is_some() {
            self.cx.error_spanned_by(obj, format_args!("duplicate key `{}` in {}", self.key, self.level.what));
        } else {
            self.value = Some(value);
        }
    }
}

/// `crate = "path"`, on either derive's type.
pub(crate) fn parse_crate(cx: &Ctxt, meta: &ParseNestedMeta, krate: &mut Once<Path>) -> syn::Result<()> {
    if let Some(lit) = lit_str(cx, meta, CRATE, "kompat")? {
        match lit.parse::<Path>() {
            Ok(path) => krate.set(&meta.path, path),
            Err(_) => cx.error_spanned_by(&lit, "`crate` must be a path, e.g. `crate = \"kompat\"`"),
        }
    }
    Ok(())
}

/// `key = "MAJOR.MINOR"` for an API lifecycle, checked as the TOML reader
/// checks it (`Version::parse`, Kubernetes' messages).
pub(crate) fn release_lit(cx: &Ctxt, meta: &ParseNestedMeta, key: Symbol) -> syn::Result<Option<ReleaseAttr>> {
    let Some(lit) = version_str(cx, meta, key)? else {
        return Ok(None);
    };
    match Version::parse(&lit.value()) {
        Ok(value) => Ok(Some(ReleaseAttr { value, lit })),
        Err(err) => {
            cx.error_spanned_by(&lit, err);
            Ok(None)
        }
    }
}

/// `meta.parse_nested_meta`, accepting an empty list `key()` (whose
/// missing keys the caller reports).
pub(crate) fn parse_nested(
    meta: &ParseNestedMeta,
    logic: impl FnMut(ParseNestedMeta) -> syn::Result<()>,
) -> syn::Result<()> {
    let fork = meta.input.fork();
    let content;
    syn::parenthesized!(content in fork);
    if content.is_empty() {
        meta.input.parse::<Group>()?;
        return Ok(());
    }
    meta.parse_nested_meta(logic)
}

/// The tokens of `key(...)` for spans; records an error and skips the value
/// when it is not a parenthesised list.
pub(crate) fn list_tokens(cx: &Ctxt, meta: &ParseNestedMeta, example: &str) -> syn::Result<Option<TokenStream>> {
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(&meta.path, format_args!("expected `{example}`"));
        skip_value(meta)?;
        return Ok(None);
    }
    let group: Group = meta.input.fork().parse()?;
    let path = &meta.path;
    Ok(Some(quote!(#path #group)))
}

/// `key = "..."`: `None` (error recorded) for any other expression.
pub(crate) fn lit_str(cx: &Ctxt, meta: &ParseNestedMeta, key: Symbol, example: &str) -> syn::Result<Option<LitStr>> {
    let expr = value_expr(meta)?;
    match expr {
        Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) => Ok(Some(lit)),
        other => {
            cx.error_spanned_by(other, format_args!("expected a string literal: `{key} = \"{example}\"`"));
            Ok(None)
        }
    }
}

/// `key = true|false`.
pub(crate) fn lit_bool(cx: &Ctxt, meta: &ParseNestedMeta, key: Symbol) -> syn::Result<Option<LitBool>> {
    let expr = value_expr(meta)?;
    match expr {
        Expr::Lit(ExprLit { lit: Lit::Bool(lit), .. }) => Ok(Some(lit)),
        other => {
            cx.error_spanned_by(other, format_args!("expected `{key} = true` or `{key} = false`"));
            Ok(None)
        }
    }
}

/// The value of `key = value`. A literal followed by `,` or the end of the
/// list (nearly every value) is read as a literal, which is what syn's
/// expression parser would return for it, without running that parser (a
/// good part of the derive's time on 1,000 gates; issue 18); anything else
/// is parsed as an expression, as before.
fn value_expr(meta: &ParseNestedMeta) -> syn::Result<Expr> {
    let input = meta.value()?;
    let fork = input.fork();
    // syn reads `-1` as one literal, the expression parser as a negation.
    if input.peek(Token![-]) {
        return input.parse();
    }
    if let Ok(lit) = fork.parse::<Lit>() {
        if fork.is_empty() || fork.peek(Token![,]) {
            input.advance_to(&fork);
            return Ok(Expr::Lit(ExprLit { attrs: Vec::new(), lit }));
        }
    }
    input.parse()
}

/// `key = "MAJOR.MINOR"`. A patch component parses here and is rejected by
/// validation with Kubernetes' message; anything else that is not a version
/// is an error at the literal.
pub(crate) fn version_lit(cx: &Ctxt, meta: &ParseNestedMeta, key: Symbol) -> syn::Result<Option<VersionAttr>> {
    let Some(lit) = version_str(cx, meta, key)? else {
        return Ok(None);
    };
    match VersionLit::parse(&lit.value()) {
        Ok(value) => Ok(Some(VersionAttr { value, lit })),
        Err(err) => {
            cx.error_spanned_by(&lit, err);
            Ok(None)
        }
    }
}

/// The string literal of `key = "1.0"`; a number or any other expression is
/// an error at it (a number with a hint: 1.10 would read as 1.1).
pub(crate) fn version_str(cx: &Ctxt, meta: &ParseNestedMeta, key: Symbol) -> syn::Result<Option<LitStr>> {
    let expr = value_expr(meta)?;
    match expr {
        Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) => Ok(Some(lit)),
        Expr::Lit(ExprLit { lit: Lit::Float(lit), .. }) => {
            cx.error_spanned_by(
                &lit,
                format_args!("expected a string literal: `{key} = \"{lit}\"` (as a number, 1.10 would read as 1.1)"),
            );
            Ok(None)
        }
        other => {
            cx.error_spanned_by(other, format_args!("expected a string literal: `{key} = \"1.0\"`"));
            Ok(None)
        }
    }
}

/// `stage = "Alpha"|"Beta"|"GA"|"Deprecated"`.
pub(crate) fn stage_lit(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<StageAttr>> {
    let Some(lit) = lit_str(cx, meta, STAGE, "Beta")? else {
        return Ok(None);
    };
    let name = lit.value();
    if let Some(value) = Stage::from_name(&name) {
        return Ok(Some(StageAttr { value, lit }));
    }
    let hint = Stage::DECLARABLE
        .iter()
        .find(|s| s.name().eq_ignore_ascii_case(&name) || s.runtime_str().eq_ignore_ascii_case(&name))
        .map(|s| s.name())
        .or_else(|| matches!(name.to_ascii_lowercase().as_str(), "stable" | "ga" | "general").then_some("GA"));
    let expected = "expected one of \"Alpha\", \"Beta\", \"GA\", \"Deprecated\"";
    match hint {
        Some(hint) => cx.error_spanned_by(&lit, format_args!("unknown stage {name:?}; did you mean \"{hint}\"?")),
        None => cx.error_spanned_by(&lit, format_args!("unknown stage {name:?}; {expected}")),
    }
    Ok(None)
}
