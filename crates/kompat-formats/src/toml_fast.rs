//! The fast path of [`crate::parse_toml`]: a reader of the one shape of kompat
//! TOML that `kompat export --format toml` writes (and people copy), which
//! builds the feature declarations straight from the bytes, without the
//! `toml` crate's token list and document tree (most of `kompat gen`'s time
//! on Kubernetes' 243 gates, issue 18).
//!
//! The shape: comment and blank lines, then `[[feature]]` tables of
//! `name`, `description`, `dependencies`, `ratchet` and `specs`, whose values
//! are basic strings without escapes, literal strings, booleans, arrays (over
//! several lines, with comments and a trailing comma) of those, and one-line
//! inline tables. Anything else, and anything wrong (a syntax error, a
//! repeated or unknown key, a missing one, a value that does not convert,
//! a repeated feature), makes [`parse`] decline with `None`, and the general
//! reader runs on the whole file: so every error, and every file of any
//! other shape, is read exactly as before.
//!
//! **Invariant:** when [`parse`] returns a file, it is the one the general
//! reader returns, spans included (the tests compare the two on every
//! fixture and on mutations of them). Entries are converted by the general
//! reader's own code ([`add_feature`]); only the syntax is read here, and
//! only the part of TOML that needs no decoding.

use std::collections::HashMap;
use std::ops::Range;

use toml::Spanned;

use crate::features_toml::{add_feature, RawFeature, RawRatchet, RawSpec};
use crate::{DeclFile, FeatureFile};

/// The file, when it has the fast path's shape and no error; `None` sends it
/// to the general reader.
pub(crate) fn parse(text: &str) -> Option<DeclFile> {
    let mut cursor = Cursor { text, bytes: text.as_bytes(), pos: 0 };
    let mut file = FeatureFile::default();
    let mut seen = HashMap::new();
    let mut errors = Vec::new();
    let mut entry: Option<Entry> = None;
    loop {
        cursor.spaces();
        match cursor.peek() {
            None => break,
            Some(b'\n' | b'\r' | b'#') => cursor.end_of_line()?,
            Some(b'[') => {
                let start = cursor.pos;
                if !text[start..].starts_with(HEADER) {
                    return None;
                }
                cursor.pos += HEADER.len();
                cursor.end_of_line()?;
                if let Some(done) = entry.take() {
                    done.add(text, &mut seen, &mut file, &mut errors)?;
                }
                // The entry's span is the header, as the general reader has it.
                entry = Some(Entry::new(start..start + HEADER.len()));
            }
            Some(_) => {
                // A key before the first `[[feature]]` is a top-level key.
                let current = entry.as_mut()?;
                let key = cursor.key_equals()?;
                current.value(key, &mut cursor)?;
                cursor.end_of_line()?;
            }
        }
    }
    if let Some(done) = entry.take() {
        done.add(text, &mut seen, &mut file, &mut errors)?;
    }
    Some(DeclFile { features: file, ..DeclFile::default() })
}

/// The only table header of the shape.
const HEADER: &str = "[[feature]]";

/// One `[[feature]]` table being read.
struct Entry {
    header: Range<usize>,
    name: Option<Spanned<String>>,
    description: Option<Option<String>>,
    dependencies: Option<Vec<Spanned<String>>>,
    ratchet: Option<Option<RawRatchet>>,
    specs: Option<Vec<Spanned<RawSpec>>>,
}

impl Entry {
    fn new(header: Range<usize>) -> Entry {
        Entry { header, name: None, description: None, dependencies: None, ratchet: None, specs: None }
    }

    /// Reads the value of `key`; a key given twice, or not a key of the
    /// shape, declines.
    fn value(&mut self, key: &str, cursor: &mut Cursor<'_>) -> Option<()> {
        match key {
            "name" => once(&mut self.name, cursor.string()?),
            "description" => once(&mut self.description, Some(cursor.string()?.into_inner())),
            "dependencies" => once(&mut self.dependencies, cursor.array(Cursor::string)?),
            "ratchet" => once(&mut self.ratchet, Some(cursor.ratchet()?)),
            "specs" => once(&mut self.specs, cursor.array(Cursor::spec)?),
            _ => None,
        }
    }

    /// Converts the entry with the general reader's code; any error declines.
    fn add(
        self,
        text: &str,
        seen: &mut HashMap<String, kompat_span::Span>,
        file: &mut FeatureFile,
        errors: &mut Vec<crate::ParseError>,
    ) -> Option<()> {
        let feature = RawFeature {
            name: self.name?,
            description: self.description.flatten(),
            dependencies: self.dependencies.unwrap_or_default(),
            ratchet: self.ratchet.flatten(),
            specs: None,
        };
        add_feature(text, Spanned::new(self.header, feature), self.specs.unwrap_or_default(), seen, file, errors);
        errors.is_empty().then_some(())
    }
}

/// Sets a key's value the first time; a repeated key declines.
fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    if slot.is_some() {
        return None;
    }
    *slot = Some(value);
    Some(())
}

