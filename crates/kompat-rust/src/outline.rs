//! Where a Rust source's top-level items begin and end, found by a byte
//! walk that knows Rust's comments, strings, characters and delimiters (and
//! nothing else): the places where a large file may be cut into chunks that
//! are lexed and parsed one at a time, and the top-level `use` and `type`
//! items, which [`super::refs`] binds before reading any chunk.
//!
//! The walk only proposes: a chunk that does not lex or parse on its own,
//! or whose `use` and `type` items are not the ones found here, has the
//! file read whole (see `scan_file` in `rust.rs`), so a walk that went wrong
//! costs time, never a different result.

use std::ops::Range;

/// The top level of a source.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Outline {
    /// Offsets of line starts where a chunk may begin: the line before ends
    /// (comments and whitespace aside) with a `;`, or with a `}` followed by
    /// `#` or by an identifier other than `as` and `else`, at the top level.
    pub cuts: Vec<usize>,
    /// The top-level items that start with `use` or `type` (after
    /// attributes and a visibility): from their visibility or keyword to
    /// their `;`.
    pub imports: Vec<Range<usize>>,
}

/// What the last token at the top level was.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    /// A `;`.
    Semi,
    /// A `}` closing a top-level group.
    Brace,
    /// Anything else, or the start of the source (the first chunk holds at
    /// least one item, with the file's inner attributes).
    Other,
}

/// Reads the top level of `text`; `None` when its delimiters, strings or
/// comments do not close (the file is then read whole, and the parser
/// reports it).
pub(super) fn outline(text: &str) -> Option<Outline> {
    let bytes = text.as_bytes();
    let mut out = Outline::default();
    let mut depth = 0usize;
    let mut last = Last::Other;
    // A line start after a `;` or `}` where a cut may be, once the next
    // token is known.
    let mut pending: Option<usize> = None;
    // Whether only attributes and a visibility have been seen since the
    // current item started, and where its visibility starts.
    let mut prefix = true;
    let mut visibility: Option<usize> = None;
    // The start of an import being read.
    let mut import: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            if depth == 0 && last != Last::Other && pending.is_none() {
                pending = Some(i + 1);
            }
            i += 1;
            continue;
        }
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if b == b'/' && matches!(bytes.get(i + 1), Some(b'/' | b'*')) {
            i = skip_comment(bytes, i)?;
            continue;
        }
        // A token starts at `i`.
        let start = i;
        let top = depth == 0;
        let mut ident: Option<&[u8]> = None;
        match b {
            b'"' => i = skip_string(bytes, i + 1)?,
            b'\'' => i = skip_quote(bytes, i),
            b'(' | b'[' | b'{' => {
                depth += 1;
                i += 1;
            }
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                i += 1;
                if depth == 0 {
                    // The end of a top-level group.
                    last = if b == b'}' { Last::Brace } else { Last::Other };
                }
                continue;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'0'..=b'9' => {
                let end = ident_end(bytes, i);
                let word = &bytes[i..end];
                i = end;
                match (word, bytes.get(i)) {
                    (b"r" | b"br" | b"cr", Some(b'"' | b'#')) if raw_string_at(bytes, i) => {
                        i = skip_raw_string(bytes, i)?;
                    }
                    (b"r", Some(b'#')) if bytes.get(i + 1).copied().is_some_and(is_ident_start) => {
                        // A raw identifier.
                        i = ident_end(bytes, i + 1);
                        ident = Some(&bytes[start..i]);
                    }
                    (b"b" | b"c", Some(b'"')) => i = skip_string(bytes, i + 1)?,
                    (b"b", Some(b'\'')) => i = skip_quote(bytes, i),
                    _ if !b.is_ascii_digit() => ident = Some(word),
                    _ => {}
                }
            }
            _ => i += utf8_len(b),
        }
        if !top {
            continue;
        }
        // A token at the top level (or a group opening there): after a `;`
        // any token starts an item, after a `}` only `#` or an identifier
        // other than `as` and `else` (what follows a block that ends an
        // item); other tokens go on with the item.
        let starts_item = match last {
            Last::Semi => true,
            Last::Brace => b == b'#' || ident.is_some_and(|word| word != b"as" && word != b"else"),
            Last::Other => false,
        };
        if starts_item {
            prefix = true;
            visibility = None;
            import = None;
        }
        if let (Some(cut), true) = (pending.take(), starts_item) {
            out.cuts.push(cut);
        }
        last = Last::Other;
        match (b, ident) {
            (b';', _) => {
                if let Some(from) = import.take() {
                    out.imports.push(from..i);
                }
                last = Last::Semi;
            }
            (_, Some(b"use" | b"type")) if prefix => {
                import = Some(visibility.unwrap_or(start));
                prefix = false;
            }
            // Attributes (`#`, `!`, `[...]`) and a visibility (`pub`,
            // `pub(...)`) may come before the keyword; the import is read
            // from its visibility on.
            (_, Some(b"pub")) if prefix && visibility.is_none() => visibility = Some(start),
            (b'(', None) if prefix && visibility.is_some() => {}
            (b'#' | b'!' | b'[', None) if prefix && visibility.is_none() => {}
            _ => prefix = false,
        }
    }
    (depth == 0).then_some(out)
}

