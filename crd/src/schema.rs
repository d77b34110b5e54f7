//! Structural schemas: field paths, the fields of a version, pruning, and the
//! old-to-new comparison of one version's schema.
//!
//! Paths are written jq-style from the object root: `.spec.tls`,
//! `.spec.rules[*].name` for array items, `.spec.labels.*` for
//! `additionalProperties` values; the root is `.`.
//!
//! The comparison is crdify's: every schema keyword has a handler that either
//! judges the change (compatible, or one of the finding codes) or, for
//! keywords it does not know, reports `unhandled-change`, so a new keyword is
//! never silently compatible.

use std::collections::BTreeMap;
use std::fmt;

use crate::yaml::Node;
use crate::Span;

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Seg {
    Prop(String),
    /// `items` of an array.
    Items,
    /// `additionalProperties` of a map.
    Values,
}

/// A field path from the object root.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Path(pub Vec<Seg>);

impl Path {
    pub fn child(&self, seg: Seg) -> Path {
        let mut segs = self.0.clone();
        segs.push(seg);
        Path(segs)
    }

    pub fn parent(&self) -> Option<Path> {
        let mut segs = self.0.clone();
        segs.pop()?;
        Some(Path(segs))
    }

    /// True if `self` is `other` or one of its ancestors.
    pub fn contains(&self, other: &Path) -> bool {
        other.0.starts_with(&self.0)
    }

    /// Parses `spec.a`, `.spec.a`, `.spec.rules[*].name`, `.spec.labels.*`.
    pub fn parse(text: &str) -> Result<Path, String> {
        let body = text.strip_prefix('.').unwrap_or(text);
        let mut segs = Vec::new();
        if body.is_empty() {
            return Err("a field path must name a field, like `spec.tls`".to_owned());
        }
        for part in body.split('.') {
            let (name, mut rest) = match part.find("[*]") {
                Some(i) => (&part[..i], &part[i..]),
                None => (part, ""),
            };
            match name {
                "" if segs.is_empty() || rest.is_empty() => {
                    return Err(format!("`{text}` has an empty path segment"));
                }
                "" => {}
                "*" => segs.push(Seg::Values),
                _ if name.contains(['[', ']', '*']) => return Err(format!("`{text}` has an invalid segment `{part}`")),
                _ => segs.push(Seg::Prop(name.to_owned())),
            }
            while let Some(r) = rest.strip_prefix("[*]") {
                segs.push(Seg::Items);
                rest = r;
            }
            if !rest.is_empty() {
                return Err(format!("`{text}` has an invalid segment `{part}`"));
            }
        }
        Ok(Path(segs))
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str(".");
        }
        for seg in &self.0 {
            match seg {
                Seg::Prop(name) => write!(f, ".{name}")?,
                Seg::Items => f.write_str("[*]")?,
                Seg::Values => f.write_str(".*")?,
            }
        }
        Ok(())
    }
}

/// A field (a property) of a schema.
#[derive(Debug, Clone, Copy)]
pub struct Field<'a> {
    pub node: &'a Node,
    /// The span of the property's name.
    pub key_span: Span,
    /// Listed in its parent's `required`.
    pub required: bool,
}

impl Field<'_> {
    pub fn type_name(&self) -> Option<&str> {
        self.node.get("type").and_then(Node::as_str)
    }
}

/// Every property of a schema (through `items` and `additionalProperties`),
/// by path.
pub fn fields(schema: &Node) -> BTreeMap<Path, Field<'_>> {
    let mut out = BTreeMap::new();
    collect(schema, &Path::default(), &mut out);
    out
}

fn collect<'a>(node: &'a Node, path: &Path, out: &mut BTreeMap<Path, Field<'a>>) {
    let required: Vec<&str> =
        node.get("required").and_then(Node::as_seq).unwrap_or_default().iter().filter_map(Node::as_str).collect();
    if let Some(props) = node.get("properties").and_then(Node::as_map) {
        for (key, value) in props {
            let child = path.child(Seg::Prop(key.value.clone()));
            let required = required.contains(&key.value.as_str());
            out.insert(child.clone(), Field { node: value, key_span: key.span, required });
            collect(value, &child, out);
        }
    }
    if let Some(items) = node.get("items").filter(|n| n.as_map().is_some()) {
        collect(items, &path.child(Seg::Items), out);
    }
    if let Some(values) = node.get("additionalProperties").filter(|n| n.as_map().is_some()) {
        collect(values, &path.child(Seg::Values), out);
    }
}

