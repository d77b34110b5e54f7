//! kompat TOML's API half: `[[api]]` entries, `[groups."G"] priority` and
//! `[storage_overrides]`, parsed into a `kompat_engine::api::ApiConfig` with
//! byte spans per entry and per field. The file is parsed once by
//! [`crate::parse_toml`], which hands each top-level key to its half.
//!
//! The schema is the contract's:
//!
//! ```toml
//! [[api]]
//! group = "batch"              # "" is the core group
//! version = "v1beta1"
//! kind = "CronJob"
//! resource = "cronjobs"
//! introduced = "1.8"           # required (checked by ApiSet::build)
//! deprecated = "1.21"          # optional
//! removed = "1.25"             # optional
//! replacement = "batch/v1/CronJob"
//! enabled_by_default = false   # optional
//!
//! [groups."batch"]
//! priority = ["v1", "v1beta1"]
//!
//! [storage_overrides]
//! "batch/cronjobs" = "v1"
//! ```

use std::collections::BTreeMap;

use kompat_engine::api::{ApiConfig, ApiDecl, ApiField, ApiProblem, ApiSet};
use kompat_runtime::Version;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::span::{unknown_key_message, ParseError};
use kompat_span::Span;

/// The keys of an `[[api]]` entry, in schema order.
pub const API_KEYS: [&str; 9] = [
    "group",
    "version",
    "kind",
    "resource",
    "introduced",
    "deprecated",
    "removed",
    "replacement",
    "enabled_by_default",
];

/// Where each part of an `[[api]]` entry is written (value spans).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ApiSpans {
    pub entry: Span,
    pub group: Option<Span>,
    pub version: Option<Span>,
    pub kind: Option<Span>,
    pub resource: Option<Span>,
    pub introduced: Option<Span>,
    pub deprecated: Option<Span>,
    pub removed: Option<Span>,
    pub replacement: Option<Span>,
    pub enabled_by_default: Option<Span>,
}

/// The API declarations of one file, with their spans. The declarations and
/// their spans are parallel and private: an `[[api]]` entry is added with its
/// spans ([`ApiFile::push`]) and never apart.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ApiFile {
    config: ApiConfig,
    /// Parallel to `config.apis`.
    spans: Vec<ApiSpans>,
    /// Group → span of its `priority` array.
    priority_spans: BTreeMap<String, Span>,
    /// Group → span of each `priority` entry.
    priority_entry_spans: BTreeMap<String, Vec<Span>>,
    /// Override key → span of the key.
    override_spans: BTreeMap<String, Span>,
}

impl ApiFile {
    /// Appends an API declaration with where it is written.
    pub fn push(&mut self, decl: ApiDecl, spans: ApiSpans) {
        self.config.apis.push(decl);
        self.spans.push(spans);
    }

    /// The declarations, group priorities and storage overrides of the file.
    pub fn config(&self) -> &ApiConfig {
        &self.config
    }

    /// The configuration, without its spans.
    pub fn into_config(self) -> ApiConfig {
        self.config
    }

    /// Where API declaration `index` (as in `config().apis`) is written.
    pub fn spans(&self, index: usize) -> Option<&ApiSpans> {
        self.spans.get(index)
    }

    /// Where the `priority` array of `group` is written.
    pub fn priority_span(&self, group: &str) -> Option<Span> {
        self.priority_spans.get(group).copied()
    }

    /// Where entry `entry` of the `priority` array of `group` is written.
    pub fn priority_entry_span(&self, group: &str, entry: usize) -> Option<Span> {
        self.priority_entry_spans.get(group)?.get(entry).copied()
    }

    /// Where the key of the storage override of `key` is written.
    pub fn override_span(&self, key: &str) -> Option<Span> {
        self.override_spans.get(key).copied()
    }

    /// True if the file declares no API, priority or override.
    pub fn is_empty(&self) -> bool {
        self.config == ApiConfig::default()
    }

