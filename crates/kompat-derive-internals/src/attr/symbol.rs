//! Attribute keys as [`Symbol`]s, so that no string literal is scattered
//! through the parsers: `#[kompat(...)]` keys of both derives and the keys of
//! kube-rs' `#[kube(...)]` read for defaults.

use std::fmt;

use syn::Path;

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
