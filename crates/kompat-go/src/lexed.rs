//! The fast path of [`crate::references`]: the same references read from
//! Go's tokens instead of a syntax tree, for the files that need no more
//! than tokens to tell them.
//!
//! A reference is a selector `pkg.Gate` whose operand is an identifier
//! naming an imported declaring package; tokens say as much: an identifier
//! (not preceded by `.`, which would make it a field of something else),
//! `.`, an identifier, with whitespace and comments anywhere between, and
//! never inside a string, rune or comment. What tokens cannot say, and the
//! syntax tree can, is whether a selector is a key of a spec map literal (a
//! declaration, not a reference): a file whose bytes mention
//! `VersionedSpecs` or `FeatureSpec` and that imports a declaring package
//! is left to the syntax tree. So is a
//! file whose tokens are not Go's (an unterminated string or comment, an
//! `import` after the first declaration, an import declaration of another
//! shape): [`references`] returns `None` and the caller parses.
//!
//! Lexing is one pass over the bytes, with `memchr` inside comments and
//! strings: a small fraction of parsing the file with tree-sitter, which is
//! what lets `kompat lint` over a Go tree stay close to a byte search of it.

use std::collections::HashMap;

use kompat_span::Span;

use crate::refs::{GatePackage, GoRef};

/// What kind of token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// An identifier or keyword.
    Ident,
    /// A number (starts with a digit).
    Number,
    /// An interpreted (`"..."`) or raw (`` `...` ``) string literal.
    Str,
    /// A rune literal.
    Rune,
    /// One byte of punctuation or an operator.
    Punct(u8),
}

#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Kind,
    start: usize,
    end: usize,
}

/// Go's tokens of a text, comments and whitespace skipped. `None` from
/// [`Lexer::next_token`] ends the text; `Err(())` is text Go cannot lex (an
/// unterminated string, rune or comment, a newline in a string).
struct Lexer<'t> {
    text: &'t [u8],
    at: usize,
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

impl Lexer<'_> {
    fn next_token(&mut self) -> Result<Option<Token>, ()> {
        let text = self.text;
        loop {
            while text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
                self.at += 1;
            }
            let start = self.at;
            let Some(&first) = text.get(start) else { return Ok(None) };
            let kind = match first {
                b'/' if text.get(start + 1) == Some(&b'/') => {
                    self.at = memchr::memchr(b'\n', &text[start..]).map_or(text.len(), |p| start + p);
                    continue;
                }
                b'/' if text.get(start + 1) == Some(&b'*') => {
                    let close = memchr::memmem::find(&text[start + 2..], b"*/").ok_or(())?;
                    self.at = start + 2 + close + 2;
                    continue;
                }
                b'"' => {
                    self.at = quoted(text, start + 1, b'"')?;
                    Kind::Str
                }
                b'\'' => {
                    self.at = quoted(text, start + 1, b'\'')?;
                    Kind::Rune
                }
                b'`' => {
                    let close = memchr::memchr(b'`', &text[start + 1..]).ok_or(())?;
                    self.at = start + 1 + close + 1;
                    Kind::Str
                }
                b if is_ident_byte(b) => {
                    let len = text[start..].iter().position(|&b| !is_ident_byte(b)).unwrap_or(text.len() - start);
                    self.at = start + len;
                    if b.is_ascii_digit() {
                        Kind::Number
                    } else {
                        Kind::Ident
                    }
                }
                b => {
                    self.at = start + 1;
                    Kind::Punct(b)
                }
            };
            return Ok(Some(Token { kind, start, end: self.at }));
        }
    }
}

/// The end (one past the closing quote) of a string or rune literal whose
/// body starts at `from`; an error at a newline or the end of the text.
fn quoted(text: &[u8], from: usize, quote: u8) -> Result<usize, ()> {
    let mut at = from;
    loop {
        let found = memchr::memchr3(quote, b'\\', b'\n', &text[at..]).ok_or(())?;
        let pos = at + found;
        match text[pos] {
            b'\\' => at = pos + 2,
            b'\n' => return Err(()),
            _ => return Ok(pos + 1),
        }
        if at > text.len() {
            return Err(());
        }
    }
}

