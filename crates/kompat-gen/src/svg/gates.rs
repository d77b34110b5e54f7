//! The gate timeline: one row per feature gate, one column per release from
//! the earliest spec to the binary version (or the last spec, if later),
//! each cell the gate as resolved at that release (`spec_at`, min-compatibility
//! one minor below), the emulation window of the binary version shaded.

use kompat_runtime::{FeatureSpec, Stage, Version};

use super::timeline::{Band, Cell, LegendEntry, Row, RowGroup, Timeline, Tone};

/// What a gate timeline shows.
#[derive(Debug, Clone, Copy)]
pub struct GateTimeline<'a> {
    /// Each gate's name and specs (sorted by version, as registered); drawn
    /// in byte order of the names.
    pub gates: &'a [(&'a str, &'a [FeatureSpec])],
    /// The binary version: the columns reach at least to it.
    pub binary: Version,
    /// The lowest emulation version of the binary's window: the band runs
    /// from it to the binary version.
    pub floor: Version,
    /// The release whose heading is emphasised (the binary version, or the
    /// emulation version `kompat features` resolved at).
    pub marked: Version,
}

/// The gate timeline as a [`Timeline`] (render it with
/// [`super::render_timeline`]).
pub fn gate_timeline(input: &GateTimeline<'_>) -> Timeline {
    let mut gates: Vec<(&str, &[FeatureSpec])> = input.gates.to_vec();
    gates.sort_by(|a, b| a.0.cmp(b.0));
    let first = gates.iter().filter_map(|(_, specs)| specs.iter().map(|s| s.version).min()).min();
    let last_spec = gates.iter().filter_map(|(_, specs)| specs.iter().map(|s| s.version).max()).max();
    let first = first.unwrap_or(input.floor).min(input.floor);
    let last = last_spec.map_or(input.binary, |l| l.max(input.binary)).max(input.marked);
    let columns = super::release_columns(first, last, input.floor);

    let rows = gates
        .iter()
        .map(|(name, specs)| Row {
            label: (*name).to_owned(),
            cells: columns
                .iter()
                .map(|(release, _)| gate_cell(&kompat_runtime::spec_at(specs, *release, None)))
                .collect(),
        })
        .collect();
    let position = |v: Version| columns.iter().position(|(c, _)| *c == v);
    let band = match (position(input.floor), position(input.binary)) {
        (Some(first), Some(last)) => {
            Some(Band { first, last, caption: format!("emulation window {}–{}", input.floor, input.binary) })
        }
        _ => None,
    };
    let span = match (columns.first(), columns.last()) {
        (Some((_, a)), Some((_, b))) => format!("{a} to {b}"),
        _ => "none".to_owned(),
    };
    Timeline {
        id: "kompat-gates".to_owned(),
        title: format!("Feature gate lifecycles, binary version {}", input.binary),
        description: format!(
            "One row per feature gate ({} in all), one column per release from {span}. Each cell names the gate's \
             stage at that release (α alpha, β beta, GA, dep deprecated) and its default (on or off; off is also \
             drawn with a dashed outline); a gate locked to its default says locked. Empty cells: the gate does not \
             exist yet. The shaded columns are the emulation window of binary version {}: {} to {}.",
            gates.len(),
            input.binary,
            input.floor,
            input.binary
        ),
        comments: Vec::new(),
        columns: columns.iter().map(|(_, label)| label.clone()).collect(),
        band,
        marked_column: position(input.marked),
        groups: vec![RowGroup { heading: None, rows }],
        legend: vec![
            legend(Cell::new(Tone::Alpha, "α off").dashed(true), "alpha, off by default"),
            legend(Cell::new(Tone::Beta, "β on"), "beta, on by default"),
            legend(Cell::new(Tone::Ga, "GA on").note("locked"), "GA, locked to its default"),
            legend(Cell::new(Tone::Deprecated, "dep off").dashed(true), "deprecated"),
        ],
    }
}

fn legend(sample: Cell, meaning: &str) -> LegendEntry {
    LegendEntry { sample, meaning: meaning.to_owned() }
}

/// One resolved spec as a cell: stage and default as text and colour.
pub fn gate_cell(spec: &FeatureSpec) -> Cell {
    let (tone, stage) = match spec.stage {
        Stage::PreAlpha => return Cell::default(),
        Stage::Alpha => (Tone::Alpha, "α"),
        Stage::Beta => (Tone::Beta, "β"),
        Stage::GA => (Tone::Ga, "GA"),
        Stage::Deprecated => (Tone::Deprecated, "dep"),
    };
    let default = if spec.default { "on" } else { "off" };
    let cell = Cell::new(tone, format!("{stage} {default}")).dashed(!spec.default);
    if spec.lock_to_default {
        cell.note("locked")
    } else {
        cell
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(stage: Stage, default: bool, locked: bool) -> FeatureSpec {
        FeatureSpec {
            version: Version::new(1, 30),
            default,
            lock_to_default: locked,
            stage,
            min_compatibility_version: None,
        }
    }

    fn check(spec: FeatureSpec, text: &str, note: &str, dashed: bool) {
        let cell = gate_cell(&spec);
        assert_eq!((cell.text.as_str(), cell.note.as_str(), cell.dashed), (text, note, dashed), "{spec:?}");
    }

    #[test]
    fn cells_say_stage_default_and_lock_in_words() {
        check(spec(Stage::Alpha, false, false), "α off", "", true);
        check(spec(Stage::Alpha, true, false), "α on", "", false);
        check(spec(Stage::Beta, true, false), "β on", "", false);
        check(spec(Stage::Beta, false, false), "β off", "", true);
        check(spec(Stage::GA, true, true), "GA on", "locked", false);
        check(spec(Stage::GA, true, false), "GA on", "", false);
        check(spec(Stage::Deprecated, false, true), "dep off", "locked", true);
        check(spec(Stage::PreAlpha, false, false), "", "", false);
    }
}
