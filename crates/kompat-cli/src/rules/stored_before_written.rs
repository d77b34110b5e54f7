//! `stored-before-written`: something written before every supported reader
//! understands it (a CEL library, an enum value, a new field).

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Checks `[[stored_before_written]]` declarations: servers must start writing a new CEL library, enum value or field at least one release after readers tolerate it (`written_since` > `readable_since`), and with a binary version, at no emulation and min-compatibility version in the window may servers write it while the min-compatibility version is below `readable_since`.
    ///
    /// ### Why is this bad?
    ///
    /// During a rolling upgrade or after a rollback, a server at the min-compatibility version reads what newer servers stored. A value it does not understand fails validation or is dropped: a CEL expression using an unknown library no longer compiles, an unknown enum value is rejected, an unknown field is pruned. Kubernetes adds such things one release before it lets anyone write them.
    ///
    /// ### Example
    ///
    /// ```toml
    /// [[stored_before_written]]
    /// name = "cel-library-quantity"
    /// kind = "cel-library"
    /// readable_since = "1.36"
    /// written_since = "1.36"
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// [[stored_before_written]]
    /// name = "cel-library-quantity"
    /// kind = "cel-library"
    /// readable_since = "1.36"
    /// written_since = "1.37"
    /// ```
    pub STORED_BEFORE_WRITTEN: Error, "something is written before every supported reader can read it"
}

pub static PASS: Pass = Pass { rules: &[&STORED_BEFORE_WRITTEN], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (item, location) in cx.decls.stored_before_written() {
        let what = item.kind.as_deref().map_or_else(|| item.name.clone(), |k| format!("{k} {}", item.name));
        let message = if item.written_since <= item.readable_since {
            Some(format!(
                "{what} is written from {} but readable only from {}: writes must lag reads by at least one release",
                item.written_since, item.readable_since
            ))
        } else {
            cx.binary.and_then(|binary| {
                let (emu, mc) = cx
                    .window
                    .points(binary)
                    .into_iter()
                    .find(|&(emu, mc)| emu >= item.written_since && mc < item.readable_since)?;
                Some(format!(
                    "{what} is written at emulation version {emu} while min-compatibility version {mc} admits readers older than {}",
                    item.readable_since
                ))
            })
        };
        if let Some(message) = message {
            out.push(
                STORED_BEFORE_WRITTEN.diag(message, Some(location.clone())).with_subject(item.name.clone()).with_notes(
                    vec!["write it only from a release whose min-compatibility version is at least readable_since"
                        .to_owned()],
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn stored_before_written() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- features.toml
[[stored_before_written]]
#@0 ^^^^^^^^^^^^^^^^^^^^^^^^^ error[stored-before-written]: enum-value widget-phase-draining is written at emulation version 1.37 while min-compatibility version 1.34 admits readers older than 1.36
name = "widget-phase-draining"
kind = "enum-value"
readable_since = "1.36"
written_since = "1.37"
"##,
        );
    }
}
