//! kube-rs' `#[kube(group, version, kind, plural)]` on the same type (from
//! `#[derive(CustomResource)]`), read leniently as defaults for `api(...)`,
//! and kube-derive's default plural.

use syn::{Attribute, Expr, ExprLit, Lit, LitStr, Token};

use super::lit::Once;
use super::suggest::skip_value;
use super::symbol::*;
use crate::ctxt::Ctxt;

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
    pub(crate) fn merge(&self, cx: &Ctxt, once: &mut Once<LitStr>, from_kube: &Option<LitStr>, kube_key: Symbol) {
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
