//! The timeline picture: a grid of labelled rows against labelled columns
//! (releases, or a plan's steps), each cell coloured by a [`Tone`] *and*
//! carrying its meaning as text, so it reads without colour too.
//!
//! [`render_timeline`] is a pure function from a [`Timeline`] to SVG text;
//! the gate, API and plan pictures are built as `Timeline`s and rendered by
//! it, and so can any other (a diff between two releases, say).
//!
//! **Determinism:** every coordinate is an integer computed from character
//! counts (the text uses fixed monospace fonts and sizes), nothing depends
//! on the machine, and rows, groups and columns are drawn in the order given.
//! Colours come from an embedded stylesheet with a `prefers-color-scheme:
//! dark` variant, over a painted background, so the picture reads in light
//! and dark themes.

use crate::svg::writer::Writer;

/// A whole picture.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Timeline {
    /// A prefix for the document's element ids (`<title>`, `<desc>`), so
    /// several pictures can share one page: letters, digits and `-`.
    pub id: String,
    /// The accessible title (`<title>`), also drawn as the heading.
    pub title: String,
    /// The accessible description (`<desc>`): what the picture shows, in
    /// words.
    pub description: String,
    /// Comment lines written before the `<svg>` element (an `@generated`
    /// header, say).
    pub comments: Vec<String>,
    /// The column headings, left to right.
    pub columns: Vec<String>,
    /// Columns shaded as a band behind the cells, with a caption above them.
    pub band: Option<Band>,
    /// A column whose heading is emphasised (the binary version, say).
    pub marked_column: Option<usize>,
    pub groups: Vec<RowGroup>,
    /// What the tones and marks mean, drawn under the grid.
    pub legend: Vec<LegendEntry>,
}

/// Shaded columns `first..=last`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Band {
    pub first: usize,
    pub last: usize,
    pub caption: String,
}

/// Rows under an optional heading.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RowGroup {
    pub heading: Option<String>,
    pub rows: Vec<Row>,
}

/// One row: its label and one cell per column (missing cells are empty).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Row {
    pub label: String,
    pub cells: Vec<Cell>,
}

/// One cell: a tone, a main label and an optional second line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Cell {
    pub tone: Tone,
    pub text: String,
    /// A second, smaller line (`locked`, `storage`), empty for none.
    pub note: String,
    /// Drawn with a dashed outline (off by default, say).
    pub dashed: bool,
    /// Drawn with a heavy outline (the storage version, say).
    pub strong: bool,
}

impl Cell {
    pub fn new(tone: Tone, text: impl Into<String>) -> Cell {
        Cell { tone, text: text.into(), ..Cell::default() }
    }

    pub fn note(mut self, note: impl Into<String>) -> Cell {
        self.note = note.into();
        self
    }

    pub fn dashed(mut self, dashed: bool) -> Cell {
        self.dashed = dashed;
        self
    }

    pub fn strong(mut self, strong: bool) -> Cell {
        self.strong = strong;
        self
    }
}

/// A cell's colour, by meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tone {
    /// No box at all.
    #[default]
    Empty,
    Alpha,
    Beta,
    Ga,
    Deprecated,
    Removed,
    Served,
    Highlight,
    Neutral,
    Safe,
    Unsafe,
}

impl Tone {
    fn class(self) -> &'static str {
        match self {
            Tone::Empty => "",
            Tone::Alpha => "t-alpha",
            Tone::Beta => "t-beta",
            Tone::Ga => "t-ga",
            Tone::Deprecated => "t-deprecated",
            Tone::Removed => "t-removed",
            Tone::Served => "t-served",
            Tone::Highlight => "t-highlight",
            Tone::Neutral => "t-neutral",
            Tone::Safe => "t-safe",
            Tone::Unsafe => "t-unsafe",
        }
    }
}

/// A legend item: a sample cell and what it means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegendEntry {
    pub sample: Cell,
    pub meaning: String,
}

