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

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{Hash, Hasher};

use crate::CrdRule;
use kompat_formats::yaml::{Node, Scalar, ScalarKind};
use kompat_span::Span;

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

/// The entries of a mapping, found by key in constant time (a scan for
/// small mappings): a schema may have hundreds of thousands of properties,
/// and finding each in its counterpart by a scan would be quadratic.
pub struct Index<'a> {
    entries: &'a [(Scalar, Node)],
    by_key: Option<HashMap<&'a str, usize>>,
}

/// Mappings this small are scanned.
const SCAN_MAX: usize = 16;

impl<'a> Index<'a> {
    /// The entries of `node` if it is a mapping, else none.
    pub fn of(node: Option<&'a Node>) -> Index<'a> {
        let entries = node.and_then(Node::as_map).unwrap_or_default();
        let by_key = (entries.len() > SCAN_MAX)
            .then(|| entries.iter().enumerate().map(|(i, (k, _))| (k.value.as_str(), i)).collect());
        Index { entries, by_key }
    }

    /// The properties of a schema node.
    pub fn props(node: &'a Node) -> Index<'a> {
        Index::of(node.get("properties"))
    }

    pub fn entry(&self, key: &str) -> Option<&'a (Scalar, Node)> {
        match &self.by_key {
            Some(map) => map.get(key).map(|&i| &self.entries[i]),
            None => self.entries.iter().find(|(k, _)| k.value == key),
        }
    }

    pub fn get(&self, key: &str) -> Option<&'a Node> {
        self.entry(key).map(|(_, v)| v)
    }

    pub fn entries(&self) -> &'a [(Scalar, Node)] {
        self.entries
    }
}

/// The children of a schema node in path order: its properties by name
/// (any node: a property is a field whatever its schema), then `items` and
/// `additionalProperties` when they are schemas (mappings). A walk that
/// visits children in this order visits paths in [`Path`]'s order.
pub fn children(node: &Node) -> Vec<(Seg, &Node, Option<&Scalar>)> {
    let mut props: Vec<&(Scalar, Node)> = Index::props(node).entries().iter().collect();
    props.sort_by(|a, b| a.0.value.cmp(&b.0.value));
    let mut out: Vec<(Seg, &Node, Option<&Scalar>)> =
        props.into_iter().map(|(k, v)| (Seg::Prop(k.value.to_string()), v, Some(k))).collect();
    for (seg, key) in [(Seg::Items, "items"), (Seg::Values, "additionalProperties")] {
        if let Some(child) = node.get(key).filter(|n| n.as_map().is_some()) {
            out.push((seg, child, None));
        }
    }
    out
}

/// The child of a schema node at `seg`: a property (any node), or `items`
/// or `additionalProperties` when they are schemas.
pub fn child<'a>(node: &'a Node, seg: &Seg, props: &Index<'a>) -> Option<&'a Node> {
    match seg {
        Seg::Prop(name) => props.get(name),
        Seg::Items => node.get("items").filter(|n| n.as_map().is_some()),
        Seg::Values => node.get("additionalProperties").filter(|n| n.as_map().is_some()),
    }
}

/// The type a schema node names, if any.
pub fn type_name(node: &Node) -> Option<&str> {
    node.get("type").and_then(Node::as_str)
}

/// The names a schema node lists in `required`.
pub fn required(node: &Node) -> HashSet<&str> {
    node.get("required").and_then(Node::as_seq).unwrap_or_default().iter().filter_map(Node::as_str).collect()
}

/// True if `path` is a field (a property) of `schema`: every step is
/// described, through properties, `items` and `additionalProperties`
/// schemas, and the last one is a property.
pub fn has_field(schema: &Node, path: &Path) -> bool {
    let mut node = schema;
    for seg in &path.0 {
        let next = match seg {
            Seg::Prop(name) => node.get("properties").filter(|p| p.as_map().is_some()).and_then(|p| p.get(name)),
            Seg::Items => node.get("items").filter(|n| n.as_map().is_some()),
            Seg::Values => node.get("additionalProperties").filter(|n| n.as_map().is_some()),
        };
        let Some(next) = next else { return false };
        node = next;
    }
    matches!(path.0.last(), Some(Seg::Prop(_)))
}

