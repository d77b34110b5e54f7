//! prerelease-lifecycle-gen output: the `APILifecycle*` methods of
//! `zz_generated.prerelease-lifecycle.go` (and of hand-written files beside
//! it, [`parse_lifecycle_package`]), one set per kind.
//!
//! ```go
//! func (in *CronJob) APILifecycleIntroduced() (major, minor int) { return 1, 8 }
//! func (in *CronJob) APILifecycleDeprecated() (major, minor int) { return 1, 21 }
//! func (in *CronJob) APILifecycleReplacement() schema.GroupVersionKind {
//!     return schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "CronJob"}
//! }
//! func (in *CronJob) APILifecycleRemoved() (major, minor int) { return 1, 25 }
//! ```
//!
//! Methods of other names are not the generator's and are skipped; an
//! `APILifecycle*` method of another shape, a repeated method, or a kind
//! without `APILifecycleIntroduced` is an error at its place in the file.

use kompat_formats::ParseError;
use kompat_runtime::GroupVersionKind;
use kompat_runtime::Version;
use kompat_span::Span;
use tree_sitter::Node;

use super::go::{describe, int_literal, keyed_elements, named_children, span, string_literal, GoTree};

/// The lifecycle of one kind, as its generated methods return it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindLifecycle {
    pub kind: String,
    pub introduced: Version,
    pub deprecated: Option<Version>,
    pub removed: Option<Version>,
    pub replacement: Option<GroupVersionKind>,
    /// The receiver type of the kind's first method.
    pub span: Span,
}

impl KindLifecycle {
    /// `*List` kinds carry lifecycles too, but are not declarations.
    pub fn is_list(&self) -> bool {
        self.kind.ends_with("List")
    }
}

#[derive(Default)]
struct Partial {
    kind: String,
    /// The file of the kind's first method (an index into the texts read).
    file: usize,
    span: Span,
    introduced: Option<Version>,
    deprecated: Option<Version>,
    removed: Option<Version>,
    replacement: Option<GroupVersionKind>,
    /// A method failed to read: its error stands for the kind.
    broken: bool,
}

/// A problem in one of several files: the file's index, and the problem.
pub type PackageFileError = (usize, ParseError);

/// Reads every kind's lifecycle from a prerelease-lifecycle-gen file, in
/// the order the kinds first appear.
pub fn parse_lifecycle(text: &str) -> Result<Vec<KindLifecycle>, Vec<ParseError>> {
    parse_lifecycle_package(&[text])
        .map(|kinds| kinds.into_iter().map(|(kind, _)| kind).collect())
        .map_err(|errors| errors.into_iter().map(|(_, error)| error).collect())
}