/// The schema node at `path`, if the schema describes it.
pub fn lookup<'a>(schema: &'a Node, path: &Path) -> Option<&'a Node> {
    let mut node = schema;
    for seg in &path.0 {
        node = match seg {
            Seg::Prop(name) => node.get("properties")?.get(name)?,
            Seg::Items => node.get("items")?,
            Seg::Values => node.get("additionalProperties")?,
        };
        node.as_map()?;
    }
    Some(node)
}

/// True if the node keeps fields its schema does not describe:
/// `x-kubernetes-preserve-unknown-fields: true` or an `additionalProperties`
/// schema.
pub fn keeps_unknown_fields(node: &Node) -> bool {
    node.get("x-kubernetes-preserve-unknown-fields").and_then(Node::as_bool) == Some(true)
        || node.get("additionalProperties").is_some_and(|a| a.as_map().is_some() || a.as_bool() == Some(true))
}

/// The deepest ancestor of `path` that `schema` describes (the root at
/// least), with its path.
pub fn nearest_ancestor<'a>(schema: &'a Node, path: &Path) -> (Path, &'a Node) {
    let mut best = (Path::default(), schema);
    let mut at = Path::default();
    for seg in path.0.iter().take(path.0.len().saturating_sub(1)) {
        at = at.child(seg.clone());
        match lookup(schema, &at) {
            Some(node) => best = (at.clone(), node),
            None => break,
        }
    }
    best
}

/// A change found by [`diff`].
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaChange {
    pub code: &'static str,
    pub path: Path,
    pub message: String,
    /// In the new schema.
    pub span: Span,
    pub notes: Vec<String>,
}

/// Compares one version's old and new schema. `version` is named in the
/// messages.
pub fn diff(old: &Node, new: &Node, version: &str) -> Vec<SchemaChange> {
    let mut cx = Diff { version, out: Vec::new() };
    cx.node(&Path::default(), old, new, new.span());
    cx.out
}

struct Diff<'v> {
    version: &'v str,
    out: Vec<SchemaChange>,
}

/// Keywords that only document: any change is compatible.
const DOC_KEYWORDS: [&str; 4] = ["description", "title", "example", "externalDocs"];

fn entry_span(node: &Node, key: &str, fallback: Span) -> Span {
    match node.entry(key) {
        Some((k, Node::Scalar(v))) => k.span.cover(v.span),
        Some((k, _)) => k.span,
        None => fallback,
    }
}

/// A string scalar's text as is (patterns), anything else rendered.
fn raw(node: &Node) -> String {
    node.as_str().map_or_else(|| node.render(), str::to_owned)
}

/// The list type of an array: `atomic` when absent; `None` when it is not a
/// string (judged as an unhandled change).
fn list_type(node: Option<&Node>) -> Option<&str> {
    match node {
        None => Some("atomic"),
        Some(node) => node.as_str(),
    }
}

fn render(node: Option<&Node>) -> String {
    node.map_or_else(|| "none".to_owned(), |n| format!("`{}`", n.render()))
}

