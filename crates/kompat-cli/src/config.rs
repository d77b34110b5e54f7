//! `[lint]` in kompat.toml: per-code levels and allowances with reasons.
//!
//! ```toml
//! [lint]
//! require = ["binary-version", "baseline"]   # a rule family skipped for want of these is an error
//!
//! [lint.levels]
//! locked-gate-cleanup = "deny"      # allow | warn | deny
//!
//! [[lint.allow]]
//! code = "removed-gate"
//! subject = "LegacyWidgetPolling"   # optional: only this feature / API / CRD version
//! reason = "dropped by the 2.0 API review"
//! ```

use std::collections::BTreeMap;

use kompat_diag::Location;
use kompat_project::config::Level;
use kompat_project::{Config, Error};
use kompat_rust::RustAllow;

use crate::rules::missing_input::{INPUTS, MISSING_INPUT};
use crate::rules::unused_allowance::{unused_config_allow, unused_source_allow};
use crate::{Suppressed, SuppressionKind};
use kompat_diag::{Diagnostic, Rule, Severity};

/// The `[lint]` table as the linter applies it: required inputs, levels and
/// allowances, validated against the known codes (the table as written is
/// `kompat_project::config::LintConfig`).
#[derive(Default)]
pub struct LintPolicy {
    /// Inputs whose absence is an error (`missing-input` subjects).
    require: Vec<String>,
    levels: BTreeMap<String, Level>,
    allows: Vec<Allowance>,
    /// For codes `[lint]` names through an alias (`crate::rules::ALIASES`):
    /// the notes the findings of the new code carry.
    renamed: BTreeMap<String, Vec<String>>,
}

struct Allowance {
    code: String,
    subject: Option<String>,
    reason: String,
    location: Option<Location>,
}

