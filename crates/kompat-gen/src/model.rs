//! What every renderer renders from: the validated declarations, one per
//! feature name in byte order, the version window, and the resolved tables
//! (one per emulation version and min-compatibility step in the window).
//!
//! **Invariant:** a [`Model`] is a pure function of its inputs' *content*:
//! the order in which declarations were given does not show in it.

use std::collections::HashMap;

use kompat_engine::api::{served_apis, storage_versions, ApiConfig, ApiSet, ResourceStorage, ServeOptions};
use kompat_engine::{validate, FeatureDecl};
use kompat_runtime::GroupVersion;
use kompat_runtime::{FeatureSet, FeatureSpec, Version, WindowPolicy};
use sha2::{Digest, Sha256};

use crate::canonical;

/// The declarations and window one generation run renders.
#[derive(Debug, Clone)]
pub struct Model {
    pub binary_version: Version,
    pub window: WindowPolicy,
    /// One declaration per feature name, sorted by name (byte order).
    pub decls: Vec<FeatureDecl>,
    /// The validated features, in the order of `decls`.
    pub features: Vec<ModelFeature>,
    /// Resolved tables, by emulation version then min-compatibility step.
    pub tables: Vec<Table>,
    /// API declarations resolved in the window, when there are any.
    pub apis: Option<ApiModel>,
    /// sha256 (lowercase hex) of the canonical form of the inputs.
    pub digest: String,
}

/// API declarations resolved at every version of the window.
#[derive(Debug, Clone)]
pub struct ApiModel {
    pub set: ApiSet,
    /// The group-versions served at each emulation version (default
    /// `--runtime-config`), sorted; one entry per emulation version.
    pub served: Vec<(Version, Vec<GroupVersion>)>,
    /// Storage versions at every (emulation, min-compatibility) pair of the
    /// window, by emulation then min-compatibility version.
    pub storage: Vec<StorageTable>,
}

/// Every resource's storage decision at one (emulation, min-compatibility).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorageTable {
    pub emulation: Version,
    pub min_compatibility: Version,
    /// Sorted by group, then resource.
    pub resources: Vec<ResourceStorage>,
}

/// A validated feature with its completed specs (inherited
/// min-compatibility versions filled in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelFeature {
    pub name: String,
    pub specs: Vec<FeatureSpec>,
    /// Dependency names, byte order, without repeats.
    pub dependencies: Vec<String>,
}

/// Every feature resolved at one emulation version, valid for the
/// min-compatibility versions from `min_compatibility` up to (excluding) the
/// next table's of the same emulation version, or up to the emulation version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub emulation: Version,
    pub min_compatibility: Version,
    /// One resolved spec per feature, in the order of [`Model::features`].
    pub specs: Vec<FeatureSpec>,
}

impl Model {
    /// Validates `decls` (Kubernetes' registration rules) and resolves them in
    /// the window of `binary_version`. A name declared more than once must
    /// have identical specs, as Kubernetes requires; of such repeats the
    /// canonically smallest declaration is kept, so the input order never
    /// matters. Errors are the registration messages, in declaration order.
    pub fn new(decls: &[FeatureDecl], binary_version: Version, window: WindowPolicy) -> Result<Model, Vec<String>> {
        let validated = validate(decls);
        let errors: Vec<String> =
            validated.problems.iter().filter(|p| p.kind.is_registration()).map(|p| p.message.clone()).collect();
        if !errors.is_empty() {
            return Err(errors);
        }
        Model::from_validated(decls, &validated.set, binary_version, window)
    }

    /// [`Model::new`] for declarations already validated: `set` is what
    /// validating `decls` registered (`kompat_engine::validate(decls).set`, or
    /// that of a list with the same names and specs), with no registration
    /// problem. A command that has validated its declarations (to locate the
    /// problems in their files) builds its model with that set instead of
    /// validating them again.
    pub fn from_validated(
        decls: &[FeatureDecl],
        set: &FeatureSet,
        binary_version: Version,
        window: WindowPolicy,
    ) -> Result<Model, Vec<String>> {
        // The canonical form decides only between repeats of a name, so it
        // is computed only for those.
        let mut chosen: Vec<&FeatureDecl> = Vec::with_capacity(decls.len());
        let mut slots: HashMap<&str, usize> = HashMap::with_capacity(decls.len());
        for decl in decls {
            match slots.get(decl.name.as_str()) {
                Some(&slot) => {
                    if canonical::canonical_decl(decl) < canonical::canonical_decl(chosen[slot]) {
                        chosen[slot] = decl;
                    }
                }
                None => {
                    slots.insert(&decl.name, chosen.len());
                    chosen.push(decl);
                }
            }
        }
        let mut decls: Vec<FeatureDecl> = chosen.into_iter().map(normalized).collect();
        decls.sort_by(|a, b| a.name.cmp(&b.name));

        let mut features = Vec::with_capacity(decls.len());
        for decl in &decls {
            let Some(feature) = set.get(&decl.name) else {
                return Err(vec![format!("feature {} did not register", decl.name)]);
            };
            features.push(ModelFeature {
                name: feature.name.clone(),
                specs: feature.specs.clone(),
                dependencies: decl.dependencies.clone(),
            });
        }

        let tables = resolve_tables(&features, binary_version, window);
        let digest = digest(&decls, binary_version, window);
        Ok(Model { binary_version, window, decls, features, tables, apis: None, digest })
    }

