//! Features declared in several maps or files: Kubernetes' tool sorts all it
//! found by name and folds entries of the same name, which must have
//! identical specs (`dedupeFeatureList`).

use std::collections::HashMap;

use kompat_engine::{FeatureDecl, SpecDecl};
use kompat_formats::FeatureFile;
use kompat_span::Span;

use crate::GoFile;

/// Two declarations of one feature whose specs differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub name: String,
    /// The file index and name span of the declaration kept.
    pub first: (usize, Span),
    /// The file index and name span of the conflicting one.
    pub second: (usize, Span),
    /// Kubernetes' message: `multiple conflicting specs found for feature:...`.
    pub message: String,
}

/// Folds the features of `files` (in discovery order): the first declaration
/// of a name is kept, later identical ones are dropped, different ones are
/// conflicts. A feature without a doc comment takes the one of a
/// `featuregate.Feature` constant of that name in any of the files.
pub fn merge(files: &[&GoFile]) -> (Vec<FeatureFile>, Vec<Conflict>) {
    let mut docs: HashMap<&str, &str> = HashMap::new();
    for file in files {
        for constant in &file.constants {
            if let Some(doc) = &constant.doc {
                docs.entry(constant.name.as_str()).or_insert(doc.as_str());
            }
        }
    }
    let mut first: HashMap<&str, (usize, usize)> = HashMap::new();
    let mut conflicts = Vec::new();
    let mut out: Vec<FeatureFile> = Vec::with_capacity(files.len());
    for (idx, file) in files.iter().enumerate() {
        let mut kept = FeatureFile::default();
        for (local, (feature, spans)) in file.features.iter().enumerate() {
            if let Some(&(at_file, at_local)) = first.get(feature.name.as_str()) {
                let earlier = &files[at_file].features;
                let Some((earlier_decl, earlier_spans)) = earlier.iter().nth(at_local) else { continue };
                if earlier_decl.specs != feature.specs {
                    conflicts.push(Conflict {
                        name: feature.name.clone(),
                        first: (at_file, earlier_spans.name),
                        second: (idx, spans.name),
                        message: format!(
                            "multiple conflicting specs found for feature:{}, [\n{}, \n{}]",
                            feature.name,
                            go_specs(&earlier_decl.specs),
                            go_specs(&feature.specs)
                        ),
                    });
                }
                continue;
            }
            first.insert(feature.name.as_str(), (idx, local));
            let mut decl: FeatureDecl = feature.clone();
            if decl.description.is_none() {
                decl.description = docs.get(decl.name.as_str()).map(|d| (*d).to_owned());
            }
            kept.push(decl, spans.clone());
        }
        out.push(kept);
    }
    (out, conflicts)
}

/// Go's `%v` of the tool's `[]featureSpec` (`{Default LockToDefault PreRelease
/// Version}`), with a fifth field when a min-compatibility version is set.
fn go_specs(specs: &[SpecDecl]) -> String {
    let lit = |v: &Option<kompat_runtime::VersionLit>| {
        v.as_ref().map(|v| v.components().iter().map(u32::to_string).collect::<Vec<_>>().join(".")).unwrap_or_default()
    };
    let items: Vec<String> = specs
        .iter()
        .map(|s| {
            let mut item = format!("{{{} {} {} {}", s.default, s.lock_to_default, s.stage.name(), lit(&s.version));
            if s.min_compatibility_version.is_some() {
                item.push(' ');
                item.push_str(&lit(&s.min_compatibility_version));
            }
            item.push('}');
            item
        })
        .collect();
    format!("[{}]", items.join(" "))
}
