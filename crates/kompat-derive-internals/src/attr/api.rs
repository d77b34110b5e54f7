//! `#[derive(ApiLifecycle)]`'s attributes: `#[kompat(crate = ..., api(...))]`
//! on an API type, with the defaults of kube-rs' `#[kube(...)]` merged in.

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Ident, LitBool, LitStr, Path};

use super::kube::KubeAttrs;
use super::lit::*;
use super::suggest::*;
use super::symbol::*;
use crate::ctxt::Ctxt;

/// `#[kompat(...)]` on a `#[derive(ApiLifecycle)]` type.
#[derive(Default)]
pub struct ApiContainer {
    /// `crate = "path"`: where generated code finds kompat (default `::kompat`).
    pub krate: Option<Path>,
    pub api: Option<ApiAttr>,
}

/// `api(group = "batch", version = "v1beta1", ...)`, with the defaults of a
/// `#[kube(...)]` on the same type filled in; keys that are absent or had
/// errors are `None`.
pub struct ApiAttr {
    /// The whole `api(...)`, for spans.
    pub tokens: TokenStream,
    pub group: Option<LitStr>,
    pub version: Option<LitStr>,
    /// `None`: the type's name.
    pub kind: Option<LitStr>,
    pub resource: Option<LitStr>,
    pub introduced: Option<ReleaseAttr>,
    pub deprecated: Option<ReleaseAttr>,
    pub removed: Option<ReleaseAttr>,
    pub replacement: Option<LitStr>,
    pub enabled_by_default: Option<LitBool>,
    /// Whether any key of it had an error (the declaration is then left
    /// unvalidated, so that no follow-on problem is reported).
    pub broken: bool,
}

impl ApiContainer {
    /// Parses every `#[kompat(...)]` of an API type. `ident` names the type,
    /// for the message when `api(...)` is missing.
    pub fn from_ast(cx: &Ctxt, attrs: &[Attribute], ident: &Ident) -> ApiContainer {
        let mut krate = Once::new(cx, CRATE, API_TYPE_LEVEL);
        let mut api = Once::new(cx, API, API_TYPE_LEVEL);
        let kube = KubeAttrs::from_ast(attrs);
        // Whether an attribute failed to parse: then a missing `api(...)`
        // would be a follow-on error.
        let mut malformed = false;
        for attr in attrs.iter().filter(|a| a.path() == KOMPAT) {
            let result = attr.parse_nested_meta(|meta| {
                if meta.path == CRATE {
                    // #[kompat(crate = "kompat")]
                    parse_crate(cx, &meta, &mut krate)
                } else if meta.path == API {
                    // #[kompat(api(group = "batch", version = "v1beta1", ...))]
                    api.seen();
                    if let Some(value) = parse_api(cx, &meta, kube.as_ref())? {
                        api.set(&meta.path, value);
                    }
                    Ok(())
                } else {
                    unknown_key(cx, &meta, API_TYPE_LEVEL)
                }
            });
            if let Err(err) = result {
                malformed = true;
                cx.syn_error(err);
            }
        }
        if !api.seen && !malformed {
            cx.error_spanned_by(
                ident,
                format_args!(
                    "missing `#[kompat(api(...))]` on `{ident}`: an API type declares its group, version, resource and lifecycle, e.g. `#[kompat(api(group = \"batch\", version = \"v1\", resource = \"cronjobs\", introduced = \"1.21\"))]`"
                ),
            );
        }
        ApiContainer { krate: krate.value, api: api.value }
    }
}

