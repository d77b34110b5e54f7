//! rustc's own attributes on a declaration: which `#[derive(...)]`s it has and
//! its `///` doc comment.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

use super::symbol::DOC;

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
