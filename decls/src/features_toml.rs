//! kompat TOML's feature half: `[[feature]]` tables mirroring the Kubernetes
//! YAML model, and `[[stored_before_written]]`. The file is parsed once by
//! [`crate::parse_toml`]; the format is documented in `docs/declarations.md`.

use std::collections::HashMap;

use kompat_core::{FeatureDecl, Ratchet, SpecDecl, Stage, StoredBeforeWritten, Version, VersionLit};
use serde::Deserialize;
use toml::de::{DeValue, ValueDeserializer};
use toml::Spanned;

use crate::span::{did_you_mean, toml_syntax_error, unknown_key_message, ParseError, Span};
use crate::{FeatureFile, FeatureSpans, SpecSpans};

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
struct RawFeature {
    name: Spanned<String>,
    description: Option<String>,
    #[serde(default)]
    dependencies: Vec<Spanned<String>>,
    ratchet: Option<RawRatchet>,
    /// Taken out of the entry and read spec by spec ([`split_specs`]); named
    /// here so that unknown-key messages list it.
    #[serde(default)]
    #[allow(dead_code)]
    specs: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRatchet {
    tolerated_since: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    version: Option<Spanned<String>>,
    stage: Spanned<String>,
    default: Spanned<bool>,
    #[serde(rename = "lockToDefault")]
    lock_to_default: Option<Spanned<bool>>,
    #[serde(rename = "minCompatibilityVersion")]
    min_compatibility_version: Option<Spanned<String>>,
}

/// The `[[feature]]` entries of a kompat TOML file, each deserialized on its
/// own so that an error in one entry does not hide the others'.
pub(crate) fn parse_features(text: &str, value: &Spanned<DeValue<'_>>, errors: &mut Vec<ParseError>) -> FeatureFile {
    let mut file = FeatureFile::default();
    let mut seen: HashMap<String, Span> = HashMap::new();
    for feature in entries(value, "feature", errors) {
        let (feature, spec_values) = split_specs(feature);
        let feature = deserialize::<RawFeature>(&feature, errors);
        // Every spec is read, and its errors reported, even when the rest of
        // the entry is wrong.
        let raw_specs: Vec<Spanned<RawSpec>> =
            spec_values.iter().filter_map(|spec| deserialize::<RawSpec>(spec, errors)).collect();
        let Some(feature) = feature else { continue };
        let entry: Span = feature.span().into();
        let feature = feature.into_inner();
        let name_span: Span = feature.name.span().into();
        let name = feature.name.into_inner();
        if name.trim().is_empty() {
            errors.push(ParseError::at(name_span, "empty feature name"));
            continue;
        }
        if let Some(first) = seen.get(&name) {
            let line = text[..first.start].matches('\n').count() + 1;
            errors
                .push(ParseError::at(name_span, format!("duplicate feature `{name}` (first declared on line {line})")));
            continue;
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
                        continue;
                    }
                }
            }
        };
        let mut specs = Vec::new();
        let mut spec_spans = Vec::new();
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
    file
}

/// A `[[feature]]` entry without its `specs`, and the specs, to be read one
/// by one. A `specs` that is not an array stays in the entry, for serde to
/// report.
fn split_specs<'i>(entry: &Spanned<DeValue<'i>>) -> (Spanned<DeValue<'i>>, Vec<Spanned<DeValue<'i>>>) {
    let Some(table) = entry.get_ref().as_table() else { return (entry.clone(), Vec::new()) };
    let Some(specs) = table.get("specs").and_then(|v| v.get_ref().as_array()) else {
        return (entry.clone(), Vec::new());
    };
    let specs: Vec<Spanned<DeValue<'i>>> = specs.iter().cloned().collect();
    let mut rest = table.clone();
    rest.remove("specs");
    (Spanned::new(entry.span(), DeValue::Table(rest)), specs)
}

/// The `[[stored_before_written]]` entries, each with its span.
pub(crate) fn parse_stored(
    value: &Spanned<DeValue<'_>>,
    errors: &mut Vec<ParseError>,
) -> Vec<(StoredBeforeWritten, Span)> {
    let mut stored = Vec::new();
    for item in entries(value, "stored_before_written", errors) {
        let Some(item) = deserialize::<RawStored>(item, errors) else { continue };
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
            errors
                .push(ParseError::at(value.span().into(), format!("`{key}` must be an array of tables (`[[{key}]]`)")));
            &[]
        }
    }
}

/// One entry through serde, keeping its span; its first error is reported.
fn deserialize<T: serde::de::DeserializeOwned>(
    entry: &Spanned<DeValue<'_>>,
    errors: &mut Vec<ParseError>,
) -> Option<Spanned<T>> {
    let span = entry.span();
    match T::deserialize(ValueDeserializer::from(entry.clone())) {
        Ok(value) => Some(Spanned::new(span, value)),
        Err(err) => {
            errors.push(toml_error(&err));
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
pub fn toml_error(err: &toml::de::Error) -> ParseError {
    let mut error = toml_syntax_error(err);
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
