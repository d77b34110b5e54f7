//! Gate references in Go code: `features.X` selectors (also as the argument
//! of `Enabled(...)` and `DefaultFeatureGate.Enabled(...)`), where `features`
//! is the local name of an imported package that declares gate `X`; and, in
//! the declaring package itself, bare identifiers that resolve to one of its
//! gate constants (`Enabled(X)`, `gate := X`).

use std::collections::{BTreeSet, HashMap};

use kompat_formats::ParseError;
use kompat_span::Span;

use tree_sitter::Node;

use crate::syntax::{children, identifier_name, parse_tolerant, span, text};

/// A package that declares gates, as seen by the files that import it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GatePackage {
    /// Its package clause name: the local name of an import without alias.
    pub package: String,
    /// The identifiers that name gates: the keys of its `VersionedSpecs`
    /// maps and its `featuregate.Feature` constants.
    pub gates: BTreeSet<String>,
    /// The package-level identifiers that name gates inside the package: its
    /// `featuregate.Feature` constants and the bare-identifier keys of its
    /// spec maps.
    pub own: BTreeSet<String>,
}

/// A selector naming a gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoRef {
    /// The gate's name (the selected identifier).
    pub gate: String,
    /// The identifier's span.
    pub span: Span,
}

/// [`crate::references`] from tree-sitter's syntax tree, for every file: what the
/// token reading is checked against.
pub fn references_parsed<'p>(
    text_: &str,
    resolve: impl Fn(&str) -> Option<&'p GatePackage>,
) -> Result<Vec<GoRef>, Vec<ParseError>> {
    let tree = parse_tolerant(text_)?;
    Ok(references_in(text_, &tree, resolve))
}

pub(crate) fn references_in<'p>(
    text_: &str,
    tree: &tree_sitter::Tree,
    resolve: impl Fn(&str) -> Option<&'p GatePackage>,
) -> Vec<GoRef> {
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
        return refs;
    }
    let mut declared_keys: Vec<Span> = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        match node.kind() {
            "composite_literal" if is_spec_map(text_, node) => {
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
                return refs;
            }
        }
    }
}

/// A `map[...]VersionedSpecs` or `map[...]FeatureSpec` literal: its keys are
/// declarations.
fn is_spec_map(src: &str, node: Node<'_>) -> bool {
    let Some(ty) = node.child_by_field_name("type").filter(|t| t.kind() == "map_type") else { return false };
    ty.child_by_field_name("value")
        .is_some_and(|v| matches!(identifier_name(src, v, true).as_str(), "VersionedSpecs" | "FeatureSpec"))
}

/// Every reference in `text`, a file of the declaring package itself, to one
/// of its gates: a bare identifier naming one of `package.own` where it
/// resolves to the package-level constant. Not references: the constants'
/// own declarations, keys of spec maps (declarations), keys of struct
/// literals (field names), and a name declared again inside the enclosing
/// function (a parameter, receiver, result, local `var`/`const`, `:=` or
/// `range` variable shadows the constant). A file whose package clause is
/// another package's (an external `_test` package) has none.
pub fn own_references(text_: &str, package: &GatePackage) -> Result<Vec<GoRef>, Vec<ParseError>> {
    let tree = parse_tolerant(text_)?;
    Ok(own_references_in(text_, &tree, package))
}

pub(crate) fn own_references_in(text_: &str, tree: &tree_sitter::Tree, package: &GatePackage) -> Vec<GoRef> {
    let root = tree.root_node();
    let clause = children(root)
        .into_iter()
        .find(|n| n.kind() == "package_clause")
        .and_then(|c| children(c).into_iter().next())
        .map(|n| text(text_, n));
    let mut refs = Vec::new();
    if clause != Some(package.package.as_str()) || package.own.is_empty() {
        return refs;
    }
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.kind() == "identifier" {
            let name = text(text_, node);
            if package.own.contains(name) && is_use(text_, node) && !shadowed(text_, node, name) {
                refs.push(GoRef { gate: name.to_owned(), span: span(node) });
            }
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return refs;
            }
        }
    }
}

/// True when identifier `node` is an expression using a name: not the name
/// a declaration introduces, not a label, not a key of a spec map or of a
/// literal that is not a map.
fn is_use(src: &str, node: Node<'_>) -> bool {
    let Some(parent) = node.parent() else { return false };
    match parent.kind() {
        "const_spec"
        | "var_spec"
        | "parameter_declaration"
        | "variadic_parameter_declaration"
        | "function_declaration"
        | "method_declaration"
        | "labeled_statement"
        | "type_spec"
        | "field_declaration" => {
            // Declared names; a value (`const X = Y`) is a use.
            let mut cursor = parent.walk();
            let declared = parent.children_by_field_name("name", &mut cursor).any(|n| n.id() == node.id());
            !declared
        }
        "literal_element" => {
            // `{K: v}`: a key is a use only in a map literal that is not a
            // spec map; a value always is.
            let Some(keyed) = parent.parent().filter(|k| k.kind() == "keyed_element") else { return true };
            let is_key = keyed.child_by_field_name("key").is_some_and(|k| k.id() == parent.id());
            if !is_key {
                return true;
            }
            let literal = keyed.parent().and_then(|body| body.parent());
            literal.is_some_and(|l| {
                l.kind() == "composite_literal"
                    && l.child_by_field_name("type").is_some_and(|t| t.kind() == "map_type")
                    && !is_spec_map(src, l)
            })
        }
        _ => true,
    }
}

/// True when `name` is declared again inside a function enclosing `node`.
fn shadowed(src: &str, node: Node<'_>, name: &str) -> bool {
    let mut current = node.parent();
    while let Some(scope) = current {
        if matches!(scope.kind(), "function_declaration" | "method_declaration" | "func_literal")
            && declares(src, scope, name)
        {
            return true;
        }
        current = scope.parent();
    }
    false
}

/// True when some declaration inside `function` (its parameters, receiver,
/// results, or its body, function literals included) introduces `name`.
fn declares(src: &str, function: Node<'_>, name: &str) -> bool {
    let mut cursor = function.walk();
    if !cursor.goto_first_child() {
        return false;
    }
    loop {
        let node = cursor.node();
        let introduced = match node.kind() {
            "parameter_declaration" | "variadic_parameter_declaration" | "const_spec" | "var_spec" => {
                let mut names = node.walk();
                let found = node.children_by_field_name("name", &mut names).any(|n| text(src, n) == name);
                found
            }
            "short_var_declaration" | "range_clause" | "receive_statement" => {
                node.child_by_field_name("left").is_some_and(|left| {
                    children(left).iter().chain([&left]).any(|n| n.kind() == "identifier" && text(src, *n) == name)
                })
            }
            _ => false,
        };
        if introduced {
            return true;
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() || cursor.node().id() == function.id() {
                return false;
            }
        }
    }
}