/// Reads the lifecycles of a package whose `APILifecycle*` methods are
/// spread over several files (Go methods of one type may be: Kubernetes
/// writes some by hand in `lifecycle.go` beside the generated file, such as
/// core/v1 `Endpoints`' deprecation in 1.33). Each kind comes with the index
/// of the file of its first method, each error with the index of its file; a
/// method repeated in another file is an error as within one.
pub fn parse_lifecycle_package(texts: &[&str]) -> Result<Vec<(KindLifecycle, usize)>, Vec<PackageFileError>> {
    let mut kinds: Vec<Partial> = Vec::new();
    let mut errors = Vec::new();
    for (index, text) in texts.iter().enumerate() {
        let file = match GoTree::parse(text) {
            Ok(file) => file,
            Err(parse_errors) => {
                errors.extend(parse_errors.into_iter().map(|e| (index, e)));
                continue;
            }
        };
        for node in file.top_level() {
            if node.kind() != "method_declaration" {
                continue;
            }
            let Some(name) = node.child_by_field_name("name") else { continue };
            let name = file.text_of(name);
            let Some(which) = name.strip_prefix("APILifecycle") else { continue };
            if let Err(err) = read_method(&file, index, node, which, &mut kinds) {
                errors.push((index, err));
            }
        }
    }
    let mut out = Vec::new();
    for partial in kinds {
        match partial.introduced {
            Some(introduced) => out.push((
                KindLifecycle {
                    kind: partial.kind,
                    introduced,
                    deprecated: partial.deprecated,
                    removed: partial.removed,
                    replacement: partial.replacement,
                    span: partial.span,
                },
                partial.file,
            )),
            None if partial.broken => {}
            None => errors.push((
                partial.file,
                ParseError::at(
                    partial.span,
                    format!("{} has lifecycle methods but no APILifecycleIntroduced", partial.kind),
                ),
            )),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn read_method(
    file: &GoTree<'_>,
    file_index: usize,
    method: Node<'_>,
    which: &str,
    kinds: &mut Vec<Partial>,
) -> Result<(), ParseError> {
    let (kind, kind_span) = receiver_kind(file, method)?;
    let index = match kinds.iter().position(|p| p.kind == kind) {
        Some(index) => index,
        None => {
            kinds.push(Partial { kind: kind.clone(), file: file_index, span: kind_span, ..Partial::default() });
            kinds.len() - 1
        }
    };
    let result = read_value(file, method, which, &kind, &mut kinds[index]);
    if result.is_err() {
        kinds[index].broken = true;
    }
    result
}

fn read_value(
    file: &GoTree<'_>,
    method: Node<'_>,
    which: &str,
    kind: &str,
    partial: &mut Partial,
) -> Result<(), ParseError> {
    let (at, returned) = single_return(file, method)?;
    let duplicate = |what: &str| ParseError::at(span(method), format!("{kind} has a second APILifecycle{what} method"));
    match which {
        "Introduced" | "Deprecated" | "Removed" => {
            let version = major_minor(file, at, returned)?;
            let slot = match which {
                "Introduced" => &mut partial.introduced,
                "Deprecated" => &mut partial.deprecated,
                _ => &mut partial.removed,
            };
            if slot.is_some() {
                return Err(duplicate(which));
            }
            *slot = Some(version);
        }
        "Replacement" => {
            if partial.replacement.is_some() {
                return Err(duplicate(which));
            }
            partial.replacement = Some(group_version_kind(file, at, returned)?);
        }
        other => {
            return Err(ParseError::at(
                span(method),
                format!("unknown lifecycle method APILifecycle{other}: prerelease-lifecycle-gen writes Introduced, Deprecated, Removed and Replacement"),
            ))
        }
    }
    Ok(())
}

/// `(in *Kind)` → `Kind`.
fn receiver_kind(file: &GoTree<'_>, method: Node<'_>) -> Result<(String, Span), ParseError> {
    let receiver = method.child_by_field_name("receiver");
    let param = receiver.and_then(|r| named_children(r).into_iter().find(|n| n.kind() == "parameter_declaration"));
    let ty = param.and_then(|p| p.child_by_field_name("type"));
    let ty = match ty {
        Some(t) if t.kind() == "pointer_type" => t.named_child(0),
        other => other,
    };
    match ty {
        Some(t) if t.kind() == "type_identifier" => Ok((file.text_of(t).to_owned(), span(t))),
        _ => Err(ParseError::at(
            span(receiver.unwrap_or(method)),
            "expected a receiver `(in *Kind)` on a lifecycle method",
        )),
    }
}

/// The expressions of the body's only statement, `return ...`.
fn single_return<'a>(file: &GoTree<'_>, method: Node<'a>) -> Result<(Span, Vec<Node<'a>>), ParseError> {
    let body = method.child_by_field_name("body");
    let statements: Vec<Node<'a>> = body
        .and_then(|b| named_children(b).into_iter().find(|n| n.kind() == "statement_list"))
        .map(|list| named_children(list).into_iter().filter(|n| n.kind() != "comment").collect())
        .unwrap_or_default();
    let name = method.child_by_field_name("name").map_or("", |n| file.text_of(n));
    match statements.as_slice() {
        [ret] if ret.kind() == "return_statement" => {
            let list = named_children(*ret).into_iter().find(|n| n.kind() == "expression_list");
            let values = list.map(named_children).unwrap_or_default();
            Ok((span(*ret), values.into_iter().filter(|n| n.kind() != "comment").collect()))
        }
        _ => Err(ParseError::at(
            span(body.unwrap_or(method)),
            format!("expected the body of {name} to be a single `return` of literals"),
        )),
    }
}

/// `return 1, 25` → 1.25.
fn major_minor(file: &GoTree<'_>, at: Span, returned: Vec<Node<'_>>) -> Result<Version, ParseError> {
    match returned.as_slice() {
        [major, minor] => {
            let (major_value, minor_value) = (int_literal(file, *major)?, int_literal(file, *minor)?);
            Ok(Version::new(major_value, minor_value))
        }
        _ => Err(ParseError::at(at, "expected `return MAJOR, MINOR`")),
    }
}

/// `return schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "CronJob"}`.
fn group_version_kind(file: &GoTree<'_>, at: Span, returned: Vec<Node<'_>>) -> Result<GroupVersionKind, ParseError> {
    let [literal] = returned.as_slice() else {
        return Err(ParseError::at(at, "expected `return schema.GroupVersionKind{...}`"));
    };
    let ty = literal.child_by_field_name("type");
    let type_name = ty.map(|t| t.child_by_field_name("name").map_or(file.text_of(t), |n| file.text_of(n)));
    if literal.kind() != "composite_literal" || type_name != Some("GroupVersionKind") {
        return Err(ParseError::at(
            span(*literal),
            format!("expected a schema.GroupVersionKind literal, found {}", describe(literal.kind())),
        ));
    }
    let (mut group, mut version, mut kind) = (String::new(), None, None);
    for (key, value) in keyed_elements(file, *literal)? {
        let value_text = string_literal(file, value)?;
        match key.as_str() {
            "Group" => group = value_text,
            "Version" => version = Some(value_text),
            "Kind" => kind = Some(value_text),
            other => {
                return Err(ParseError::at(span(value), format!("unknown field {other} in schema.GroupVersionKind")))
            }
        }
    }
    match (version, kind) {
        (Some(version), Some(kind)) if !version.is_empty() && !kind.is_empty() => {
            Ok(GroupVersionKind::new(&group, &version, &kind))
        }
        _ => Err(ParseError::at(span(*literal), "a replacement needs a Version and a Kind")),
    }
}