/// True if the node keeps fields its schema does not describe:
/// `x-kubernetes-preserve-unknown-fields: true` or an `additionalProperties`
/// schema.
pub fn keeps_unknown_fields(node: &Node) -> bool {
    node.get("x-kubernetes-preserve-unknown-fields").and_then(Node::as_bool) == Some(true)
        || node.get("additionalProperties").is_some_and(|a| a.as_map().is_some() || a.as_bool() == Some(true))
}

/// A change found by [`diff`].
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaChange {
    pub rule: CrdRule,
    pub path: Path,
    pub message: String,
    /// In the new schema.
    pub span: Span,
    pub notes: Vec<String>,
}

/// The most findings one comparison of two schemas (one version's old and
/// new schema, or two versions of a CRD) reports; a comparison that finds
/// more stops there and says so in a note on its last finding. A schema
/// rewritten from end to end is one problem, not a million, and each
/// finding names its whole path.
pub const MAX_CHANGES: usize = 200;

/// The note on the last finding of a comparison stopped at [`MAX_CHANGES`].
pub fn stopped_note(what: &str) -> String {
    format!("the comparison of {what} stopped after {MAX_CHANGES} findings; fix these and run again for the rest")
}

/// Compares one version's old and new schema. `version` is named in the
/// messages. Time and memory are linear in the schemas: one walk over both
/// with one path stack, a path materialised only for a finding, and at most
/// [`MAX_CHANGES`] findings.
pub fn diff(old: &Node, new: &Node, version: &str) -> Vec<SchemaChange> {
    let mut cx = Diff { version, out: Vec::new(), stopped: false };
    cx.node(&mut Path::default(), old, new, new.span());
    if cx.stopped {
        if let Some(last) = cx.out.last_mut() {
            last.notes.push(stopped_note(&format!("the old and new schema of `{version}`")));
        }
    }
    cx.out
}

struct Diff<'v> {
    version: &'v str,
    out: Vec<SchemaChange>,
    /// More than [`MAX_CHANGES`] findings: the walk stops.
    stopped: bool,
}

/// Keywords that only document: any change is compatible.
const DOC_KEYWORDS: [&str; 4] = ["description", "title", "example", "externalDocs"];

/// Keywords holding schemas, compared by walking them (never as a whole:
/// comparing every subtree at every level would be quadratic in depth).
const SCHEMA_KEYWORDS: [&str; 3] = ["properties", "items", "additionalProperties"];

