//! `orphaned-gate`: a declared gate that no scanned Rust or Go code references.

use kompat_engine::Field;

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// When Rust or Go sources are linted, reports every declared gate that no code references: in Rust neither as `Feature::Gate` (also through an alias of the enum, `Self` in its `impl`, or inside a macro invocation), nor imported by name or re-exported (`pub use Feature::*`), nor as a bare `Gate` where a glob import of the enum is in scope, nor as `enabled("Gate")`; in Go not as `features.Gate` (the package that declares it, under its import name) nor, inside the declaring package, as a bare `Gate` that resolves to its constant (`Enabled(Gate)`, `gate := Gate`; not a local of the same name); `_test.go` files do not count.
    ///
    /// ### Why is this bad?
    ///
    /// An orphaned gate still changes what `--emulation-version` and `--feature-gates` accept, but flipping it changes nothing: emulation silently diverges from the release it claims to reproduce (kubernetes#130761). Either the code lost its gate check, or the gate should go through the removal rules.
    ///
    /// ### Example
    ///
    /// ```toml
    /// #[kompat(spec(version = "1.35", stage = "Beta", default = true))]
    /// WidgetCache,   // no `Feature::WidgetCache` anywhere
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// if gate.enabled(Feature::WidgetCache) { /* ... */ }
    /// // or, when the gate is read elsewhere:
    /// #[kompat(allow(code = "orphaned-gate", reason = "read by the scheduler plugin"))]
    /// ```
    pub ORPHANED_GATE: Warning, "a declared gate is never referenced in code"
}

pub static PASS: Pass = Pass { rules: &[&ORPHANED_GATE], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(code) = cx.code else { return };
    if code.files == 0 {
        return;
    }
    // One set of the names referenced: the cost does not grow with the
    // number of declared gates times the number of references.
    let referenced: std::collections::HashSet<&str> = code.refs.iter().map(|r| r.gate.as_str()).collect();
    for (idx, feature) in cx.decls.features().iter().enumerate() {
        if referenced.contains(feature.name.as_str()) {
            continue;
        }
        out.push(
            ORPHANED_GATE
                .diag(
                    format!("feature gate {} is declared but never referenced in code", feature.name),
                    cx.decls.locate(idx, None, Field::Feature),
                )
                .with_subject(feature.name.clone()),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn orphaned_gate() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- src/gates.rs
use kompat::FeatureGates;

#[derive(Clone, Copy, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.36", stage = "Alpha", default = false))]
    Used,
    #[kompat(spec(version = "1.36", stage = "Alpha", default = false))]
    Orphan,
//  ^^^^^^ warning[orphaned-gate]: feature gate Orphan is declared but never referenced in code
}

pub fn run(gate: &kompat::TypedGate<Feature>) -> bool {
    gate.enabled(Feature::Used)
}
"##,
        );
    }
}
