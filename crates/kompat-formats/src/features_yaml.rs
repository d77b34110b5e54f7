//! Kubernetes' `versioned_feature_list.yaml`: a sequence of
//! `{name, versionedSpecs: [{default, lockToDefault, preRelease, version,
//! minCompatibilityVersion?}]}`.

use std::collections::HashMap;

use kompat_engine::{FeatureDecl, SpecDecl};
use kompat_runtime::{Stage, VersionLit};

use crate::span::{unknown_key_message, ParseError};
use crate::yaml::{parse_documents, Node};
use crate::{FeatureFile, FeatureSpans, SpecSpans};
use kompat_span::Span;

const FEATURE_KEYS: [&str; 2] = ["name", "versionedSpecs"];
const SPEC_KEYS: [&str; 5] = ["default", "lockToDefault", "preRelease", "version", "minCompatibilityVersion"];

/// Parses a `versioned_feature_list.yaml`, collecting every error.
pub fn parse_k8s_yaml(text: &str) -> Result<FeatureFile, Vec<ParseError>> {
    let docs = parse_documents(text).map_err(|e| vec![e])?;
    k8s_yaml_in(text, &docs)
}

/// [`parse_k8s_yaml`] of `text`'s documents, parsed already
/// ([`parse_documents`]).
pub fn k8s_yaml_in(text: &str, docs: &[Node]) -> Result<FeatureFile, Vec<ParseError>> {
    let mut errors = Vec::new();
    let mut file = FeatureFile::default();
    let root = match docs {
        [] => return Ok(file),
        [root] => root,
        [_, second, ..] => {
            return Err(vec![ParseError::at(second.span(), "expected a single YAML document")]);
        }
    };
    if root.is_null() {
        return Ok(file);
    }
    let Node::Seq(items, _) = root else {
        return Err(vec![ParseError::at(
            root.span(),
            format!("expected a sequence of features, found {}", found(root)),
        )]);
    };
    let mut seen: HashMap<String, Span> = HashMap::new();
    for item in items {
        if let Some((decl, spans)) = feature(item, &mut errors) {
            if let Some(first) = seen.get(&decl.name) {
                let line = text[..first.start].matches('\n').count() + 1;
                errors.push(ParseError::at(
                    spans.name,
                    format!("duplicate feature `{}` (first declared on line {line})", decl.name),
                ));
                continue;
            }
            seen.insert(decl.name.clone(), spans.name);
            file.push(decl, spans);
        }
    }
    if errors.is_empty() {
        Ok(file)
    } else {
        Err(errors)
    }
}

/// The entries of a mapping, checking key types, duplicates and unknown keys.
fn entries<'a>(
    node: &'a Node,
    known: &[&str],
    what: &str,
    errors: &mut Vec<ParseError>,
) -> Option<Vec<(&'a str, Span, &'a Node)>> {
    let Node::Map(pairs, _) = node else {
        errors.push(ParseError::at(node.span(), format!("expected a {what} mapping, found {}", found(node))));
        return None;
    };
    let mut out: Vec<(&str, Span, &Node)> = Vec::new();
    let mut ok = true;
    for (k, value) in pairs {
        if !known.contains(&k.value.as_str()) {
            errors.push(ParseError::at(k.span, unknown_key_message(&k.value, known)));
            ok = false;
            continue;
        }
        if out.iter().any(|(name, _, _)| *name == k.value) {
            errors.push(ParseError::at(k.span, format!("duplicate key `{}`", k.value)));
            ok = false;
            continue;
        }
        out.push((&k.value, k.span, value));
    }
    ok.then_some(out)
}

