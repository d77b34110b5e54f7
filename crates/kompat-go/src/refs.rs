//! Gate references in Go code: `features.X` selectors (also as the argument
//! of `Enabled(...)` and `DefaultFeatureGate.Enabled(...)`), where `features`
//! is the local name of an imported package that declares gate `X`.

use std::collections::{BTreeSet, HashMap};

use kompat_formats::ParseError;
use kompat_span::Span;

use crate::syntax::{children, identifier_name, parse_tolerant, span, text};

/// A package that declares gates, as seen by the files that import it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GatePackage {
    /// Its package clause name: the local name of an import without alias.
    pub package: String,
    /// The identifiers that name gates: the keys of its `VersionedSpecs`
    /// maps and its `featuregate.Feature` constants.
    pub gates: BTreeSet<String>,
}

/// A selector naming a gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoRef {
    /// The gate's name (the selected identifier).
    pub gate: String,
    /// The identifier's span.
    pub span: Span,
}

/// Every reference in `text` to a gate of a package `resolve` knows by import
/// path. Keys of `VersionedSpecs` map literals are declarations, not
/// references. Code around a syntax error is read as far as the parser
/// recovers (Go's syntax may be newer than the grammar's); declarations, not
/// references, are where syntax errors are reported.
pub fn references<'p>(
    text_: &str,
    resolve: impl Fn(&str) -> Option<&'p GatePackage>,
) -> Result<Vec<GoRef>, Vec<ParseError>> {
    let tree = parse_tolerant(text_)?;
    let root = tree.root_node();
    let mut locals: HashMap<String, &GatePackage> = HashMap::new();
    for decl in children(root).into_iter().filter(|n| n.kind() == "import_declaration") {
        let mut specs = Vec::new();
        for child in children(decl) {
            match child.kind() {
                "import_spec" => specs.push(child),
                "import_spec_list" => specs.extend(children(child)),
                _ => {}
            }
        }
        for spec in specs.into_iter().filter(|s| s.kind() == "import_spec") {
            let Some(path) = spec.child_by_field_name("path") else { continue };
            let path = text(text_, path).trim_matches('"').trim_matches('`');
            let Some(package) = resolve(path) else { continue };
            let local = match spec.child_by_field_name("name") {
                Some(name) => text(text_, name).to_owned(),
                None => package.package.clone(),
            };
            if local != "_" && local != "." {
                locals.insert(local, package);
            }
        }
    }
    let mut refs = Vec::new();
    if locals.is_empty() {
        return Ok(refs);
    }
    let mut declared_keys: Vec<Span> = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        match node.kind() {
            "composite_literal" if is_versioned_specs_map(text_, node) => {
                if let Some(body) = node.child_by_field_name("body") {
                    for elt in children(body).into_iter().filter(|e| e.kind() == "keyed_element") {
                        if let Some(key) = elt.child_by_field_name("key") {
                            declared_keys.push(span(key));
                        }
                    }
                }
            }
            "selector_expression" => {
                if let (Some(operand), Some(field)) =
                    (node.child_by_field_name("operand"), node.child_by_field_name("field"))
                {
                    let gate = text(text_, field);
                    let declared =
                        declared_keys.iter().any(|k| k.start <= node.start_byte() && node.end_byte() <= k.end);
                    if operand.kind() == "identifier"
                        && !declared
                        && locals.get(text(text_, operand)).is_some_and(|p| p.gates.contains(gate))
                    {
                        refs.push(GoRef { gate: gate.to_owned(), span: span(field) });
                    }
                }
            }
            _ => {}
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return Ok(refs);
            }
        }
    }
}

fn is_versioned_specs_map(src: &str, node: tree_sitter::Node<'_>) -> bool {
    let Some(ty) = node.child_by_field_name("type").filter(|t| t.kind() == "map_type") else { return false };
    ty.child_by_field_name("value").is_some_and(|v| identifier_name(src, v, true) == "VersionedSpecs")
}
