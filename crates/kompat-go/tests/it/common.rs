//! What the Go reader's tests print of its results: features one per
//! separator, each with its specs, and errors as `line:col: message`.

use kompat_formats::{FeatureFile, ParseError};
use kompat_span::LineIndex;

/// `Name[description]: version stage default locked; ...` per feature,
/// joined by `separator`.
pub fn features(file: &FeatureFile, separator: &str) -> String {
    file.features()
        .iter()
        .map(|f| {
            let specs: Vec<String> = f
                .specs
                .iter()
                .map(|s| {
                    let v = s.version.as_ref().map_or("-".to_owned(), |v| {
                        v.components().iter().map(u32::to_string).collect::<Vec<_>>().join(".")
                    });
                    format!("{v} {} {} {}", s.stage, s.default, s.lock_to_default)
                })
                .collect();
            let doc = f.description.as_ref().map(|d| format!("[{d}]")).unwrap_or_default();
            format!("{}{doc}: {}", f.name, specs.join("; "))
        })
        .collect::<Vec<_>>()
        .join(separator)
}

/// The errors of `text`, one `line:col: message` a line.
pub fn errors(text: &str, errors: &[ParseError]) -> String {
    let lines = LineIndex::new(text);
    errors.iter().map(|e| e.located(&lines)).collect::<Vec<_>>().join("\n")
}
