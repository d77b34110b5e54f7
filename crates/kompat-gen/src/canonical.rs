//! The canonical form of a declaration: compact JSON, byte for byte what the
//! JSON output writes for it, written directly. The input digest and the
//! choice among repeated declarations ([`crate::model`]) are based on it; the
//! JSON output ([`crate::json`]) tests that the two agree.

use kompat_engine::FeatureDecl;
use kompat_runtime::VersionLit;

/// One declaration as compact JSON: the canonical form the input digest and
/// the choice among repeated declarations are based on.
pub(crate) fn canonical_decl(decl: &FeatureDecl) -> String {
    let mut out = Vec::new();
    write_canonical_decl(&mut out, decl);
    // Written from `str`s and serde_json's escapes only, so valid UTF-8: the
    // conversion is lossless.
    String::from_utf8_lossy(&out).into_owned()
}

/// [`canonical_decl`], appended to `out`: written directly, byte for byte
/// what serde_json writes for the declaration in the JSON output (the JSON
/// output's tests compare the two), without serde's per-field dispatch: the digest writes one for
/// every declaration.
pub(crate) fn write_canonical_decl(out: &mut Vec<u8>, decl: &FeatureDecl) {
    out.extend_from_slice(b"{\"name\":");
    json_str(out, &decl.name);
    if let Some(description) = &decl.description {
        out.extend_from_slice(b",\"description\":");
        json_str(out, description);
    }
    out.extend_from_slice(b",\"dependencies\":[");
    for (idx, dependency) in decl.dependencies.iter().enumerate() {
        if idx > 0 {
            out.push(b',');
        }
        json_str(out, dependency);
    }
    out.push(b']');
    // Versions are digits and dots: nothing to escape.
    if let Some(ratchet) = decl.ratchet {
        out.extend_from_slice(b",\"ratchet\":{\"tolerated_since\":\"");
        number(out, ratchet.tolerated_since.major);
        out.push(b'.');
        number(out, ratchet.tolerated_since.minor);
        out.extend_from_slice(b"\"}");
    }
    out.extend_from_slice(b",\"specs\":[");
    for (idx, spec) in decl.specs.iter().enumerate() {
        if idx > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"version\":");
        match &spec.version {
            Some(version) => version_str(out, version),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"stage\":");
        json_str(out, spec.stage.name());
        out.extend_from_slice(b",\"default\":");
        out.extend_from_slice(if spec.default { b"true" } else { b"false" });
        out.extend_from_slice(b",\"lockToDefault\":");
        out.extend_from_slice(if spec.lock_to_default { b"true" } else { b"false" });
        if let Some(mcv) = &spec.min_compatibility_version {
            out.extend_from_slice(b",\"minCompatibilityVersion\":");
            version_str(out, mcv);
        }
        out.push(b'}');
    }
    out.extend_from_slice(b"]}");
}

/// A version literal as the JSON string of its `Display`: components joined
/// by dots.
fn version_str(out: &mut Vec<u8>, version: &VersionLit) {
    out.push(b'"');
    for (idx, component) in version.components().iter().enumerate() {
        if idx > 0 {
            out.push(b'.');
        }
        number(out, *component);
    }
    out.push(b'"');
}

/// A number in decimal, as `Display` (and serde_json) writes it.
fn number(out: &mut Vec<u8>, value: u32) {
    // Writing into a `Vec` cannot fail.
    let _ = serde_json::to_writer(out, &value);
}

/// A JSON string, escaped by serde_json itself.
fn json_str(out: &mut Vec<u8>, value: &str) {
    // Writing a string into a `Vec` cannot fail.
    let _ = serde_json::to_writer(out, value);
}
