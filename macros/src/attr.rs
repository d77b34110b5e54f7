//! Parsing of `#[kompat(...)]` attributes into typed values.
//!
//! Note that none of these functions return a `Result`: unknown, malformed or
//! duplicated keys are recorded in the [`Ctxt`] with the span of the offending
//! token and otherwise ignored, so the user sees every attribute mistake of
//! the enum at once rather than just the first (serde_derive's contract).
//! Local checks (one attribute at a time) live here; checks that need the
//! whole enum live in `valid.rs`.
//!
//! Uses only `syn`/`proc_macro2` (no `proc_macro` types) so that `kompat lint`
//! can `#[path]`-include `ctxt.rs`, `attr.rs` and `ast.rs` as sibling modules
//! and read `#[derive(FeatureGates)]` enums from source as declarations.

use std::fmt;

use kompat_core::{Stage, Version, VersionLit};
use proc_macro2::{Group, TokenStream};
use quote::{quote, ToTokens};
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, ExprLit, Ident, Lit, LitBool, LitStr, Meta, Path, Token};

use super::ctxt::Ctxt;

/// An attribute key, so that no string literal is scattered through the code.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Symbol(pub &'static str);

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl PartialEq<Symbol> for Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

impl PartialEq<Symbol> for &Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

/// The helper attribute: `#[kompat(...)]`, on the enum and on its variants.
pub const KOMPAT: Symbol = Symbol("kompat");
/// rustc's crate-level `#![feature(...)]`, which cannot be a derive helper.
pub const FEATURE: Symbol = Symbol("feature");
pub const DOC: Symbol = Symbol("doc");

// Enum keys.
pub const CRATE: Symbol = Symbol("crate");
// Variant keys.
pub const NAME: Symbol = Symbol("name");
pub const SPEC: Symbol = Symbol("spec");
pub const DEPENDS_ON: Symbol = Symbol("depends_on");
pub const RATCHET: Symbol = Symbol("ratchet");
pub const ALLOW: Symbol = Symbol("allow");
// `spec(...)` keys.
pub const VERSION: Symbol = Symbol("version");
pub const STAGE: Symbol = Symbol("stage");
pub const DEFAULT: Symbol = Symbol("default");
pub const LOCKED: Symbol = Symbol("locked");
pub const MIN_COMPATIBILITY: Symbol = Symbol("min_compatibility");
// `ratchet(...)` keys.
pub const TOLERATED_SINCE: Symbol = Symbol("tolerated_since");
// `allow(...)` keys.
pub const CODE: Symbol = Symbol("code");
pub const REASON: Symbol = Symbol("reason");
// `#[derive(ApiLifecycle)]`: `api(...)` on the type, and its keys (`version` too).
pub const API: Symbol = Symbol("api");
pub const GROUP: Symbol = Symbol("group");
pub const KIND: Symbol = Symbol("kind");
pub const RESOURCE: Symbol = Symbol("resource");
pub const INTRODUCED: Symbol = Symbol("introduced");
pub const DEPRECATED: Symbol = Symbol("deprecated");
pub const REMOVED: Symbol = Symbol("removed");
pub const REPLACEMENT: Symbol = Symbol("replacement");
pub const ENABLED_BY_DEFAULT: Symbol = Symbol("enabled_by_default");
// kube-rs' `#[kube(...)]` (of `#[derive(CustomResource)]`), read for defaults.
pub const KUBE: Symbol = Symbol("kube");
pub const PLURAL: Symbol = Symbol("plural");

/// Where a key was found; lists the keys accepted there and common
/// misspellings (Kubernetes' YAML and Go names) for the "did you mean" hint.
#[derive(Clone, Copy)]
struct Level {
    /// How the position is named in messages, e.g. "`spec(...)`".
    what: &'static str,
    keys: &'static [Symbol],
    aliases: &'static [(&'static str, Symbol)],
    /// Keys of the other level (enum vs variant), with where they belong.
    elsewhere: &'static [(Symbol, &'static str)],
}

const ENUM_LEVEL: Level = Level {
    what: "`#[kompat(...)]` on the enum",
    keys: &[CRATE],
    aliases: &[],
    elsewhere: &[
        (NAME, "on a variant"),
        (SPEC, "on a variant"),
        (DEPENDS_ON, "on a variant"),
        (RATCHET, "on a variant"),
        (ALLOW, "on a variant"),
        (API, "on an API type with `#[derive(ApiLifecycle)]`"),
    ],
};

