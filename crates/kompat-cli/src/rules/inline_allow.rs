//! Inline allowances in YAML and JSON manifests (CRD manifests and
//! deployment material), with a mandatory reason, in two forms:
//!
//! - an annotation on the object, mirroring kube-linter's
//!   `ignore-check.kube-linter.io/<check>`:
//!   `metadata.annotations: {ignore-check.kompat.io/<code>: "reason"}`;
//! - a YAML comment in the object: `# kompat:allow(<code>[, <code>...]) reason`.
//!
//! Either allows the findings of that code located in that object (a YAML
//! document, or an item of a `kind: List`); a comment above an object's first
//! line belongs to the object that follows it. `allow-without-reason` reports
//! an allowance without a reason (which then allows nothing), and
//! `unused-allowance` one that allowed nothing or names an unknown code.
//! Allowed findings are kept as [`crate::Suppressed`] (SARIF `suppressions`,
//! kind `inSource`), as `#[kompat(allow(...))]`'s are.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use kompat_diag::declare_rule;
use kompat_diag::Location;
use kompat_formats::yaml::{self, Node};
use kompat_project::SourceFile;

use super::unused_allowance::UNUSED_ALLOWANCE;
use super::Pass;
use crate::{Suppressed, SuppressionKind};
use kompat_diag::{Diagnostic, Rule};

/// The annotation prefix: `ignore-check.kompat.io/<code>`.
pub const ANNOTATION_PREFIX: &str = "ignore-check.kompat.io/";
/// The comment form: `# kompat:allow(<code>) reason`.
const COMMENT_PREFIX: &str = "kompat:allow(";

declare_rule! {
    /// ### What it does
    ///
    /// Reports an inline allowance in a YAML or JSON manifest (the annotation `ignore-check.kompat.io/<code>` or the comment `# kompat:allow(<code>) reason`) that gives no reason. Such an allowance allows nothing: the finding it names is still reported.
    ///
    /// ### Why is this bad?
    ///
    /// An allowance hides a finding from everyone who reads the manifest after you; without the reason, nobody can tell whether it still holds when the manifest or the cluster changes.
    ///
    /// ### Example
    ///
    /// ```yaml
    /// metadata:
    ///   annotations:
    ///     ignore-check.kompat.io/removed-api-version: ""
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```yaml
    /// metadata:
    ///   annotations:
    ///     ignore-check.kompat.io/removed-api-version: "applied only to the 1.21 staging cluster until it is retired"
    /// ```
    pub ALLOW_WITHOUT_REASON: Error, "an inline allowance in a manifest gives no reason"
}

/// Reported while allowances are applied ([`apply`]), not by a check.
pub static PASS: Pass = Pass { rules: &[&ALLOW_WITHOUT_REASON], check: None };

/// Which of the two forms an allowance is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Annotation,
    Comment,
}

/// One inline allowance: one code, for one object of one file.
#[derive(Debug, Clone)]
pub struct InlineAllow {
    pub code: String,
    /// Trimmed; empty when none was given.
    pub reason: String,
    pub form: Form,
    pub path: PathBuf,
    /// The bytes of the object it covers (whole lines); empty when the
    /// comment is in no object.
    pub scope: Range<usize>,
    /// The annotation (key and value) or the comment.
    pub location: Location,
    /// The code as written.
    pub code_location: Location,
}

impl InlineAllow {
    /// How the allowance is written, for messages.
    fn written(&self) -> String {
        match self.form {
            Form::Annotation => format!("`{ANNOTATION_PREFIX}{}`", self.code),
            Form::Comment => format!("`# kompat:allow({})`", self.code),
        }
    }

    fn covers(&self, d: &Diagnostic) -> bool {
        let Some(location) = &d.location else { return false };
        let Some(range) = location.range() else { return false };
        d.code() == super::canonical(&self.code) && location.path() == self.path && self.scope.contains(&range.start)
    }
}

