//! The API timeline: one section per resource (group/resource), one row per
//! declared version of it (oldest introduction first), one column per release from the earliest
//! introduction to the binary version or the last removal, whichever is
//! later. A cell says whether the version is served, deprecated or removed
//! at that release, and marks the version the API server writes to storage
//! (the engine's `storage_versions` at emulation version R, min-compatibility
//! R−1, as `kompat storage` computes it), at releases where some version of
//! the resource is served.

use kompat_engine::api::{compare_kube_aware, storage_versions, Api, ApiSet};
use kompat_runtime::Version;

use super::timeline::{Band, Cell, LegendEntry, Row, RowGroup, Timeline, Tone};

/// The API timeline of `set` (render it with [`super::render_timeline`]):
/// the band is the emulation window `floor..=binary`.
pub fn api_timeline(set: &ApiSet, binary: Version, floor: Version) -> Timeline {
    let apis = set.apis();
    let first = apis.iter().map(|a| a.lifecycle.introduced).min().unwrap_or(floor).min(floor);
    let last = apis.iter().filter_map(|a| a.lifecycle.removed).max().map_or(binary, |r| r.max(binary));
    let columns = super::release_columns(first, last, floor);
    // The storage decision at each column's release.
    let storage: Vec<Vec<(String, String, String)>> = columns
        .iter()
        .map(|(release, _)| {
            storage_versions(set, *release, release.subtract_minor(1), Some(*release))
                .into_iter()
                .map(|s| (s.group, s.resource, s.storage_version))
                .collect()
        })
        .collect();

    let mut resources = set.resources();
    resources.sort();
    let mut groups = Vec::new();
    for gr in &resources {
        let mut versions: Vec<&Api> =
            apis.iter().filter(|a| a.group() == gr.group && a.resource == gr.resource).collect();
        // Oldest first, so the rows step down like a timeline; ties in
        // Kubernetes' version priority.
        versions.sort_by(|a, b| {
            (a.lifecycle.introduced.cmp(&b.lifecycle.introduced))
                .then_with(|| compare_kube_aware(a.version(), b.version()))
                .then_with(|| a.kind().cmp(b.kind()))
        });
        let heading = match gr.group.as_str() {
            "" => format!("{} (core)", gr.resource),
            group => format!("{}.{group}", gr.resource),
        };
        let rows = versions
            .iter()
            .map(|api| Row {
                label: format!("{} {}", api.version(), api.kind()),
                cells: columns
                    .iter()
                    .zip(&storage)
                    .map(|((release, _), stored)| {
                        // Storage is shown only where the resource exists.
                        let exists =
                            versions.iter().any(|a| a.lifecycle.introduced <= *release && a.served_at(*release));
                        let is_storage = exists
                            && stored.iter().any(|(g, r, v)| *g == gr.group && *r == gr.resource && v == api.version());
                        api_cell(api, *release, is_storage)
                    })
                    .collect(),
            })
            .collect();
        groups.push(RowGroup { heading: Some(heading), rows });
    }

    let position = |v: Version| columns.iter().position(|(c, _)| *c == v);
    let band = match (position(floor), position(binary)) {
        (Some(first), Some(last)) => {
            Some(Band { first, last, caption: format!("emulation window {floor}–{binary}") })
        }
        _ => None,
    };
    let span = match (columns.first(), columns.last()) {
        (Some((_, a)), Some((_, b))) => format!("{a} to {b}"),
        _ => "none".to_owned(),
    };
    Timeline {
        id: "kompat-apis".to_owned(),
        title: format!("API version lifecycles, binary version {binary}"),
        description: format!(
            "One section per resource ({} in all), one row per API version of it, one column per release from \
             {span}. Each cell says whether the version is served (opt-in when not enabled by default), \
             deprecated or removed at that release; the version the API server writes to storage at that release \
             says storage and has a heavy outline. The shaded columns are the emulation window of binary version \
             {binary}: {floor} to {binary}.",
            resources.len()
        ),
        comments: Vec::new(),
        columns: columns.iter().map(|(_, label)| label.clone()).collect(),
        band,
        marked_column: position(binary),
        groups,
        legend: vec![
            legend(Cell::new(Tone::Served, "served"), "served"),
            legend(Cell::new(Tone::Served, "served").note("storage").strong(true), "served, the storage version"),
            legend(Cell::new(Tone::Deprecated, "deprec."), "deprecated, still served"),
            legend(Cell::new(Tone::Removed, "removed"), "no longer served"),
        ],
    }
}

fn legend(sample: Cell, meaning: &str) -> LegendEntry {
    LegendEntry { sample, meaning: meaning.to_owned() }
}

/// One API version at one release.
fn api_cell(api: &Api, release: Version, is_storage: bool) -> Cell {
    let lifecycle = &api.lifecycle;
    let cell = if release < lifecycle.introduced {
        Cell::default()
    } else if lifecycle.removed.is_some_and(|removed| removed == release) {
        Cell::new(Tone::Removed, "removed")
    } else if lifecycle.removed.is_some_and(|removed| removed < release) {
        Cell::default()
    } else if lifecycle.deprecated.is_some_and(|deprecated| deprecated <= release) {
        Cell::new(Tone::Deprecated, "deprec.").dashed(!api.enabled_by_default)
    } else if api.enabled_by_default {
        Cell::new(Tone::Served, "served")
    } else {
        Cell::new(Tone::Served, "opt-in").dashed(true)
    };
    if is_storage && cell.tone != Tone::Empty {
        cell.note("storage").strong(true)
    } else if is_storage {
        // Stored in a version not served at this release (an override or the
        // group fallback): say so all the same.
        Cell::new(Tone::Neutral, "-").note("storage").strong(true)
    } else {
        cell
    }
}
