//! Deployment material where removed gates break real clusters:
//! `--feature-gates=...` flags in YAML, shell scripts, Dockerfiles and
//! Markdown, and `featureGates:` maps in kubelet, kind and kubeadm
//! configuration files.

use std::path::Path;

use kompat_core::gate::parse_go_bool;
use kompat_decls::yaml::{parse_documents, Node};
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
    let source = SourceFile::read(path)?;
    let mut settings = flags(&source);
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
    if matches!(ext, "yaml" | "yml") {
        // Templated YAML may not parse; its flags were still found above.
        if let Ok(docs) = parse_documents(&source.text) {
            for doc in &docs {
                feature_gate_maps(&source, doc, &mut settings);
            }
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
        let mut offset = start;
        for item in text[start..end].split(',') {
            let item_start = offset;
            offset += item.len() + 1;
            let Some((key, value)) = item.split_once('=') else { continue };
            let Some(value) = parse_go_bool(value.trim()) else { continue };
            let key = key.trim();
            if key.is_empty() {
                continue;
            }
            out.push(GateSetting {
                gate: key.to_owned(),
                value,
                location: source.locate(item_start, item_start + item.len()),
            });
        }
    }
    out
}

/// `featureGates: {Gate: true}` anywhere in a YAML document.
fn feature_gate_maps(source: &SourceFile, node: &Node, out: &mut Vec<GateSetting>) {
    match node {
        Node::Map(entries, _) => {
            for (key, value) in entries {
                if key.as_str() == Some("featureGates") {
                    if let Node::Map(gates, _) = value {
                        for (gate, enabled) in gates {
                            let (Some(name), Some(value)) = (gate.as_str(), enabled.as_str().and_then(parse_go_bool))
                            else {
                                continue;
                            };
                            let span = gate.span();
                            out.push(GateSetting {
                                gate: name.to_owned(),
                                value,
                                location: source.locate(span.start, span.end),
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