/// Every inline allowance of a YAML or JSON file. Text that does not parse as
/// YAML has no objects and so no allowances (its parse errors, if any, are
/// reported by whoever reads it).
pub fn scan(source: &SourceFile) -> Vec<InlineAllow> {
    let text: &str = &source.text;
    let ext = source.path.extension().and_then(|e| e.to_str());
    let structured =
        matches!(ext, Some("yaml" | "yml" | "json")) || source.path.as_os_str() == kompat_project::STDIN_NAME;
    // No allowance without the word (a vectorized search: every manifest
    // of a tree is searched).
    if !structured || memchr::memmem::find(text.as_bytes(), b"kompat").is_none() {
        return Vec::new();
    }
    let Ok(docs) = yaml::parse_documents(text) else { return Vec::new() };
    let mut objects: Vec<&Node> = Vec::new();
    for doc in &docs {
        if doc.as_map().is_none() {
            continue;
        }
        match doc.get("items").and_then(Node::as_seq) {
            Some(items) if doc.get("kind").and_then(Node::as_str) == Some("List") => {
                objects.extend(items.iter().filter(|i| i.as_map().is_some()))
            }
            _ => objects.push(doc),
        }
    }
    let scopes: Vec<Range<usize>> = objects.iter().map(|o| whole_lines(text, o.span().start, o.span().end)).collect();
    let mut out = Vec::new();
    for (object, scope) in objects.iter().zip(&scopes) {
        let annotations = object.get("metadata").and_then(|m| m.get("annotations")).and_then(Node::as_map);
        for (key, value) in annotations.unwrap_or_default() {
            let Some(code) = key.value.strip_prefix(ANNOTATION_PREFIX) else { continue };
            let span = key.span.cover(value.span());
            out.push(InlineAllow {
                code: code.to_owned(),
                reason: value.as_str().unwrap_or_default().trim().to_owned(),
                form: Form::Annotation,
                path: source.path.clone(),
                scope: scope.clone(),
                location: source.locate(span.start, span.end),
                code_location: source.locate(key.span.start, key.span.end),
            });
        }
    }
    for comment in comments(text) {
        // The object the comment is in, else the next one (objects are in
        // text order and apart: a binary search, however many there are).
        let next = scopes.partition_point(|s| s.end < comment.start);
        let scope = scopes.get(next).cloned().unwrap_or(comment.start..comment.start);
        for (code, at) in &comment.codes {
            out.push(InlineAllow {
                code: code.clone(),
                reason: comment.reason.clone(),
                form: Form::Comment,
                path: source.path.clone(),
                scope: scope.clone(),
                location: source.locate(comment.start, comment.end),
                code_location: source.locate(*at, at + code.len()),
            });
        }
    }
    out
}

/// `start..end` widened to whole lines (a trailing comment on an object's
/// last line is in it).
fn whole_lines(text: &str, start: usize, end: usize) -> Range<usize> {
    let start = text.get(..start).and_then(|t| t.rfind('\n')).map_or(0, |i| i + 1);
    let end = text.get(end..).and_then(|t| t.find('\n')).map_or(text.len(), |i| end + i);
    start..end
}

/// One `# kompat:allow(a, b) reason` comment: its bytes, each code with its
/// offset, and the reason.
struct Comment {
    start: usize,
    end: usize,
    codes: Vec<(String, usize)>,
    reason: String,
}

/// The allowance comments of a text: a `#` at the start of a line or after
/// whitespace, then `kompat:allow(`, the codes, `)` and the reason. A comment
/// without the closing parenthesis is not one.
fn comments(text: &str) -> Vec<Comment> {
    let mut out = Vec::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let mut search = 0;
        while let Some(i) = body[search..].find('#').map(|i| search + i) {
            search = i + 1;
            if i > 0 && !body[..i].ends_with([' ', '\t']) {
                continue;
            }
            let after = &body[i + 1..];
            let rest = after.trim_start();
            let Some(inner) = rest.strip_prefix(COMMENT_PREFIX) else { continue };
            let Some(close) = inner.find(')') else { continue };
            let inner_at = line_start + i + 1 + (after.len() - rest.len()) + COMMENT_PREFIX.len();
            let mut codes = Vec::new();
            let mut offset = 0;
            for part in inner[..close].split(',') {
                let code = part.trim();
                if !code.is_empty() {
                    let lead = part.len() - part.trim_start().len();
                    codes.push((code.to_owned(), inner_at + offset + lead));
                }
                offset += part.len() + 1;
            }
            if codes.is_empty() {
                // `kompat:allow()`: reported as naming no code.
                codes.push((String::new(), inner_at));
            }
            out.push(Comment {
                start: line_start + i,
                end: line_start + body.len(),
                codes,
                reason: inner[close + 1..].trim().to_owned(),
            });
            break;
        }
        line_start += line.len();
    }
    out
}

