//! The runtime feature gate: `--feature-gates` parsing, `SetFromMap` rules and
//! messages, AllAlpha / AllBeta, dependencies and the flag help text.

use std::sync::Arc;

use kompat_engine::validate;
use kompat_runtime::{FeatureGate, Version};

const DECLS: &str = "
    AlphaOne: 1.30 Alpha f
    AlphaTwo: 1.30 Alpha f; 1.33 Beta f
    BetaOn: 1.29 Beta t
    BetaOff: 1.29 Beta f
    GaLocked: 1.20 Beta t; 1.28 GA t locked
    Old: 1.0 GA t; 1.28 Deprecated t; 1.29 Deprecated f
    Future: 1.40 Alpha f
    Dra: 1.37 Beta f; 1.37 Beta t mcv=1.37
    Needs: 1.30 Alpha f | deps=AlphaOne
";

fn gate(emu: &str, mc: Option<&str>) -> FeatureGate {
    let validated = validate(&crate::common::decls(DECLS));
    assert!(validated.problems.is_empty(), "{:?}", validated.problems);
    FeatureGate::new(Arc::new(validated.set), Version::parse(emu).unwrap(), mc.map(|v| Version::parse(v).unwrap()))
}

/// Sets `flags` on a gate at `emu` and prints the outcome: the error, or the
/// warnings followed by every feature that differs from its default.
#[track_caller]
fn check(emu: &str, flags: &str, expected: &str) {
    let mut g = gate(emu, None);
    let got = match g.set(flags) {
        Err(err) => format!("error: {err}"),
        Ok(warnings) => {
            let mut lines: Vec<String> = warnings.iter().map(|w| format!("warning: {w}")).collect();
            for (idx, f) in g.feature_set().features().iter().enumerate() {
                let state = g.state(idx);
                if state.enabled != state.spec.default {
                    lines.push(format!("{}={}", f.name, state.enabled));
                }
            }
            lines.join("\n")
        }
    };
    let expected: Vec<&str> = expected.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    assert_eq!(got, expected.join("\n"), "flags {flags:?} at {emu}");
}

#[test]
fn sets_gates() {
    check("1.31", "AlphaOne=true", "AlphaOne=true");
    check("1.31", " AlphaOne = true , BetaOn=false,", "AlphaOne=true\nBetaOn=false");
    check("1.31", "AlphaOne=1,BetaOff=T", "AlphaOne=true\nBetaOff=true");
    check("1.31", "AlphaOne=true,AlphaOne=false", "");
    check("1.31", "", "");
}

#[test]
fn flag_syntax_errors() {
    check("1.31", "AlphaOne", "error: missing bool value for AlphaOne");
    check(
        "1.31",
        "AlphaOne=maybe",
        "error: invalid value of AlphaOne=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax",
    );
    check(
        "1.31",
        "AlphaOne=",
        "error: invalid value of AlphaOne=, err: strconv.ParseBool: parsing \"\": invalid syntax",
    );
}

#[test]
fn rejected_settings() {
    check("1.31", "Nope=true", "error: unrecognized feature gate: Nope");
    check("1.31", "GaLocked=false", "error: cannot set feature gate GaLocked to false, feature is locked to true");
    check(
        "1.31",
        "GaLocked=true",
        "warning: Setting GA feature gate GaLocked=true. It will be removed in a future release.",
    );
    check(
        "1.31",
        "Future=true",
        "error: cannot set feature gate Future to true, feature is PreAlpha at emulated version 1.31, min compatibility version 1.30",
    );
    // Every error is reported, in key order.
    check(
        "1.31",
        "Zed=true,Future=true,Abc=false",
        "error: [unrecognized feature gate: Abc, cannot set feature gate Future to true, feature is PreAlpha at emulated version 1.31, min compatibility version 1.30, unrecognized feature gate: Zed]",
    );
}

#[test]
fn deprecated_warning() {
    check(
        "1.31",
        "Old=true",
        "warning: Setting deprecated feature gate Old=true. It will be removed in a future release.\nOld=true",
    );
}

#[test]
fn all_alpha_and_all_beta() {
    check("1.31", "AllAlpha=true", "AlphaOne=true\nAlphaTwo=true\nNeeds=true");
    check("1.31", "AllAlpha=true,AlphaTwo=false", "AlphaOne=true\nNeeds=true");
    // AlphaTwo is Beta at 1.33; Dra does not exist yet.
    check("1.33", "AllBeta=true", "AlphaTwo=true\nBetaOff=true");
    check("1.33", "AllBeta=false", "BetaOn=false");
}

#[test]
fn dependencies_at_runtime() {
    check("1.31", "Needs=true", "error: Needs is enabled, but depends on features that are disabled: [AlphaOne]");
    check("1.31", "Needs=true,AlphaOne=true", "AlphaOne=true\nNeeds=true");
}

#[test]
fn raw_settings_persist_across_failures() {
    let mut g = gate("1.31", None);
    assert!(g.set("Needs=true").is_err());
    assert_eq!(g.enabled_by_name("Needs"), Ok(false));
    // The failed setting is kept, like enabledRaw, and completes with the next one.
    assert!(g.set("AlphaOne=true").is_ok());
    assert_eq!(g.enabled_by_name("Needs"), Ok(true));
    assert_eq!(g.flag_string(), "AlphaOne=true,Needs=true");
    assert!(g.validate().is_ok());
}

#[test]
fn unknown_names_suggest_the_closest_gate() {
    let g = gate("1.31", None);
    let check = |name: &str, expected: &str| {
        let err = g.enabled_by_name(name).err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(err, expected, "{name}");
    };
    check("AlphaOn", "unrecognized feature gate: AlphaOn (did you mean `AlphaOne`?)");
    check("needs", "unrecognized feature gate: needs (did you mean `Needs`?)");
    check("AllAlfa", "unrecognized feature gate: AllAlfa (did you mean `AllAlpha`?)");
    check("Unknown", "unrecognized feature gate: Unknown");
    check("Needs", "");
}

#[test]
fn known_features_help() {
    let g = gate("1.37", None);
    assert_eq!(
        g.known_features(),
        [
            "AllAlpha=true|false (ALPHA - default=false)",
            "AllBeta=true|false (BETA - default=false)",
            "AlphaOne=true|false (ALPHA - default=false)",
            "AlphaTwo=true|false (BETA - default=false)",
            "BetaOff=true|false (BETA - default=false)",
            "BetaOn=true|false (BETA - default=true)",
            "Dra=true|false (BETA - default=false), or Dra=true|false (BETA - default=true) if --min-compatibility-version>=1.37",
            "Needs=true|false (ALPHA - default=false)",
        ]
    );
    let g = gate("1.37", Some("1.37"));
    assert!(g.known_features().contains(&"Dra=true|false (BETA - default=true)".to_owned()));
}
