//! `[lint]` in kompat.toml: per-code levels and allowances with reasons.
//!
//! ```toml
//! [lint.levels]
//! locked-gate-cleanup = "deny"      # allow | warn | deny
//!
//! [[lint.allow]]
//! code = "removed-gate"
//! subject = "LegacyWidgetPolling"   # optional: only this feature / API / CRD version
//! reason = "dropped by the 2.0 API review"
//! ```

use std::collections::BTreeMap;

use kompat_decls::span::did_you_mean;
use kompat_project::config::Level;
use kompat_project::rust::RustAllow;
use kompat_project::{Config, Error, Failure, Location};

use super::rules::doc;
use super::{Diagnostic, Rule, Severity};

pub const UNUSED_ALLOWANCE: &str = "unused-allowance";

pub fn unused_allowance_rule() -> Rule {
    Rule {
        code: UNUSED_ALLOWANCE,
        severity: Severity::Warning,
        summary: "an allowance in kompat.toml matches no finding".to_owned(),
        doc: doc(
            "Reports `[[lint.allow]]` entries in kompat.toml, and `#[kompat(allow(...))]` attributes on gates declared in Rust, that suppressed nothing in this run or name no known code.",
            "A stale allowance silently hides the next real finding with the same code and subject.",
            "[[lint.allow]]\ncode = \"removed-gate\"\nsubject = \"GoneLongAgo\"\nreason = \"...\"",
            "# delete the allowance",
        ),
    }
}

/// The lint configuration, validated against the known codes.
#[derive(Default)]
pub struct LintConfig {
    levels: BTreeMap<String, Level>,
    allows: Vec<Allowance>,
}

struct Allowance {
    code: String,
    subject: Option<String>,
    location: Option<Location>,
}

impl LintConfig {
    pub fn from_config(config: Option<&Config>, known: &[Rule]) -> Result<LintConfig, Error> {
        let Some(config) = config else { return Ok(LintConfig::default()) };
        let Some(lint) = &config.lint else { return Ok(LintConfig::default()) };
        let codes: Vec<&str> = known.iter().map(|r| r.code).collect();
        let mut failures = Vec::new();
        let mut check_code = |code: &str, span: &std::ops::Range<usize>, place: &str| {
            if !codes.contains(&code) {
                let hint = did_you_mean(code, &codes).map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default();
                failures.push(Failure {
                    message: format!("unknown lint code `{code}` in {place}{hint}"),
                    location: Some(config.source.locate(span.start, span.end)),
                });
            }
        };
        let mut out = LintConfig::default();
        for level in &lint.levels {
            check_code(&level.code, &level.code_span, "[lint.levels]");
            out.levels.insert(level.code.clone(), level.level);
        }
        for allow in &lint.allow {
            check_code(&allow.code, &allow.code_span, "[[lint.allow]]");
            out.allows.push(Allowance {
                code: allow.code.clone(),
                subject: allow.subject.clone(),
                location: Some(config.source.locate(allow.span.start, allow.span.end)),
            });
        }
        if failures.is_empty() {
            Ok(out)
        } else {
            Err(Error { failures })
        }
    }

    /// Applies levels and allowances, then reports unused allowances.
    pub fn apply(&self, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
        let mut used = vec![false; self.allows.len()];
        let mut out = Vec::new();
        for mut d in diags {
            if let Some(i) = self
                .allows
                .iter()
                .position(|a| a.code == d.code && a.subject.as_ref().is_none_or(|s| Some(s) == d.subject.as_ref()))
            {
                used[i] = true;
                continue;
            }
            match self.levels.get(d.code) {
                Some(Level::Allow) => continue,
                Some(Level::Warn) => d.severity = Severity::Warning,
                Some(Level::Deny) => d.severity = Severity::Error,
                None => (),
            }
            out.push(d);
        }
        for (allow, used) in self.allows.iter().zip(used) {
            if !used {
                out.push(Diagnostic {
                    code: UNUSED_ALLOWANCE,
                    severity: Severity::Warning,
                    message: format!(
                        "allowance for `{}`{} matches no finding",
                        allow.code,
                        allow.subject.as_ref().map(|s| format!(" on {s}")).unwrap_or_default()
                    ),
                    location: allow.location.clone(),
                    subject: allow.subject.clone(),
                    notes: Vec::new(),
                    labels: Vec::new(),
                });
            }
        }
        out
    }
}

/// `#[kompat(allow(code = "...", reason = "..."))]` on a gate declared in
/// Rust: drops that code's findings about that gate, and reports an allow
/// that drops nothing (at the `allow(...)`), or names no known code (at the
/// code).
pub fn apply_source_allows(diags: Vec<Diagnostic>, allows: &[RustAllow], known: &[Rule]) -> Vec<Diagnostic> {
    let mut used = vec![false; allows.len()];
    let mut out: Vec<Diagnostic> = diags
        .into_iter()
        .filter(|d| {
            let hit = allows.iter().position(|a| d.code == a.code && d.subject.as_deref() == Some(a.gate.as_str()));
            if let Some(i) = hit {
                used[i] = true;
            }
            hit.is_none()
        })
        .collect();
    let codes: Vec<&str> = known.iter().map(|r| r.code).collect();
    for (allow, used) in allows.iter().zip(used) {
        if used {
            continue;
        }
        let (gate, code) = (&allow.gate, &allow.code);
        let (message, location) = if codes.contains(&code.as_str()) {
            (format!("`#[kompat(allow(code = \"{code}\"))]` on {gate} matches no finding"), &allow.location)
        } else {
            let hint = did_you_mean(code, &codes).map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default();
            (format!("`#[kompat(allow(...))]` on {gate} names unknown lint code `{code}`{hint}"), &allow.code_location)
        };
        out.push(Diagnostic {
            code: UNUSED_ALLOWANCE,
            severity: Severity::Warning,
            message,
            location: Some(location.clone()),
            subject: Some(gate.clone()),
            notes: Vec::new(),
            labels: Vec::new(),
        });
    }
    out
}