/// Applies inline allowances to `diags`: returns the findings kept (with
/// `allow-without-reason` and `unused-allowance` findings about the
/// allowances) and those allowed, with their reasons.
pub fn apply(diags: Vec<Diagnostic>, allows: &[InlineAllow], known: &[&Rule]) -> (Vec<Diagnostic>, Vec<Suppressed>) {
    // The findings about the allowances themselves, before the others.
    let mut out = Vec::new();
    // Allowances that can allow: a reason and a known code.
    let mut valid = Vec::new();
    for allow in allows {
        if !super::known(&allow.code, known) {
            let hint = super::code_hint(&allow.code);
            out.push(
                UNUSED_ALLOWANCE
                    .diag(
                        if allow.code.is_empty() {
                            format!("{} names no lint code", allow.written())
                        } else {
                            format!("{} names unknown lint code `{}`{hint}", allow.written(), allow.code)
                        },
                        if allow.code.is_empty() { allow.location.clone() } else { allow.code_location.clone() },
                    )
                    .with_subject(allow.code.clone()),
            );
        } else if allow.reason.is_empty() {
            out.push(
                ALLOW_WITHOUT_REASON
                    .diag(
                        format!("{} gives no reason: say why the finding is acceptable", allow.written()),
                        allow.location.clone(),
                    )
                    .with_subject(allow.code.clone())
                    .with_note("an allowance without a reason allows nothing"),
            );
        } else {
            valid.push(allow);
        }
    }
    // By file and code, each list in text order: a finding is looked up by a
    // binary search, so many allowances and findings stay linear-logarithmic.
    let mut index: BTreeMap<(&Path, &str), Vec<usize>> = BTreeMap::new();
    for (i, allow) in valid.iter().enumerate() {
        index.entry((allow.path.as_path(), super::canonical(&allow.code))).or_default().push(i);
    }
    for list in index.values_mut() {
        list.sort_by_key(|&i| (valid[i].scope.start, i));
    }
    let find = |d: &Diagnostic| -> Option<usize> {
        let location = d.location.as_ref()?;
        let start = location.range()?.start;
        let list = index.get(&(location.path(), d.code()))?;
        // The allowances whose scope starts at or before the finding; the
        // scopes of one file are apart, so only the last ones can hold it.
        let upto = list.partition_point(|&i| valid[i].scope.start <= start);
        list[..upto]
            .iter()
            .rev()
            .take_while(|&&i| valid[i].scope.end >= start)
            .copied()
            .filter(|&i| valid[i].covers(d))
            .min()
    };
    let mut used = vec![false; valid.len()];
    let mut suppressed = Vec::new();
    // Filtered in place (the kept findings reuse `diags`' buffer): a run
    // may have hundreds of thousands.
    let kept: Vec<Diagnostic> = if valid.is_empty() {
        diags
    } else {
        diags
            .into_iter()
            .filter_map(|d| match find(&d) {
                Some(i) => {
                    used[i] = true;
                    let justification = valid[i].reason.clone();
                    suppressed.push(Suppressed { diagnostic: d, kind: SuppressionKind::InSource, justification });
                    None
                }
                None => Some(d),
            })
            .collect()
    };
    let mut out = if out.is_empty() {
        kept
    } else {
        out.extend(kept);
        out
    };
    for (allow, used) in valid.iter().zip(used) {
        if !used {
            out.push(
                UNUSED_ALLOWANCE
                    .diag(format!("{} matches no finding in its object", allow.written()), allow.location.clone())
                    .with_subject(allow.code.clone()),
            );
        }
    }
    (out, suppressed)
}

#[cfg(test)]
mod tests {
    use super::comments;
    use crate::test_support::check;

