//! `unsafe-ratchet`: a gate that writes data older readers cannot read is on
//! by default while the min-compatibility version still admits such readers.

use kompat_engine::Field;
use kompat_runtime::{spec_at, Version};

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// For gates marked `ratchet = { tolerated_since = V }` (they relax validation, or write new values or fields that readers only tolerate from V on), checks every emulation and min-compatibility version in the window: the gate must not be enabled by default while the min-compatibility version is below V. Also checks that no `minCompatibilityVersion` of a default-on spec is below V.
    ///
    /// ### Why is this bad?
    ///
    /// During a rolling upgrade or after a rollback, a server at the min-compatibility version reads what newer servers wrote. If the gate is on by default before every peer tolerates its data, the older peer rejects or drops it: a one-release lag between "readers tolerate" and "writers write" is what keeps rollback safe.
    ///
    /// ### Example
    ///
    /// ```toml
    /// ratchet = { tolerated_since = "1.36" }
    /// specs = [{ version = "1.36", stage = "Beta", default = true }]
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// ratchet = { tolerated_since = "1.36" }
    /// specs = [
    ///   { version = "1.36", stage = "Beta", default = false },
    ///   { version = "1.36", stage = "Beta", default = true, minCompatibilityVersion = "1.36" },
    /// ]
    /// ```
    pub UNSAFE_RATCHET: Error, "a ratcheting gate is on by default before every peer can read what it writes"
}

pub static PASS: Pass = Pass { rules: &[&UNSAFE_RATCHET], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for feature in cx.validated.set.features() {
        let Some(ratchet) = feature.ratchet else { continue };
        let tolerated = ratchet.tolerated_since;
        let Some(decl_idx) = cx.decls.features().iter().position(|d| d.name == feature.name) else { continue };
        // The (emulation, min-compatibility) points to check: the window, or
        // without a binary version, each spec's version at its default
        // min-compatibility.
        let points: Vec<(Version, Version)> = match cx.binary {
            Some(binary) => cx.window.points(binary),
            None => feature.specs.iter().map(|s| (s.version, s.version.subtract_minor(1))).collect(),
        };
        let unsafe_point =
            points.into_iter().find(|&(emu, mc)| mc < tolerated && spec_at(&feature.specs, emu, Some(mc)).default);
        if let Some((emu, mc)) = unsafe_point {
            let spec = spec_at(&feature.specs, emu, Some(mc));
            let spec_idx = feature.specs.iter().position(|s| *s == spec);
            out.push(UNSAFE_RATCHET.diag(format!(
                    "feature {} is enabled by default at emulation version {emu} with min-compatibility version {mc}, but readers tolerate what it writes only from {tolerated}",
                    feature.name
                ), cx.decls.locate(decl_idx, spec_idx, Field::Default)).with_subject(feature.name.clone()).with_notes(vec![format!(
                    "enable it by default in a spec with minCompatibilityVersion = \"{tolerated}\" (or later)"
                )]));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn unsafe_ratchet() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- features.toml
[[feature]]
name = "StatusV2"
ratchet = { tolerated_since = "1.36" }
specs = [
  { version = "1.36", stage = "Beta", default = true },
#                                               ^^^^ error[unsafe-ratchet]: feature StatusV2 is enabled by default at emulation version 1.36 with min-compatibility version 1.34, but readers tolerate what it writes only from 1.36
]
"##,
        );
    }
}