impl Diff<'_> {
    fn push(&mut self, code: &'static str, path: &Path, message: String, span: Span, notes: Vec<String>) {
        self.out.push(SchemaChange { code, path: path.clone(), message, span, notes });
    }

    fn unhandled(&mut self, path: &Path, key: &str, old: Option<&Node>, new: Option<&Node>, span: Span) {
        let v = self.version;
        self.push(
            "unhandled-change",
            path,
            format!("unhandled change to `{key}` of `{path}` in `{v}`"),
            span,
            vec![format!("old: {}", render(old)), format!("new: {}", render(new))],
        );
    }

    /// Compares two schema nodes at `path`; `anchor` is where the new node is
    /// named (its property key), for changes with no better place.
    fn node(&mut self, path: &Path, old: &Node, new: &Node, anchor: Span) {
        let (Some(old_entries), Some(new_entries)) = (old.as_map(), new.as_map()) else {
            if !old.same(new) {
                self.unhandled(path, "schema", Some(old), Some(new), anchor);
            }
            return;
        };
        let mut keys: Vec<&str> = old_entries.iter().map(|(k, _)| k.value.as_str()).collect();
        keys.extend(new_entries.iter().map(|(k, _)| k.value.as_str()).filter(|k| old.get(k).is_none()));
        for key in keys {
            let (o, n) = (old.get(key), new.get(key));
            if o.zip(n).is_some_and(|(o, n)| o.same(n)) {
                continue;
            }
            let span = entry_span(new, key, anchor);
            self.keyword(KeywordChange { path, key, o, n, old, new, span, anchor });
        }
    }

    fn keyword(&mut self, change: KeywordChange<'_>) {
        let KeywordChange { path, key, o, n, old, new, span, anchor } = change;
        let v = self.version;
        match key {
            _ if DOC_KEYWORDS.contains(&key) => {}
            "type" => {
                let message = match (o, n) {
                    (Some(o), Some(n)) => {
                        format!("type of `{path}` changed from `{}` to `{}` in `{v}`", o.render(), n.render())
                    }
                    (None, Some(n)) => format!("type of `{path}` restricted to `{}` in `{v}`", n.render()),
                    (Some(o), None) => format!("type `{}` of `{path}` removed in `{v}`", o.render()),
                    (None, None) => return,
                };
                self.push("type-changed", path, message, span, Vec::new());
            }
            "properties" => self.properties(path, o, n, new, span, anchor),
            "required" => self.required(path, o, n, old, new, span),
            "items" | "additionalProperties" => match (o, n) {
                (Some(o), Some(n)) if o.as_map().is_some() && n.as_map().is_some() => {
                    let seg = if key == "items" { Seg::Items } else { Seg::Values };
                    let span = new.entry(key).map_or(anchor, |(k, _)| k.span);
                    self.node(&path.child(seg), o, n, span);
                }
                _ => self.unhandled(path, key, o, n, span),
            },
            "enum" => self.enumeration(path, o, n, span),
            "default" => {
                let message = match (o, n) {
                    (Some(o), Some(n)) => {
                        format!("default of `{path}` changed from `{}` to `{}` in `{v}`", o.render(), n.render())
                    }
                    (None, Some(n)) => format!("default `{}` added to `{path}` in `{v}`", n.render()),
                    (Some(o), None) => format!("default `{}` of `{path}` removed in `{v}`", o.render()),
                    (None, None) => return,
                };
                self.push("default-changed", path, message, span, Vec::new());
            }
            "minimum" | "minLength" | "minItems" | "minProperties" => self.bound(path, key, o, n, span, true),
            "maximum" | "maxLength" | "maxItems" | "maxProperties" => self.bound(path, key, o, n, span, false),
            "exclusiveMinimum" | "exclusiveMaximum" | "uniqueItems" => {
                let was = o.and_then(Node::as_bool).unwrap_or(false);
                match n.map_or(Some(false), Node::as_bool) {
                    Some(true) if !was => {
                        let code = if key == "uniqueItems" { "validation-tightened" } else { "bounds-tightened" };
                        self.push(code, path, format!("`{key}: true` added to `{path}` in `{v}`"), span, Vec::new());
                    }
                    Some(_) if o.is_none_or(|o| o.as_bool().is_some()) => {}
                    _ => self.unhandled(path, key, o, n, span),
                }
            }
            "multipleOf" => {
                if let Some(n) = n {
                    let message =
                        format!("`multipleOf` of `{path}` set to `{}` in `{v}` (was {})", n.render(), render(o));
                    self.push("bounds-tightened", path, message, span, Vec::new());
                }
            }
            "pattern" => match (o, n) {
                (Some(o), Some(n)) => self.push(
                    "pattern-changed",
                    path,
                    format!("pattern of `{path}` changed from `{}` to `{}` in `{v}`", raw(o), raw(n)),
                    span,
                    vec!["values valid under the old pattern may be rejected".to_owned()],
                ),
                (None, Some(n)) => self.push(
                    "pattern-changed",
                    path,
                    format!("pattern `{}` added to `{path}` in `{v}`", raw(n)),
                    span,
                    Vec::new(),
                ),
                _ => {}
            },
            "nullable" => {
                let was = o.and_then(Node::as_bool).unwrap_or(false);
                let is = n.and_then(Node::as_bool).unwrap_or(false);
                if was && !is {
                    self.push(
                        "validation-tightened",
                        path,
                        format!("`{path}` is no longer nullable in `{v}`"),
                        span,
                        vec!["objects that store `null` there are rejected on their next update".to_owned()],
                    );
                } else if o.is_some_and(|o| o.as_bool().is_none()) || n.is_some_and(|n| n.as_bool().is_none()) {
                    self.unhandled(path, key, o, n, span);
                }
            }
            "x-kubernetes-validations" => self.rules(path, o, n, span),
            // An absent list type is `atomic` (apiextensions' default for
            // arrays, and how server-side apply treats them): writing it out,
            // or dropping it, changes nothing.
            "x-kubernetes-list-type" if list_type(o).zip(list_type(n)).is_some_and(|(o, n)| o == n) => {}
            "x-kubernetes-preserve-unknown-fields" => {
                let was = o.and_then(Node::as_bool).unwrap_or(false);
                let is = n.and_then(Node::as_bool).unwrap_or(false);
                if was && !is {
                    self.push(
                        "field-removed",
                        path,
                        format!("`{path}` no longer preserves unknown fields in `{v}`"),
                        span,
                        vec!["fields stored there that the schema does not describe are pruned".to_owned()],
                    );
                }
            }
            _ => self.unhandled(path, key, o, n, span),
        }
    }

    fn properties(&mut self, path: &Path, o: Option<&Node>, n: Option<&Node>, new: &Node, span: Span, anchor: Span) {
        let v = self.version;
        let empty = Vec::new();
        let old_props = o.and_then(Node::as_map).unwrap_or(&empty);
        if o.is_some_and(|o| o.as_map().is_none()) || n.is_some_and(|n| n.as_map().is_none()) {
            self.unhandled(path, "properties", o, n, span);
            return;
        }
        let preserved = keeps_unknown_fields(new);
        for (key, old_child) in old_props {
            let child = path.child(Seg::Prop(key.value.clone()));
            match n.and_then(|n| n.entry(&key.value)) {
                Some((new_key, new_child)) => self.node(&child, old_child, new_child, new_key.span),
                None => {
                    let mut notes = vec![format!("clients that set `{child}` through `{v}` break")];
                    if !preserved {
                        notes.push(format!("stored values of `{child}` are pruned when objects are read or written"));
                    }
                    let at = new.entry("properties").map_or(anchor, |(k, _)| k.span);
                    self.push("field-removed", &child, format!("field `{child}` was removed from `{v}`"), at, notes);
                }
            }
        }
    }

    fn required(&mut self, path: &Path, o: Option<&Node>, n: Option<&Node>, old: &Node, new: &Node, span: Span) {
        let v = self.version;
        let names = |node: Option<&Node>| -> Option<Vec<String>> {
            match node {
                None => Some(Vec::new()),
                Some(node) => node.as_seq()?.iter().map(|i| i.as_str().map(str::to_owned)).collect(),
            }
        };
        let (Some(was), Some(is)) = (names(o), names(n)) else {
            self.unhandled(path, "required", o, n, span);
            return;
        };
        let items = n.and_then(Node::as_seq).unwrap_or_default();
        for (i, name) in is.iter().enumerate() {
            if was.contains(name) {
                continue;
            }
            let child = path.child(Seg::Prop(name.clone()));
            let existed = old.get("properties").and_then(|p| p.get(name)).is_some();
            let message = if existed {
                format!("field `{child}` became required in `{v}`")
            } else {
                format!("field `{child}` is new and required in `{v}`")
            };
            let at = items.get(i).map_or(span, Node::span);
            let mut notes = vec!["objects stored without it are rejected on their next update".to_owned()];
            if new.get("properties").and_then(|p| p.get(name)).and_then(|f| f.get("default")).is_some() {
                notes.push("its default applies only when the field is absent and its parent is present".to_owned());
            }
            self.push("new-required-field", &child, message, at, notes);
        }
    }

    fn enumeration(&mut self, path: &Path, o: Option<&Node>, n: Option<&Node>, span: Span) {
        let v = self.version;
        let (Some(Some(new_values)), Some(old_values)) = (n.map(Node::as_seq), o.map(Node::as_seq)) else {
            match (o, n) {
                (None, Some(n)) if n.as_seq().is_some() => self.push(
                    "enum-value-removed",
                    path,
                    format!("enum constraint `{}` added to `{path}` in `{v}` where there was none", n.render()),
                    span,
                    vec!["every value outside the enum was valid before".to_owned()],
                ),
                (Some(o), None) if o.as_seq().is_some() => {}
                _ => self.unhandled(path, "enum", o, n, span),
            }
            return;
        };
        let Some(old_values) = old_values else {
            self.unhandled(path, "enum", o, n, span);
            return;
        };
        for value in old_values {
            if !new_values.iter().any(|nv| nv.same(value)) {
                self.push(
                    "enum-value-removed",
                    path,
                    format!("enum value `{}` of `{path}` was removed in `{v}`", value.render()),
                    span,
                    Vec::new(),
                );
            }
        }
    }

    fn bound(&mut self, path: &Path, key: &str, o: Option<&Node>, n: Option<&Node>, span: Span, lower: bool) {
        let v = self.version;
        let (old_bound, new_bound) = (o.map(Node::as_number), n.map(Node::as_number));
        if old_bound == Some(None) || new_bound == Some(None) {
            self.unhandled(path, key, o, n, span);
            return;
        }
        let (old_bound, new_bound) = (old_bound.flatten(), new_bound.flatten());
        let message = match (old_bound, new_bound, n) {
            (None, Some(_), Some(n)) => format!("`{key}: {}` added to `{path}` in `{v}`", n.render()),
            (Some(a), Some(b), Some(n)) if (lower && b > a) || (!lower && b < a) => {
                format!(
                    "`{key}` of `{path}` tightened from `{}` to `{}` in `{v}`",
                    o.map(Node::render).unwrap_or_default(),
                    n.render()
                )
            }
            _ => return,
        };
        self.push("bounds-tightened", path, message, span, Vec::new());
    }

    fn rules(&mut self, path: &Path, o: Option<&Node>, n: Option<&Node>, span: Span) {
        let v = self.version;
        let rule_texts = |node: Option<&Node>| -> Option<Vec<String>> {
            match node {
                None => Some(Vec::new()),
                Some(node) => {
                    node.as_seq()?.iter().map(|r| r.get("rule").and_then(Node::as_str).map(str::to_owned)).collect()
                }
            }
        };
        let (Some(was), Some(is)) = (rule_texts(o), rule_texts(n)) else {
            self.unhandled(path, "x-kubernetes-validations", o, n, span);
            return;
        };
        let items = n.and_then(Node::as_seq).unwrap_or_default();
        for (i, rule) in is.iter().enumerate() {
            if !was.contains(rule) {
                let at = items.get(i).map_or(span, Node::span);
                self.push(
                    "validation-tightened",
                    path,
                    format!("validation rule `{rule}` added to `{path}` in `{v}`"),
                    at,
                    vec!["objects that do not satisfy it are rejected on their next update unless the rule ratchets"
                        .to_owned()],
                );
            }
        }
    }
}

/// One schema keyword that differs between the old and the new node at
/// `path`: its old and new values (`o`, `n`), the nodes that hold them, where
/// to point (`span`) and where the node is named (`anchor`).
struct KeywordChange<'a> {
    path: &'a Path,
    key: &'a str,
    o: Option<&'a Node>,
    n: Option<&'a Node>,
    old: &'a Node,
    new: &'a Node,
    span: Span,
    anchor: Span,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip() {
        for text in [".spec.tls", ".spec.rules[*].name", ".spec.labels.*", ".spec.m[*][*].x", ".spec.labels.*.a"] {
            assert_eq!(Path::parse(text).map(|p| p.to_string()).as_deref(), Ok(text), "{text}");
        }
        assert_eq!(Path::parse("spec.tls").map(|p| p.to_string()).as_deref(), Ok(".spec.tls"));
        for bad in ["", ".", "spec..a", "spec.a[", "spec.a[0]", "[*]"] {
            assert!(Path::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Path::default().to_string(), ".");
    }
}