impl LintPolicy {
    pub fn from_config(config: Option<&Config>, known: &[&Rule]) -> Result<LintPolicy, Error> {
        let Some(config) = config else { return Ok(LintPolicy::default()) };
        let Some(lint) = &config.lint else { return Ok(LintPolicy::default()) };
        let codes: Vec<&str> = known.iter().map(|r| r.code).collect();
        let mut failures = Vec::new();
        let mut out = LintPolicy::default();
        let inputs = INPUTS.iter().map(|(name, _)| *name);
        for (name, span) in &lint.require {
            if inputs.clone().any(|i| i == name) {
                out.require.push(name.clone());
                continue;
            }
            let known: Vec<String> = inputs.clone().map(|i| format!("`{i}`")).collect();
            let hint = crate::rules::hint(kompat_runtime::suggest::did_you_mean(name, inputs.clone()));
            failures.push(
                Diagnostic::error(format!(
                    "unknown input `{name}` in `require` under [lint], expected one of {}{hint}",
                    known.join(", ")
                ))
                .at(Some(config.source.locate(span.start, span.end))),
            );
        }
        let mut renamed: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut check_code = |code: &str, span: &std::ops::Range<usize>, place: &str| -> String {
            let canonical = crate::rules::canonical(code);
            if !codes.contains(&canonical) {
                let hint = crate::rules::code_hint(code);
                failures.push(
                    Diagnostic::error(format!("unknown lint code `{code}` in {place}{hint}"))
                        .at(Some(config.source.locate(span.start, span.end))),
                );
            } else if let Some(note) = crate::rules::alias_note(code) {
                let notes = renamed.entry(canonical.to_owned()).or_default();
                let note = format!("{place} in kompat.toml: {note}");
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
            canonical.to_owned()
        };
        for level in &lint.levels {
            let code = check_code(&level.code, &level.code_span, "[lint.levels]");
            out.levels.insert(code, level.level);
        }
        for allow in &lint.allow {
            let code = check_code(&allow.code, &allow.code_span, "[[lint.allow]]");
            out.allows.push(Allowance {
                code,
                subject: allow.subject.clone(),
                reason: allow.reason.clone(),
                location: Some(config.source.locate(allow.span.start, allow.span.end)),
            });
        }
        out.renamed = renamed;
        if failures.is_empty() {
            Ok(out)
        } else {
            Err(Error { diagnostics: failures })
        }
    }

    /// The severity `[lint.levels]` gives `rule`'s findings, `None` when it
    /// allows them.
    pub fn level(&self, rule: &Rule) -> Option<Severity> {
        match self.levels.get(rule.code) {
            Some(Level::Allow) => None,
            Some(Level::Warn) => Some(Severity::Warning),
            Some(Level::Deny) => Some(Severity::Error),
            None => Some(rule.severity),
        }
    }

    /// Applies levels and allowances, then reports unused allowances. The
    /// findings `[[lint.allow]]` suppressed are returned too, with the
    /// allowance's reason (an external suppression: it is written in
    /// kompat.toml, not in the linted source).
    pub fn apply(&self, diags: Vec<Diagnostic>) -> (Vec<Diagnostic>, Vec<Suppressed>) {
        let mut used = vec![false; self.allows.len()];
        let mut suppressed = Vec::new();
        // What each code's findings are about, for hints on allowances that
        // name a subject nothing is about (only the codes of those).
        let hinted = |code: &str| self.allows.iter().any(|a| a.subject.is_some() && a.code == code);
        let subjects: Vec<(&'static str, String)> = diags
            .iter()
            .filter(|d| d.code.is_some_and(hinted))
            .filter_map(|d| Some((d.code?, d.subject.as_deref()?.to_owned())))
            .collect();
        // Filtered in place (the kept findings reuse `diags`' buffer): a run
        // may have hundreds of thousands.
        let mut out: Vec<Diagnostic> = diags
            .into_iter()
            .filter_map(|mut d| {
                if let Some(notes) = self.renamed.get(d.code()) {
                    d.notes.extend(notes.iter().cloned());
                }
                // A required input's absence is an error, whatever the levels
                // and allowances say.
                if d.code() == MISSING_INPUT.code
                    && d.subject.as_deref().is_some_and(|s| self.require.iter().any(|r| r == s))
                {
                    d.severity = Severity::Error;
                    d.notes.push("required by `require` under [lint] in kompat.toml".to_owned());
                    return Some(d);
                }
                if let Some(i) = self.allows.iter().position(|a| {
                    a.code == d.code() && a.subject.as_deref().is_none_or(|s| Some(s) == d.subject.as_deref())
                }) {
                    used[i] = true;
                    let justification = self.allows[i].reason.clone();
                    suppressed.push(Suppressed { diagnostic: d, kind: SuppressionKind::External, justification });
                    return None;
                }
                match self.levels.get(d.code()) {
                    Some(Level::Allow) => return None,
                    Some(Level::Warn) => d.severity = Severity::Warning,
                    Some(Level::Deny) => d.severity = Severity::Error,
                    None => (),
                }
                Some(d)
            })
            .collect();
        for (allow, used) in self.allows.iter().zip(used) {
            if !used {
                let subject = allow.subject.as_deref();
                let near = subjects.iter().filter(|(c, _)| *c == allow.code).map(|(_, s)| s.as_str());
                let suggestion = subject.and_then(|s| kompat_runtime::suggest::did_you_mean(s, near));
                out.push(unused_config_allow(&allow.code, subject, suggestion, allow.location.clone()));
            }
        }
        (out, suppressed)
    }
}

/// `#[kompat(allow(code = "...", reason = "..."))]` on a gate declared in
/// Rust: drops that code's findings about that gate, and reports an allow
/// that drops nothing (at the `allow(...)`), or names no known code (at the
/// code).
/// The dropped findings are returned too, with the allow's reason.
pub fn apply_source_allows(
    diags: Vec<Diagnostic>,
    allows: &[RustAllow],
    known: &[&Rule],
) -> (Vec<Diagnostic>, Vec<Suppressed>) {
    let mut used = vec![false; allows.len()];
    let mut suppressed = Vec::new();
    // Filtered in place, as `LintPolicy::apply` does.
    let mut out: Vec<Diagnostic> = diags
        .into_iter()
        .filter_map(|d| {
            let hit = allows.iter().position(|a| {
                d.code() == crate::rules::canonical(&a.code) && d.subject.as_deref() == Some(a.gate.as_str())
            });
            let Some(i) = hit else { return Some(d) };
            used[i] = true;
            let justification = allows[i].reason.clone();
            suppressed.push(Suppressed { diagnostic: d, kind: SuppressionKind::InSource, justification });
            None
        })
        .collect();
    for (allow, used) in allows.iter().zip(used) {
        if used {
            continue;
        }
        let (gate, code) = (&allow.gate, &allow.code);
        out.push(if crate::rules::known(code, known) {
            unused_source_allow(gate, code, None, allow.location.clone())
        } else {
            let hint = crate::rules::code_hint(code);
            unused_source_allow(gate, code, Some(hint), allow.code_location.clone())
        });
    }
    (out, suppressed)
}