fn entry_span(entries: &Index<'_>, key: &str, fallback: Span) -> Span {
    match entries.entry(key) {
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

/// What differs between two values of `key`, named part by part (at most
/// [`MAX_PARTS`]): `` `subresources.scale` added ``, `` `x.y` changed from
/// `1` to `2` ``. For the message of an unhandled change.
pub(crate) fn what_changed(key: &str, old: Option<&Node>, new: Option<&Node>) -> String {
    let mut parts = Vec::new();
    changed_parts(key, old, new, &mut parts);
    let more = parts.len().saturating_sub(MAX_PARTS);
    parts.truncate(MAX_PARTS);
    if more > 0 {
        parts.push(format!("and {more} more"));
    }
    parts.join(", ")
}

/// How many parts [`what_changed`] names.
const MAX_PARTS: usize = 5;

/// Values longer than this are shortened in [`what_changed`].
const MAX_VALUE: usize = 60;

fn short(node: &Node) -> String {
    let text = node.render();
    match text.char_indices().nth(MAX_VALUE) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text,
    }
}

fn changed_parts(at: &str, old: Option<&Node>, new: Option<&Node>, out: &mut Vec<String>) {
    if out.len() > MAX_PARTS {
        return;
    }
    let nonempty = |n: Option<&Node>| n.and_then(Node::as_map).is_some_and(|m| !m.is_empty());
    match (old, new) {
        (Some(o), Some(n)) if o.same(n) => {}
        (Some(o), Some(n)) if o.as_map().is_some() && n.as_map().is_some() => {
            let (oi, ni) = (Index::of(Some(o)), Index::of(Some(n)));
            let mut keys: Vec<&str> = oi.entries().iter().map(|(k, _)| k.value.as_str()).collect();
            keys.extend(ni.entries().iter().map(|(k, _)| k.value.as_str()).filter(|k| oi.get(k).is_none()));
            for key in keys {
                changed_parts(&format!("{at}.{key}"), oi.get(key), ni.get(key), out);
            }
        }
        (None, Some(n)) if nonempty(Some(n)) => {
            for (key, value) in n.as_map().unwrap_or_default() {
                changed_parts(&format!("{at}.{}", key.value), None, Some(value), out);
            }
        }
        (Some(o), None) if nonempty(Some(o)) => {
            for (key, value) in o.as_map().unwrap_or_default() {
                changed_parts(&format!("{at}.{}", key.value), Some(value), None, out);
            }
        }
        (None, Some(n)) => out.push(format!("`{at}` added as `{}`", short(n))),
        (Some(o), None) => out.push(format!("`{at}` (`{}`) removed", short(o))),
        (Some(o), Some(n)) => out.push(format!("`{at}` changed from `{}` to `{}`", short(o), short(n))),
        (None, None) => {}
    }
}

fn render(node: Option<&Node>) -> String {
    node.map_or_else(|| "none".to_owned(), |n| format!("`{}`", n.render()))
}

/// A hash that nodes [`Node::same`] holds for share: numbers by value (`0`
/// and `-0` alike), mappings whatever their key order.
fn same_hash(node: &Node) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    match node {
        Node::Scalar(s) => match s.kind {
            ScalarKind::Number(n) => (0u8, if n == 0.0 { 0 } else { n.to_bits() }).hash(&mut h),
            ScalarKind::String => (1u8, &s.value).hash(&mut h),
            ScalarKind::Null => 2u8.hash(&mut h),
            ScalarKind::Bool(b) => (3u8, b).hash(&mut h),
        },
        Node::Seq(items, _) => {
            (4u8, items.len()).hash(&mut h);
            for item in items {
                same_hash(item).hash(&mut h);
            }
        }
        Node::Map(entries, _) => {
            let mut sum = 0u64;
            for (k, v) in entries {
                let mut e = std::collections::hash_map::DefaultHasher::new();
                (&k.value, same_hash(v)).hash(&mut e);
                sum = sum.wrapping_add(e.finish());
            }
            (5u8, entries.len(), sum).hash(&mut h);
        }
    }
    h.finish()
}

