//! `removed-gate-reference` and `unknown-gate-reference`: code that names a
//! gate the declarations do not have.

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Reports references in code (Rust `enabled("Gate")`, Go `features.Gate`) to a gate that the baseline declares and the current declarations no longer do, pointing at the baseline's declaration.
    ///
    /// ### Why is this bad?
    ///
    /// The runtime gate panics on an unregistered name (Kubernetes: `feature "X" is not registered in FeatureGate`), and the code path it guards is now dead or always on without anyone deciding which.
    ///
    /// ### Example
    ///
    /// ```toml
    /// // baseline declares LegacyPolling; it was deleted
    /// if gate.enabled("LegacyPolling") { poll() }
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// // delete the branch together with the gate
    /// watch()
    /// ```
    pub REMOVED_GATE_REFERENCE: Error, "code references a gate that was removed"
}

declare_rule! {
    /// ### What it does
    ///
    /// Reports `enabled("Gate")`-style references, and Go `featuregate.Feature` constants used as `features.Gate` but registered in no map, to a name no declaration or baseline knows.
    ///
    /// ### Why is this bad?
    ///
    /// The name is misspelt, or belongs to a gate declared somewhere kompat was not shown; at run time the lookup fails.
    ///
    /// ### Example
    ///
    /// ```toml
    /// gate.enabled("WidgetCahce")
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// gate.enabled("WidgetCache")
    /// ```
    pub UNKNOWN_GATE_REFERENCE: Warning, "code references a gate that is not declared"
}

pub static PASS: Pass = Pass { rules: &[&REMOVED_GATE_REFERENCE, &UNKNOWN_GATE_REFERENCE], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(code) = cx.code else { return };
    let declared: std::collections::HashSet<&str> = cx.decls.features().iter().map(|f| f.name.as_str()).collect();
    for r in &code.refs {
        if declared.contains(r.gate.as_str()) {
            continue;
        }
        let (rule, message, labels) = match super::tombstone(cx, &r.gate) {
            Some(tomb) => (
                &REMOVED_GATE_REFERENCE,
                format!("feature gate {} was removed but is still referenced", r.gate),
                vec![tomb],
            ),
            None => {
                let names = cx.decls.features().iter().map(|f| f.name.as_str());
                let hint = super::hint(kompat_runtime::suggest::did_you_mean(&r.gate, names));
                (&UNKNOWN_GATE_REFERENCE, format!("feature gate {} is not declared{hint}", r.gate), Vec::new())
            }
        };
        out.push(rule.diag(message, Some(r.location.clone())).with_subject(r.gate.clone()).with_labels(labels));
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn removed_gate_reference() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- baseline/baseline.toml
[[feature]]
name = "Removed"
specs = [
  { version = "1.30", stage = "Alpha", default = false },
]
//- src/gates.rs
pub fn run(gate: &kompat::FeatureGate) -> Option<bool> {
    gate.enabled_by_name("Removed")
//                       ^^^^^^^^^ error[removed-gate-reference]: feature gate Removed was removed but is still referenced
}
"##,
        );
    }

    #[test]
    fn unknown_gate_reference() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- src/gates.rs
pub fn run(gate: &kompat::FeatureGate) -> Option<bool> {
    gate.enabled_by_name("Typo")
//                       ^^^^^^ warning[unknown-gate-reference]: feature gate Typo is not declared
}
"##,
        );
    }

    #[test]
    fn unknown_gate_reference_close_to_a_declared_gate() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- features.toml
[[feature]]
name = "WidgetCache"
specs = [{ version = "1.36", stage = "Alpha", default = false }]
//- src/gates.rs
pub fn run(gate: &kompat::FeatureGate) -> bool {
    gate.enabled_by_name("WidgetCache") == Ok(true) || gate.enabled_by_name("WidgetCahce") == Ok(true)
//                                                                          ^^^^^^^^^^^^^ warning[unknown-gate-reference]: feature gate WidgetCahce is not declared (did you mean `WidgetCache`?)
}
"##,
        );
    }
}