struct Cursor<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.pos += 1)
    }

    /// Spaces and tabs, TOML's whitespace.
    fn spaces(&mut self) {
        while let Some(b' ' | b'\t') = self.peek() {
            self.pos += 1;
        }
    }

    /// Whitespace, a comment, and the end of the line (`\n`, `\r\n`) or of
    /// the file.
    fn end_of_line(&mut self) -> Option<()> {
        self.spaces();
        if self.peek() == Some(b'#') {
            self.comment()?;
        }
        match self.peek() {
            None => Some(()),
            Some(b'\n') => {
                self.pos += 1;
                Some(())
            }
            Some(b'\r') => {
                self.pos += 1;
                self.eat(b'\n')
            }
            Some(_) => None,
        }
    }

    /// A comment up to (not including) its line end; a control character in
    /// it declines.
    fn comment(&mut self) -> Option<()> {
        while let Some(byte) = self.peek() {
            match byte {
                b'\n' => break,
                b'\r' => return (self.bytes.get(self.pos + 1) == Some(&b'\n')).then_some(()),
                b'\t' => {}
                0..=0x1f | 0x7f => return None,
                _ => {}
            }
            self.pos += 1;
        }
        Some(())
    }

    /// Whitespace, line ends and comments, between the values of an array.
    fn array_space(&mut self) -> Option<()> {
        loop {
            self.spaces();
            match self.peek() {
                Some(b'\n' | b'\r' | b'#') => self.end_of_line()?,
                _ => return Some(()),
            }
        }
    }

    /// A bare key, whitespace, `=` and whitespace; the key.
    fn key_equals(&mut self) -> Option<&'a str> {
        let start = self.pos;
        while let Some(b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-') = self.peek() {
            self.pos += 1;
        }
        if self.pos == start {
            return None;
        }
        let key = &self.text[start..self.pos];
        self.spaces();
        self.eat(b'=')?;
        self.spaces();
        Some(key)
    }

    /// A one-line basic string without escapes, or a literal string; its
    /// span includes the quotes.
    fn string(&mut self) -> Option<Spanned<String>> {
        let start = self.pos;
        let quote = self.peek().filter(|q| matches!(q, b'"' | b'\''))?;
        self.pos += 1;
        if self.bytes[self.pos..].starts_with(&[quote, quote]) {
            return None; // a multi-line string
        }
        loop {
            match self.peek()? {
                byte if byte == quote => break,
                b'\\' if quote == b'"' => return None,
                b'\t' => {}
                0..=0x1f | 0x7f => return None,
                _ => {}
            }
            self.pos += 1;
        }
        let value = self.text[start + 1..self.pos].to_owned();
        self.pos += 1;
        Some(Spanned::new(start..self.pos, value))
    }

    fn boolean(&mut self) -> Option<Spanned<bool>> {
        let start = self.pos;
        let rest = &self.bytes[start..];
        let (value, len) = if rest.starts_with(b"true") {
            (true, 4)
        } else if rest.starts_with(b"false") {
            (false, 5)
        } else {
            return None;
        };
        self.pos += len;
        Some(Spanned::new(start..self.pos, value))
    }

    /// `[`, values read by `item` separated by commas (a trailing one
    /// allowed), `]`; over several lines, with comments.
    fn array<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.eat(b'[')?;
        let mut items = Vec::new();
        loop {
            self.array_space()?;
            if self.eat(b']').is_some() {
                return Some(items);
            }
            items.push(item(self)?);
            self.array_space()?;
            if self.eat(b']').is_some() {
                return Some(items);
            }
            self.eat(b',')?;
        }
    }

    /// A one-line inline table whose values `field` reads by key; its span.
    fn inline_table(&mut self, mut field: impl FnMut(&mut Self, &'a str) -> Option<()>) -> Option<Range<usize>> {
        let start = self.pos;
        self.eat(b'{')?;
        self.spaces();
        if self.eat(b'}').is_some() {
            return Some(start..self.pos);
        }
        loop {
            let key = self.key_equals()?;
            field(self, key)?;
            self.spaces();
            if self.eat(b'}').is_some() {
                return Some(start..self.pos);
            }
            self.eat(b',')?;
            self.spaces();
        }
    }

    /// `{ tolerated_since = "..." }`.
    fn ratchet(&mut self) -> Option<RawRatchet> {
        let mut since = None;
        self.inline_table(|cursor, key| match key {
            "tolerated_since" => once(&mut since, cursor.string()?),
            _ => None,
        })?;
        Some(RawRatchet { tolerated_since: since? })
    }

    /// One spec, `{ version = "...", stage = "...", default = ..., ... }`.
    fn spec(&mut self) -> Option<Spanned<RawSpec>> {
        let (mut version, mut stage, mut default, mut lock, mut mcv) = (None, None, None, None, None);
        let span = self.inline_table(|cursor, key| match key {
            "version" => once(&mut version, cursor.string()?),
            "stage" => once(&mut stage, cursor.string()?),
            "default" => once(&mut default, cursor.boolean()?),
            "lockToDefault" => once(&mut lock, cursor.boolean()?),
            "minCompatibilityVersion" => once(&mut mcv, cursor.string()?),
            _ => None,
        })?;
        let spec = RawSpec {
            version,
            stage: stage?,
            default: default?,
            lock_to_default: lock,
            min_compatibility_version: mcv,
        };
        Some(Spanned::new(span, spec))
    }
}

#[cfg(test)]
mod tests;
