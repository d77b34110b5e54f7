//! A small SVG (XML) writer: elements with attributes, escaped text, two
//! spaces of indentation, `\n` line ends. Only integers are ever printed as
//! coordinates, so the bytes are the same on every platform.

use std::fmt::Write as _;

/// Builds one XML document as text.
#[derive(Debug, Default)]
pub(crate) struct Writer {
    out: String,
    depth: usize,
}

impl Writer {
    pub(crate) fn new() -> Writer {
        Writer::default()
    }

    /// `<!-- text -->` on its own line; `--` (not allowed in a comment) is
    /// written `- -`, and the space before `-->` keeps a final `-` apart.
    pub(crate) fn comment(&mut self, text: &str) {
        self.indent();
        let mut safe = clean(text);
        while safe.contains("--") {
            safe = safe.replace("--", "- -");
        }
        let _ = writeln!(self.out, "<!-- {safe} -->");
    }

    /// `<tag attrs>`, leaving the element open.
    pub(crate) fn open(&mut self, tag: &str, attrs: &[(&str, String)]) {
        self.indent();
        self.start_tag(tag, attrs);
        self.out.push_str(">\n");
        self.depth += 1;
    }

    pub(crate) fn close(&mut self, tag: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.indent();
        let _ = writeln!(self.out, "</{tag}>");
    }

    /// `<tag attrs/>`.
    pub(crate) fn empty(&mut self, tag: &str, attrs: &[(&str, String)]) {
        self.indent();
        self.start_tag(tag, attrs);
        self.out.push_str("/>\n");
    }

    /// `<tag attrs>text</tag>`, the text escaped.
    pub(crate) fn text(&mut self, tag: &str, attrs: &[(&str, String)], text: &str) {
        self.indent();
        self.start_tag(tag, attrs);
        self.out.push('>');
        self.out.push_str(&escape(text));
        let _ = writeln!(self.out, "</{tag}>");
    }

    /// Raw lines (already valid XML character data, such as CSS without `<`
    /// or `&`), each indented.
    pub(crate) fn raw_lines(&mut self, text: &str) {
        for line in text.lines() {
            if line.is_empty() {
                self.out.push('\n');
            } else {
                self.indent();
                self.out.push_str(line);
                self.out.push('\n');
            }
        }
    }

    pub(crate) fn finish(self) -> String {
        self.out
    }

    fn start_tag(&mut self, tag: &str, attrs: &[(&str, String)]) {
        self.out.push('<');
        self.out.push_str(tag);
        for (name, value) in attrs {
            let _ = write!(self.out, " {name}=\"{}\"", escape(value));
        }
    }

    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }
}

/// Text or an attribute value escaped for XML: `& < > " '` as entities, and
/// characters XML 1.0 does not allow (control characters other than tab and
/// line ends) as U+FFFD.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in clean(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// `text` with the characters XML 1.0 forbids replaced by U+FFFD.
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => '\u{FFFD}',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_escape(input: &str, expected: &str) {
        assert_eq!(escape(input), expected, "escape({input:?})");
    }

    #[test]
    fn escapes_markup_and_forbidden_characters() {
        check_escape("plain", "plain");
        check_escape("a<b>c", "a&lt;b&gt;c");
        check_escape("x & y", "x &amp; y");
        check_escape("\"q\" 'a'", "&quot;q&quot; &apos;a&apos;");
        check_escape("bell\u{7}", "bell\u{FFFD}");
        check_escape("nul\u{0}", "nul\u{FFFD}");
        check_escape("tab\tok", "tab\tok");
        check_escape("α β ≤", "α β ≤");
        check_escape("&amp;", "&amp;amp;");
    }

    fn check_comment(input: &str, expected: &str) {
        let mut w = Writer::new();
        w.comment(input);
        assert_eq!(w.finish(), expected, "comment({input:?})");
    }

    #[test]
    fn comments_never_contain_double_hyphens() {
        check_comment("plain", "<!-- plain -->\n");
        check_comment("a--b", "<!-- a- -b -->\n");
        check_comment("a---b", "<!-- a- - -b -->\n");
        check_comment("ends-", "<!-- ends- -->\n");
        check_comment("<x>", "<!-- <x> -->\n");
    }

    #[test]
    fn elements_nest_with_indentation() {
        let mut w = Writer::new();
        w.open("svg", &[("width", "10".to_owned())]);
        w.text("text", &[("x", "1".to_owned())], "a&b");
        w.empty("rect", &[]);
        w.close("svg");
        assert_eq!(w.finish(), "<svg width=\"10\">\n  <text x=\"1\">a&amp;b</text>\n  <rect/>\n</svg>\n");
    }
}