    /// One comment: each code as `code@text at its offset`, and the reason.
    type Parsed = (Vec<String>, String);

    /// Every allowance comment of `text`.
    fn parse(text: &str) -> Vec<Parsed> {
        comments(text)
            .into_iter()
            .map(|c| {
                let codes =
                    c.codes.iter().map(|(code, at)| format!("{code}@{}", &text[*at..at + code.len()])).collect();
                (codes, c.reason)
            })
            .collect()
    }

    #[test]
    fn comment_forms() {
        let cases: [(&str, Vec<Parsed>); 9] = [
            ("# kompat:allow(a) why\n", vec![(vec!["a@a".into()], "why".into())]),
            (
                "#kompat:allow( a , b )  two reasons \r\n",
                vec![(vec!["a@a".into(), "b@b".into()], "two reasons".into())],
            ),
            ("key: v # kompat:allow(c) trailing\n", vec![(vec!["c@c".into()], "trailing".into())]),
            ("é: v # kompat:allow(d)\n", vec![(vec!["d@d".into()], String::new())]),
            // Not comments: no whitespace before `#`, no closing parenthesis,
            // another word.
            ("key: v#kompat:allow(e) x\n", vec![]),
            ("# kompat:allow(f x\n", vec![]),
            ("# kompat:deny(g) x\n", vec![]),
            ("#\n# \n#", vec![]),
            ("# kompat:allow() nothing named\n", vec![(vec!["@".into()], "nothing named".into())]),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text), want, "{text:?}");
        }
    }

    #[test]
    fn allow_without_reason() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
[kubernetes]
version = "1.37"
//- ingress.yaml
apiVersion: extensions/v1beta1
#           ^^^^^^^^^^^^^^^^^^ error[removed-api-version]: no matches for kind "Ingress" in version "extensions/v1beta1" on Kubernetes 1.37: removed in 1.22; use networking.k8s.io/v1 Ingress
kind: Ingress
metadata:
  name: web
  annotations:
    ignore-check.kompat.io/removed-api-version: ""
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[allow-without-reason]: `ignore-check.kompat.io/removed-api-version` gives no reason: say why the finding is acceptable
---
# kompat:allow(removed-api-version)
#@0 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[allow-without-reason]: `# kompat:allow(removed-api-version)` gives no reason: say why the finding is acceptable
apiVersion: policy/v1beta1
#           ^^^^^^^^^^^^^^ error[removed-api-version]: no matches for kind "PodSecurityPolicy" in version "policy/v1beta1" on Kubernetes 1.37: removed in 1.25
kind: PodSecurityPolicy
metadata:
  name: restricted
"##,
        );
    }

    #[test]
    fn allowances_with_a_reason_allow_their_object_only() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
[kubernetes]
version = "1.37"
//- manifests.yaml
apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: web
  annotations:
    ignore-check.kompat.io/removed-api-version: "staging cluster on 1.21 until it is retired"
---
# kompat:allow(removed-api-version, deprecated-api-version) applied to the 1.21 cluster only
#@0 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[unused-allowance]: `# kompat:allow(deprecated-api-version)` matches no finding in its object
apiVersion: policy/v1beta1
kind: PodSecurityPolicy
metadata:
  name: restricted
---
apiVersion: extensions/v1beta1
#           ^^^^^^^^^^^^^^^^^^ error[removed-api-version]: no matches for kind "Ingress" in version "extensions/v1beta1" on Kubernetes 1.37: removed in 1.22; use networking.k8s.io/v1 Ingress
kind: Ingress
metadata:
  name: api
---
apiVersion: v1
kind: Service
metadata:
  name: web
  annotations:
    ignore-check.kompat.io/removed-api-version: "nothing to allow here"
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[unused-allowance]: `ignore-check.kompat.io/removed-api-version` matches no finding in its object
    ignore-check.kompat.io/removed-api-versions: "a typo"
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[unused-allowance]: `ignore-check.kompat.io/removed-api-versions` names unknown lint code `removed-api-versions` (did you mean `removed-api-version`?)
spec:
  type: ClusterIP  # kompat:allow() forgot the code
#                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[unused-allowance]: `# kompat:allow()` names no lint code
"##,
        );
    }
}
