//! `#[derive(FeatureGates)]`'s attributes: `#[kompat(crate = ...)]` on the
//! enum, and on each variant `name`, `spec(...)`, `depends_on(...)`,
//! `ratchet(...)`, `allow(...)` and the doc comment.

use kompat_runtime::Version;
use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, Ident, LitBool, LitStr, Path, Token};

use super::builtin::doc_comment;
use super::lit::*;
use super::suggest::*;
use super::symbol::*;
use crate::ctxt::Ctxt;

/// `#[kompat(...)]` on the enum.
#[derive(Default)]
pub struct Container {
    /// `crate = "path"`: where generated code finds kompat (default `::kompat`).
    pub krate: Option<Path>,
}

/// One `spec(...)`; keys that are absent or had errors are `None`.
pub struct Spec {
    /// The whole `spec(...)`, for spans.
    pub tokens: TokenStream,
    pub version: Option<VersionAttr>,
    pub stage: Option<StageAttr>,
    pub default: Option<LitBool>,
    pub locked: Option<LitBool>,
    pub min_compatibility: Option<VersionAttr>,
}

/// `ratchet(tolerated_since = "1.31")`.
pub struct RatchetAttr {
    pub tokens: TokenStream,
    pub tolerated_since: Version,
}

/// `allow(code = "...", reason = "...")`.
pub struct Allow {
    pub tokens: TokenStream,
    pub code: LitStr,
    pub reason: LitStr,
}

/// Every `#[kompat(...)]` of a variant, plus its doc comment.
#[derive(Default)]
pub struct Variant {
    /// `name = "..."`: the gate name, when it differs from the variant name.
    pub name: Option<LitStr>,
    pub specs: Vec<Spec>,
    pub depends_on: Vec<Ident>,
    pub ratchet: Option<RatchetAttr>,
    pub allows: Vec<Allow>,
    /// The doc comment, lines joined with `\n`.
    pub description: Option<String>,
}

impl Container {
    /// Parses `#[kompat(...)]` on the enum.
    pub fn from_ast(cx: &Ctxt, attrs: &[Attribute]) -> Container {
        let mut krate = Once::new(cx, CRATE, ENUM_LEVEL);
        for attr in attrs.iter().filter(|a| a.path() == KOMPAT) {
            let result = attr.parse_nested_meta(|meta| {
                if meta.path == CRATE {
                    // #[kompat(crate = "kompat")]
                    parse_crate(cx, &meta, &mut krate)
                } else {
                    unknown_key(cx, &meta, ENUM_LEVEL)
                }
            });
            if let Err(err) = result {
                cx.syn_error(err);
            }
        }
        Container { krate: krate.value }
    }
}