/// Which of `hits` (offsets into `bytes`, in increasing order, none before
/// `from`) stand in code: in a token that is not a comment, a string, a
/// character or a byte literal. `from` is where a token may start (the
/// start of the text, or one of its outline's cuts). A comment or string
/// that does not end takes the rest of the text.
pub(super) fn in_code(bytes: &[u8], from: usize, hits: &[usize]) -> Vec<bool> {
    let mut code = vec![false; hits.len()];
    // The first hit not yet decided.
    let mut next = 0;
    let mut i = from;
    while i < bytes.len() {
        // Hits before the token: inside something skipped.
        while hits.get(next).is_some_and(|&hit| hit < i) {
            next += 1;
        }
        if next == hits.len() {
            break;
        }
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if b == b'/' && matches!(bytes.get(i + 1), Some(b'/' | b'*')) {
            i = skip_comment(bytes, i).unwrap_or(bytes.len());
            continue;
        }
        let start = i;
        match b {
            b'"' => i = skip_string(bytes, i + 1).unwrap_or(bytes.len()),
            b'\'' => i = skip_quote(bytes, i),
            b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'0'..=b'9' => {
                i = ident_end(bytes, i);
                match (&bytes[start..i], bytes.get(i)) {
                    (b"r" | b"br" | b"cr", Some(b'"' | b'#')) if raw_string_at(bytes, i) => {
                        i = skip_raw_string(bytes, i).unwrap_or(bytes.len());
                    }
                    (b"r", Some(b'#')) if bytes.get(i + 1).copied().is_some_and(is_ident_start) => {
                        // A raw identifier: code.
                        i = ident_end(bytes, i + 1);
                        mark(&mut code, &mut next, hits, i);
                    }
                    (b"b" | b"c", Some(b'"')) => i = skip_string(bytes, i + 1).unwrap_or(bytes.len()),
                    (b"b", Some(b'\'')) => i = skip_quote(bytes, i),
                    _ => mark(&mut code, &mut next, hits, i),
                }
            }
            _ => {
                i += utf8_len(b);
                mark(&mut code, &mut next, hits, i);
            }
        }
    }
    code
}

