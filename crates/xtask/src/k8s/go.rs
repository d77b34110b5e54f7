//! Go source through tree-sitter-go: parsing with every syntax error located,
//! and the few literal forms the generated files use (string and integer
//! literals, keyed composite literals, comment text).
//!
//! Traversals are iterative or of fixed depth, so a deeply nested file cannot
//! exhaust the stack.

use kompat_formats::ParseError;
use kompat_span::Span;
use tree_sitter::{Node, Parser, Tree};

/// The largest Go file read (bytes); Kubernetes' largest `types.go` is a
/// fraction of this.
pub const MAX_FILE_BYTES: usize = 32 << 20;

/// A parsed Go file.
pub struct GoTree<'t> {
    pub text: &'t str,
    pub tree: Tree,
}

impl<'t> GoTree<'t> {
    /// Parses `text`; a file with syntax errors is rejected, each error
    /// located (at most a handful are reported).
    pub fn parse(text: &'t str) -> Result<GoTree<'t>, Vec<ParseError>> {
        if text.len() > MAX_FILE_BYTES {
            return Err(vec![ParseError {
                span: None,
                message: format!("Go file of {} bytes is larger than the limit of {MAX_FILE_BYTES} bytes", text.len()),
            }]);
        }
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_go::LANGUAGE.into())
            .map_err(|err| vec![ParseError { span: None, message: format!("cannot load the Go grammar: {err}") }])?;
        let Some(tree) = parser.parse(text, None) else {
            return Err(vec![ParseError { span: None, message: "the Go parser gave up on this file".to_owned() }]);
        };
        let file = GoTree { text, tree };
        let errors = file.syntax_errors();
        if errors.is_empty() {
            Ok(file)
        } else {
            Err(errors)
        }
    }

    fn syntax_errors(&self) -> Vec<ParseError> {
        const MAX_REPORTED: usize = 5;
        let mut errors = Vec::new();
        if !self.tree.root_node().has_error() {
            return errors;
        }
        let mut cursor = self.tree.walk();
        'walk: loop {
            let node = cursor.node();
            let descend = if node.is_error() || node.is_missing() {
                let message = if node.is_missing() {
                    format!("Go syntax error: missing `{}`", node.kind())
                } else {
                    "Go syntax error".to_owned()
                };
                errors.push(ParseError::at(span(node), message));
                false
            } else {
                node.has_error()
            };
            if errors.len() >= MAX_REPORTED {
                break;
            }
            if descend && cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        if errors.is_empty() {
            errors.push(ParseError::at(span(self.tree.root_node()), "Go syntax error"));
        }
        errors
    }

    /// The top-level declarations (and comments), in source order.
    pub fn top_level(&self) -> Vec<Node<'_>> {
        let root = self.tree.root_node();
        let mut cursor = root.walk();
        root.named_children(&mut cursor).collect()
    }

    /// The source text of a node.
    pub fn text_of(&self, node: Node<'_>) -> &'t str {
        self.text.get(node.byte_range()).unwrap_or("")
    }
}

/// A node's byte span.
pub fn span(node: Node<'_>) -> Span {
    Span { start: node.start_byte(), end: node.end_byte() }
}

/// The named children of a node.
pub fn named_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// The value of a Go string literal (interpreted or raw). Kubernetes' names
/// need no escapes, so an escape sequence is reported rather than decoded.
pub fn string_literal(file: &GoTree<'_>, node: Node<'_>) -> Result<String, ParseError> {
    let text = file.text_of(node);
    match node.kind() {
        "raw_string_literal" => Ok(text.trim_matches('`').to_owned()),
        "interpreted_string_literal" => {
            let inner = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text);
            if inner.contains('\\') {
                Err(ParseError::at(span(node), "escape sequences are not supported in this string"))
            } else {
                Ok(inner.to_owned())
            }
        }
        other => Err(ParseError::at(span(node), format!("expected a string literal, found {}", describe(other)))),
    }
}

/// The value of a decimal Go integer literal.
pub fn int_literal(file: &GoTree<'_>, node: Node<'_>) -> Result<u32, ParseError> {
    if node.kind() != "int_literal" {
        return Err(ParseError::at(
            span(node),
            format!("expected an integer literal, found {}", describe(node.kind())),
        ));
    }
    let text = file.text_of(node).replace('_', "");
    text.parse::<u32>().map_err(|_| ParseError::at(span(node), format!("`{text}` is not a decimal integer in range")))
}

/// The `Key: value` elements of a composite literal's body, in order; an
/// element without a key is an error.
pub fn keyed_elements<'a>(file: &GoTree<'_>, literal: Node<'a>) -> Result<Vec<(String, Node<'a>)>, ParseError> {
    let Some(body) = literal.child_by_field_name("body") else {
        return Err(ParseError::at(span(literal), "composite literal without a body"));
    };
    let mut out = Vec::new();
    for element in named_children(body) {
        if element.kind() == "comment" {
            continue;
        }
        if element.kind() != "keyed_element" {
            return Err(ParseError::at(span(element), "expected `Field: value` (keyed fields)"));
        }
        let (Some(key), Some(value)) = (element.child_by_field_name("key"), element.child_by_field_name("value"))
        else {
            return Err(ParseError::at(span(element), "expected `Field: value` (keyed fields)"));
        };
        let key = unwrap_element(key);
        let value = unwrap_element(value);
        out.push((file.text_of(key).to_owned(), value));
    }
    Ok(out)
}

/// The expression inside a `literal_element`.
fn unwrap_element(node: Node<'_>) -> Node<'_> {
    if node.kind() == "literal_element" {
        node.named_child(0).unwrap_or(node)
    } else {
        node
    }
}

/// The lines of a comment node without the comment markers.
pub fn comment_lines(text: &str) -> Vec<&str> {
    if let Some(line) = text.strip_prefix("//") {
        return vec![line.trim()];
    }
    let inner = text.strip_prefix("/*").and_then(|t| t.strip_suffix("*/")).unwrap_or(text);
    inner.lines().map(|l| l.trim().trim_start_matches('*').trim()).collect()
}

/// A tree-sitter node kind in words, for messages.
pub fn describe(kind: &str) -> String {
    kind.replace('_', " ")
}
