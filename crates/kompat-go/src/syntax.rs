//! tree-sitter plumbing: parsing, syntax errors, and the few views of Go's
//! `go/ast` that Kubernetes' tool relies on (`identifierName`, basic
//! literals, composite literals).

use kompat_formats::ParseError;
use kompat_span::Span;
use tree_sitter::{Node, Parser, Tree};

/// Parses Go source; any syntax error is a located error.
pub fn parse(text: &str) -> Result<Tree, Vec<ParseError>> {
    let tree = parse_tolerant(text)?;
    if tree.root_node().has_error() {
        return Err(vec![syntax_error(text, tree.root_node())]);
    }
    Ok(tree)
}

/// Parses Go source, keeping what tree-sitter recovers around syntax errors
/// (for reading references from code whose syntax may be newer than the
/// grammar's).
pub fn parse_tolerant(text: &str) -> Result<Tree, Vec<ParseError>> {
    let mut parser = Parser::new();
    let language: tree_sitter::Language = tree_sitter_go::LANGUAGE.into();
    if parser.set_language(&language).is_err() {
        return Err(vec![ParseError { span: None, message: "the Go grammar cannot be loaded".to_owned() }]);
    }
    let Some(tree) = parser.parse(text, None) else {
        return Err(vec![ParseError { span: None, message: "cannot parse Go source".to_owned() }]);
    };
    Ok(tree)
}

/// The first error or missing node, in source order.
fn syntax_error(text: &str, root: Node<'_>) -> ParseError {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.is_missing() {
            let at = node.start_byte();
            return ParseError::at(Span::new(at, at), format!("cannot parse Go source: missing `{}`", node.kind()));
        }
        if node.is_error() {
            let snippet: String = text
                .get(node.start_byte()..node.end_byte())
                .unwrap_or_default()
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .chars()
                .take(24)
                .collect();
            let what = if snippet.is_empty() { "end of file".to_owned() } else { format!("`{snippet}`") };
            return ParseError::at(span(node), format!("cannot parse Go source: unexpected {what}"));
        }
        // Descend only into subtrees that hold the error.
        if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return ParseError::at(span(root), "cannot parse Go source");
            }
        }
    }
}

pub fn span(node: Node<'_>) -> Span {
    Span::new(node.start_byte(), node.end_byte())
}

pub fn text<'t>(text: &'t str, node: Node<'_>) -> &'t str {
    text.get(node.start_byte()..node.end_byte()).unwrap_or_default()
}

/// The named children of `node`, comments left out.
pub fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).filter(|n| n.kind() != "comment").collect()
}

/// Every child of `node` under `field`.
pub fn field_children<'t>(node: Node<'t>, field: &str) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children_by_field_name(field, &mut cursor).collect()
}

/// The expression inside a `literal_element` (composite-literal elements are
/// wrapped in one); any other node is returned as it is.
pub fn element(node: Node<'_>) -> Node<'_> {
    if node.kind() == "literal_element" {
        if let Some(inner) = children(node).into_iter().next() {
            return inner;
        }
    }
    node
}

/// Kubernetes' `identifierName`: an identifier's name, a selector's
/// `X.Sel` (or only `Sel` with `ignore_pkg`), otherwise `""`.
pub fn identifier_name(src: &str, node: Node<'_>, ignore_pkg: bool) -> String {
    let mut parts = Vec::new();
    let mut current = Some(node);
    // Iterative, so that a long selector chain cannot exhaust the stack.
    while let Some(node) = current.take() {
        match node.kind() {
            "identifier" | "field_identifier" | "package_identifier" | "type_identifier" | "true" | "false" | "nil"
            | "iota" => parts.push(text(src, node).to_owned()),
            "selector_expression" => {
                let (Some(operand), Some(field)) =
                    (node.child_by_field_name("operand"), node.child_by_field_name("field"))
                else {
                    return String::new();
                };
                parts.push(text(src, field).to_owned());
                if !ignore_pkg {
                    current = Some(operand);
                }
            }
            "qualified_type" => {
                let (Some(package), Some(name)) =
                    (node.child_by_field_name("package"), node.child_by_field_name("name"))
                else {
                    return String::new();
                };
                parts.push(text(src, name).to_owned());
                if !ignore_pkg {
                    parts.push(text(src, package).to_owned());
                }
            }
            _ => return String::new(),
        }
    }
    parts.reverse();
    parts.join(".")
}

/// True for the node kinds Go's parser makes a `*ast.BasicLit`.
pub fn is_basic_lit(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "interpreted_string_literal"
            | "raw_string_literal"
            | "int_literal"
            | "float_literal"
            | "imaginary_literal"
            | "rune_literal"
    )
}

/// True for what Go's parser makes a `*ast.CompositeLit`: a typed literal or
/// an elided one (`{...}` inside another literal).
pub fn is_composite_lit(node: Node<'_>) -> bool {
    matches!(node.kind(), "composite_literal" | "literal_value")
}

/// The `literal_value` holding a composite literal's elements.
pub fn literal_body(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "literal_value" => Some(node),
        "composite_literal" => node.child_by_field_name("body"),
        _ => None,
    }
}

/// The doc comment directly above `node`: the run of comments that ends on
/// the line before it, markers removed.
pub fn doc_comment(src: &str, node: Node<'_>) -> Option<String> {
    let mut comments = Vec::new();
    let mut next_row = node.start_position().row;
    let mut current = node.prev_sibling();
    while let Some(prev) = current {
        if prev.kind() != "comment" || prev.end_position().row + 1 != next_row {
            break;
        }
        comments.push(text(src, prev));
        next_row = prev.start_position().row;
        current = prev.prev_sibling();
    }
    comments.reverse();
    let mut lines = Vec::new();
    for comment in comments {
        if let Some(line) = comment.strip_prefix("//") {
            lines.push(line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned());
        } else {
            let body = comment.strip_prefix("/*").and_then(|c| c.strip_suffix("*/")).unwrap_or(comment);
            lines.extend(body.lines().map(|l| l.trim().to_owned()));
        }
    }
    let joined = lines.join("\n");
    let joined = joined.trim_matches('\n');
    (!joined.is_empty()).then(|| joined.to_owned())
}

/// The value of a Go string literal's token as Kubernetes' tool reads it:
/// the token text with `"` trimmed from both ends (`strings.Trim`).
pub fn trimmed_string(src: &str, node: Node<'_>) -> String {
    text(src, node).trim_matches('"').to_owned()
}