    /// The most precise span for a problem reported by `ApiSet::build`,
    /// falling back to the entry (or the priority array).
    pub fn span_of(&self, problem: &ApiProblem) -> Option<Span> {
        match &problem.field {
            ApiField::Priority { group, entry } => {
                let precise = entry.and_then(|i| self.priority_entry_spans.get(group)?.get(i).copied());
                precise.or_else(|| self.priority_spans.get(group).copied())
            }
            ApiField::StorageOverride { key } => self.override_spans.get(key).copied(),
            field => {
                let spans = self.spans.get(problem.index?)?;
                let precise = match field {
                    ApiField::Group => spans.group,
                    ApiField::Version => spans.version,
                    ApiField::Kind => spans.kind,
                    ApiField::Resource => spans.resource,
                    ApiField::Introduced => spans.introduced,
                    ApiField::Deprecated => spans.deprecated,
                    ApiField::Removed => spans.removed,
                    ApiField::Replacement => spans.replacement,
                    ApiField::EnabledByDefault => spans.enabled_by_default,
                    _ => None,
                };
                Some(precise.unwrap_or(spans.entry))
            }
        }
    }

    /// Validates and completes the declarations (`ApiSet::build`), with each
    /// problem located in this file.
    pub fn build(&self) -> Result<ApiSet, Vec<ParseError>> {
        ApiSet::build(&self.config).map_err(|problems| {
            problems.iter().map(|p| ParseError { span: self.span_of(p), message: p.to_string() }).collect()
        })
    }
}

fn span(value: &Spanned<DeValue<'_>>) -> Span {
    value.span().into()
}

fn type_error(key: &str, expected: &str, value: &Spanned<DeValue<'_>>) -> ParseError {
    ParseError::at(span(value), format!("`{key}` must be {expected}, not {}", value.get_ref().type_str()))
}

pub(crate) fn parse_apis(api: &Spanned<DeValue<'_>>, file: &mut ApiFile, errors: &mut Vec<ParseError>) {
    let Some(entries) = api.get_ref().as_array() else {
        errors.push(ParseError::at(span(api), "`api` must be an array of tables (`[[api]]`)"));
        return;
    };
    for entry in entries.iter() {
        let Some(table) = entry.get_ref().as_table() else {
            errors.push(type_error("api", "a table", entry));
            continue;
        };
        if let Some((decl, spans)) = parse_api(table, span(entry), errors) {
            file.push(decl, spans);
        }
    }
}

/// One `[[api]]` entry; `None` if it has an error (reported).
fn parse_api(table: &DeTable<'_>, entry: Span, errors: &mut Vec<ParseError>) -> Option<(ApiDecl, ApiSpans)> {
    let before = errors.len();
    let mut decl = ApiDecl::default();
    // The entry spans from its `[[api]]` header to its last value.
    let entry = table.iter().fold(entry, |acc, (k, v)| acc.cover(k.span().into()).cover(span(v)));
    let mut spans = ApiSpans { entry, ..ApiSpans::default() };
    for (key, value) in table.iter() {
        let name: &str = key.get_ref();
        let value_span = Some(span(value));
        let string = |errors: &mut Vec<ParseError>| match value.get_ref().as_str() {
            Some(s) => Some(s.to_owned()),
            None => {
                errors.push(type_error(name, "a string", value));
                None
            }
        };
        let version = |errors: &mut Vec<ParseError>| {
            let text = string(errors)?;
            match Version::parse(&text) {
                Ok(v) => Some(v),
                Err(err) => {
                    errors.push(ParseError::at(span(value), err.to_string()));
                    None
                }
            }
        };
        match name {
            "group" => (decl.group, spans.group) = (string(errors).unwrap_or_default(), value_span),
            "version" => (decl.version, spans.version) = (string(errors).unwrap_or_default(), value_span),
            "kind" => (decl.kind, spans.kind) = (string(errors).unwrap_or_default(), value_span),
            "resource" => (decl.resource, spans.resource) = (string(errors).unwrap_or_default(), value_span),
            "introduced" => (decl.introduced, spans.introduced) = (version(errors), value_span),
            "deprecated" => (decl.deprecated, spans.deprecated) = (version(errors), value_span),
            "removed" => (decl.removed, spans.removed) = (version(errors), value_span),
            "replacement" => (decl.replacement, spans.replacement) = (string(errors), value_span),
            "enabled_by_default" => {
                spans.enabled_by_default = value_span;
                match value.get_ref().as_bool() {
                    Some(b) => decl.enabled_by_default = Some(b),
                    None => errors.push(type_error(name, "a boolean", value)),
                }
            }
            _ => errors.push(ParseError::at(key.span().into(), unknown_key_message(name, &API_KEYS))),
        }
    }
    for (key, present) in [
        ("group", spans.group.is_some()),
        ("version", spans.version.is_some()),
        ("kind", spans.kind.is_some()),
        ("resource", spans.resource.is_some()),
    ] {
        if !present {
            errors.push(ParseError::at(entry, format!("missing key `{key}` in [[api]]")));
        }
    }
    (errors.len() == before).then_some((decl, spans))
}