fn feature(node: &Node, errors: &mut Vec<ParseError>) -> Option<(FeatureDecl, FeatureSpans)> {
    let fields = entries(node, &FEATURE_KEYS, "feature", errors)?;
    let lookup = |key: &str| fields.iter().find(|(k, _, _)| *k == key).map(|(_, _, v)| *v);
    let Some(name_node) = lookup("name") else {
        errors.push(ParseError::at(node.span(), "missing key `name`"));
        return None;
    };
    let name = match name_node {
        Node::Scalar(s) if !s.value.trim().is_empty() => s.value.to_string(),
        other => {
            errors.push(ParseError::at(other.span(), format!("expected a feature name, found {}", found(other))));
            return None;
        }
    };
    let mut decl = FeatureDecl { name, ..FeatureDecl::default() };
    let mut spans = FeatureSpans { entry: node.span(), name: name_node.span(), ..FeatureSpans::default() };
    match lookup("versionedSpecs") {
        None => {
            errors.push(ParseError::at(
                name_node.span(),
                format!("missing key `versionedSpecs` in feature `{}`", decl.name),
            ));
            return None;
        }
        Some(n) if n.is_null() => (),
        Some(Node::Seq(items, _)) => {
            let before = errors.len();
            for item in items {
                if let Some((spec, spec_spans)) = spec(item, errors) {
                    decl.specs.push(spec);
                    spans.specs.push(spec_spans);
                }
            }
            if errors.len() > before {
                return None;
            }
        }
        Some(other) => {
            errors.push(ParseError::at(other.span(), format!("expected a sequence of specs, found {}", found(other))));
            return None;
        }
    }
    Some((decl, spans))
}

fn spec(node: &Node, errors: &mut Vec<ParseError>) -> Option<(SpecDecl, SpecSpans)> {
    let fields = entries(node, &SPEC_KEYS, "spec", errors)?;
    let lookup = |key: &str| fields.iter().find(|(k, _, _)| *k == key).map(|(_, _, v)| *v);
    let before = errors.len();
    let mut required = |key: &str| {
        let found = lookup(key);
        if found.is_none() {
            errors.push(ParseError::at(node.span(), format!("missing key `{key}`")));
        }
        found
    };
    let default = required("default");
    let lock = required("lockToDefault");
    let stage = required("preRelease");
    let default_value = default.and_then(|n| boolean(n, "default", errors));
    let lock_value = lock.and_then(|n| boolean(n, "lockToDefault", errors));
    let stage_value = stage.and_then(|n| stage_of(n, errors));
    let version = lookup("version");
    let version_value = version.and_then(|n| version_of(n, "version", errors));
    let mcv = lookup("minCompatibilityVersion");
    let mcv_value = mcv.and_then(|n| version_of(n, "minCompatibilityVersion", errors));
    if errors.len() > before {
        return None;
    }
    let spec = SpecDecl {
        version: version_value.flatten(),
        default: default_value?,
        lock_to_default: lock_value?,
        stage: stage_value?,
        min_compatibility_version: mcv_value.flatten(),
    };
    let spans = SpecSpans {
        spec: node.span(),
        version: version.map(Node::span),
        stage: stage.map(Node::span),
        default: default.map(Node::span),
        lock_to_default: lock.map(Node::span),
        min_compatibility_version: mcv.map(Node::span),
    };
    Some((spec, spans))
}

fn boolean(node: &Node, key: &str, errors: &mut Vec<ParseError>) -> Option<bool> {
    if let Some(b) = node.as_bool() {
        return Some(b);
    }
    errors.push(ParseError::at(node.span(), format!("expected a boolean for `{key}`, found {}", found(node))));
    None
}

fn stage_of(node: &Node, errors: &mut Vec<ParseError>) -> Option<Stage> {
    if let Some(stage) = node.text().and_then(Stage::from_name) {
        return Some(stage);
    }
    errors.push(ParseError::at(
        node.span(),
        format!("unknown preRelease {}, expected one of `Alpha`, `Beta`, `GA`, `Deprecated`", found(node)),
    ));
    None
}

/// A version literal; `Some(None)` for an empty string (no version).
fn version_of(node: &Node, key: &str, errors: &mut Vec<ParseError>) -> Option<Option<VersionLit>> {
    let Node::Scalar(s) = node else {
        errors
            .push(ParseError::at(node.span(), format!("expected a version string for `{key}`, found {}", found(node))));
        return None;
    };
    if s.value.is_empty() {
        return Some(None);
    }
    match VersionLit::parse(&s.value) {
        Ok(lit) => Some(Some(lit)),
        Err(err) => {
            errors.push(ParseError::at(s.span, err.to_string()));
            None
        }
    }
}

/// What a node is, for messages: a scalar as written (in backticks), else
/// its kind.
fn found(node: &Node) -> String {
    match node {
        Node::Scalar(s) if s.value.is_empty() && node.is_null() => "nothing".to_owned(),
        Node::Scalar(s) => format!("`{}`", s.value),
        other => other.describe().to_owned(),
    }
}
