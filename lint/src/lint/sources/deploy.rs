//! Deployment material where removed gates break real clusters:
//! `--feature-gates=...` flags in YAML, shell scripts, Dockerfiles and
//! Markdown, and `featureGates:` maps in kubelet, kind and kubeadm
//! configuration files.

use std::path::Path;

use kompat_core::gate::parse_go_bool;
use kompat_decls::yaml::{is_limit_error, parse_documents, Node};
use kompat_project::{Result, SourceFile};

use super::GateSetting;

/// Whether a file is deployment material kompat reads.
pub fn is_deployment_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
    matches!(ext, "yaml" | "yml" | "sh" | "bash" | "md" | "service" | "env" | "conf")
        || name.starts_with("Dockerfile")
        || name.starts_with("Containerfile")
}

/// Every gate setting in one file.
pub fn scan(path: &Path) -> Result<Vec<GateSetting>> {
    settings(&SourceFile::read(path)?)
}

/// Every gate setting in one file's text.
fn settings(source: &SourceFile) -> Result<Vec<GateSetting>> {
    let mut settings = flags(source);
    let ext = source.path.extension().and_then(|e| e.to_str()).unwrap_or_default();
    if matches!(ext, "yaml" | "yml") {
        // Templated YAML may not parse; its flags were still found above.
        // An alias bomb or extreme nesting is an error all the same.
        match parse_documents(&source.text) {
            Ok(docs) => {
                for doc in &docs {
                    feature_gate_maps(source, doc, &mut settings);
                }
            }
            Err(err) if is_limit_error(&err) => return Err(source.parse_errors(vec![err])),
            Err(_) => {}
        }
    }
    Ok(settings)
}

/// `--feature-gates=A=true,B=false` and `--feature-gates A=true`, quoted or not.
fn flags(source: &SourceFile) -> Vec<GateSetting> {
    const FLAG: &str = "--feature-gates";
    let text = &*source.text;
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
        push_items(source, start, end, &mut out);
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

fn push_items(source: &SourceFile, start: usize, end: usize, out: &mut Vec<GateSetting>) {
    let Some(list) = source.text.get(start..end) else { return };
    for (gate, value, range) in items(list) {
        out.push(GateSetting { gate, value, location: source.locate(start + range.start, start + range.end) });
    }
}

/// A `feature-gates` value written as a YAML scalar (kubeadm's `extraArgs`):
/// its items, located inside the scalar when it is written as is, else at
/// the whole scalar (escapes, folding).
fn scalar_items(source: &SourceFile, node: &Node, out: &mut Vec<GateSetting>) {
    let Node::Scalar(scalar) = node else { return };
    let raw = source.text.get(scalar.span.start..scalar.span.end).unwrap_or_default();
    match raw.find(scalar.value.as_str()) {
        Some(at) if !scalar.value.is_empty() => {
            let start = scalar.span.start + at;
            push_items(source, start, start + scalar.value.len(), out);
        }
        _ => out.extend(items(&scalar.value).into_iter().map(|(gate, value, _)| GateSetting {
            gate,
            value,
            location: source.locate(scalar.span.start, scalar.span.end),
        })),
    }
}

/// `featureGates: {Gate: true}` anywhere in a YAML document, and kubeadm's
/// `extraArgs`: `feature-gates: "Gate=true"` (v1beta3) or
/// `- {name: feature-gates, value: "Gate=true"}` (v1beta4).
fn feature_gate_maps(source: &SourceFile, node: &Node, out: &mut Vec<GateSetting>) {
    match node {
        Node::Map(entries, _) => {
            for (key, value) in entries {
                let key = key.value.as_str();
                if key == "feature-gates" {
                    scalar_items(source, value, out);
                }
                if key == "name" && value.text() == Some("feature-gates") {
                    if let Some((_, v)) = entries.iter().find(|(k, _)| k.value == "value") {
                        scalar_items(source, v, out);
                    }
                }
                if key == "featureGates" {
                    if let Node::Map(gates, _) = value {
                        for (gate, enabled) in gates {
                            let Some(value) = enabled.text().and_then(parse_go_bool) else {
                                continue;
                            };
                            out.push(GateSetting {
                                gate: gate.value.clone(),
                                value,
                                location: source.locate(gate.span.start, gate.span.end),
                            });
                        }
                    }
                }
                feature_gate_maps(source, value, out);
            }
        }
        Node::Seq(items, _) => items.iter().for_each(|n| feature_gate_maps(source, n, out)),
        Node::Scalar(_) => (),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scans `text` as the file `name` and lists `line:col Gate=value`.
    #[track_caller]
    fn check(name: &str, text: &str, expected: &[&str]) {
        let source = SourceFile::new(name.into(), text.to_owned());
        let got: Vec<String> = settings(&source)
            .unwrap_or_default()
            .iter()
            .map(|s| {
                let (line, col) = s.location.line_col.unwrap_or_default();
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
