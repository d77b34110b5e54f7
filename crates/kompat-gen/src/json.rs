//! The JSON output: the declarations as declared plus every resolved table,
//! for tools that do not link kompat. The schema is documented in
//! `docs/gen.md`; object keys come in a fixed order, arrays sorted by name.

use kompat_engine::{FeatureDecl, SpecDecl};
use kompat_runtime::VersionLit;
use serde::Serialize;

use crate::model::Model;
use crate::Provenance;

#[derive(Serialize)]
struct Document<'a> {
    #[serde(rename = "@generated")]
    generated: String,
    inputs_sha256: &'a str,
    binary_version: String,
    window: Window,
    features: Vec<Feature<'a>>,
    tables: Vec<Table<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    apis: Option<Apis<'a>>,
}

#[derive(Serialize)]
struct Apis<'a> {
    served: Vec<Served>,
    storage: Vec<Storage<'a>>,
}

#[derive(Serialize)]
struct Served {
    emulation: String,
    group_versions: Vec<String>,
}

#[derive(Serialize)]
struct Storage<'a> {
    emulation: String,
    min_compatibility: String,
    resources: Vec<StorageEntry<'a>>,
}

/// As `kompat storage --format json` prints it.
#[derive(Serialize)]
struct StorageEntry<'a> {
    group: &'a str,
    resource: &'a str,
    kind: &'a str,
    storage_version: String,
    hash: &'a str,
}

#[derive(Serialize)]
struct Window {
    floor: String,
    emulation_versions: Vec<String>,
}

/// A declaration as declared; borrowed, so that the canonical form of every
/// declaration (the input digest) is written without copies.
#[derive(Serialize)]
struct Feature<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    dependencies: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    ratchet: Option<Ratchet>,
    specs: Specs<'a>,
}

/// A declaration's specs, each serialized as a [`Spec`].
struct Specs<'a>(&'a [SpecDecl]);

impl Serialize for Specs<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(spec))
    }
}

#[derive(Serialize)]
struct Ratchet {
    tolerated_since: String,
}

/// A spec as declared, keys as in Kubernetes' YAML.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Spec<'a> {
    #[serde(serialize_with = "display")]
    version: Option<&'a VersionLit>,
    stage: &'static str,
    default: bool,
    lock_to_default: bool,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "display")]
    min_compatibility_version: Option<&'a VersionLit>,
}

/// A version as the string its `Display` writes (written in place, the same
/// bytes as the string), or `null`.
fn display<S: serde::Serializer>(version: &Option<&VersionLit>, serializer: S) -> Result<S::Ok, S::Error> {
    match version {
        Some(version) => serializer.collect_str(version),
        None => serializer.serialize_none(),
    }
}

#[derive(Serialize)]
struct Table<'a> {
    emulation: String,
    min_compatibility: String,
    features: Vec<Resolved<'a>>,
}

#[derive(Serialize)]
struct Resolved<'a> {
    name: &'a str,
    stage: &'static str,
    default: bool,
    locked: bool,
}

/// Renders the JSON document: pretty-printed, two-space indent, `\n` line
/// ends, a final newline. An error (serde_json's, which plain structs of
/// strings and booleans never give) is reported, never written as an empty
/// file.
pub fn render_json(model: &Model, provenance: &Provenance) -> Result<String, String> {
    let doc = Document {
        generated: format!("by {}; do not edit by hand", provenance.command),
        inputs_sha256: &model.digest,
        binary_version: model.binary_version.to_string(),
        window: Window {
            floor: model.floor().to_string(),
            emulation_versions: model.emulation_versions().iter().map(ToString::to_string).collect(),
        },
        features: model.decls.iter().map(feature).collect(),
        tables: model
            .tables
            .iter()
            .map(|t| Table {
                emulation: t.emulation.to_string(),
                min_compatibility: t.min_compatibility.to_string(),
                features: model
                    .features
                    .iter()
                    .zip(&t.specs)
                    .map(|(f, s)| Resolved {
                        name: &f.name,
                        stage: s.stage.name(),
                        default: s.default,
                        locked: s.lock_to_default,
                    })
                    .collect(),
            })
            .collect(),
        apis: model.apis.as_ref().map(|apis| Apis {
            served: apis
                .served
                .iter()
                .map(|(emulation, gvs)| Served {
                    emulation: emulation.to_string(),
                    group_versions: gvs.iter().map(ToString::to_string).collect(),
                })
                .collect(),
            storage: apis
                .storage
                .iter()
                .map(|t| Storage {
                    emulation: t.emulation.to_string(),
                    min_compatibility: t.min_compatibility.to_string(),
                    resources: t
                        .resources
                        .iter()
                        .map(|r| StorageEntry {
                            group: &r.group,
                            resource: &r.resource,
                            kind: &r.kind,
                            storage_version: r.encoding_version(),
                            hash: &r.hash,
                        })
                        .collect(),
                })
                .collect(),
        }),
    };
    let mut text = serde_json::to_string_pretty(&doc).map_err(|e| format!("cannot render the JSON output: {e}"))?;
    text.push('\n');
    Ok(text)
}

