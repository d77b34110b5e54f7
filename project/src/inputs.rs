//! Deployment material: which files are, and the gate settings in them,
//! located (the scanning is `kompat_decls::deploy`'s).

use std::path::Path;

use kompat_decls::deploy::{gate_settings, GateSetting, Material};

use crate::error::{Location, Result};
use crate::load::SourceFile;

/// Whether a file is deployment material kompat reads.
pub fn is_deployment_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
    matches!(ext, "yaml" | "yml" | "sh" | "bash" | "md" | "service" | "env" | "conf")
        || name.starts_with("Dockerfile")
        || name.starts_with("Containerfile")
}

/// Every gate setting in one file, located.
pub fn read_gate_settings(path: &Path) -> Result<Vec<GateSetting<Location>>> {
    Ok(located_gate_settings(&SourceFile::read(path)?))
}

/// Every gate setting in a file already read, located in it.
pub fn located_gate_settings(source: &SourceFile) -> Vec<GateSetting<Location>> {
    let yaml = matches!(source.path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
    let material = if yaml { Material::Yaml } else { Material::Text };
    gate_settings(&source.text, material)
        .into_iter()
        .map(|s| s.map_location(|span| source.locate(span.start, span.end)))
        .collect()
}