/// Marks the hits from `next` on that come before `end` as in code: they
/// stand in the code token that ends there.
fn mark(code: &mut [bool], next: &mut usize, hits: &[usize], end: usize) {
    while let Some(&hit) = hits.get(*next) {
        if hit >= end {
            break;
        }
        code[*next] = true;
        *next += 1;
    }
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

/// The end of the identifier (or number) starting at `i`.
fn ident_end(bytes: &[u8], i: usize) -> usize {
    bytes[i..].iter().position(|&b| !is_ident_byte(b)).map_or(bytes.len(), |n| i + n)
}

/// The length of the UTF-8 character that starts with `b` (1 for a
/// continuation byte, which a valid `str` never starts with).
fn utf8_len(b: u8) -> usize {
    match b {
        0xf0.. => 4,
        0xe0.. => 3,
        0xc0.. => 2,
        _ => 1,
    }
}

/// Past the comment at `i` (`//` to the line's end, `/* */` nested);
/// `None` when a block comment does not end.
pub(super) fn skip_comment(bytes: &[u8], mut i: usize) -> Option<usize> {
    if bytes.get(i + 1) == Some(&b'/') {
        return Some(memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n));
    }
    let mut depth = 0usize;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if bytes[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return Some(i);
            }
        } else {
            i += 1;
        }
    }
    None
}