const VARIANT_LEVEL: Level = Level {
    what: "`#[kompat(...)]` on a variant",
    keys: &[NAME, SPEC, DEPENDS_ON, RATCHET, ALLOW],
    aliases: &[("dependencies", DEPENDS_ON), ("depends", DEPENDS_ON), ("rename", NAME)],
    elsewhere: &[
        (CRATE, "on the enum"),
        (VERSION, "inside `spec(...)`"),
        (STAGE, "inside `spec(...)`"),
        (DEFAULT, "inside `spec(...)`"),
        (LOCKED, "inside `spec(...)`"),
        (MIN_COMPATIBILITY, "inside `spec(...)`"),
    ],
};

const SPEC_LEVEL: Level = Level {
    what: "`spec(...)`",
    keys: &[VERSION, STAGE, DEFAULT, LOCKED, MIN_COMPATIBILITY],
    aliases: &[
        ("lockToDefault", LOCKED),
        ("lock_to_default", LOCKED),
        ("preRelease", STAGE),
        ("prerelease", STAGE),
        ("minCompatibilityVersion", MIN_COMPATIBILITY),
        ("min_compatibility_version", MIN_COMPATIBILITY),
    ],
    elsewhere: &[],
};

const RATCHET_LEVEL: Level =
    Level { what: "`ratchet(...)`", keys: &[TOLERATED_SINCE], aliases: &[("since", TOLERATED_SINCE)], elsewhere: &[] };

const ALLOW_LEVEL: Level = Level { what: "`allow(...)`", keys: &[CODE, REASON], aliases: &[], elsewhere: &[] };

const API_TYPE_LEVEL: Level = Level {
    what: "`#[kompat(...)]` on an API type",
    keys: &[API, CRATE],
    aliases: &[],
    elsewhere: &[
        (GROUP, "inside `api(...)`"),
        (VERSION, "inside `api(...)`"),
        (KIND, "inside `api(...)`"),
        (RESOURCE, "inside `api(...)`"),
        (INTRODUCED, "inside `api(...)`"),
        (DEPRECATED, "inside `api(...)`"),
        (REMOVED, "inside `api(...)`"),
        (REPLACEMENT, "inside `api(...)`"),
        (ENABLED_BY_DEFAULT, "inside `api(...)`"),
        (SPEC, "on a variant of a `#[derive(FeatureGates)]` enum"),
    ],
};

const API_LEVEL: Level = Level {
    what: "`api(...)`",
    keys: &[GROUP, VERSION, KIND, RESOURCE, INTRODUCED, DEPRECATED, REMOVED, REPLACEMENT, ENABLED_BY_DEFAULT],
    aliases: &[
        ("plural", RESOURCE),
        ("api_version", VERSION),
        ("apiVersion", VERSION),
        ("replaced_by", REPLACEMENT),
        ("replacedBy", REPLACEMENT),
        ("enabled", ENABLED_BY_DEFAULT),
        ("enabledByDefault", ENABLED_BY_DEFAULT),
        ("since", INTRODUCED),
    ],
    elsewhere: &[],
};

/// `#[kompat(...)]` on the enum.
#[derive(Default)]
pub struct Container {
    /// `crate = "path"`: where generated code finds kompat (default `::kompat`).
    pub krate: Option<Path>,
}

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

/// A release (`MAJOR.MINOR`) with the string literal it came from.
#[derive(Clone)]
pub struct ReleaseAttr {
    pub value: Version,
    pub lit: LitStr,
}

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

/// A key that may be given once: the second occurrence is an error at its span.
struct Once<'c, T> {
    cx: &'c Ctxt,
    key: Symbol,
    level: Level,
    value: Option<T>,
    /// Whether the key was written at all (even with an invalid value).
    seen: bool,
}

impl<'c, T> Once<'c, T> {
    fn new(cx: &'c Ctxt, key: Symbol, level: Level) -> Self {
        Once { cx, key, level, value: None, seen: false }
    }

    fn seen(&mut self) {
        self.seen = true;
    }

