//! The conversions file: how the fields of one version map to another's,
//! declared by the API designer next to the CRD (see `docs/crd.md`).
//!
//! ```toml
//! crd = "widgets.example.io"   # optional; checked against the CRD
//! channel = "experimental"     # optional: "standard" (default) or "experimental"
//!
//! [[conversion]]
//! from = "v1alpha1"
//! to = "v1"
//! renamed = [{ field = "spec.tls", to = "spec.validation" }]
//! moved = [{ field = "spec.port", to = "spec.listener.port" }]
//! removed = [{ field = "spec.legacy", note = "never implemented" }]
//! added = [{ field = "spec.replicas", default = 1 }]
//! changed = [{ field = "spec.timeout", how = "seconds (integer) become a duration string" }]
//! ```
//!
//! Each `[[conversion]]` is one direction; the reverse is its own entry.

use toml::de::{DeTable, DeValue};
use toml::Spanned as TomlSpanned;

use crate::model::Spanned;
use crate::schema::{Path, Seg};
use kompat_formats::ParseError;
use kompat_span::Span;

/// The release channel the conversions are written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Standard,
    /// Semantic breaking changes need conversions in both directions.
    Experimental,
}

/// A conversions file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Conversions {
    /// `<plural>.<group>` of the CRD the file is for, when given.
    pub crd: Option<Spanned<String>>,
    pub channel: Option<Spanned<Channel>>,
    pub conversions: Vec<Conversion>,
}

/// How to convert objects from one version to another.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversion {
    pub from: Spanned<String>,
    pub to: Spanned<String>,
    pub changes: Vec<Change>,
    pub span: Span,
}

/// What happens to one field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// Same parent, new name: copy the value to `to`, remove the field.
    Renamed,
    /// New place: copy the value to `to`, remove the field.
    Moved,
    /// Dropped: the value is discarded.
    Removed,
    /// New in the target version: set to `default` when absent.
    Added,
    /// Same place, new meaning or type: convert as `how` says.
    Changed,
}

impl ChangeKind {
    pub fn key(self) -> &'static str {
        match self {
            ChangeKind::Renamed => "renamed",
            ChangeKind::Moved => "moved",
            ChangeKind::Removed => "removed",
            ChangeKind::Added => "added",
            ChangeKind::Changed => "changed",
        }
    }

    const ALL: [ChangeKind; 5] =
        [ChangeKind::Renamed, ChangeKind::Moved, ChangeKind::Removed, ChangeKind::Added, ChangeKind::Changed];
}

/// One declared field change.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub kind: ChangeKind,
    /// The field, normalized to `.spec.tls` form: in the source version,
    /// except for `added`, where it is in the target version.
    pub field: Spanned<String>,
    /// The new place (`renamed`, `moved`), normalized.
    pub to: Option<Spanned<String>>,
    /// The default as written in TOML (`added`).
    pub default: Option<Spanned<String>>,
    /// `how` (`changed`) or `note` (any).
    pub note: Option<String>,
    pub span: Span,
}

impl Change {
    pub(crate) fn field_path(&self) -> Path {
        Path::parse(&self.field.value).unwrap_or_default()
    }

    pub(crate) fn to_path(&self) -> Option<Path> {
        self.to.as_ref().and_then(|t| Path::parse(&t.value).ok())
    }
}

impl Conversions {
    /// The conversion from `from` to `to`, if declared.
    pub fn get(&self, from: &str, to: &str) -> Option<&Conversion> {
        self.conversions.iter().find(|c| c.from.value == from && c.to.value == to)
    }
}

const TOP_KEYS: [&str; 3] = ["crd", "channel", "conversion"];
const CONVERSION_KEYS: [&str; 7] = ["from", "to", "renamed", "moved", "removed", "added", "changed"];

fn keys_for(kind: ChangeKind) -> &'static [&'static str] {
    match kind {
        ChangeKind::Renamed | ChangeKind::Moved => &["field", "to", "note"],
        ChangeKind::Removed => &["field", "note"],
        ChangeKind::Added => &["field", "default", "note"],
        ChangeKind::Changed => &["field", "how"],
    }
}

fn span_of<T>(value: &TomlSpanned<T>) -> Span {
    let r = value.span();
    Span::new(r.start, r.end)
}

fn unknown_key(key: &TomlSpanned<std::borrow::Cow<'_, str>>, known: &[&str]) -> ParseError {
    ParseError::at(span_of(key), kompat_formats::span::unknown_key_message(key.get_ref(), known))
}

