//! Deployment material where removed gates break real clusters:
//! `--feature-gates=...` flags in YAML, shell scripts, Dockerfiles and
//! Markdown, and `featureGates:` maps in kubelet, kind and kubeadm
//! configuration files. Text in, gate settings with spans out; which files
//! are deployment material is `kompat-project`'s to decide.

use kompat_core::gate::parse_go_bool;

use crate::span::{ParseError, Span};
use crate::yaml::{is_limit_error, parse_documents, Node};

/// A gate set in deployment material (`--feature-gates=Gate=true`), with
/// where it is written: a [`Span`] here, a located place in a file once a
/// reader of files has mapped it ([`GateSetting::map_location`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateSetting<L = Span> {
    pub gate: String,
    pub value: bool,
    pub location: L,
}

impl<L> GateSetting<L> {
    /// The same setting with its location mapped (e.g. a span to a file
    /// location).
    pub fn map_location<M>(self, f: impl FnOnce(L) -> M) -> GateSetting<M> {
        GateSetting { gate: self.gate, value: self.value, location: f(self.location) }
    }
}

/// How a deployment text is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Material {
    /// YAML: flags anywhere, and `featureGates:` maps and kubeadm's
    /// `extraArgs` when the text parses.
    Yaml,
    /// Shell, Dockerfiles, Markdown, unit files: flags only.
    Text,
}

/// Every gate setting in a deployment text, flags first, in text order.
/// Templated YAML that does not parse still has its flags read; YAML that
/// would exceed the parser's limits (an alias bomb, extreme nesting) is an
/// error all the same.
pub fn gate_settings(text: &str, material: Material) -> Result<Vec<GateSetting>, ParseError> {
    let mut settings = flags(text);
    if material == Material::Yaml {
        match parse_documents(text) {
            Ok(docs) => {
                for doc in &docs {
                    feature_gate_maps(text, doc, &mut settings);
                }
            }
            Err(err) if is_limit_error(&err) => return Err(err),
            Err(_) => {}
        }
    }
    Ok(settings)
}

/// `--feature-gates=A=true,B=false` and `--feature-gates A=true`, quoted or not.
fn flags(text: &str) -> Vec<GateSetting> {
    const FLAG: &str = "--feature-gates";
    let mut out = Vec::new();
    for (at, _) in text.match_indices(FLAG) {
        let mut start = at + FLAG.len();
        let rest = &text[start..];
        let skipped = rest.len() - rest.trim_start_matches(['=', ' ', '\t']).len();
        if skipped == 0 {
            continue; // e.g. --feature-gates-file
        }
        start += skipped;
        let quoted = text[start..].starts_with(['"', '\'']);
        if quoted {
            start += 1;
        }
        let end = text[start..]
            .find(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == '\\' || c == ']' || c == '`')
            .map_or(text.len(), |i| start + i);
        push_items(text, start, end, &mut out);
    }
    out
}

/// The `Gate=bool` items of a comma-separated list, with their byte ranges
/// in `list`.
fn items(list: &str) -> Vec<(String, bool, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for item in list.split(',') {
        let start = offset;
        offset += item.len() + 1;
        let Some((key, value)) = item.split_once('=') else { continue };
        let Some(value) = parse_go_bool(value.trim()) else { continue };
        let key = key.trim();
        if !key.is_empty() {
            out.push((key.to_owned(), value, start..start + item.len()));
        }
    }
    out
}

fn push_items(text: &str, start: usize, end: usize, out: &mut Vec<GateSetting>) {
    let Some(list) = text.get(start..end) else { return };
    for (gate, value, range) in items(list) {
        out.push(GateSetting { gate, value, location: Span::new(start + range.start, start + range.end) });
    }
}

/// A `feature-gates` value written as a YAML scalar (kubeadm's `extraArgs`):
/// its items, located inside the scalar when it is written as is, else at
/// the whole scalar (escapes, folding).
fn scalar_items(text: &str, node: &Node, out: &mut Vec<GateSetting>) {
    let Node::Scalar(scalar) = node else { return };
    let raw = text.get(scalar.span.start..scalar.span.end).unwrap_or_default();
    match raw.find(scalar.value.as_str()) {
        Some(at) if !scalar.value.is_empty() => {
            let start = scalar.span.start + at;
            push_items(text, start, start + scalar.value.len(), out);
        }
        _ => out.extend(items(&scalar.value).into_iter().map(|(gate, value, _)| GateSetting {
            gate,
            value,
            location: scalar.span,
        })),
    }
}

