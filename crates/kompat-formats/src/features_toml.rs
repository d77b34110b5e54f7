//! kompat TOML's feature half: `[[feature]]` tables mirroring the Kubernetes
//! YAML model, and `[[stored_before_written]]`. The file is parsed once by
//! [`crate::parse_toml`]; the format is documented in `docs/declarations.md`.

use std::collections::HashMap;

use kompat_engine::{FeatureDecl, SpecDecl, StoredBeforeWritten};
use kompat_runtime::{Ratchet, Stage, Version, VersionLit};
use serde::Deserialize;
use toml::de::{DeValue, ValueDeserializer};
use toml::Spanned;

use crate::span::{toml_syntax_error, unknown_key_message, ParseError};
use crate::{FeatureFile, FeatureSpans, SpecSpans};
use kompat_runtime::suggest::did_you_mean;
use kompat_span::Span;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStored {
    name: String,
    kind: Option<String>,
    readable_since: Spanned<String>,
    written_since: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFeature {
    pub(crate) name: Spanned<String>,
    pub(crate) description: Option<String>,
    #[serde(default)]
    pub(crate) dependencies: Vec<Spanned<String>>,
    pub(crate) ratchet: Option<RawRatchet>,
    /// Taken out of the entry and read spec by spec ([`split_specs`]); named
    /// here so that unknown-key messages list it.
    #[serde(default)]
    #[allow(dead_code)]
    pub(crate) specs: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRatchet {
    pub(crate) tolerated_since: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSpec {
    pub(crate) version: Option<Spanned<String>>,
    pub(crate) stage: Spanned<String>,
    pub(crate) default: Spanned<bool>,
    #[serde(rename = "lockToDefault")]
    pub(crate) lock_to_default: Option<Spanned<bool>>,
    #[serde(rename = "minCompatibilityVersion")]
    pub(crate) min_compatibility_version: Option<Spanned<String>>,
}

/// The `[[feature]]` entries of a kompat TOML file, each deserialized on its
/// own so that an error in one entry does not hide the others'.
/// The entries are taken by value and moved into serde, never cloned (the
/// copies were a fifth of `kompat gen` on Kubernetes' list, issue 18).
pub(crate) fn parse_features(text: &str, value: Spanned<DeValue<'_>>, errors: &mut Vec<ParseError>) -> FeatureFile {
    let mut file = FeatureFile::default();
    let mut seen: HashMap<String, Span> = HashMap::new();
    let span = value.span();
    let array = match value.into_inner() {
        DeValue::Array(array) => array.into_iter().collect(),
        _ => {
            errors.push(not_array_of_tables(span.into(), "feature"));
            Vec::new()
        }
    };
    for feature in array {
        let (feature, spec_values) = split_specs(feature);
        let feature = deserialize::<RawFeature>(feature, errors);
        // Every spec is read, and its errors reported, even when the rest of
        // the entry is wrong.
        let raw_specs: Vec<Spanned<RawSpec>> =
            spec_values.into_iter().filter_map(|spec| deserialize::<RawSpec>(spec, errors)).collect();
        let Some(feature) = feature else { continue };
        add_feature(text, feature, raw_specs, &mut seen, &mut file, errors);
    }
    file
}

/// Checks one `[[feature]]` entry as read (its specs apart) and adds it to
/// `file`, or reports why not. `seen` holds the names added so far, for
/// repeats. Shared by the general reader and the fast path
/// ([`crate::toml_fast`]), so both convert an entry identically.
pub(crate) fn add_feature(
    text: &str,
    feature: Spanned<RawFeature>,
    raw_specs: Vec<Spanned<RawSpec>>,
    seen: &mut HashMap<String, Span>,
    file: &mut FeatureFile,
    errors: &mut Vec<ParseError>,
) {
    let entry: Span = feature.span().into();
    let feature = feature.into_inner();
    let name_span: Span = feature.name.span().into();
    let name = feature.name.into_inner();
    if name.trim().is_empty() {
        errors.push(ParseError::at(name_span, "empty feature name"));
        return;
    }
    if let Some(first) = seen.get(&name) {
        let line = text[..first.start].matches('\n').count() + 1;
        errors.push(ParseError::at(name_span, format!("duplicate feature `{name}` (first declared on line {line})")));
        return;
    }
    seen.insert(name.clone(), name_span);
    let ratchet = match feature.ratchet {
        None => None,
        Some(r) => {
            let span: Span = r.tolerated_since.span().into();
            match Version::parse(r.tolerated_since.get_ref()) {
                Ok(v) => Some(Ratchet { tolerated_since: v }),
                Err(err) => {
                    errors.push(ParseError::at(span, err.to_string()));
                    return;
                }
            }
        }
    };
    let mut specs = Vec::with_capacity(raw_specs.len());
    let mut spec_spans = Vec::with_capacity(raw_specs.len());
    for spec in raw_specs {
        let whole: Span = spec.span().into();
        match convert_spec(spec.into_inner(), whole) {
            Ok((s, spans)) => {
                specs.push(s);
                spec_spans.push(spans);
            }
            Err(err) => errors.push(err),
        }
    }
    let spans = FeatureSpans {
        entry,
        name: name_span,
        specs: spec_spans,
        dependencies: feature.dependencies.iter().map(|d| d.span().into()).collect(),
    };
    let decl = FeatureDecl {
        name,
        specs,
        dependencies: feature.dependencies.into_iter().map(Spanned::into_inner).collect(),
        description: feature.description,
        ratchet,
    };
    file.push(decl, spans);
}

/// A `[[feature]]` entry without its `specs`, and the specs, to be read one
/// by one. A `specs` that is not an array stays in the entry, for serde to
/// report.
fn split_specs(entry: Spanned<DeValue<'_>>) -> (Spanned<DeValue<'_>>, Vec<Spanned<DeValue<'_>>>) {
    let span = entry.span();
    let mut table = match entry.into_inner() {
        DeValue::Table(table) => table,
        other => return (Spanned::new(span, other), Vec::new()),
    };
    let mut specs = Vec::new();
    if let Some((key, value)) = table.remove_entry("specs") {
        let value_span = value.span();
        match value.into_inner() {
            DeValue::Array(array) => specs = array.into_iter().collect(),
            other => {
                table.insert(key, Spanned::new(value_span, other));
            }
        }
    }
    (Spanned::new(span, DeValue::Table(table)), specs)
}

/// The `[[stored_before_written]]` entries, each with its span.
pub(crate) fn parse_stored(
    value: &Spanned<DeValue<'_>>,
    errors: &mut Vec<ParseError>,
) -> Vec<(StoredBeforeWritten, Span)> {
    let mut stored = Vec::new();
    for item in entries(value, "stored_before_written", errors) {
        let Some(item) = deserialize::<RawStored>(item.clone(), errors) else { continue };
        let span: Span = item.span().into();
        let item = item.into_inner();
        let version = |v: &Spanned<String>| {
            Version::parse(v.get_ref()).map_err(|e| ParseError::at(v.span().into(), e.to_string()))
        };
        match (version(&item.readable_since), version(&item.written_since)) {
            (Ok(readable_since), Ok(written_since)) => stored
                .push((StoredBeforeWritten { name: item.name, kind: item.kind, readable_since, written_since }, span)),
            (Err(e), _) | (_, Err(e)) => errors.push(e),
        }
    }
    stored
}

/// The entries of an array of tables (`[[key]]`); anything else is an error.
fn entries<'a, 'i>(
    value: &'a Spanned<DeValue<'i>>,
    key: &str,
    errors: &mut Vec<ParseError>,
) -> &'a [Spanned<DeValue<'i>>] {
    match value.get_ref().as_array() {
        Some(array) => array,
        None => {
            errors.push(not_array_of_tables(value.span().into(), key));
            &[]
        }
    }
}

fn not_array_of_tables(span: Span, key: &str) -> ParseError {
    ParseError::at(span, format!("`{key}` must be an array of tables (`[[{key}]]`)"))
}

/// One entry through serde, keeping its span; its first error is reported.
fn deserialize<T: serde::de::DeserializeOwned>(
    entry: Spanned<DeValue<'_>>,
    errors: &mut Vec<ParseError>,
) -> Option<Spanned<T>> {
    let span = entry.span();
    match T::deserialize(ValueDeserializer::from(entry)) {
        Ok(value) => Some(Spanned::new(span, value)),
        Err(err) => {
            let mut error = toml_syntax_error("", &err);
            // Located in the entry at least.
            if err.span().is_none() {
                error.span = Some(span.into());
            }
            errors.push(reword(error, &err));
            None
        }
    }
}

fn convert_spec(raw: RawSpec, whole: Span) -> Result<(SpecDecl, SpecSpans), ParseError> {
    let version_lit = |value: &Spanned<String>| {
        VersionLit::parse(value.get_ref()).map_err(|err| ParseError::at(value.span().into(), err.to_string()))
    };
    let stage_span: Span = raw.stage.span().into();
    let stage = Stage::from_name(raw.stage.get_ref()).ok_or_else(|| {
        let mut message =
            format!("unknown stage `{}`, expected one of `Alpha`, `Beta`, `GA`, `Deprecated`", raw.stage.get_ref());
        if let Some(hint) = did_you_mean(raw.stage.get_ref(), ["Alpha", "Beta", "GA", "Deprecated"]) {
            message.push_str(&format!(" (did you mean `{hint}`?)"));
        }
        ParseError::at(stage_span, message)
    })?;
    let spec = SpecDecl {
        version: raw.version.as_ref().map(version_lit).transpose()?,
        default: *raw.default.get_ref(),
        lock_to_default: raw.lock_to_default.as_ref().is_some_and(|l| *l.get_ref()),
        stage,
        min_compatibility_version: raw.min_compatibility_version.as_ref().map(version_lit).transpose()?,
    };
    let spans = SpecSpans {
        spec: whole,
        version: raw.version.as_ref().map(|v| v.span().into()),
        stage: Some(stage_span),
        default: Some(raw.default.span().into()),
        lock_to_default: raw.lock_to_default.as_ref().map(|v| v.span().into()),
        min_compatibility_version: raw.min_compatibility_version.as_ref().map(|v| v.span().into()),
    };
    Ok((spec, spans))
}

/// A TOML error as a located parse error, with serde's unknown-field and
/// missing-field messages in the wording of every other text format: the one
/// unknown-key message ([`unknown_key_message`], with its hint) and
/// ``missing key `x` ``.
pub fn toml_error(text: &str, err: &toml::de::Error) -> ParseError {
    reword(toml_syntax_error(text, err), err)
}

/// An error of the `toml` crate reworded as [`toml_error`] says.
fn reword(mut error: ParseError, err: &toml::de::Error) -> ParseError {
    if let Some(rest) = err.message().strip_prefix("unknown field `") {
        if let Some((field, expected)) = rest.split_once('`') {
            let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
            error.message = unknown_key_message(field, &known);
        }
    } else if let Some(rest) = error.message.strip_prefix("missing field `") {
        error.message = format!("missing key `{rest}");
    }
    error
}
