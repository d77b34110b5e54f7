//! One parse of a kompat TOML declaration file: `[[feature]]`,
//! `[[stored_before_written]]`, and the API configuration (`[[api]]`,
//! `[groups]`, `[storage_overrides]`), with every error of every part
//! reported, each with its span.

use toml::de::DeTable;

use crate::api_toml::{parse_apis, parse_groups, parse_overrides, ApiFile};
use crate::features_toml::{parse_features, parse_stored, toml_error};
use crate::span::{unknown_key_message, ParseError};
use crate::DeclFile;

/// The top-level keys of a kompat TOML declaration file.
pub const TOP_LEVEL_KEYS: [&str; 5] = ["feature", "api", "groups", "storage_overrides", "stored_before_written"];

/// Parses a kompat TOML declaration file: features, stored-before-written
/// entries and APIs. Every problem found is reported. A file of features in
/// the shape `kompat export --format toml` writes is read by a fast path
/// (`toml_fast.rs`) with the same result; anything else, and every
/// error, goes through the `toml` crate.
pub fn parse_toml(text: &str) -> Result<DeclFile, Vec<ParseError>> {
    match crate::toml_fast::parse(text) {
        Some(file) => Ok(file),
        None => parse_toml_general(text),
    }
}

/// [`parse_toml`] through the `toml` crate's document tree: every file, every
/// error. Public for the fuzz target that checks the fast path against it;
/// not part of the API.
#[doc(hidden)]
pub fn parse_toml_general(text: &str) -> Result<DeclFile, Vec<ParseError>> {
    let mut root = DeTable::parse(text).map_err(|err| vec![toml_error(text, &err)])?.into_inner();
    let mut errors = Vec::new();
    for (key, _) in root.iter() {
        if !TOP_LEVEL_KEYS.contains(&key.get_ref().as_ref()) {
            errors.push(ParseError::at(key.span().into(), unknown_key_message(key.get_ref(), &TOP_LEVEL_KEYS)));
        }
    }
    let mut file = DeclFile::default();
    if let Some(value) = root.remove("feature") {
        file.features = parse_features(text, value, &mut errors);
    }
    if let Some(value) = root.get("stored_before_written") {
        file.stored_before_written = parse_stored(value, &mut errors);
    }
    let mut apis = ApiFile::default();
    if let Some(value) = root.get("api") {
        parse_apis(value, &mut apis, &mut errors);
    }
    if let Some(value) = root.get("groups") {
        parse_groups(value, &mut apis, &mut errors);
    }
    if let Some(value) = root.get("storage_overrides") {
        parse_overrides(value, &mut apis, &mut errors);
    }
    file.apis = apis;
    if errors.is_empty() {
        Ok(file)
    } else {
        Err(errors)
    }
}
