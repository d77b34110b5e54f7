//! Where a key may be written ([`KeyPlace`]: the keys accepted there, known
//! misspellings, keys that belong elsewhere) and the unknown-key error with its
//! "did you mean" hint (strsim's Levenshtein distance).

use proc_macro2::Group;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Expr, Token};

use super::symbol::*;
use crate::ctxt::Ctxt;

/// Where a key was found; lists the keys accepted there and common
/// misspellings (Kubernetes' YAML and Go names) for the "did you mean" hint.
#[derive(Clone, Copy)]
pub(crate) struct KeyPlace {
    /// How the position is named in messages, e.g. "`spec(...)`".
    pub(crate) what: &'static str,
    pub(crate) keys: &'static [Symbol],
    pub(crate) aliases: &'static [(&'static str, Symbol)],
    /// Keys of the other level (enum vs variant), with where they belong.
    pub(crate) elsewhere: &'static [(Symbol, &'static str)],
}

pub(crate) const ENUM_LEVEL: KeyPlace = KeyPlace {
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

pub(crate) const VARIANT_LEVEL: KeyPlace = KeyPlace {
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

pub(crate) const SPEC_LEVEL: KeyPlace = KeyPlace {
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

pub(crate) const RATCHET_LEVEL: KeyPlace = KeyPlace {
    what: "`ratchet(...)`",
    keys: &[TOLERATED_SINCE],
    aliases: &[("since", TOLERATED_SINCE)],
    elsewhere: &[],
};

pub(crate) const ALLOW_LEVEL: KeyPlace =
    KeyPlace { what: "`allow(...)`", keys: &[CODE, REASON], aliases: &[], elsewhere: &[] };

pub(crate) const API_TYPE_LEVEL: KeyPlace = KeyPlace {
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

pub(crate) const API_LEVEL: KeyPlace = KeyPlace {
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

/// An unknown key: an error at the key, with a hint, then its value skipped
/// so the next keys are still checked.
pub(crate) fn unknown_key(cx: &Ctxt, meta: &ParseNestedMeta, level: KeyPlace) -> syn::Result<()> {
    unknown_key_hint(cx, meta, level).map(drop)
}

/// [`unknown_key`], returning the key suggested, if any: a "missing key"
/// error for that key would be a follow-on error.
pub(crate) fn unknown_key_hint(cx: &Ctxt, meta: &ParseNestedMeta, level: KeyPlace) -> syn::Result<Option<Symbol>> {
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

/// The accepted key closest to `word`: a known alias, a case- and
/// underscore-insensitive match, or an edit distance of at most a third of
/// the key's length.
fn did_you_mean(word: &str, level: KeyPlace) -> Option<Symbol> {
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
        .map(|k| (strsim::levenshtein(word, k.0), *k))
        .filter(|(d, k)| *d <= (k.0.len() / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Consumes `= expr` or `(...)` after a key, if present.
pub(crate) fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<Group>()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let check = |word: &str, level: KeyPlace, expected: Option<&str>| {
            assert_eq!(did_you_mean(word, level).map(|s| s.0), expected, "{word}");
        };
        check("verison", SPEC_LEVEL, Some("version"));
        check("lockToDefault", SPEC_LEVEL, Some("locked"));
        check("Default", SPEC_LEVEL, Some("default"));
        check("mincompatibility", SPEC_LEVEL, Some("min_compatibility"));
        check("colour", SPEC_LEVEL, None);
        check("dependson", VARIANT_LEVEL, Some("depends_on"));
        check("nme", VARIANT_LEVEL, Some("name"));
    }
}