pub(crate) fn parse_groups(groups: &Spanned<DeValue<'_>>, file: &mut ApiFile, errors: &mut Vec<ParseError>) {
    let Some(groups_table) = groups.get_ref().as_table() else {
        errors.push(type_error("groups", "a table", groups));
        return;
    };
    for (group, value) in groups_table.iter() {
        let group: &str = group.get_ref();
        let Some(table) = value.get_ref().as_table() else {
            errors.push(type_error(&format!("groups.{}", kompat_runtime::gofmt::go_quote(group)), "a table", value));
            continue;
        };
        for (key, value) in table.iter() {
            let name: &str = key.get_ref();
            if name != "priority" {
                errors.push(ParseError::at(key.span().into(), unknown_key_message(name, &["priority"])));
                continue;
            }
            let Some(array) = value.get_ref().as_array() else {
                errors.push(type_error("priority", "an array of strings", value));
                continue;
            };
            let mut versions = Vec::new();
            let mut entry_spans = Vec::new();
            for item in array.iter() {
                match item.get_ref().as_str() {
                    Some(v) => {
                        versions.push(v.to_owned());
                        entry_spans.push(span(item));
                    }
                    None => errors.push(type_error("priority", "an array of strings", item)),
                }
            }
            file.config.priorities.insert(group.to_owned(), versions);
            file.priority_spans.insert(group.to_owned(), span(value));
            file.priority_entry_spans.insert(group.to_owned(), entry_spans);
        }
    }
}

pub(crate) fn parse_overrides(overrides: &Spanned<DeValue<'_>>, file: &mut ApiFile, errors: &mut Vec<ParseError>) {
    let Some(table) = overrides.get_ref().as_table() else {
        errors.push(type_error("storage_overrides", "a table", overrides));
        return;
    };
    for (key, value) in table.iter() {
        let name: &str = key.get_ref();
        let what = format!("storage_overrides.{}", kompat_runtime::gofmt::go_quote(name));
        if let Some(version) = value.get_ref().as_str() {
            file.config.storage_overrides.insert(name.to_owned(), version.to_owned());
            file.override_spans.insert(name.to_owned(), key.span().into());
            continue;
        }
        // `{ version = "v1beta1", until = "1.38" }`: a pin with an expiry.
        let Some(pin) = value.get_ref().as_table() else {
            errors.push(type_error(&what, "a string (the pinned version) or { version, until }", value));
            continue;
        };
        let mut version = None;
        let mut until = None;
        for (field, field_value) in pin.iter() {
            match field.get_ref().as_ref() {
                "version" => match field_value.get_ref().as_str() {
                    Some(v) => version = Some(v.to_owned()),
                    None => errors.push(type_error(&format!("{what}.version"), "a string", field_value)),
                },
                "until" => match field_value.get_ref().as_str().map(kompat_runtime::Version::parse) {
                    Some(Ok(v)) => until = Some(v),
                    Some(Err(err)) => errors.push(ParseError::at(span(field_value), err.to_string())),
                    None => errors.push(type_error(&format!("{what}.until"), "a version string", field_value)),
                },
                other => {
                    errors.push(ParseError::at(field.span().into(), unknown_key_message(other, &["version", "until"])))
                }
            }
        }
        match version {
            Some(version) => {
                file.config.storage_overrides.insert(name.to_owned(), version);
                if let Some(until) = until {
                    file.config.storage_override_until.insert(name.to_owned(), until);
                }
                file.override_spans.insert(name.to_owned(), key.span().into());
            }
            None => errors.push(ParseError::at(span(value), format!("missing `version` in {what}"))),
        }
    }
}