impl Variant {
    /// Parses every `#[kompat(...)]` of a variant and its doc comment.
    pub fn from_ast(cx: &Ctxt, variant: &syn::Variant) -> Variant {
        let mut name = Once::new(cx, NAME, VARIANT_LEVEL);
        let mut ratchet = Once::new(cx, RATCHET, VARIANT_LEVEL);
        let mut specs = Vec::new();
        let mut depends_on = Vec::new();
        let mut allows = Vec::new();
        // Whether `spec` was written at all, or an attribute failed to parse:
        // then a missing spec would be a follow-on error.
        let mut spec_written = false;
        for attr in &variant.attrs {
            if attr.path() == FEATURE {
                spec_written = true;
                cx.error_spanned_by(
                    attr,
                    "feature gate attributes are written `#[kompat(...)]`; `feature` is rustc's crate-level attribute",
                );
                continue;
            }
            if attr.path() != KOMPAT {
                continue;
            }
            let result = attr.parse_nested_meta(|meta| {
                if meta.path == NAME {
                    // #[kompat(name = "KMSv1")]
                    if let Some(lit) = lit_str(cx, &meta, NAME, "KMSv1")? {
                        let value = lit.value();
                        if value.is_empty() || value.contains(|c: char| c.is_whitespace() || c == ',' || c == '=') {
                            cx.error_spanned_by(
                                &lit,
                                "a gate name must be non-empty and contain no whitespace, `,` or `=`",
                            );
                        } else {
                            name.set(&meta.path, lit);
                        }
                    }
                    Ok(())
                } else if meta.path == SPEC {
                    // #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
                    spec_written = true;
                    if let Some(spec) = parse_spec(cx, &meta)? {
                        specs.push(spec);
                    }
                    Ok(())
                } else if meta.path == DEPENDS_ON {
                    // #[kompat(depends_on(WatchList, KmsV1))]
                    depends_on.extend(parse_idents(cx, &meta)?);
                    Ok(())
                } else if meta.path == RATCHET {
                    // #[kompat(ratchet(tolerated_since = "1.31"))]
                    if let Some(value) = parse_ratchet(cx, &meta)? {
                        ratchet.set(&meta.path, value);
                    }
                    Ok(())
                } else if meta.path == ALLOW {
                    // #[kompat(allow(code = "orphaned-gate", reason = "..."))]
                    if let Some(allow) = parse_allow(cx, &meta)? {
                        allows.push(allow);
                    }
                    Ok(())
                } else {
                    unknown_key(cx, &meta, VARIANT_LEVEL)
                }
            });
            if let Err(err) = result {
                spec_written = true;
                cx.syn_error(err);
            }
        }
        if !spec_written && variant.fields.is_empty() {
            cx.error_spanned_by(
                &variant.ident,
                format_args!(
                    "missing `#[kompat(spec(...))]` on `{}`: a feature gate needs at least one versioned spec, e.g. `#[kompat(spec(version = \"1.0\", stage = \"Alpha\", default = false))]`",
                    variant.ident
                ),
            );
        }
        Variant {
            name: name.value,
            specs,
            depends_on,
            ratchet: ratchet.value,
            allows,
            description: doc_comment(&variant.attrs),
        }
    }
}