/// The references of `text` as [`crate::references`] finds them, or `None`
/// when the file needs the syntax tree (see the module's documentation).
pub(crate) fn references<'p>(text: &str, resolve: &impl Fn(&str) -> Option<&'p GatePackage>) -> Option<Vec<GoRef>> {
    let bytes = text.as_bytes();
    let mut lexer = Lexer { text: bytes, at: 0 };
    let word = |t: &Token| &text[t.start..t.end];
    let mut locals: HashMap<String, &GatePackage> = HashMap::new();
    // The file's header: the package clause and import declarations.
    let mut header = true;
    // The selectors whose operand is an identifier: operand, field.
    let mut selectors: Vec<(Token, Token)> = Vec::new();
    // The last three tokens, the latest last.
    let mut last: [Option<Token>; 3] = [None; 3];
    while let Some(token) = lexer.next_token().ok()? {
        if token.kind == Kind::Ident && word(&token) == "import" {
            if !header {
                return None;
            }
            import_declaration(&mut lexer, &mut |name, path| {
                let Some(package) = resolve(path) else { return };
                let local = name.unwrap_or(package.package.as_str());
                if local != "_" && local != "." {
                    locals.insert(local.to_owned(), package);
                }
            })?;
            last = [None; 3];
            continue;
        }
        if header && !matches!(token.kind, Kind::Punct(b';')) && !is_package_clause(text, &last, &token) {
            header = false;
        }
        if let [before, Some(operand), Some(dot)] = last {
            if operand.kind == Kind::Ident
                && dot.kind == Kind::Punct(b'.')
                && token.kind == Kind::Ident
                && !before.is_some_and(|b| b.kind == Kind::Punct(b'.'))
            {
                selectors.push((operand, token));
            }
        }
        last = [last[1], last[2], Some(token)];
    }
    if locals.is_empty() {
        return Some(Vec::new());
    }
    // Keys of spec maps are declarations: only the tree tells them.
    if memchr::memmem::find(bytes, b"VersionedSpecs").is_some() || memchr::memmem::find(bytes, b"FeatureSpec").is_some()
    {
        return None;
    }
    Some(
        selectors
            .into_iter()
            .filter(|(operand, field)| locals.get(word(operand)).is_some_and(|p| p.gates.contains(word(field))))
            .map(|(_, field)| GoRef { gate: word(&field).to_owned(), span: Span::new(field.start, field.end) })
            .collect(),
    )
}

/// True when `token`, after the tokens `last`, is part of the package
/// clause (`package name`).
fn is_package_clause(text: &str, last: &[Option<Token>; 3], token: &Token) -> bool {
    let is_package = |t: &Token| t.kind == Kind::Ident && &text[t.start..t.end] == "package";
    is_package(token) || (token.kind == Kind::Ident && last[2].is_some_and(|t| is_package(&t)))
}

/// Reads one import declaration, after its `import` keyword, giving `spec`
/// each of its specs: the name if any (`f`, `_`, `.`) and the path as
/// written, quotes trimmed. `None` for a declaration of another shape.
fn import_declaration<'t>(lexer: &mut Lexer<'t>, spec: &mut impl FnMut(Option<&'t str>, &'t str)) -> Option<()> {
    let first = lexer.next_token().ok()??;
    if first.kind != Kind::Punct(b'(') {
        return import_spec(lexer, first, spec);
    }
    loop {
        let token = lexer.next_token().ok()??;
        match token.kind {
            Kind::Punct(b')') => return Some(()),
            Kind::Punct(b';') => {}
            _ => import_spec(lexer, token, spec)?,
        }
    }
}

/// One import spec starting with `first`: `"path"`, `name "path"`,
/// `. "path"`, `_ "path"`.
fn import_spec<'t>(lexer: &mut Lexer<'t>, first: Token, spec: &mut impl FnMut(Option<&'t str>, &'t str)) -> Option<()> {
    let (name, path) = match first.kind {
        Kind::Str => (None, first),
        Kind::Ident | Kind::Punct(b'.') => {
            let path = lexer.next_token().ok()??;
            (Some(first), path)
        }
        _ => return None,
    };
    if path.kind != Kind::Str {
        return None;
    }
    let word = |t: Token| std::str::from_utf8(&lexer.text[t.start..t.end]).ok();
    let path = word(path)?.trim_matches('"').trim_matches('`');
    let name = match name {
        Some(name) => Some(word(name)?),
        None => None,
    };
    spec(name, path);
    Some(())
}

/// The import paths of a Go file's header (its package clause and import
/// declarations), as written, quotes trimmed; `None` when the header does
/// not lex as Go's or when the word `import` occurs after it (an import
/// declaration there, which the syntax tree reads too, cannot be ruled out
/// without reading further). A file whose paths name no package that
/// declares gates holds no reference to one: readers need not read it again.
pub fn header_imports(text: &[u8]) -> Option<Vec<String>> {
    let mut lexer = Lexer { text, at: 0 };
    let mut paths = Vec::new();
    let mut last: [Option<Token>; 3] = [None; 3];
    let word = |t: &Token| &text[t.start..t.end];
    let end = loop {
        let Some(token) = lexer.next_token().ok()? else { break text.len() };
        if token.kind == Kind::Ident && word(&token) == b"import" {
            import_declaration(&mut lexer, &mut |_, path| paths.push(path.to_owned()))?;
            last = [None; 3];
            continue;
        }
        let package = |t: &Token| t.kind == Kind::Ident && word(t) == b"package";
        let clause = package(&token) || (token.kind == Kind::Ident && last[2].is_some_and(|t| package(&t)));
        if !clause && token.kind != Kind::Punct(b';') {
            break token.start;
        }
        last = [last[1], last[2], Some(token)];
    };
    let rest = &text[end..];
    let late = memchr::memmem::find_iter(rest, b"import").any(|at| {
        let before = at.checked_sub(1).and_then(|b| rest.get(b)).copied();
        let after = rest.get(at + b"import".len()).copied();
        !before.is_some_and(is_ident_byte) && !after.is_some_and(is_ident_byte)
    });
    (!late).then_some(paths)
}