/// Fills and text colours, light then dark.
const STYLE: &str = "\
text { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; fill: #1f2328; }
.bg { fill: #ffffff; }
.band { fill: #efeafc; }
.grid { stroke: #d0d7de; stroke-width: 1; }
.title { font-size: 16px; font-weight: bold; }
.caption { font-size: 11px; fill: #57606a; }
.heading { font-size: 13px; font-weight: bold; }
.col { font-size: 12px; }
.col-marked { font-size: 12px; font-weight: bold; text-decoration: underline; }
.label { font-size: 12px; }
.cell { font-size: 11px; }
.note { font-size: 9px; }
.box { stroke: #57606a; stroke-width: 1; }
.dashed { stroke-dasharray: 4 3; }
.strong { stroke: #1f2328; stroke-width: 3; }
.t-alpha { fill: #ffd8a8; }
.t-beta { fill: #a5d8ff; }
.t-ga { fill: #b2f2bb; }
.t-deprecated { fill: #e5dbff; }
.t-removed { fill: #dee2e6; }
.t-served { fill: #96f2d7; }
.t-highlight { fill: #ffec99; }
.t-neutral { fill: #f1f3f5; }
.t-safe { fill: #b2f2bb; }
.t-unsafe { fill: #ffc9c9; }
@media (prefers-color-scheme: dark) {
  text { fill: #e6edf3; }
  .bg { fill: #0d1117; }
  .band { fill: #1c2033; }
  .grid { stroke: #30363d; }
  .caption { fill: #9198a1; }
  .box { stroke: #9198a1; }
  .strong { stroke: #e6edf3; }
  .t-alpha { fill: #7a4510; }
  .t-beta { fill: #1c4f80; }
  .t-ga { fill: #1f5f2c; }
  .t-deprecated { fill: #4b3480; }
  .t-removed { fill: #3a3f45; }
  .t-served { fill: #0f5c4c; }
  .t-highlight { fill: #6b5900; }
  .t-neutral { fill: #262c36; }
  .t-safe { fill: #1f5f2c; }
  .t-unsafe { fill: #7d1f1f; }
}
";

const PAD: i64 = 16;
const TITLE_H: i64 = 30;
const CAPTION_H: i64 = 18;
const HEADER_H: i64 = 22;
const GROUP_H: i64 = 26;
const ROW_H: i64 = 36;
const LEGEND_H: i64 = 30;
/// Width of one character, in tenths of a pixel, per font size in pixels
/// (monospace advance ≈ 0.6 em, rounded up).
const CHAR_W_TENTHS: i64 = 62;

/// Width in pixels of `text` at `size` pixels, rounded up.
fn text_width(text: &str, size: i64) -> i64 {
    let chars = i64::try_from(text.chars().count()).unwrap_or(i64::MAX / 1000);
    (chars * size * CHAR_W_TENTHS + 99) / 100
}

/// Renders the picture as one SVG document (with a final newline).
pub fn render_timeline(t: &Timeline) -> String {
    let columns = t.columns.len().max(1);
    let cells = t.groups.iter().flat_map(|g| &g.rows).flat_map(|r| &r.cells);
    let cell_text = cells.clone().map(|c| text_width(&c.text, 11).max(text_width(&c.note, 9))).max().unwrap_or(0);
    let header_text = t.columns.iter().map(|c| text_width(c, 12)).max().unwrap_or(0);
    let cell_w = (cell_text.max(header_text) + 12).max(52);
    let label_w =
        t.groups.iter().flat_map(|g| &g.rows).map(|r| text_width(&r.label, 12)).max().unwrap_or(0).max(40) + 16;
    let grid_x = PAD + label_w;
    let grid_w = cell_w * i64::try_from(columns).unwrap_or(1);
    let rows_h: i64 = t
        .groups
        .iter()
        .map(|g| i64::try_from(g.rows.len()).unwrap_or(0) * ROW_H + if g.heading.is_some() { GROUP_H } else { 0 })
        .sum();
    let legend_w = legend_width(&t.legend, cell_w);
    let title_w = text_width(&t.title, 16);
    let width = (grid_x + grid_w + PAD).max(PAD * 2 + legend_w).max(PAD * 2 + title_w);
    let caption_y = PAD + TITLE_H;
    let header_y = caption_y + CAPTION_H;
    let grid_y = header_y + HEADER_H;
    let legend_y = grid_y + rows_h + 12;
    let legend_rows = legend_rows(&t.legend, cell_w, width - 2 * PAD);
    let height = legend_y + LEGEND_H * i64::try_from(legend_rows.len()).unwrap_or(0) + PAD;

    let mut w = Writer::new();
    for line in &t.comments {
        w.comment(line);
    }
    let id = if t.id.is_empty() { "timeline" } else { t.id.as_str() };
    let (title_id, desc_id) = (format!("{id}-title"), format!("{id}-desc"));
    w.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".to_owned()),
            ("width", width.to_string()),
            ("height", height.to_string()),
            ("viewBox", format!("0 0 {width} {height}")),
            ("role", "img".to_owned()),
            ("aria-labelledby", format!("{title_id} {desc_id}")),
        ],
    );
    // Never an empty accessible name.
    let title = if t.title.trim().is_empty() { "Timeline" } else { t.title.as_str() };
    let description = if t.description.trim().is_empty() { title } else { t.description.as_str() };
    w.text("title", &[("id", title_id)], title);
    w.text("desc", &[("id", desc_id)], description);
    w.open("style", &[]);
    w.raw_lines(STYLE);
    w.close("style");
    w.empty("rect", &[("class", "bg".to_owned()), ("width", width.to_string()), ("height", height.to_string())]);
    w.text("text", &[("class", "title".to_owned()), ("x", PAD.to_string()), ("y", (PAD + 18).to_string())], &t.title);

    if let Some(band) = &t.band {
        let first = i64::try_from(band.first.min(columns - 1)).unwrap_or(0);
        let last = i64::try_from(band.last.min(columns - 1)).unwrap_or(0).max(first);
        let x = grid_x + first * cell_w;
        let bw = (last - first + 1) * cell_w;
        w.empty(
            "rect",
            &[
                ("class", "band".to_owned()),
                ("x", x.to_string()),
                ("y", caption_y.to_string()),
                ("width", bw.to_string()),
                ("height", (grid_y + rows_h - caption_y).to_string()),
            ],
        );
        w.text(
            "text",
            &[
                ("class", "caption".to_owned()),
                ("x", (x + bw / 2).to_string()),
                ("y", (caption_y + 13).to_string()),
                ("text-anchor", "middle".to_owned()),
            ],
            &band.caption,
        );
    }

    // Column headings.
    for (idx, column) in t.columns.iter().enumerate() {
        let x = grid_x + i64::try_from(idx).unwrap_or(0) * cell_w + cell_w / 2;
        let class = if t.marked_column == Some(idx) { "col-marked" } else { "col" };
        w.text(
            "text",
            &[
                ("class", class.to_owned()),
                ("x", x.to_string()),
                ("y", (header_y + 15).to_string()),
                ("text-anchor", "middle".to_owned()),
            ],
            column,
        );
    }

    let mut y = grid_y;
    for group in &t.groups {
        if let Some(heading) = &group.heading {
            w.text(
                "text",
                &[("class", "heading".to_owned()), ("x", PAD.to_string()), ("y", (y + 18).to_string())],
                heading,
            );
            y += GROUP_H;
        }
        for row in &group.rows {
            w.empty(
                "line",
                &[
                    ("class", "grid".to_owned()),
                    ("x1", PAD.to_string()),
                    ("y1", y.to_string()),
                    ("x2", (grid_x + grid_w).to_string()),
                    ("y2", y.to_string()),
                ],
            );
            w.open("g", &[]);
            w.text(
                "text",
                &[("class", "label".to_owned()), ("x", PAD.to_string()), ("y", (y + ROW_H / 2 + 4).to_string())],
                &row.label,
            );
            for (idx, cell) in row.cells.iter().enumerate().take(columns) {
                let x = grid_x + i64::try_from(idx).unwrap_or(0) * cell_w;
                draw_cell(&mut w, cell, x, y, cell_w);
            }
            w.close("g");
            y += ROW_H;
        }
    }

    let mut ly = legend_y;
    for line in legend_rows {
        let mut x = PAD;
        for entry in line {
            draw_cell(&mut w, &entry.sample, x, ly - 3, cell_w);
            w.text(
                "text",
                &[("class", "caption".to_owned()), ("x", (x + cell_w + 4).to_string()), ("y", (ly + 18).to_string())],
                &entry.meaning,
            );
            x += legend_entry_width(entry, cell_w);
        }
        ly += LEGEND_H;
    }
    w.close("svg");
    w.finish()
}

/// One cell's box (unless [`Tone::Empty`]) and its text, centred.
fn draw_cell(w: &mut Writer, cell: &Cell, x: i64, y: i64, cell_w: i64) {
    let cx = x + cell_w / 2;
    if cell.tone != Tone::Empty {
        let mut class = format!("box {}", cell.tone.class());
        if cell.dashed {
            class.push_str(" dashed");
        }
        if cell.strong {
            class.push_str(" strong");
        }
        w.empty(
            "rect",
            &[
                ("class", class),
                ("x", (x + 3).to_string()),
                ("y", (y + 4).to_string()),
                ("width", (cell_w - 6).to_string()),
                ("height", (ROW_H - 8).to_string()),
                ("rx", "4".to_owned()),
            ],
        );
    }
    let centre = [("text-anchor", "middle".to_owned())];
    if cell.note.is_empty() {
        if !cell.text.is_empty() {
            let attrs =
                [&[("class", "cell".to_owned()), ("x", cx.to_string()), ("y", (y + 22).to_string())], &centre[..]]
                    .concat();
            w.text("text", &attrs, &cell.text);
        }
    } else {
        let attrs =
            [&[("class", "cell".to_owned()), ("x", cx.to_string()), ("y", (y + 17).to_string())], &centre[..]].concat();
        w.text("text", &attrs, &cell.text);
        let attrs =
            [&[("class", "note".to_owned()), ("x", cx.to_string()), ("y", (y + 28).to_string())], &centre[..]].concat();
        w.text("text", &attrs, &cell.note);
    }
}

fn legend_entry_width(entry: &LegendEntry, cell_w: i64) -> i64 {
    cell_w + 4 + text_width(&entry.meaning, 11) + 16
}

fn legend_width(legend: &[LegendEntry], cell_w: i64) -> i64 {
    legend.iter().map(|e| legend_entry_width(e, cell_w)).max().unwrap_or(0)
}

/// The legend entries in lines no wider than `room`.
fn legend_rows(legend: &[LegendEntry], cell_w: i64, room: i64) -> Vec<Vec<&LegendEntry>> {
    let mut lines: Vec<Vec<&LegendEntry>> = Vec::new();
    let mut used = 0;
    for entry in legend {
        let width = legend_entry_width(entry, cell_w);
        match lines.last_mut() {
            Some(line) if used + width <= room => {
                line.push(entry);
                used += width;
            }
            _ => {
                lines.push(vec![entry]);
                used = width;
            }
        }
    }
    lines
}