fn type_error(key: &str, expected: &str, value: &TomlSpanned<DeValue<'_>>) -> ParseError {
    ParseError::at(span_of(value), format!("`{key}` must be {expected}, not {}", value.get_ref().type_str()))
}

/// Parses a conversions file. Every problem is reported, with its span.
pub fn parse_conversions(text: &str) -> Result<Conversions, Vec<ParseError>> {
    let root = DeTable::parse(text).map_err(|err| {
        let error = kompat_formats::span::toml_syntax_error(text, &err);
        vec![ParseError { message: format!("invalid TOML: {}", error.message), ..error }]
    })?;
    let mut p = TomlReader { text, errors: Vec::new() };
    let mut out = Conversions::default();
    for (key, value) in root.get_ref().iter() {
        match &**key.get_ref() {
            "crd" => out.crd = p.string("crd", value),
            "channel" => {
                out.channel = match p.string("channel", value) {
                    Some(s) if s.value == "standard" => Some(Spanned::new(Channel::Standard, s.span)),
                    Some(s) if s.value == "experimental" => Some(Spanned::new(Channel::Experimental, s.span)),
                    Some(s) => {
                        p.error(s.span, format!("`channel` must be `standard` or `experimental`, not `{}`", s.value));
                        None
                    }
                    None => None,
                }
            }
            "conversion" => match value.get_ref().as_array() {
                Some(entries) => {
                    for entry in entries.iter() {
                        match entry.get_ref().as_table() {
                            Some(table) => out.conversions.extend(p.conversion(table, span_of(entry))),
                            None => p.errors.push(type_error("conversion", "a table", entry)),
                        }
                    }
                }
                None => {
                    p.error(span_of(value), "`conversion` must be an array of tables (`[[conversion]]`)".to_owned())
                }
            },
            _ => p.errors.push(unknown_key(key, &TOP_KEYS)),
        }
    }
    for (i, c) in out.conversions.iter().enumerate() {
        if out.conversions[..i].iter().any(|d| d.from.value == c.from.value && d.to.value == c.to.value) {
            p.error(c.span, format!("duplicate conversion from `{}` to `{}`", c.from.value, c.to.value));
        }
    }
    if p.errors.is_empty() {
        Ok(out)
    } else {
        p.errors.sort_by_key(|e| e.span);
        Err(p.errors)
    }
}

struct TomlReader<'t> {
    text: &'t str,
    errors: Vec<ParseError>,
}