/// `featureGates: {Gate: true}` anywhere in a YAML document, and kubeadm's
/// `extraArgs`: `feature-gates: "Gate=true"` (v1beta3) or
/// `- {name: feature-gates, value: "Gate=true"}` (v1beta4).
fn feature_gate_maps(text: &str, node: &Node, out: &mut Vec<GateSetting>) {
    match node {
        Node::Map(entries, _) => {
            for (key, value) in entries {
                let key = key.value.as_str();
                if key == "feature-gates" {
                    scalar_items(text, value, out);
                }
                if key == "name" && value.text() == Some("feature-gates") {
                    if let Some((_, v)) = entries.iter().find(|(k, _)| k.value == "value") {
                        scalar_items(text, v, out);
                    }
                }
                if key == "featureGates" {
                    if let Node::Map(gates, _) = value {
                        for (gate, enabled) in gates {
                            let Some(value) = enabled.text().and_then(parse_go_bool) else {
                                continue;
                            };
                            out.push(GateSetting { gate: gate.value.clone(), value, location: gate.span });
                        }
                    }
                }
                feature_gate_maps(text, value, out);
            }
        }
        Node::Seq(items, _) => items.iter().for_each(|n| feature_gate_maps(text, n, out)),
        Node::Scalar(_) => (),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::LineIndex;

    /// Scans `text` as the file `name` (YAML by its extension) and lists
    /// `line:col Gate=value`.
    #[track_caller]
    fn check(name: &str, text: &str, expected: &[&str]) {
        let material = if name.ends_with(".yaml") { Material::Yaml } else { Material::Text };
        let lines = LineIndex::new(text);
        let got: Vec<String> = gate_settings(text, material)
            .unwrap_or_default()
            .iter()
            .map(|s| {
                let (line, col) = lines.line_col(s.location.start);
                format!("{line}:{col} {}={}", s.gate, s.value)
            })
            .collect();
        assert_eq!(got, expected, "{name}");
    }

    #[test]
    fn flags_in_scripts_dockerfiles_and_markdown() {
        check("run.sh", "exec widgetd --feature-gates=A=true,B=false \"$@\"\n", &["1:30 A=true", "1:37 B=false"]);
        check("run.sh", "widgetd --feature-gates A=1 --v=2\n", &["1:25 A=true"]);
        check("run.sh", "widgetd --feature-gates-file=gates.txt\n", &[]);
        check("Dockerfile", "CMD [\"widgetd\", \"--feature-gates=A=true\"]\n", &["1:34 A=true"]);
        check("README.md", "Run `widgetd --feature-gates=Later=true`.\n", &["1:30 Later=true"]);
        // Malformed items are skipped, the others kept.
        check("run.sh", "widgetd --feature-gates=A=maybe,=true,B=T\n", &["1:39 B=true"]);
    }

    #[test]
    fn yaml_flags_and_feature_gate_maps() {
        let pod = "spec:\n  containers:\n  - command:\n    - kube-apiserver\n    - --feature-gates=A=true\n";
        check("pod.yaml", pod, &["5:23 A=true"]);
        let kubelet = "kind: KubeletConfiguration\nfeatureGates:\n  A: true\n  B: \"false\"\n  C: sometimes\n";
        check("kubelet.yaml", kubelet, &["3:3 A=true", "4:3 B=false"]);
        let kind = "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nfeatureGates:\n  \"A\": true\n";
        check("kind.yaml", kind, &["4:3 A=true"]);
        // Templated YAML: the flags are still found.
        check("chart.yaml", "args: [{{ .Values.x }}, --feature-gates=A=true\n", &["1:41 A=true"]);
    }

    #[test]
    fn kubeadm_extra_args() {
        let v1beta3 = "kind: ClusterConfiguration\napiServer:\n  extraArgs:\n    feature-gates: \"A=true,B=false\"\n";
        check("kubeadm.yaml", v1beta3, &["4:21 A=true", "4:28 B=false"]);
        let v1beta4 =
            "kind: ClusterConfiguration\napiServer:\n  extraArgs:\n  - name: feature-gates\n    value: A=true\n";
        check("kubeadm.yaml", v1beta4, &["5:12 A=true"]);
        // An escaped value: each item at the whole scalar.
        let escaped = "extraArgs:\n  feature-gates: \"A=tr\\u0075e\"\n";
        check("kubeadm.yaml", escaped, &["2:18 A=true"]);
    }
}