    /// Adds API declarations: validates them, and resolves the served
    /// group-versions and storage versions across the window. An empty
    /// declaration set adds nothing. Errors are the validation and serving
    /// messages.
    pub fn with_apis(mut self, config: &ApiConfig) -> Result<Model, Vec<String>> {
        if config.apis.is_empty() && config.priorities.is_empty() && config.storage_overrides.is_empty() {
            return Ok(self);
        }
        let set =
            ApiSet::build(config).map_err(|problems| problems.iter().map(ToString::to_string).collect::<Vec<_>>())?;
        let binary = self.binary_version;
        let mut served = Vec::new();
        let mut storage = Vec::new();
        for emulation in self.emulation_versions() {
            let mut opts = ServeOptions::new(emulation);
            opts.binary = Some(binary);
            let resources = served_apis(&set, &opts).map_err(|err| err.messages)?.resources;
            let mut group_versions: Vec<GroupVersion> = resources.iter().map(|r| r.group_version()).collect();
            group_versions.sort();
            group_versions.dedup();
            served.push((emulation, group_versions));
            for min_compatibility in self.floor().range_to(emulation) {
                let resources = storage_versions(&set, emulation, min_compatibility, Some(binary));
                storage.push(StorageTable { emulation, min_compatibility, resources });
            }
        }
        self.digest = digest_with_apis(&self.digest, config);
        self.apis = Some(ApiModel { set, served, storage });
        Ok(self)
    }

    /// The lowest emulation and min-compatibility version of the window.
    pub fn floor(&self) -> Version {
        self.window.floor_for(self.binary_version)
    }

    /// Every emulation version of the window, oldest first.
    pub fn emulation_versions(&self) -> Vec<Version> {
        self.window.emulation_versions(self.binary_version)
    }
}

/// The declaration as rendered: dependencies sorted and without repeats
/// (their order carries no meaning).
fn normalized(decl: &FeatureDecl) -> FeatureDecl {
    let mut decl = decl.clone();
    decl.dependencies.sort();
    decl.dependencies.dedup();
    decl
}

/// For each emulation version E of the window: a table at the floor, plus one
/// at every min-compatibility version m with floor < m <= E that some spec
/// at or below E requires (where the resolution can change).
fn resolve_tables(features: &[ModelFeature], binary: Version, window: WindowPolicy) -> Vec<Table> {
    let floor = window.floor_for(binary);
    let mut tables = Vec::new();
    for emulation in window.emulation_versions(binary) {
        let mut steps = vec![floor];
        for feature in features {
            for spec in &feature.specs {
                if let Some(mcv) = spec.min_compatibility_version {
                    if spec.version <= emulation && floor < mcv && mcv <= emulation {
                        steps.push(mcv);
                    }
                }
            }
        }
        steps.sort();
        steps.dedup();
        for min_compatibility in steps {
            let specs = features
                .iter()
                .map(|f| kompat_runtime::spec_at(&f.specs, emulation, Some(min_compatibility)))
                .collect();
            tables.push(Table { emulation, min_compatibility, specs });
        }
    }
    tables
}

/// sha256 of `kompat-gen inputs v1`, the window and the canonical JSON of the
/// declarations, one per line.
fn digest(decls: &[FeatureDecl], binary: Version, window: WindowPolicy) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"kompat-gen inputs v1\n");
    let floor = window.floor.map_or_else(|| "none".to_owned(), |v| v.to_string());
    hasher.update(format!("binary_version {binary}\nwindow skew {} floor {floor}\n", window.skew).as_bytes());
    // One buffer, hashed at once: the same bytes as hashing each line.
    let mut lines = Vec::with_capacity(decls.len() * 160);
    for decl in decls {
        canonical::write_canonical_decl(&mut lines, decl);
        lines.push(b'\n');
    }
    hasher.update(&lines);
    hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The feature digest extended with the API declarations, canonically: one
/// line per declaration (sorted), then priorities and overrides (sorted maps).
fn digest_with_apis(features_digest: &str, config: &ApiConfig) -> String {
    let opt = |v: Option<Version>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
    let mut lines: Vec<String> = config
        .apis
        .iter()
        .map(|a| {
            format!(
                "api {:?} {:?} {:?} {:?} {} {} {} {:?} {:?}",
                a.group,
                a.version,
                a.kind,
                a.resource,
                opt(a.introduced),
                opt(a.deprecated),
                opt(a.removed),
                a.replacement,
                a.enabled_by_default
            )
        })
        .collect();
    lines.sort();
    for (group, versions) in &config.priorities {
        lines.push(format!("priority {group:?} {versions:?}"));
    }
    for (resource, version) in &config.storage_overrides {
        lines.push(format!("override {resource:?} {version:?}"));
    }
    let mut hasher = Sha256::new();
    hasher.update(format!("kompat-gen inputs v1 with apis\n{features_digest}\n").as_bytes());
    for line in lines {
        hasher.update(line.as_bytes());
        hasher.update(b"\n");
    }
    hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