fn feature(decl: &FeatureDecl) -> Feature<'_> {
    Feature {
        name: &decl.name,
        description: decl.description.as_deref(),
        dependencies: &decl.dependencies,
        ratchet: decl.ratchet.map(|r| Ratchet { tolerated_since: r.tolerated_since.to_string() }),
        specs: Specs(&decl.specs),
    }
}

fn spec(spec: &SpecDecl) -> Spec<'_> {
    Spec {
        version: spec.version.as_ref(),
        stage: spec.stage.name(),
        default: spec.default,
        lock_to_default: spec.lock_to_default,
        min_compatibility_version: spec.min_compatibility_version.as_ref(),
    }
}

#[cfg(test)]
mod tests {
    use kompat_engine::{FeatureDecl, SpecDecl};
    use kompat_runtime::{Ratchet, Stage, Version, VersionLit};

    use super::feature;
    use crate::canonical::write_canonical_decl;

    /// The direct writer against serde_json on `decl`.
    fn check(decl: &FeatureDecl) {
        let mut direct = Vec::new();
        write_canonical_decl(&mut direct, decl);
        let serde = serde_json::to_vec(&feature(decl)).expect("a declaration serializes");
        assert_eq!(String::from_utf8_lossy(&direct), String::from_utf8_lossy(&serde), "{decl:?}");
    }

    #[test]
    fn canonical_json_is_serde_jsons() {
        let lit = |s: &str| VersionLit::parse(s).ok();
        let spec = |version: Option<VersionLit>, stage, mcv: Option<VersionLit>| SpecDecl {
            version,
            default: stage == Stage::GA,
            lock_to_default: stage == Stage::Deprecated,
            stage,
            min_compatibility_version: mcv,
        };
        let every_ascii: String = (0u8..=0x7f).map(char::from).collect();
        let names = ["WatchList", "", "quote\"backslash\\", &every_ascii, "é ü 日本 \u{2028} \u{1F600}"];
        for (idx, name) in names.into_iter().enumerate() {
            let mut decl = FeatureDecl {
                name: name.to_owned(),
                specs: vec![
                    spec(lit("1.8"), Stage::Alpha, None),
                    spec(None, Stage::Beta, None),
                    spec(lit("1.31.2"), Stage::GA, lit("1.30")),
                    spec(lit("2.0"), Stage::Deprecated, None),
                    spec(lit("4294967295.10.0.7"), Stage::GA, lit("0.1000000000")),
                ],
                dependencies: vec![name.to_owned(), "B".to_owned()],
                description: Some(format!("{name}\n{name}")),
                ratchet: Some(Ratchet { tolerated_since: Version::new(idx as u32 * 10, u32::MAX - idx as u32) }),
            };
            check(&decl);
            decl.description = None;
            decl.ratchet = None;
            check(&decl);
            decl.specs.clear();
            decl.dependencies.clear();
            check(&decl);
        }
    }

    #[test]
    fn canonical_json_of_kubernetes_list() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../kompat-k8s/data/features.toml");
        let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"));
        let file = kompat_formats::parse_toml(&text).unwrap_or_else(|err| panic!("{path}: {err:?}"));
        assert!(file.features.len() > 200);
        for decl in file.features.features() {
            check(decl);
        }
    }
}