impl Diff<'_> {
    fn push(&mut self, rule: CrdRule, path: &Path, message: String, span: Span, notes: Vec<String>) {
        if self.out.len() >= MAX_CHANGES {
            self.stopped = true;
            return;
        }
        self.out.push(SchemaChange { rule, path: path.clone(), message, span, notes });
    }

    fn unhandled(&mut self, path: &Path, key: &str, old: Option<&Node>, new: Option<&Node>, span: Span) {
        let v = self.version;
        self.push(
            CrdRule::UnhandledChange,
            path,
            format!("unhandled change to `{key}` of `{path}` in `{v}`: {}", what_changed(key, old, new)),
            span,
            vec![format!("old: {}", render(old)), format!("new: {}", render(new))],
        );
    }

    /// Compares two schema nodes at `path` (the walk's one path stack);
    /// `anchor` is where the new node is named (its property key), for
    /// changes with no better place.
    fn node(&mut self, path: &mut Path, old: &Node, new: &Node, anchor: Span) {
        if self.stopped {
            return;
        }
        let (Some(old_entries), Some(new_entries)) = (old.as_map(), new.as_map()) else {
            if !old.same(new) {
                self.unhandled(path, "schema", Some(old), Some(new), anchor);
            }
            return;
        };
        let (old_index, new_index) = (Index::of(Some(old)), Index::of(Some(new)));
        let mut keys: Vec<&str> = old_entries.iter().map(|(k, _)| k.value.as_str()).collect();
        keys.extend(new_entries.iter().map(|(k, _)| k.value.as_str()).filter(|k| old_index.entry(k).is_none()));
        for key in keys {
            if DOC_KEYWORDS.contains(&key) {
                continue;
            }
            let (o, n) = (old_index.get(key), new_index.get(key));
            let walked = SCHEMA_KEYWORDS.contains(&key)
                && o.zip(n).is_some_and(|(o, n)| o.as_map().is_some() && n.as_map().is_some());
            if !walked && o.zip(n).is_some_and(|(o, n)| o.same(n)) {
                continue;
            }
            let span = entry_span(&new_index, key, anchor);
            self.keyword(path, KeywordChange { key, o, n, old, new, new_index: &new_index, span, anchor });
            if self.stopped {
                return;
            }
        }
    }

    fn keyword(&mut self, path: &mut Path, change: KeywordChange<'_, '_>) {
        let KeywordChange { key, o, n, old, new, new_index, span, anchor } = change;
        let v = self.version;
        match key {
            "type" => {
                let message = match (o, n) {
                    (Some(o), Some(n)) => {
                        format!("type of `{path}` changed from `{}` to `{}` in `{v}`", o.render(), n.render())
                    }
                    (None, Some(n)) => format!("type of `{path}` restricted to `{}` in `{v}`", n.render()),
                    (Some(o), None) => format!("type `{}` of `{path}` removed in `{v}`", o.render()),
                    (None, None) => return,
                };
                self.push(CrdRule::TypeChanged, path, message, span, Vec::new());
            }
            "properties" => self.properties(path, o, n, new, new_index, span, anchor),
            "required" => self.required(path, o, n, old, new, span),
            "items" | "additionalProperties" => match (o, n) {
                (Some(o), Some(n)) if o.as_map().is_some() && n.as_map().is_some() => {
                    let seg = if key == "items" { Seg::Items } else { Seg::Values };
                    let span = new_index.entry(key).map_or(anchor, |(k, _)| k.span);
                    path.0.push(seg);
                    self.node(path, o, n, span);
                    path.0.pop();
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
                self.push(CrdRule::DefaultChanged, path, message, span, Vec::new());
            }
            "minimum" | "minLength" | "minItems" | "minProperties" => self.bound(path, key, o, n, span, true),
            "maximum" | "maxLength" | "maxItems" | "maxProperties" => self.bound(path, key, o, n, span, false),
            "exclusiveMinimum" | "exclusiveMaximum" | "uniqueItems" => {
                let was = o.and_then(Node::as_bool).unwrap_or(false);
                match n.map_or(Some(false), Node::as_bool) {
                    Some(true) if !was => {
                        let code =
                            if key == "uniqueItems" { CrdRule::ValidationTightened } else { CrdRule::BoundsTightened };
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
                    self.push(CrdRule::BoundsTightened, path, message, span, Vec::new());
                }
            }
            "pattern" => match (o, n) {
                (Some(o), Some(n)) => {
                    let (was, is) = (raw(o), raw(n));
                    let relation = match (o.as_str(), n.as_str()) {
                        (Some(a), Some(b)) => crate::pattern::compare(a, b),
                        _ => crate::pattern::Relation::Unknown,
                    };
                    // The same strings match, or more: nothing stored can
                    // be rejected.
                    let note = match relation {
                        crate::pattern::Relation::Same | crate::pattern::Relation::Wider => None,
                        crate::pattern::Relation::Narrower => {
                            Some("a character class of the new pattern lacks characters the old one accepted")
                        }
                        crate::pattern::Relation::Unknown => Some(
                            "kompat compares patterns as languages when they differ only in character classes; these differ otherwise, so compare them by hand",
                        ),
                    };
                    if let Some(note) = note {
                        self.push(
                            CrdRule::PatternChanged,
                            path,
                            format!("pattern of `{path}` changed from `{was}` to `{is}` in `{v}`"),
                            span,
                            vec!["values valid under the old pattern may be rejected".to_owned(), note.to_owned()],
                        );
                    }
                }
                (None, Some(n)) => self.push(
                    CrdRule::PatternChanged,
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
                        CrdRule::ValidationTightened,
                        path,
                        format!("`{path}` is no longer nullable in `{v}`"),
                        span,
                        vec!["objects that store `null` there are rejected on their next update".to_owned()],
                    );
                } else if o.is_some_and(|o| o.as_bool().is_none()) || n.is_some_and(|n| n.as_bool().is_none()) {
                    self.unhandled(path, key, o, n, span);
                }
            }
            "x-kubernetes-validations" => self.rules(path, o, n, (old, new), span),
            // An absent list type is `atomic` (apiextensions' default for
            // arrays, and how server-side apply treats them): writing it out,
            // or dropping it, changes nothing.
            "x-kubernetes-list-type" if list_type(o).zip(list_type(n)).is_some_and(|(o, n)| o == n) => {}
            "x-kubernetes-preserve-unknown-fields" => {
                let was = o.and_then(Node::as_bool).unwrap_or(false);
                let is = n.and_then(Node::as_bool).unwrap_or(false);
                if was && !is {
                    self.push(
                        CrdRule::FieldRemoved,
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

    #[allow(clippy::too_many_arguments)]
    fn properties(
        &mut self,
        path: &mut Path,
        o: Option<&Node>,
        n: Option<&Node>,
        new: &Node,
        new_index: &Index<'_>,
        span: Span,
        anchor: Span,
    ) {
        let v = self.version;
        if o.is_some_and(|o| o.as_map().is_none()) || n.is_some_and(|n| n.as_map().is_none()) {
            self.unhandled(path, "properties", o, n, span);
            return;
        }
        let new_props = Index::of(n);
        let preserved = keeps_unknown_fields(new);
        for (key, old_child) in Index::of(o).entries() {
            path.0.push(Seg::Prop(key.value.to_string()));
            match new_props.entry(&key.value) {
                Some((new_key, new_child)) => self.node(path, old_child, new_child, new_key.span),
                None => {
                    let child = &*path;
                    let mut notes = vec![format!("clients that set `{child}` through `{v}` break")];
                    if !preserved {
                        notes.push(format!("stored values of `{child}` are pruned when objects are read or written"));
                    }
                    let at = new_index.entry("properties").map_or(anchor, |(k, _)| k.span);
                    let message = format!("field `{child}` was removed from `{v}`");
                    self.push(CrdRule::FieldRemoved, child, message, at, notes);
                }
            }
            path.0.pop();
            if self.stopped {
                return;
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
        let was: HashSet<&str> = was.iter().map(String::as_str).collect();
        let (old_props, new_props) = (Index::props(old), Index::props(new));
        let items = n.and_then(Node::as_seq).unwrap_or_default();
        for (i, name) in is.iter().enumerate() {
            if was.contains(name.as_str()) {
                continue;
            }
            let child = path.child(Seg::Prop(name.clone()));
            let existed = old_props.get(name).is_some();
            let message = if existed {
                format!("field `{child}` became required in `{v}`")
            } else {
                format!("field `{child}` is new and required in `{v}`")
            };
            let at = items.get(i).map_or(span, Node::span);
            let mut notes = vec!["objects stored without it are rejected on their next update".to_owned()];
            if new_props.get(name).and_then(|f| f.get("default")).is_some() {
                notes.push("its default applies only when the field is absent and its parent is present".to_owned());
            }
            self.push(CrdRule::NewRequiredField, &child, message, at, notes);
            if self.stopped {
                return;
            }
        }
    }

    fn enumeration(&mut self, path: &Path, o: Option<&Node>, n: Option<&Node>, span: Span) {
        let v = self.version;
        let (Some(Some(new_values)), Some(old_values)) = (n.map(Node::as_seq), o.map(Node::as_seq)) else {
            match (o, n) {
                (None, Some(n)) if n.as_seq().is_some() => self.push(
                    CrdRule::EnumValueRemoved,
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
        let mut buckets: HashMap<u64, Vec<&Node>> = HashMap::new();
        for value in new_values {
            buckets.entry(same_hash(value)).or_default().push(value);
        }
        for value in old_values {
            let kept = buckets.get(&same_hash(value)).is_some_and(|b| b.iter().any(|nv| nv.same(value)));
            if !kept {
                self.push(
                    CrdRule::EnumValueRemoved,
                    path,
                    format!("enum value `{}` of `{path}` was removed in `{v}`", value.render()),
                    span,
                    Vec::new(),
                );
                if self.stopped {
                    return;
                }
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
        self.push(CrdRule::BoundsTightened, path, message, span, Vec::new());
    }

    fn rules(&mut self, path: &Path, o: Option<&Node>, n: Option<&Node>, nodes: (&Node, &Node), span: Span) {
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
        let was: HashSet<&str> = was.iter().map(String::as_str).collect();
        let items = n.and_then(Node::as_seq).unwrap_or_default();
        for (i, rule) in is.iter().enumerate() {
            if self.stopped {
                return;
            }
            if !was.contains(rule.as_str()) && !only_new_fields(rule, nodes.0, nodes.1) {
                let at = items.get(i).map_or(span, Node::span);
                self.push(
                    CrdRule::ValidationTightened,
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

/// True when a CEL rule names fields of `self` (`self.a`, `has(self.b)`)
/// and every one is new: a property of the new node that the old node does
/// not have. Such a rule constrains only what no stored object has, so
/// adding it together with its fields tightens nothing.
fn only_new_fields(rule: &str, old: &Node, new: &Node) -> bool {
    let (old_props, new_props) = (Index::props(old), Index::props(new));
    let mut named = 0;
    let bytes = rule.as_bytes();
    let mut at = 0;
    while let Some(i) = rule[at..].find("self.").map(|i| at + i) {
        at = i + "self.".len();
        // `oldSelf.x` and `myself.x` are not `self`.
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            continue;
        }
        let end = rule[at..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(rule.len(), |e| at + e);
        let field = &rule[at..end];
        if field.is_empty() || old_props.get(field).is_some() || new_props.get(field).is_none() {
            return false;
        }
        named += 1;
    }
    named > 0
}

/// One schema keyword that differs between the old and the new node: its
/// old and new values (`o`, `n`), the nodes that hold them (and the new
/// node's entries, indexed), where to point (`span`) and where the node is
/// named (`anchor`).
struct KeywordChange<'a, 'i> {
    key: &'a str,
    o: Option<&'a Node>,
    n: Option<&'a Node>,
    old: &'a Node,
    new: &'a Node,
    new_index: &'i Index<'a>,
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

    #[test]
    fn unhandled_changes_name_what_changed() {
        let node = |text: &str| kompat_formats::yaml::parse_documents(text).ok().and_then(|d| d.into_iter().next());
        let cases = [
            (None, Some("{status: {}}"), "`subresources.status` added as `{}`"),
            (Some("{status: {}}"), None, "`subresources.status` (`{}`) removed"),
            (
                Some("{status: {}}"),
                Some("{status: {}, scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}}"),
                "`subresources.scale.specReplicasPath` added as `.spec.replicas`, `subresources.scale.statusReplicasPath` added as `.status.replicas`",
            ),
            (
                Some("{scale: {specReplicasPath: .spec.replicas}}"),
                Some("{scale: {specReplicasPath: .spec.size}}"),
                "`subresources.scale.specReplicasPath` changed from `.spec.replicas` to `.spec.size`",
            ),
            (Some("{a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7}"), Some("{}"), "`subresources.a` (`1`) removed, `subresources.b` (`2`) removed, `subresources.c` (`3`) removed, `subresources.d` (`4`) removed, `subresources.e` (`5`) removed, and 1 more"),
        ];
        for (old, new, want) in cases {
            let (o, n) = (old.and_then(node), new.and_then(node));
            assert_eq!(what_changed("subresources", o.as_ref(), n.as_ref()), want, "{old:?} -> {new:?}");
        }
    }

    #[test]
    fn rules_on_new_fields_only() {
        let node = |text: &str| kompat_formats::yaml::parse_documents(text).ok().and_then(|d| d.into_iter().next());
        let (Some(old), Some(new)) = (
            node("properties: {size: {type: integer}}"),
            node("properties: {size: {type: integer}, min: {type: integer}, max: {type: integer}}"),
        ) else {
            panic!("fixtures must parse");
        };
        for (rule, want) in [
            ("self.min <= self.max", true),
            ("!has(self.min) || self.min >= 0", true),
            ("self.min <= self.size", false),
            ("self.size <= 10", false),
            ("self.unknown > 0", false),
            ("self == oldSelf", false),
            ("oldSelf.min == self.min", true),
            ("size(self) > 0", false),
        ] {
            assert_eq!(only_new_fields(rule, &old, &new), want, "{rule}");
        }
    }
}