/// Past the closing `"` of a string whose contents start at `i`; `None`
/// when it does not end.
fn skip_string(bytes: &[u8], mut i: usize) -> Option<usize> {
    loop {
        match bytes.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// Whether `#`s then `"` start at `i` (a raw string after its `r`).
fn raw_string_at(bytes: &[u8], i: usize) -> bool {
    let hashes = bytes[i..].iter().take_while(|&&b| b == b'#').count();
    bytes.get(i + hashes) == Some(&b'"')
}

/// Past a raw string whose `#`s start at `i`.
fn skip_raw_string(bytes: &[u8], i: usize) -> Option<usize> {
    let hashes = bytes[i..].iter().take_while(|&&b| b == b'#').count();
    let mut at = i + hashes + 1;
    loop {
        let quote = at + memchr::memchr(b'"', bytes.get(at..)?)?;
        let end = quote + 1;
        if bytes.get(end..end + hashes).is_some_and(|h| h.iter().all(|&b| b == b'#')) {
            return Some(end + hashes);
        }
        at = end;
    }
}

/// Past a character literal at the `'` at `i`, or past the `'` of a
/// lifetime or label.
fn skip_quote(bytes: &[u8], i: usize) -> usize {
    match bytes.get(i + 1) {
        Some(b'\\') => {
            // An escape: up to the closing quote.
            let mut at = i + 3;
            while at < bytes.len() && bytes[at] != b'\'' && bytes[at] != b'\n' {
                at += 1;
            }
            (at + 1).min(bytes.len())
        }
        Some(&c) => {
            let after = i + 1 + utf8_len(c);
            if bytes.get(after) == Some(&b'\'') {
                after + 1
            } else {
                i + 1
            }
        }
        None => i + 1,
    }
}

/// A byte of an ASCII identifier.
pub(crate) fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chunks `text` may be cut into, and its imports.
    fn check(text: &str, chunks: &[&str], imports: &[&str]) {
        let outline = outline(text).unwrap_or_default();
        let mut starts = vec![0];
        starts.extend(&outline.cuts);
        starts.push(text.len());
        let got: Vec<&str> = starts.windows(2).map(|w| &text[w[0]..w[1]]).collect();
        assert_eq!(got, chunks, "{text:?}");
        let got: Vec<&str> = outline.imports.iter().map(|range| &text[range.clone()]).collect();
        assert_eq!(got, imports, "{text:?}");
    }

    #[test]
    fn items() {
        check("use a::b;\nfn f() {}\n", &["use a::b;\n", "fn f() {}\n"], &["use a::b;"]);
        check(
            "/// Doc.\n#[cfg(x)]\npub(crate) use a::{b, c};\nstruct S;\n",
            &["/// Doc.\n#[cfg(x)]\npub(crate) use a::{b, c};\n", "struct S;\n"],
            &["pub(crate) use a::{b, c};"],
        );
        check(
            "pub type T = u8;\nimpl S {}\n#[test]\nfn t() {}",
            &["pub type T = u8;\n", "impl S {}\n", "#[test]\nfn t() {}"],
            &["pub type T = u8;"],
        );
        // Not at a line start, nor inside groups, strings, comments.
        check("struct A; struct B;\n", &["struct A; struct B;\n"], &[]);
        check("mod m {\n use x;\n}\n", &["mod m {\n use x;\n}\n"], &[]);
        check("const S: &str = \"a;\nb\";\n", &["const S: &str = \"a;\nb\";\n"], &[]);
        check("const S: &str = r#\"a\";\n}\"#;\n", &["const S: &str = r#\"a\";\n}\"#;\n"], &[]);
        check("const A: u8 = 1 // a;\n/* b;\n*/ + 2;\n", &["const A: u8 = 1 // a;\n/* b;\n*/ + 2;\n"], &[]);
        check("fn f() {} // a\n/* b\n*/ fn g() {}", &["fn f() {} // a\n", "/* b\n*/ fn g() {}"], &[]);
        check(
            "const C: char = '}';\nconst D: char = '\\'';\nfn f<'a>() {}",
            &["const C: char = '}';\n", "const D: char = '\\'';\n", "fn f<'a>() {}"],
            &[],
        );
        check("const B: u8 = b'{';\n", &["const B: u8 = b'{';\n"], &[]);
        // A block that goes on (`as`, `else`, an operator) is not an end.
        check("const X: u8 = {\n1 }\nas u8;\n", &["const X: u8 = {\n1 }\nas u8;\n"], &[]);
        check("static S: u8 = if c { 1 }\nelse { 2 };\n", &["static S: u8 = if c { 1 }\nelse { 2 };\n"], &[]);
        check("const X: u8 = { 1 }\n+ 2;\n", &["const X: u8 = { 1 }\n+ 2;\n"], &[]);
        // `use` not first in its item is not an import.
        check("fn f() { use a; }\nconst use_x: u8 = 1;\n", &["fn f() { use a; }\n", "const use_x: u8 = 1;\n"], &[]);
        check("r#use!();\n", &["r#use!();\n"], &[]);
        check(
            "#![allow(x)]\nuse a;\n#[cfg(y)] type B = u8;\n",
            &["#![allow(x)]\nuse a;\n", "#[cfg(y)] type B = u8;\n"],
            &["use a;", "type B = u8;"],
        );
        // The first chunk holds the first item, after the file's comments.
        check("//! Doc.\n\nuse a;\n", &["//! Doc.\n\nuse a;\n"], &["use a;"]);
    }

    /// Whether each `F` of `text` stands in code.
    fn check_code(text: &str, expected: &[bool]) {
        let hits: Vec<usize> = text.match_indices('F').map(|(i, _)| i).collect();
        assert_eq!(in_code(text.as_bytes(), 0, &hits), expected, "{text}");
    }

    #[test]
    fn code() {
        check_code("a F // F\n F", &[true, false, true]);
        check_code("\"F\" F /* F /* F */ F */ F", &[false, true, false, false, false, true]);
        check_code(
            "r#\"F\"# F r#F b\"F\" c\"F\" br#\"F\"# cr\"F\" F",
            &[false, true, true, false, false, false, false, true],
        );
        check_code("'F' b'F' 'a F '\\'' F '\\u{46}' F", &[false, false, true, true, true]);
        check_code("x.F(\"a\\\"F\") é F Fé xF", &[true, false, true, true, true]);
        check_code("/// F\n//! F\n/** F */ #[doc = \"F\"] F", &[false, false, false, false, true]);
        // Unclosed: the rest of the text.
        check_code("F \"F F", &[true, false, false]);
        check_code("F /* F", &[true, false]);
        check_code("F r#\"F", &[true, false]);
    }

    #[test]
    fn unbalanced() {
        assert_eq!(outline("fn f() {"), None);
        assert_eq!(outline("fn f() }"), None);
        assert_eq!(outline("const S: &str = \"a;"), None);
    }
}