impl TomlReader<'_> {
    fn error(&mut self, span: Span, message: String) {
        self.errors.push(ParseError::at(span, message));
    }

    fn string(&mut self, key: &str, value: &TomlSpanned<DeValue<'_>>) -> Option<Spanned<String>> {
        match value.get_ref().as_str() {
            Some(s) => Some(Spanned::new(s.to_owned(), span_of(value))),
            None => {
                self.errors.push(type_error(key, "a string", value));
                None
            }
        }
    }

    fn path(&mut self, key: &str, value: &TomlSpanned<DeValue<'_>>) -> Option<Spanned<String>> {
        let s = self.string(key, value)?;
        match Path::parse(&s.value) {
            Ok(path) => Some(Spanned::new(path.to_string(), s.span)),
            Err(message) => {
                self.error(s.span, message);
                None
            }
        }
    }

    fn conversion(&mut self, table: &DeTable<'_>, header: Span) -> Option<Conversion> {
        let before = self.errors.len();
        let span = table.iter().fold(header, |acc, (k, v)| acc.cover(span_of(k)).cover(span_of(v)));
        let (mut from, mut to) = (None, None);
        let mut changes = Vec::new();
        for (key, value) in table.iter() {
            let name = &**key.get_ref();
            match name {
                "from" => from = self.string("from", value),
                "to" => to = self.string("to", value),
                _ => match ChangeKind::ALL.iter().find(|k| k.key() == name) {
                    Some(kind) => match value.get_ref().as_array() {
                        Some(items) => {
                            for item in items.iter() {
                                match item.get_ref().as_table() {
                                    Some(t) => changes.extend(self.change(*kind, t, span_of(item))),
                                    None => self.errors.push(type_error(name, "an array of tables", item)),
                                }
                            }
                        }
                        None => self.errors.push(type_error(name, "an array of tables", value)),
                    },
                    None => self.errors.push(unknown_key(key, &CONVERSION_KEYS)),
                },
            }
        }
        if from.is_none() {
            self.error(header, "`from` is required".to_owned());
        }
        if to.is_none() {
            self.error(header, "`to` is required".to_owned());
        }
        changes.sort_by_key(|c| c.span.start);
        let (from, to) = (from?, to?);
        if from.value == to.value {
            self.error(to.span, format!("a conversion from `{}` to itself", from.value));
        }
        for (i, c) in changes.iter().enumerate() {
            let earlier = changes[..i].iter().find(|d| d.field.value == c.field.value && d.kind != ChangeKind::Added);
            if earlier.is_some() && c.kind != ChangeKind::Added {
                self.error(c.field.span, format!("`{}` has more than one change", c.field.value));
            }
        }
        if self.errors.len() > before {
            return None;
        }
        Some(Conversion { from, to, changes, span })
    }

    fn change(&mut self, kind: ChangeKind, table: &DeTable<'_>, span: Span) -> Option<Change> {
        let before = self.errors.len();
        let known = keys_for(kind);
        let (mut field, mut to, mut default, mut note) = (None, None, None, None);
        for (key, value) in table.iter() {
            match &**key.get_ref() {
                k if !known.contains(&k) => self.errors.push(unknown_key(key, known)),
                "field" => field = self.path("field", value),
                "to" => to = self.path("to", value),
                "default" => {
                    let s = span_of(value);
                    default = Some(Spanned::new(self.text.get(s.start..s.end).unwrap_or_default().to_owned(), s));
                }
                k => note = self.string(k, value).map(|s| s.value),
            }
        }
        let what = kind.key();
        let mut required = vec!["field"];
        match kind {
            ChangeKind::Renamed | ChangeKind::Moved => required.push("to"),
            ChangeKind::Added => required.push("default"),
            ChangeKind::Changed => required.push("how"),
            ChangeKind::Removed => {}
        }
        for key in required {
            if !table.iter().any(|(k, _)| &**k.get_ref() == key) {
                self.errors.push(ParseError::at(span, format!("`{key}` is required in `{what}`")));
            }
        }
        if let (Some(f), Some(t)) = (&field, &to) {
            let (fp, tp) = (Path::parse(&f.value).unwrap_or_default(), Path::parse(&t.value).unwrap_or_default());
            let same_parent = fp.parent() == tp.parent();
            let last_is_prop = |p: &Path| matches!(p.0.last(), Some(Seg::Prop(_)));
            if fp == tp {
                self.error(t.span, format!("`{}` is {what} to itself", f.value));
            } else if kind == ChangeKind::Renamed && !(same_parent && last_is_prop(&fp) && last_is_prop(&tp)) {
                self.error(
                    t.span,
                    format!("`{}` and `{}` have different parents; declare it as `moved`", f.value, t.value),
                );
            } else if kind == ChangeKind::Moved && same_parent {
                self.error(
                    t.span,
                    format!("`{}` and `{}` have the same parent; declare it as `renamed`", f.value, t.value),
                );
            }
        }
        if self.errors.len() > before {
            return None;
        }
        Some(Change { kind, field: field?, to, default, note, span })
    }
}

/// `orphan-conversions-file`: the conversions file `file` (its name) belongs
/// to no CRD manifest among the inputs. `expected` is the manifest it would
/// belong to by the lookup rule (`X.conversions.toml` beside `X.yaml`,
/// `X.yml` or `X.json`); `rename` the name it should have to belong to a
/// manifest that is among the inputs, when one looks meant. Points at the
/// start of the file.
pub fn orphan_conversions(file: &str, expected: &str, rename: Option<(&str, &str)>) -> crate::Finding {
    let mut notes = vec![format!(
        "a conversions file belongs to the manifest of the same name less `.conversions.toml` plus `.yaml`, `.yml` or `.json`, in the same directory: `{expected}`"
    )];
    if let Some((manifest, name)) = rename {
        notes.push(format!("the conversions file of `{manifest}` is `{name}`"));
    }
    notes.push(
        "until then the conversions it declares are not read, and the changes they cover are reported as undeclared"
            .to_owned(),
    );
    crate::rules::finding(
        crate::CrdRule::OrphanConversionsFile,
        format!("`{file}` belongs to no CRD manifest among the inputs: `{expected}` is not one"),
        Some(kompat_span::Span::new(0, 0)),
        file.to_owned(),
        notes,
    )
}