/// `api(...)`: returns `None` only when it is not a parenthesised list.
fn parse_api(cx: &Ctxt, meta: &ParseNestedMeta, kube: Option<&KubeAttrs>) -> syn::Result<Option<ApiAttr>> {
    let example = "api(group = \"batch\", version = \"v1\", resource = \"cronjobs\", introduced = \"1.21\")";
    let Some(tokens) = list_tokens(cx, meta, example)? else {
        return Ok(None);
    };
    let before = cx.error_count();
    let mut group = Once::new(cx, GROUP, API_LEVEL);
    let mut version = Once::new(cx, VERSION, API_LEVEL);
    let mut kind = Once::new(cx, KIND, API_LEVEL);
    let mut resource = Once::new(cx, RESOURCE, API_LEVEL);
    let mut introduced = Once::new(cx, INTRODUCED, API_LEVEL);
    let mut deprecated = Once::new(cx, DEPRECATED, API_LEVEL);
    let mut removed = Once::new(cx, REMOVED, API_LEVEL);
    let mut replacement = Once::new(cx, REPLACEMENT, API_LEVEL);
    let mut enabled_by_default = Once::new(cx, ENABLED_BY_DEFAULT, API_LEVEL);
    let mut hinted = Vec::new();
    parse_nested(meta, |inner| {
        let string = |once: &mut Once<LitStr>, example: &str| -> syn::Result<()> {
            once.seen();
            if let Some(lit) = lit_str(cx, &inner, once.key, example)? {
                once.set(&inner.path, lit);
            }
            Ok(())
        };
        let release = |once: &mut Once<ReleaseAttr>| -> syn::Result<()> {
            once.seen();
            if let Some(value) = release_lit(cx, &inner, once.key)? {
                once.set(&inner.path, value);
            }
            Ok(())
        };
        if inner.path == GROUP {
            // group = "batch"
            string(&mut group, "batch")
        } else if inner.path == VERSION {
            // version = "v1beta1"
            string(&mut version, "v1beta1")
        } else if inner.path == KIND {
            // kind = "CronJob"
            string(&mut kind, "CronJob")
        } else if inner.path == RESOURCE {
            // resource = "cronjobs"
            string(&mut resource, "cronjobs")
        } else if inner.path == INTRODUCED {
            // introduced = "1.8"
            release(&mut introduced)
        } else if inner.path == DEPRECATED {
            // deprecated = "1.21"
            release(&mut deprecated)
        } else if inner.path == REMOVED {
            // removed = "1.25"
            release(&mut removed)
        } else if inner.path == REPLACEMENT {
            // replacement = "batch/v1/CronJob"
            string(&mut replacement, "batch/v1/CronJob")
        } else if inner.path == ENABLED_BY_DEFAULT {
            // enabled_by_default = true
            if let Some(b) = lit_bool(cx, &inner, ENABLED_BY_DEFAULT)? {
                enabled_by_default.set(&inner.path, b);
            }
            Ok(())
        } else {
            hinted.extend(unknown_key_hint(cx, &inner, API_LEVEL)?);
            Ok(())
        }
    })?;
    if let Some(kube) = kube {
        kube.merge(cx, &mut group, &kube.group, GROUP);
        kube.merge(cx, &mut version, &kube.version, VERSION);
        kube.merge(cx, &mut kind, &kube.kind, KIND);
        kube.merge(cx, &mut resource, &kube.plural, PLURAL);
        if resource.value.is_none() && !resource.seen {
            // kube-derive's default plural: its pluralizer on the lower-case kind.
            resource.value =
                kind.value.as_ref().map(|k| LitStr::new(&kompat_engine::api::kube_plural(&k.value()), k.span()));
        }
    }
    // A misspelt key was reported with its correction; "missing" would repeat it.
    for (once, what) in [
        (&group, "e.g. `group = \"batch\"` (`group = \"\"` is the core group)"),
        (&version, "e.g. `version = \"v1beta1\"`"),
        (&resource, "the lower-case plural resource name, e.g. `resource = \"cronjobs\"`"),
    ] {
        if !once.seen && once.value.is_none() && !hinted.contains(&once.key) {
            cx.error_spanned_by(&tokens, format_args!("missing `{}` in `api(...)`: {what}", once.key));
        }
    }
    Ok(Some(ApiAttr {
        tokens,
        group: group.value,
        version: version.value,
        kind: kind.value,
        resource: resource.value,
        introduced: introduced.value,
        deprecated: deprecated.value,
        removed: removed.value,
        replacement: replacement.value,
        enabled_by_default: enabled_by_default.value,
        broken: cx.error_count() > before,
    }))
}