/// `spec(...)`: returns `None` only when it is not a parenthesised list.
fn parse_spec(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Spec>> {
    let Some(tokens) = list_tokens(cx, meta, "spec(version = \"1.0\", stage = \"Alpha\", default = false)")? else {
        return Ok(None);
    };
    let mut version = Once::new(cx, VERSION, SPEC_LEVEL);
    let mut stage = Once::new(cx, STAGE, SPEC_LEVEL);
    let mut default = Once::new(cx, DEFAULT, SPEC_LEVEL);
    let mut locked = Once::new(cx, LOCKED, SPEC_LEVEL);
    let mut min_compatibility = Once::new(cx, MIN_COMPATIBILITY, SPEC_LEVEL);
    parse_nested(meta, |inner| {
        if inner.path == VERSION {
            // version = "1.27"
            version.seen();
            if let Some(v) = version_lit(cx, &inner, VERSION)? {
                version.set(&inner.path, v);
            }
        } else if inner.path == STAGE {
            // stage = "Beta"
            stage.seen();
            if let Some(s) = stage_lit(cx, &inner)? {
                stage.set(&inner.path, s);
            }
        } else if inner.path == DEFAULT {
            // default = true
            default.seen();
            if let Some(b) = lit_bool(cx, &inner, DEFAULT)? {
                default.set(&inner.path, b);
            }
        } else if inner.path == LOCKED {
            // locked = true
            if let Some(b) = lit_bool(cx, &inner, LOCKED)? {
                locked.set(&inner.path, b);
            }
        } else if inner.path == MIN_COMPATIBILITY {
            // min_compatibility = "1.37"
            if let Some(v) = version_lit(cx, &inner, MIN_COMPATIBILITY)? {
                min_compatibility.set(&inner.path, v);
            }
        } else {
            unknown_key(cx, &inner, SPEC_LEVEL)?;
        }
        Ok(())
    })?;
    if !stage.seen {
        cx.error_spanned_by(
            &tokens,
            "missing `stage` in `spec(...)`: expected one of \"Alpha\", \"Beta\", \"GA\", \"Deprecated\"",
        );
    }
    if !default.seen {
        cx.error_spanned_by(
            &tokens,
            "missing `default` in `spec(...)`: expected `default = true` or `default = false`",
        );
    }
    Ok(Some(Spec {
        tokens,
        version: version.value,
        stage: stage.value,
        default: default.value,
        locked: locked.value,
        min_compatibility: min_compatibility.value,
    }))
}

/// `ratchet(tolerated_since = "1.31")`.
fn parse_ratchet(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<RatchetAttr>> {
    let Some(tokens) = list_tokens(cx, meta, "ratchet(tolerated_since = \"1.31\")")? else {
        return Ok(None);
    };
    let mut since = Once::new(cx, TOLERATED_SINCE, RATCHET_LEVEL);
    let mut had_error = false;
    parse_nested(meta, |inner| {
        let before = cx.error_count();
        if inner.path == TOLERATED_SINCE {
            // tolerated_since = "1.31"
            if let Some(v) = version_lit(cx, &inner, TOLERATED_SINCE)? {
                match v.value.as_major_minor() {
                    Some(version) => since.set(&inner.path, version),
                    None => cx.error_spanned_by(
                        &v.lit,
                        format_args!("invalid version {:?}: expected MAJOR.MINOR", v.lit.value()),
                    ),
                }
            }
        } else {
            unknown_key(cx, &inner, RATCHET_LEVEL)?;
        }
        had_error |= cx.error_count() > before;
        Ok(())
    })?;
    match since.value {
        Some(tolerated_since) => Ok(Some(RatchetAttr { tokens, tolerated_since })),
        None => {
            if !had_error {
                cx.error_spanned_by(
                    &tokens,
                    "missing `tolerated_since` in `ratchet(...)`, e.g. `tolerated_since = \"1.31\"`",
                );
            }
            Ok(None)
        }
    }
}

/// `allow(code = "...", reason = "...")`: both keys mandatory, non-empty.
fn parse_allow(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Allow>> {
    let Some(tokens) = list_tokens(cx, meta, "allow(code = \"orphaned-gate\", reason = \"...\")")? else {
        return Ok(None);
    };
    let mut code = Once::new(cx, CODE, ALLOW_LEVEL);
    let mut reason = Once::new(cx, REASON, ALLOW_LEVEL);
    let mut had_error = false;
    parse_nested(meta, |inner| {
        let before = cx.error_count();
        if inner.path == CODE {
            // code = "orphaned-gate"
            if let Some(lit) = lit_str(cx, &inner, CODE, "orphaned-gate")? {
                let value = lit.value();
                if value.is_empty() || !value.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                {
                    cx.error_spanned_by(&lit, "a lint code is kebab-case, e.g. `code = \"orphaned-gate\"`");
                } else {
                    code.set(&inner.path, lit);
                }
            }
        } else if inner.path == REASON {
            // reason = "kept for the 1.36 rollback window"
            if let Some(lit) = lit_str(cx, &inner, REASON, "...")? {
                if lit.value().trim().is_empty() {
                    cx.error_spanned_by(
                        &lit,
                        "the `reason` of an `allow(...)` must not be empty: say why the finding is acceptable",
                    );
                } else {
                    reason.set(&inner.path, lit);
                }
            }
        } else {
            unknown_key(cx, &inner, ALLOW_LEVEL)?;
        }
        had_error |= cx.error_count() > before;
        Ok(())
    })?;
    if had_error {
        return Ok(None);
    }
    if code.value.is_none() {
        cx.error_spanned_by(&tokens, "missing `code` in `allow(...)`, e.g. `code = \"orphaned-gate\"`");
    }
    if reason.value.is_none() {
        cx.error_spanned_by(&tokens, "missing `reason` in `allow(...)`: a lint suppression must say why");
    }
    Ok(code.value.zip(reason.value).map(|(code, reason)| Allow { tokens, code, reason }))
}

/// `depends_on(A, B)`: variant names.
fn parse_idents(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Vec<Ident>> {
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(&meta.path, "expected a list of variants, e.g. `depends_on(WatchList)`");
        skip_value(meta)?;
        return Ok(Vec::new());
    }
    let content;
    syn::parenthesized!(content in meta.input);
    let items = Punctuated::<Expr, Token![,]>::parse_terminated(&content)?;
    let mut idents = Vec::new();
    for item in items {
        match &item {
            Expr::Path(p) if p.qself.is_none() && p.attrs.is_empty() && p.path.get_ident().is_some() => {
                idents.extend(p.path.get_ident().cloned());
            }
            _ => {
                cx.error_spanned_by(&item, "expected the name of a variant of this enum, e.g. `depends_on(WatchList)`")
            }
        }
    }
    Ok(idents)
}