    fn set<A: ToTokens>(&mut self, obj: A, value: T) {
        if self.value.is_some() {
            self.cx.error_spanned_by(obj, format_args!("duplicate key `{}` in {}", self.key, self.level.what));
        } else {
            self.value = Some(value);
        }
    }
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

/// `crate = "path"`, on either derive's type.
fn parse_crate(cx: &Ctxt, meta: &ParseNestedMeta, krate: &mut Once<Path>) -> syn::Result<()> {
    if let Some(lit) = lit_str(cx, meta, CRATE, "kompat")? {
        match lit.parse::<Path>() {
            Ok(path) => krate.set(&meta.path, path),
            Err(_) => cx.error_spanned_by(&lit, "`crate` must be a path, e.g. `crate = \"kompat\"`"),
        }
    }
    Ok(())
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
                kind.value.as_ref().map(|k| LitStr::new(&kompat_core::api::kube_plural(&k.value()), k.span()));
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

/// The `group`, `version`, `kind` and `plural` of kube-rs' `#[kube(...)]`
/// (`#[derive(CustomResource)]`) on the same type: defaults for `api(...)`.
/// Read leniently: kube-derive reports its own mistakes.
#[derive(Default)]
pub struct KubeAttrs {
    pub group: Option<LitStr>,
    pub version: Option<LitStr>,
    pub kind: Option<LitStr>,
    pub plural: Option<LitStr>,
}

impl KubeAttrs {
    /// `None` when the type has no `#[kube(...)]`.
    pub fn from_ast(attrs: &[Attribute]) -> Option<KubeAttrs> {
        let mut out: Option<KubeAttrs> = None;
        for attr in attrs.iter().filter(|a| a.path() == KUBE) {
            let kube = out.get_or_insert_with(KubeAttrs::default);
            let _ = attr.parse_nested_meta(|meta| {
                let slot = if meta.path == GROUP {
                    &mut kube.group
                } else if meta.path == VERSION {
                    &mut kube.version
                } else if meta.path == KIND {
                    &mut kube.kind
                } else if meta.path == PLURAL {
                    &mut kube.plural
                } else {
                    return skip_value(&meta);
                };
                if !meta.input.peek(Token![=]) {
                    return skip_value(&meta);
                }
                if let Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) = meta.value()?.parse::<Expr>()? {
                    slot.get_or_insert(lit);
                }
                Ok(())
            });
        }
        out
    }

    /// Takes `from_kube` when `api(...)` does not give the key; reports a
    /// conflict at the `api(...)` value when both give different values.
    fn merge(&self, cx: &Ctxt, once: &mut Once<LitStr>, from_kube: &Option<LitStr>, kube_key: Symbol) {
        let Some(kube) = from_kube else { return };
        match &once.value {
            Some(own) if own.value() != kube.value() => cx.error_spanned_by(
                own,
                format_args!(
                    "`{} = {:?}` differs from `#[kube({kube_key} = {:?})]` on the same type: the lifecycle would describe another API than the one kube-rs registers; drop it from `api(...)`",
                    once.key,
                    own.value(),
                    kube.value()
                ),
            ),
            Some(_) => {}
            None if once.seen => {}
            None => once.value = Some(kube.clone()),
        }
    }
}

/// `key = "MAJOR.MINOR"` for an API lifecycle, checked as the TOML reader
/// checks it (`Version::parse`, Kubernetes' messages).
fn release_lit(cx: &Ctxt, meta: &ParseNestedMeta, key: Symbol) -> syn::Result<Option<ReleaseAttr>> {
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

/// `meta.parse_nested_meta`, accepting an empty list `key()` (whose
/// missing keys the caller reports).
fn parse_nested(meta: &ParseNestedMeta, logic: impl FnMut(ParseNestedMeta) -> syn::Result<()>) -> syn::Result<()> {
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
fn list_tokens(cx: &Ctxt, meta: &ParseNestedMeta, example: &str) -> syn::Result<Option<TokenStream>> {
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
fn lit_str(cx: &Ctxt, meta: &ParseNestedMeta, key: Symbol, example: &str) -> syn::Result<Option<LitStr>> {
    let expr: Expr = meta.value()?.parse()?;
    match expr {
        Expr::Lit(ExprLit { lit: Lit::Str(lit), .. }) => Ok(Some(lit)),
        other => {
            cx.error_spanned_by(other, format_args!("expected a string literal: `{key} = \"{example}\"`"));
            Ok(None)
        }
    }
}

/// `key = true|false`.
fn lit_bool(cx: &Ctxt, meta: &ParseNestedMeta, key: Symbol) -> syn::Result<Option<LitBool>> {
    let expr: Expr = meta.value()?.parse()?;
    match expr {
        Expr::Lit(ExprLit { lit: Lit::Bool(lit), .. }) => Ok(Some(lit)),
        other => {
            cx.error_spanned_by(other, format_args!("expected `{key} = true` or `{key} = false`"));
            Ok(None)
        }
    }
}

/// `key = "MAJOR.MINOR"`. A patch component parses here and is rejected by
/// validation with Kubernetes' message; anything else that is not a version
/// is an error at the literal.
fn version_lit(cx: &Ctxt, meta: &ParseNestedMeta, key: Symbol) -> syn::Result<Option<VersionAttr>> {
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
fn version_str(cx: &Ctxt, meta: &ParseNestedMeta, key: Symbol) -> syn::Result<Option<LitStr>> {
    let expr: Expr = meta.value()?.parse()?;
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
fn stage_lit(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<StageAttr>> {
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

/// An unknown key: an error at the key, with a hint, then its value skipped
/// so the next keys are still checked.
fn unknown_key(cx: &Ctxt, meta: &ParseNestedMeta, level: Level) -> syn::Result<()> {
    unknown_key_hint(cx, meta, level).map(drop)
}

/// [`unknown_key`], returning the key suggested, if any: a "missing key"
/// error for that key would be a follow-on error.
fn unknown_key_hint(cx: &Ctxt, meta: &ParseNestedMeta, level: Level) -> syn::Result<Option<Symbol>> {
    let key = meta.path.to_token_stream().to_string().replace(' ', "");
    let mut suggested = None;
    if let Some((_, place)) = level.elsewhere.iter().find(|(sym, _)| meta.path == *sym) {
        cx.error_spanned_by(&meta.path, format_args!("`{key}` is not accepted in {}; it belongs {place}", level.what));
    } else {
        let expected: Vec<String> = level.keys.iter().map(|k| format!("`{k}`")).collect();
        suggested = did_you_mean(&key, level);
        let msg = match suggested {
            Some(hint) => format!("unknown key `{key}` in {}; did you mean `{hint}`?", level.what),
            None if expected.len() == 1 => format!("unknown key `{key}` in {}; expected {}", level.what, expected[0]),
            None => format!("unknown key `{key}` in {}; expected one of {}", level.what, expected.join(", ")),
        };
        cx.error_spanned_by(&meta.path, msg);
    }
    skip_value(meta)?;
    Ok(suggested)
}

/// Consumes `= expr` or `(...)` after a key, if present.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<Group>()?;
    }
    Ok(())
}

/// The accepted key closest to `word`: a known alias, a case- and
/// underscore-insensitive match, or an edit distance of at most a third of
/// the key's length.
fn did_you_mean(word: &str, level: Level) -> Option<Symbol> {
    if let Some((_, sym)) = level.aliases.iter().find(|(alias, _)| *alias == word) {
        return Some(*sym);
    }
    let fold = |s: &str| s.to_ascii_lowercase().replace('_', "");
    if let Some(sym) = level.keys.iter().find(|k| fold(k.0) == fold(word)) {
        return Some(*sym);
    }
    level
        .keys
        .iter()
        .map(|k| (edit_distance(word, k.0), *k))
        .filter(|(d, k)| *d <= (k.0.len() / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Levenshtein distance over chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Whether a `#[derive(...)]` among `attrs` names `name` (by its last path
/// segment, so `kompat::ApiLifecycle` counts).
pub fn derives(attrs: &[Attribute], name: &str) -> bool {
    attrs.iter().filter(|a| a.path().is_ident("derive")).any(|a| {
        let mut found = false;
        let _ = a.parse_nested_meta(|meta| {
            found |= meta.path.segments.last().is_some_and(|s| s.ident == name);
            Ok(())
        });
        found
    })
}

/// The `///` doc comment: one leading space per line removed, lines joined,
/// surrounding blank lines trimmed; `None` when there is none.
pub fn doc_comment(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path() == DOC)
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .flat_map(|s| s.split('\n').map(|l| l.strip_prefix(' ').unwrap_or(l).trim_end().to_owned()).collect::<Vec<_>>())
        .collect();
    let text = lines.join("\n");
    let text = text.trim_matches('\n');
    (!text.is_empty()).then(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let check = |word: &str, level: Level, expected: Option<&str>| {
            assert_eq!(did_you_mean(word, level).map(|s| s.0), expected, "{word}");
        };
        check("verison", SPEC_LEVEL, Some("version"));
        check("lockToDefault", SPEC_LEVEL, Some("locked"));
        check("Default", SPEC_LEVEL, Some("default"));
        check("mincompatibility", SPEC_LEVEL, Some("min_compatibility"));
        check("colour", SPEC_LEVEL, None);
        check("dependson", VARIANT_LEVEL, Some("depends_on"));
        check("nme", VARIANT_LEVEL, Some("name"));
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
