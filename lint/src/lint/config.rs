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

use kompat_project::{Config, Error, Failure, Location};
use serde::Deserialize;

use super::rules::doc;
use super::{Diagnostic, Rule, Severity};

pub const UNUSED_ALLOWANCE: &str = "unused-allowance";

pub fn unused_allowance_rule() -> Rule {
    Rule {
        code: UNUSED_ALLOWANCE,
        severity: Severity::Warning,
        summary: "an allowance in kompat.toml matches no finding".to_owned(),
        doc: doc(
            "Reports `[[lint.allow]]` entries that suppressed nothing in this run.",
            "A stale allowance silently hides the next real finding with the same code and subject.",
            "[[lint.allow]]\ncode = \"removed-gate\"\nsubject = \"GoneLongAgo\"\nreason = \"...\"",
            "# delete the allowance",
        ),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Allow,
    Warn,
    Deny,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLint {
    #[serde(default)]
    levels: BTreeMap<String, Level>,
    #[serde(default)]
    allow: Vec<RawAllow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAllow {
    code: String,
    subject: Option<String>,
    reason: String,
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
        let Some(table) = &config.lint else { return Ok(LintConfig::default()) };
        let located = |span: std::ops::Range<usize>, message: String| Failure {
            message,
            location: Some(config.source.locate(span.start, span.end)),
        };
        let raw: RawLint =
            toml::Value::Table(table.get_ref().clone()).try_into().map_err(|err: toml::de::Error| Error {
                failures: vec![located(
                    table.span(),
                    format!("invalid [lint] table: {}", kompat_project::config::toml_message(&err)),
                )],
            })?;
        let is_known = |code: &str| known.iter().any(|r| r.code == code);
        let mut failures = Vec::new();
        let mut out = LintConfig::default();
        for (code, level) in raw.levels {
            if !is_known(&code) {
                failures.push(located(table.span(), format!("unknown lint code `{code}` in [lint.levels]")));
            }
            out.levels.insert(code, level);
        }
        for allow in raw.allow {
            if !is_known(&allow.code) {
                failures.push(located(table.span(), format!("unknown lint code `{}` in [[lint.allow]]", allow.code)));
            }
            if allow.reason.trim().is_empty() {
                failures.push(located(table.span(), "an allowance needs a non-empty `reason`".to_owned()));
            }
            out.allows.push(Allowance {
                code: allow.code,
                subject: allow.subject,
                location: Some(config.source.whole()),
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
