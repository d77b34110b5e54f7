//! What an API package says about itself besides lifecycles: its group and
//! version (`register.go`, or `doc.go`'s `+groupName` tag), and which of its
//! types are resources (`+genclient` tags, client-gen's `+resourceName`).

use kompat_formats::ParseError;
use kompat_span::Span;
use tree_sitter::Node;

use super::go::{comment_lines, keyed_elements, named_children, span, string_literal, GoTree};

/// A located string value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    pub value: String,
    pub span: Span,
}

/// What `register.go` declares: `const GroupName = "batch"` and
/// `var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}`,
/// the pair the package registers its kinds under.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Register {
    pub group_name: Option<Located>,
    /// The group of `SchemeGroupVersion` (resolved through `GroupName`).
    pub group: Option<Located>,
    pub version: Option<Located>,
}

/// Reads `GroupName` and `SchemeGroupVersion` from a `register.go`.
pub fn parse_register(text: &str) -> Result<Register, Vec<ParseError>> {
    let file = GoTree::parse(text)?;
    let mut register = Register::default();
    let mut scheme: Option<Node<'_>> = None;
    for node in file.top_level() {
        let specs: Vec<Node<'_>> = match node.kind() {
            "const_declaration" => named_children(node).into_iter().filter(|n| n.kind() == "const_spec").collect(),
            "var_declaration" => named_children(node)
                .into_iter()
                .flat_map(|n| if n.kind() == "var_spec_list" { named_children(n) } else { vec![n] })
                .filter(|n| n.kind() == "var_spec")
                .collect(),
            _ => continue,
        };
        for spec in specs {
            let names: Vec<&str> = named_children(spec)
                .into_iter()
                .filter(|n| n.kind() == "identifier")
                .map(|n| file.text_of(n))
                .collect();
            let values: Vec<Node<'_>> = spec.child_by_field_name("value").map(named_children).unwrap_or_default();
            for (name, value) in names.iter().zip(values) {
                match *name {
                    "GroupName" if node.kind() == "const_declaration" => {
                        let value_text = string_literal(&file, value).map_err(|e| vec![e])?;
                        register.group_name = Some(Located { value: value_text, span: span(value) });
                    }
                    "SchemeGroupVersion" => scheme = Some(value),
                    _ => {}
                }
            }
        }
    }
    if let Some(literal) = scheme {
        if literal.kind() != "composite_literal" {
            return Err(vec![ParseError::at(span(literal), "expected SchemeGroupVersion = schema.GroupVersion{...}")]);
        }
        for (key, value) in keyed_elements(&file, literal).map_err(|e| vec![e])? {
            let located = if value.kind() == "identifier" && file.text_of(value) == "GroupName" {
                match &register.group_name {
                    Some(group) => Located { value: group.value.clone(), span: span(value) },
                    None => return Err(vec![ParseError::at(span(value), "GroupName is used but not declared")]),
                }
            } else {
                Located { value: string_literal(&file, value).map_err(|e| vec![e])?, span: span(value) }
            };
            match key.as_str() {
                "Group" => register.group = Some(located),
                "Version" => register.version = Some(located),
                other => {
                    return Err(vec![ParseError::at(
                        span(value),
                        format!("unknown field {other} in schema.GroupVersion"),
                    )])
                }
            }
        }
        if register.group.is_none() {
            // An omitted Group is Go's zero value: the core group.
            register.group = Some(Located { value: String::new(), span: span(literal) });
        }
    }
    Ok(register)
}

/// The `+groupName=` tag of a `doc.go`'s package comment, as the Kubernetes
/// code generators read it.
pub fn parse_doc_group(text: &str) -> Result<Option<Located>, Vec<ParseError>> {
    let file = GoTree::parse(text)?;
    let mut found = None;
    for node in file.top_level() {
        if node.kind() == "package_clause" {
            break;
        }
        if node.kind() != "comment" {
            continue;
        }
        for line in comment_lines(file.text_of(node)) {
            if let Some(group) = line.strip_prefix("+groupName=") {
                found = Some(Located { value: group.trim().to_owned(), span: span(node) });
            }
        }
    }
    Ok(found)
}

/// The code-generation tags on one type declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeTags {
    pub name: String,
    /// `+genclient` without `+genclient:noVerbs`: client-gen makes a client
    /// for it, i.e. the API server serves it as a resource.
    pub resource: bool,
    /// client-gen's `+resourceName=` (when the plural is not the default).
    pub resource_name: Option<String>,
}

/// The tags on every type declared in a Go file: the comment lines above the
/// declaration (both comment blocks gengo reads, up to the previous
/// declaration).
pub fn parse_type_tags(text: &str) -> Result<Vec<TypeTags>, Vec<ParseError>> {
    let file = GoTree::parse(text)?;
    let mut out = Vec::new();
    let mut comments: Vec<Node<'_>> = Vec::new();
    for node in file.top_level() {
        if node.kind() == "comment" {
            comments.push(node);
            continue;
        }
        if node.kind() == "type_declaration" {
            let lines: Vec<&str> = comments.iter().flat_map(|c| comment_lines(file.text_of(*c))).collect();
            let genclient = lines.iter().any(|l| *l == "+genclient" || *l == "+genclient=true");
            let no_verbs = lines.contains(&"+genclient:noVerbs");
            let resource_name =
                lines.iter().find_map(|l| l.strip_prefix("+resourceName=")).map(|n| n.trim().to_owned());
            for spec in named_children(node).into_iter().filter(|n| n.kind() == "type_spec") {
                if let Some(name) = spec.child_by_field_name("name") {
                    out.push(TypeTags {
                        name: file.text_of(name).to_owned(),
                        resource: genclient && !no_verbs,
                        resource_name: resource_name.clone(),
                    });
                }
            }
        }
        comments.clear();
    }
    Ok(out)
}
