//! A renderer's standard output (`helm template`, `kustomize build`):
//! split into documents, each traced through its `# Source:` line to a
//! file of the chart, and spans mapped back into it. No panic, no more
//! documents than lines nor more text than the output, no file read outside
//! the chart (here a directory that does not exist: nothing may be read at
//! all), every mapped span inside its origin.
#![no_main]

use kompat_project::render::{helm_documents, map_span, split_documents};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let docs = split_documents(text);
    assert!(docs.len() <= text.matches('\n').count() + 1);
    assert!(docs.iter().map(String::len).sum::<usize>() <= text.len());
    let chart = std::path::Path::new("/nonexistent/kompat-fuzz-chart");
    for doc in helm_documents(chart, text) {
        assert!(doc.origin.is_none(), "read {:?}", doc.origin.map(|o| o.path));
    }
    // Spans of the output mapped into the output itself as the origin.
    if let Some(first) = docs.first() {
        let ends: Vec<usize> = first.char_indices().map(|(i, _)| i).step_by(7).chain([first.len()]).collect();
        for pair in ends.windows(2) {
            if let Some(range) = map_span(first, pair[0]..pair[1], text) {
                assert!(range.start <= range.end && range.end <= text.len());
            }
        }
    }
});
