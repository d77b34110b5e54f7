//! The first read of a Rust file found in a directory ([`first_read`]):
//! whether its text is kept, and which derived enums' names it was
//! searched for, so that the Rust reader reads a released file again only
//! for the names it was not ([`EarlyNames`]: the names met so far by the
//! reads of one directory, guessed from the declaring files' bytes).

use std::sync::Arc;

use crate::outline::is_ident_byte;
use crate::search::{skip_trivia, starts_ident, Hit, Refers, TRIVIA_BYTES};

/// A set of derived enums' names: those a first read ruled out for a file
/// it released.
pub type Names = std::collections::BTreeSet<String>;

/// What the first read of a file decides of its text ([`first_read`]).
#[derive(Debug)]
pub enum Keep {
    /// The text is held.
    Text,
    /// The text is let go; the first read ruled out references to these
    /// names (the file is read again only for others).
    Release(Arc<Names>),
}

/// The derived enums' names a walk's first reads have met so far, shared by
/// the walking threads; it only grows. Each state comes with the search a
/// first read runs ([`first_read`]).
pub struct EarlyNames {
    current: std::sync::RwLock<Arc<Early>>,
}

/// An empty set of names.
static NO_NAMES: Names = Names::new();

/// One state of [`EarlyNames`].
struct Early {
    names: Arc<Names>,
    /// Whether each of `names`, in order, is an enum's name (the
    /// declarations' or a declaring file's guess) rather than a guessed
    /// alias: only an enum's name is followed to an alias.
    enums: Vec<bool>,
    /// The derives' names, the gate functions and `names`; `None` should
    /// it not build (every text is kept then).
    search: Option<Refers>,
}

impl Early {
    fn new(names: Names, enums: &Names) -> Early {
        let search = Refers::build(names.iter(), true, true).ok();
        let enums = names.iter().map(|name| enums.contains(name)).collect();
        Early { names: Arc::new(names), enums, search }
    }
}

/// The most names [`EarlyNames`] holds: a bound on the first read's search
/// whatever the files say (names past it are searched for later, in
/// [`super::scan_with`], like any name the guess missed).
const MAX_EARLY_NAMES: usize = 64;

impl Default for EarlyNames {
    fn default() -> EarlyNames {
        EarlyNames::new()
    }
}

impl EarlyNames {
    pub fn new() -> EarlyNames {
        EarlyNames { current: std::sync::RwLock::new(Arc::new(Early::new(Names::new(), &NO_NAMES))) }
    }

    fn current(&self) -> Arc<Early> {
        Arc::clone(&self.current.read().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    /// Adds enums' names; the files read from now on are searched for them
    /// too, and for the aliases they are given.
    pub fn add(&self, names: Vec<String>) {
        self.add_both(names, Vec::new());
    }

    /// Adds enums' names and guessed aliases (which are searched for, but
    /// not followed to aliases of their own: a guess of a guess, such as
    /// `T` in `<T as IntoIterator>`, would fill the set with common words).
    fn add_both(&self, enums: Vec<String>, aliases: Vec<String>) {
        let known = self.current();
        let is_new = |name: &String| !known.names.contains(name);
        let new_enum = |name: &String| !known.names.iter().zip(&known.enums).any(|(n, &e)| e && n == name);
        if !enums.iter().any(new_enum) && !aliases.iter().any(is_new) {
            return;
        }
        let mut current = self.current.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut all = Names::clone(&current.names);
        let mut all_enums: Names =
            current.names.iter().zip(&current.enums).filter(|(_, &e)| e).map(|(n, _)| n.clone()).collect();
        for name in enums {
            if all.len() < MAX_EARLY_NAMES || all.contains(&name) {
                all.insert(name.clone());
                all_enums.insert(name);
            }
        }
        for name in aliases {
            if all.len() < MAX_EARLY_NAMES {
                all.insert(name);
            }
        }
        let enums_before = current.enums.iter().filter(|&&e| e).count();
        if all.len() > current.names.len() || all_enums.len() > enums_before {
            *current = Arc::new(Early::new(all, &all_enums));
        }
    }
}

/// The first read of a Rust file found in a directory: whether its text is
/// kept. It is when the file can declare (it names `FeatureGates` or
/// `ApiLifecycle`: the enums it may declare are guessed and added to
/// `early`, see `declared_enums`), or can reference a gate without any
/// derived enum's name (a gate function's call). Any other file is released
/// (the loader lets its text go): it can only become a candidate when [`super::scan_with`]
/// searches it for a derived enum's name or an alias's. It was searched for
/// the names `early` held when it was read: those that cannot be referenced
/// there are ruled out, and [`super::scan_with`] reads it again only for
/// other names (those that can, the derived enums' names it has not met yet,
/// and aliases). An enum's name of `early` followed by `as` and a name in a
/// `use` item with a visibility (`pub use gates::Feature as Gate`), or
/// ending such a `type` item (`pub type Gate = Feature;`), in code, adds
/// that name too: a guessed alias, itself not followed to further aliases.
/// An alias without a visibility (`use gates::Feature as F;`) is not: it
/// names the enum only in its own file, whose `use` item names the enum
/// itself (see `alias_of`), so the walk's search stays that of the enums'
/// names and the aliases visible beyond a module, however many modules
/// give an enum an alias of their own.
///
/// Sound whatever the walk's order: the names that count are those the
/// parse of the declaring files finds (and the aliases of those that the
/// parse of the referring files finds, [`super::scan_with`]), and a file is read
/// again for each of them that its first read did not rule out. A wrong
/// guess costs only a search in vain; a missed name (an enum the guess did
/// not see, one declared in a file read later, an alias) is not among the
/// names ruled out, so the file is read again for it.
pub fn first_read(text: &str, early: &EarlyNames) -> Keep {
    let current = early.current();
    let Some(search) = &current.search else { return Keep::Text };
    let (mut declares, mut calls) = (false, false);
    // Which of the names can be referenced.
    let mut named = vec![false; current.names.len()];
    // The aliases guessed, with where the enum's name they alias stands.
    let mut aliases = Vec::new();
    for (hit, end) in search.hits(text.as_bytes()) {
        match hit {
            Hit::Declares => declares = true,
            Hit::Call => calls = true,
            Hit::Name(name) => {
                if let Some(seen) = named.get_mut(name) {
                    *seen = true;
                }
                if aliases.len() < MAX_EARLY_NAMES && current.enums.get(name) == Some(&true) {
                    // `end - 1`: the name's last byte, in code when it is.
                    aliases.extend(alias_of(text, end).map(|alias| (end - 1, alias)));
                }
            }
        }
    }
    if declares {
        // The enums, and the aliases the declaring file gives them itself.
        let enums = declared_enums(text);
        let bytes = text.as_bytes();
        for name in &enums {
            for at in memchr::memmem::find_iter(bytes, name.as_bytes()) {
                if starts_ident(bytes, at) && aliases.len() < MAX_EARLY_NAMES {
                    aliases.extend(alias_of(text, at + name.len()).map(|alias| (at, alias)));
                }
            }
        }
        let aliases = in_code(text, aliases);
        if !enums.is_empty() || !aliases.is_empty() {
            early.add_both(enums, aliases);
        }
    } else if !aliases.is_empty() {
        let aliases = in_code(text, aliases);
        if !aliases.is_empty() {
            early.add_both(Vec::new(), aliases);
        }
    }
    if declares || calls {
        Keep::Text
    } else {
        Keep::Release(if !named.contains(&true) {
            Arc::clone(&current.names)
        } else {
            // The search's names are the set's, in its order.
            let missed = current.names.iter().zip(&named).filter(|(_, &seen)| !seen);
            Arc::new(missed.map(|(name, _)| name.clone()).collect())
        })
    }
}

/// The alias the identifier ending at `end` of `text` is given, by `as`
/// after it in a `use` item or by the `type` item it ends, when that item
/// has a visibility (`pub`, `pub(crate)`...): a guessed alias (see
/// [`first_read`]).
///
/// Only such an alias can name an enum beyond its module: the reader
/// follows an alias without a visibility (`use gates::Feature as F;`) only
/// in the scopes of its own file that see it, where the enum's own name is
/// written in the `use` or `type` item (and is searched for); it never
/// makes `F::X` in another file a reference. So the whole walk's files are
/// searched for an enum's name and the aliases it is given beyond a module,
/// never for a module's own aliases, which are often a letter (`F`) that
/// would make every file's search dense.
fn alias_of(text: &str, end: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let start = end - bytes[..end].iter().rev().take_while(|&&b| is_ident_byte(b)).count();
    alias_after(text, end).filter(|_| in_visible_use(bytes, start)).or_else(|| type_alias_of(text, end))
}

/// The aliases of `found` (each with an offset into `text`) whose offset
/// stands in code, not in a comment or a literal (a test's Rust source in a
/// string aliases nothing).
fn in_code(text: &str, mut found: Vec<(usize, String)>) -> Vec<String> {
    if found.is_empty() {
        return Vec::new();
    }
    found.sort();
    let offsets: Vec<usize> = found.iter().map(|&(at, _)| at).collect();
    let code = crate::outline::in_code(text.as_bytes(), 0, &offsets);
    found.into_iter().zip(code).filter(|&(_, code)| code).map(|((_, alias), _)| alias).collect()
}

/// Whether the path whose segment starts at `at` of `bytes` is in a `use`
/// item with a visibility, read backwards over the use tree (identifiers,
/// `::`, `,`, `*`, whitespace, groups closed before it and the group around
/// it) to the `use` keyword and what precedes it. What the bytes cannot
/// settle (a comment, non-ASCII text, more than [`TRIVIA_BYTES`] to look
/// at) counts as such an item; anything else (`<Feature as Trait>`,
/// `x as u8`) is not a `use` item.
fn in_visible_use(bytes: &[u8], at: usize) -> bool {
    let from = at.saturating_sub(TRIVIA_BYTES);
    let mut i = at;
    // How many groups closed before `at` are being skipped.
    let mut depth = 0usize;
    while i > from {
        let b = bytes[i - 1];
        match b {
            b'}' => depth += 1,
            b'{' => depth = depth.saturating_sub(1),
            b':' | b',' | b'*' => {}
            b'/' | b'#' | 0x80.. => return true,
            _ if b.is_ascii_whitespace() => {}
            _ if is_ident_byte(b) => {
                let end = i;
                while i > from && is_ident_byte(bytes[i - 1]) {
                    i -= 1;
                }
                if i == from && from > 0 {
                    // The word may go on before: too far to tell.
                    return true;
                }
                if depth == 0 && &bytes[i..end] == b"use" && (i == 0 || bytes[i - 1] != b'#') {
                    return has_visibility(&bytes[..i]);
                }
                continue;
            }
            _ => return false,
        }
        i -= 1;
    }
    // The start of the text (no `use`), or too far to tell.
    from > 0
}

/// Whether `before` (the text before an item's keyword) ends with a
/// visibility: `pub`, or `pub(...)`, whitespace after it.
fn has_visibility(before: &[u8]) -> bool {
    let before = before[before.len().saturating_sub(LINE_BEFORE_BYTES)..].trim_ascii_end();
    let before = match before.strip_suffix(b")") {
        Some(inside) => match memchr::memrchr(b'(', inside) {
            Some(open) => inside[..open].trim_ascii_end(),
            None => return false,
        },
        None => before,
    };
    before.strip_suffix(b"pub").is_some_and(|rest| rest.last().is_none_or(|&b| !is_ident_byte(b)))
}

/// The name after `as` at `at` of `text` (comments and whitespace around
/// it), if any: a guessed alias (see [`first_read`]).
fn alias_after(text: &str, at: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let at = skip_trivia(bytes, at)?;
    let after = at + "as".len();
    if !bytes[at..].starts_with(b"as") || bytes.get(after).is_none_or(|&b| is_ident_byte(b)) {
        return None;
    }
    ident_at(text, skip_trivia(bytes, after)?)
}

/// The alias a `type` item on one line, with a visibility, gives the
/// identifier that ends at `end` of `text` (`pub type Flag =
/// crate::gates::Feature;`: `Flag`), if any: a guessed alias (see
/// [`first_read`]). Comments inside the item and generics are not looked
/// through.
fn type_alias_of(text: &str, end: usize) -> Option<String> {
    let bytes = text.as_bytes();
    if bytes.get(skip_trivia(bytes, end)?) != Some(&b';') {
        return None;
    }
    let ident_len = |code: &[u8]| code.iter().rev().take_while(|&&b| is_ident_byte(b)).count();
    let line = line_before(bytes, end)?;
    // The identifier, then the path before it (`a::b::`, `::`).
    let mut code = line[..line.len() - ident_len(line)].trim_ascii_end();
    while let Some(rest) = code.strip_suffix(b"::") {
        let rest = rest.trim_ascii_end();
        let len = ident_len(rest);
        code = rest[..rest.len() - len].trim_ascii_end();
        if len == 0 {
            break;
        }
    }
    let code = code.strip_suffix(b"=")?.trim_ascii_end();
    let (before, alias) = code.split_at(code.len() - ident_len(code));
    let before = before.strip_suffix(b"r#").unwrap_or(before).trim_ascii_end();
    let keyword = before.strip_suffix(b"type")?;
    if !starts_ident(before, keyword.len()) || !has_visibility(keyword) {
        return None;
    }
    ident_at(std::str::from_utf8(alias).ok()?, 0)
}

/// The ASCII identifier at `at` of `text` (a raw one without its `r#`), if
/// any; `_` names nothing.
fn ident_at(text: &str, at: usize) -> Option<String> {
    let rest = text.get(at..)?;
    let rest = rest.strip_prefix("r#").unwrap_or(rest);
    let len = rest.bytes().take_while(|&b| is_ident_byte(b)).count();
    let name = &rest[..len];
    (!name.is_empty() && name != "_" && !name.as_bytes()[0].is_ascii_digit()).then(|| name.to_owned())
}

/// The enums `text` may derive `FeatureGates` for, guessed in one pass over
/// the bytes: the name after each `enum` keyword that starts its line's
/// code (after a visibility, `pub(crate)`) with an occurrence of
/// `FeatureGates` in code (outside comments and literals, and with none
/// of `//` and `"` before it on its line) between it and the `enum`
/// before, itself in code. Macros are not told apart: a guess, see
/// [`first_read`].
fn declared_enums(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    // Only what stands in code: an enum in a test's string literal or a
    // comment's example is no guess worth searching every file for.
    let code_only = |hits: Vec<usize>| {
        let code = crate::outline::in_code(bytes, 0, &hits);
        hits.into_iter().zip(code).filter(|&(_, code)| code).map(|(at, _)| at).collect::<Vec<_>>()
    };
    let derives = memchr::memmem::find_iter(bytes, "FeatureGates")
        .filter(|&at| line_before(bytes, at).is_some_and(|code| !code.contains(&b'"') && !has(code, b"//")))
        .collect();
    let mut derives = code_only(derives).into_iter().peekable();
    let mut out = Vec::new();
    for at in code_only(memchr::memmem::find_iter(bytes, "enum").collect()) {
        let end = at + "enum".len();
        let keyword = starts_ident(bytes, at) && bytes.get(end).is_some_and(u8::is_ascii_whitespace);
        let visibility = |code: &[u8]| {
            let code = code.trim_ascii();
            code.is_empty()
                || code.starts_with(b"pub")
                    && code.iter().all(|&b| is_ident_byte(b) || b"():".contains(&b) || b == b' ')
        };
        if !keyword || !line_before(bytes, at).is_some_and(visibility) {
            continue;
        }
        let mut derived = false;
        while derives.next_if(|&d| d < at).is_some() {
            derived = true;
        }
        if !derived {
            continue;
        }
        let name = skip_trivia(bytes, end).and_then(|at| ident_at(text, at));
        if let Some(name) = name.filter(|_| out.len() < MAX_EARLY_NAMES) {
            out.push(name);
        }
    }
    out
}

/// How far back [`line_before`] looks: a bound, so that many occurrences on
/// one long line cost linear time.
const LINE_BEFORE_BYTES: usize = 256;

/// The text of `at`'s line before it, if it is at most [`LINE_BEFORE_BYTES`]
/// long.
fn line_before(bytes: &[u8], at: usize) -> Option<&[u8]> {
    let from = at.saturating_sub(LINE_BEFORE_BYTES);
    match memchr::memrchr(b'\n', &bytes[from..at]) {
        Some(newline) => Some(&bytes[from + newline + 1..at]),
        None => (from == 0).then(|| &bytes[..at]),
    }
}

/// Whether `needle` occurs in `haystack`.
fn has(haystack: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(haystack, needle).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{Text, Texts};
    use crate::{scan_with_rereads, Parse};

    #[test]
    fn declared_enums_are_guessed_from_the_bytes() {
        let check = |text: &str, expected: &[&str]| assert_eq!(declared_enums(text), expected, "{text}");
        check("#[derive(FeatureGates)]\npub enum Feature {", &["Feature"]);
        check("#[derive(Clone, kompat::FeatureGates)]\n#[repr(u8)]\npub(crate) enum r#Gate {}", &["Gate"]);
        check("#[derive(FeatureGates)]\npub enum /* why */ Gate {}", &["Gate"]);
        check("#[derive(FeatureGates)]\nenum A {}\nenum Plain {}\n#[derive(FeatureGates)]\nenum B {}", &["A", "B"]);
        check("#[derive(\n    Clone,\n    FeatureGates,\n)]\npub(in crate::x) enum X {}", &["X"]);
        check("let enumerate = FeatureGates;\nenum X {}", &["X"]);
        // Not in code.
        check("let enumerate = 1; // FeatureGates\nenum X {}", &[]);
        check("//! A `#[derive(FeatureGates)]` enum and its\n//! enum of names.\nenum X {}", &[]);
        check("const S: &str = \"FeatureGates\";\nenum X {}", &[]);
        check("#[derive(FeatureGates)]\n/// An enum of gates.\nlet x = enum_of(); enum X {}", &[]);
        check("#[derive(Debug)] enum Plain {} // FeatureGates", &[]);
        check("/* FeatureGates are declared elsewhere. */\nenum Local { A }", &[]);
        check("#[derive(FeatureGates)]\n#[doc = \"\nenum Fake\"]\npub enum Feature {}", &["Feature"]);
        check("const T: &str = r#\"\n#[derive(FeatureGates)]\nenum G { A }\n\"#;\nenum X {}", &[]);
        // Wrong guesses: harmless (a search in vain) or missing the real
        // name (the files are read again for it).
        check("#[derive(FeatureGates)]\npub enum Fëature {}", &["F"]);
        check("#[derive(FeatureGates)] #[repr(u8)] pub enum Feature {}", &[]);
        check("macro_rules! m { ($n:ident) => {\n#[derive(FeatureGates)]\nenum $n {} } }", &[]);
        let long = format!("{}#[derive(FeatureGates)]\nenum X {{}}", " ".repeat(LINE_BEFORE_BYTES));
        check(&long, &[]);
        check("FeatureGates\nxenum X {}", &[]);
        check("#[derive(FeatureGates)]\nenum", &[]);
        check("#[derive(FeatureGates)]\nenum 1", &[]);
        let many: String = (0..100).map(|i| format!("#[derive(FeatureGates)]\nenum E{i} {{}}\n")).collect();
        assert_eq!(declared_enums(&many).len(), MAX_EARLY_NAMES);
    }

    /// What a first read of `text` does when the walk knows `known`: whether
    /// the text is kept, the names ruled out when it is not, and the names
    /// known after it.
    fn check_first_read(known: &[&str], text: &str, kept: bool, ruled_out: &[&str], after: &[&str]) {
        let early = EarlyNames::new();
        early.add(known.iter().map(|n| (*n).to_owned()).collect());
        let got = match first_read(text, &early) {
            Keep::Text => (true, Vec::new()),
            Keep::Release(names) => (false, names.iter().cloned().collect()),
        };
        assert_eq!(got, (kept, ruled_out.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>()), "{text}");
        let names: Vec<String> = early.current().names.iter().cloned().collect();
        assert_eq!(names, after, "{text}");
    }

    #[test]
    fn first_reads_rule_out_the_names_they_searched_for() {
        let gates = "#[derive(FeatureGates)]\npub enum Feature { A }";
        check_first_read(&[], gates, true, &[], &["Feature"]);
        check_first_read(&["Other"], gates, true, &[], &["Feature", "Other"]);
        let aliased = format!("{gates}\npub use self::Feature as Gate;\nuse self::Feature as _;");
        check_first_read(&[], &aliased, true, &[], &["Feature", "Gate"]);
        let typed = format!("{gates}\npub type Flag = Feature;");
        check_first_read(&[], &typed, true, &[], &["Feature", "Flag"]);
        check_first_read(&[], "#[derive(ApiLifecycle)] struct Pod;", true, &[], &[]);
        check_first_read(&[], "fn f(g: &G) -> bool { g.enabled(\"A\") }", true, &[], &[]);
        check_first_read(&[], "fn main() {}", false, &[], &[]);
        check_first_read(&["Feature"], "fn main() {}", false, &["Feature"], &["Feature"]);
        // Named where it can be a reference: not ruled out.
        check_first_read(&["Feature"], "fn f() { Feature::A; }", false, &[], &["Feature"]);
        check_first_read(&["Feature", "Gate"], "fn f() { Gate::A; }", false, &["Feature"], &["Feature", "Gate"]);
        check_first_read(&["Feature"], "struct Feature; fn f(x: Feature) {}", false, &["Feature"], &["Feature"]);
        // A guessed alias is searched for from now on.
        check_first_read(&["Feature"], "pub use crate::gates::Feature as Gate;", false, &[], &["Feature", "Gate"]);
        check_first_read(&["Feature"], "pub use gates::{Feature /* c */ as r#G};", false, &[], &["Feature", "G"]);
        check_first_read(&["Feature"], "use gates::Feature as;", false, &[], &["Feature"]);
        check_first_read(&["Feature"], "use gates::Feature asF;", false, &[], &["Feature"]);
        // And a type alias's name.
        check_first_read(&["Feature"], "pub type Flag = Feature;", false, &[], &["Feature", "Flag"]);
        check_first_read(&["Feature"], "pub type r#F = ::crate :: gates::Feature ;", false, &[], &["F", "Feature"]);
        check_first_read(&["Feature"], "pub(crate) type F=self::Feature/* c */;", false, &[], &["F", "Feature"]);
        check_first_read(&["Feature"], "type F = Vec<Feature>;", false, &[], &["Feature"]);
        check_first_read(&["Feature"], "type F = Feature::A;", false, &[], &["Feature"]);
        check_first_read(&["Feature"], "subtype F = Feature;", false, &[], &["Feature"]);
        check_first_read(&["Feature"], "let x = Feature;", false, &[], &["Feature"]);
        check_first_read(&["Feature"], "type = Feature;", false, &[], &["Feature"]);
        // The names are bounded whatever a file says.
        let early = EarlyNames::new();
        early.add(vec!["Feature".to_owned()]);
        let many: String = (0..100).map(|i| format!("pub use gates::Feature as A{i};\n")).collect();
        assert!(matches!(first_read(&many, &early), Keep::Release(_)));
        assert_eq!(early.current().names.len(), MAX_EARLY_NAMES);
        // A call keeps the text; its aliases are guessed all the same.
        let both = "pub use gates::Feature as F;\nfn f(g: &G) -> bool { g.enabled(\"A\") }";
        check_first_read(&["Feature"], both, true, &[], &["F", "Feature"]);
    }

    /// With more names than it searches for one by one, [`Refers`] searches
    /// for all at once: the same hits.
    #[test]
    fn many_names_are_searched_for_at_once_with_the_same_hits() {
        let feature = "Feature".to_owned();
        let absent: Vec<String> = (0..crate::search::MAX_FINDERS).map(|i| format!("Absent{i}")).collect();
        let hits = |refers: &Refers, text: &str| {
            let mut hits: Vec<(Hit, usize)> = refers.hits(text.as_bytes()).collect();
            hits.sort_by_key(|&(hit, end)| (end, format!("{hit:?}")));
            hits
        };
        let mut found = 0;
        for text in [
            "let x = Feature::WatchList; if g.enabled(\"A\") {}",
            "use crate::Feature as F; #[derive(FeatureGates)] enum G {}",
            "impl Feature { fn f() { Self::A } } // ApiLifecycle",
            "let x = MyFeature::A; struct Feature; let enabled = 1;",
            "FeatureFeature::A Feature",
        ] {
            for declares in [false, true] {
                let few = Refers::build(std::iter::once(&feature), true, declares);
                let many = Refers::build(std::iter::once(&feature).chain(&absent), true, declares);
                let (Ok(few), Ok(many)) = (few, many) else { panic!("the searches build") };
                assert!(few.overlapping.is_none() && many.overlapping.is_some());
                let expected = hits(&few, text);
                found += expected.len();
                assert_eq!(hits(&many, text), expected, "{text}");
            }
        }
        assert!(found >= 10, "{found}");
    }

    /// The search of many names at once finds every occurrence the names'
    /// searches one by one find, with names that overlap each other and
    /// the other patterns (`enabled`, the derives) in every way, in texts
    /// made of their pieces.
    #[test]
    fn many_overlapping_names_are_searched_for_at_once_with_the_same_hits() {
        let names: Vec<String> =
            ["Feature", "FeatureGate", "Gate", "ate", "eFe", "Fe", "sGa"].iter().map(|n| n.to_string()).collect();
        let absent: Vec<String> = (0..crate::search::MAX_FINDERS).map(|i| format!("Absent{i}")).collect();
        let pieces = [
            "Feature",
            "Gate",
            "FeatureGates",
            "ApiLifecycle",
            "enabled",
            "is_",
            "feature_",
            "_by_name",
            "::",
            "(",
            "\"",
            "<",
            ";",
            "=",
            " as ",
            "a",
            "w",
            " ",
            "e",
            "s",
            "\n",
            "// c\n",
        ];
        let hits = |refers: &Refers, text: &str| {
            let mut hits: Vec<(Hit, usize)> = refers.hits(text.as_bytes()).collect();
            hits.sort_by_key(|&(hit, end)| (end, format!("{hit:?}")));
            hits
        };
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut found = 0;
        for declares in [false, true] {
            let Ok(few) = Refers::build(names.iter(), true, declares) else { panic!("the search builds") };
            let Ok(many) = Refers::build(names.iter().chain(&absent), true, declares) else { panic!("builds") };
            assert!(many.overlapping.is_some());
            let alone: Vec<Refers> = names
                .iter()
                .map(|name| Refers::build(std::iter::once(name), false, false).unwrap_or_else(|e| panic!("{e:?}")))
                .collect();
            let Ok(rest) = Refers::build(std::iter::empty(), true, declares) else { panic!("builds") };
            for _ in 0..2000 {
                let mut text = String::new();
                for _ in 0..(seed % 24) {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                // Every occurrence, judged one pattern at a time.
                let one_by_one: Vec<(Hit, usize)> = {
                    let mut all = Vec::new();
                    for (i, alone) in alone.iter().enumerate() {
                        all.extend(hits(alone, &text).into_iter().map(|(_, end)| (Hit::Name(i), end)));
                    }
                    all.extend(hits(&rest, &text));
                    all.sort_by_key(|&(hit, end)| (end, format!("{hit:?}")));
                    all
                };
                found += one_by_one.len();
                assert_eq!(hits(&few, &text), one_by_one, "{text:?}");
                assert_eq!(hits(&many, &text), one_by_one, "{text:?}");
            }
        }
        assert!(found >= 1000, "{found}");
    }

    const GATES: &str = "#[derive(Clone, Copy, kompat::FeatureGates)]\npub enum Feature {\n    \
        #[kompat(spec(version = \"1.30\", stage = \"Alpha\", default = false))]\n    A,\n    \
        #[kompat(spec(version = \"1.30\", stage = \"Alpha\", default = false))]\n    B,\n}\n";
    const USES: &str = "fn f() -> bool {\n    matches!(x(), Feature::B)\n}\n";
    const PLAIN: &str = "fn main() { std::io::stdout(); }\n";

    /// Files first read in the order `order` names them as a walk would
    /// (one thread: each first read sees the names of those before), and
    /// returned in path order.
    fn read_in_order(files: &[(&str, &str)], order: &[usize]) -> Texts {
        let early = EarlyNames::new();
        let mut read: Vec<(usize, Text, Keep)> =
            order.iter().map(|&i| (i, Text::new(files[i].0, files[i].1), first_read(files[i].1, &early))).collect();
        read.sort_by(|a, b| files[a.0].0.cmp(files[b.0].0));
        let mut texts = Texts::default();
        for (_, text, keep) in read {
            texts.push_read(text, keep);
        }
        texts
    }

    /// The findings of a scan (and of the declarations it adds), rendered.
    fn findings(files: &Texts, parse: Parse) -> (String, usize) {
        let mut files = files.clone();
        match scan_with_rereads(&mut files, parse) {
            Ok((found, rereads)) => {
                let refs: Vec<String> = found
                    .scan
                    .refs
                    .iter()
                    .map(|r| {
                        let (line, col) = r.location.line_col().unwrap_or_default();
                        let name = r.location.path().file_name().unwrap_or_default().display().to_string();
                        format!("{} {name}:{line}:{col}", r.gate)
                    })
                    .collect();
                let declared: Vec<&str> =
                    found.declared.iter().flat_map(|d| d.features.features()).map(|f| f.name.as_str()).collect();
                (format!("{declared:?} {refs:?}"), rereads)
            }
            Err(err) => (format!("error: {err:?}"), 0),
        }
    }

    /// Every order of `files`, read as a walk would: the findings are those
    /// of a full parse in each, and `refs` of them are references; the files
    /// are read again as often as `rereads` says of the order (by the
    /// files' indices).
    fn check_orders(files: &[(&str, &str)], refs: usize, rereads: impl Fn(&[usize]) -> usize) {
        let mut orders = vec![Vec::new()];
        for _ in files {
            let shorter = std::mem::take(&mut orders);
            for order in shorter {
                orders.extend((0..files.len()).filter(|i| !order.contains(i)).map(|i| [&order[..], &[i]].concat()));
            }
        }
        for order in &orders {
            let read = read_in_order(files, order);
            let (fast, count) = findings(&read, Parse::Candidates);
            let (full, _) = findings(&read, Parse::Every);
            assert_eq!(fast, full, "{order:?}");
            assert_eq!(fast.matches(".rs:").count(), refs, "{order:?}: {fast}");
            assert_eq!(count, rereads(order), "{order:?}");
        }
    }

    /// The position of file `i` in `order`.
    fn at(order: &[usize], i: usize) -> usize {
        order.iter().position(|&j| j == i).unwrap_or(usize::MAX)
    }

    #[test]
    fn a_released_file_is_read_again_only_for_names_it_was_not_searched_for() {
        // The declaring file first: only the referring file is read again;
        // each file read before it is read again too.
        let files = [("gates.rs", GATES), ("uses.rs", USES), ("plain.rs", PLAIN), ("other.rs", PLAIN)];
        check_orders(&files, 1, |order| 1 + [2, 3].iter().filter(|&&i| at(order, i) < at(order, 0)).count());
        // Two enums in two files.
        let more = GATES.replace("enum Feature", "enum More");
        let both = "fn f() -> bool {\n    matches!(x(), Feature::A) || matches!(y(), More::B)\n}\n";
        let files = [("gates.rs", GATES), ("more.rs", &more), ("uses.rs", both), ("plain.rs", PLAIN)];
        check_orders(&files, 2, |order| {
            let before = |decl: usize| at(order, 3) < at(order, decl);
            1 + usize::from(before(0) || before(1))
        });
    }

    #[test]
    fn aliases_found_in_a_third_file_are_searched_for_early_too() {
        for alias in ["pub use crate::gates::Feature as Gate;\n", "pub type Gate = crate::gates::Feature;\n"] {
            aliases_in_a_third_file(alias);
        }
    }

    fn aliases_in_a_third_file(alias: &str) {
        let user = "fn f() -> bool {\n    matches!(x(), Gate::A)\n}\n";
        let files = [("gates.rs", GATES), ("alias.rs", alias), ("user.rs", user), ("plain.rs", PLAIN)];
        // Met after the declaring file and the alias, the plain file is not
        // read again, the user once (for `Gate`), the alias once (it names
        // `Feature`).
        check_orders(&files, 1, |order| {
            let (gates, alias, user, plain) = (at(order, 0), at(order, 1), at(order, 2), at(order, 3));
            // The alias names `Feature`: read again once (and parsed).
            let alias_reads = 1;
            // Read again for `Gate` (never ruled out: where it is known, it
            // is found), and for `Feature` when read before it was known.
            let user_reads = 1 + usize::from(user < gates);
            // Read again for each name not known at its first read (`Gate`
            // is guessed when the alias is read after the declaring file).
            let plain_reads = usize::from(plain < gates) + usize::from(!(gates < alias && alias < plain));
            alias_reads + user_reads + plain_reads
        });
    }

    /// The aliases a first read of `text` guesses for `Feature`.
    fn check_guessed(text: &str, expected: &[&str]) {
        let early = EarlyNames::new();
        early.add(vec!["Feature".to_owned()]);
        first_read(text, &early);
        let names: Vec<String> = early.current().names.iter().filter(|n| *n != "Feature").cloned().collect();
        assert_eq!(names, expected, "{text}");
        // A declaring file guesses the same of its own enum's aliases.
        let early = EarlyNames::new();
        first_read(&format!("#[derive(FeatureGates)]\npub enum Feature {{ A }}\n{text}"), &early);
        let names: Vec<String> = early.current().names.iter().filter(|n| *n != "Feature").cloned().collect();
        assert_eq!(names, expected, "declaring: {text}");
    }

    /// Only an alias visible beyond its module can make a name of another
    /// file a reference: the others (`use gates::Feature as F;`) are never
    /// searched for in the walk's other files, whose search stays that of
    /// the enums' names (see `alias_of`).
    #[test]
    fn only_aliases_visible_beyond_their_module_are_guessed() {
        // A visibility: guessed.
        check_guessed("pub use crate::gates::Feature as F;", &["F"]);
        check_guessed("pub(crate) use gates::Feature as F;", &["F"]);
        check_guessed("pub(in crate::x) use gates::{self, Feature as F};", &["F"]);
        check_guessed(
            "#[cfg(x)]\npub  use gates::{\n    a::{b, c::*},\n    Other as O,\n    Feature as F,\n};",
            &["F"],
        );
        check_guessed("mod m {\n    pub use super::Feature as F;\n}", &["F"]);
        check_guessed("pub type F = Feature;\npub(crate) type G = gates::Feature;", &["F", "G"]);
        // None: the module's own alias, named only where its `use` is seen.
        check_guessed("use crate::gates::Feature as F;\nfn f() { F::A; }", &[]);
        check_guessed("use gates::{\n    Other as O,\n    Feature as F,\n};", &[]);
        check_guessed("#[cfg(test)]\nuse gates::Feature as F;", &[]);
        check_guessed("mod tests {\n    use super::Feature as F;\n}", &[]);
        check_guessed("fn f() {\n    use gates::Feature as F;\n    F::A;\n}", &[]);
        check_guessed("type F = Feature;\nfn f() { type G = Feature; }", &[]);
        check_guessed("pub fn f() { type G = Feature; }", &[]);
        check_guessed("republic use gates::Feature as F;\nmod pub_ { use gates::Feature as G; }", &[]);
        // Not an alias at all.
        check_guessed("fn f() -> u8 { <Feature as Into<u8>>::into(Feature::A) }", &[]);
        check_guessed("pub fn f(x: u8) -> Feature { x as Feature }", &[]);
        // Nor in a comment or a literal (a test's source).
        check_guessed("const SRC: &str = \"pub use gates::Feature as F;\";", &[]);
        check_guessed("const SRC: &str = r#\"\npub type F = Feature;\n\"#;", &[]);
        check_guessed("// pub use gates::Feature as F;\n/* pub type G = Feature; */", &[]);
        check_guessed("const SRC: &str = \"x\"; pub use gates::Feature as F;", &["F"]);
        // What the bytes cannot settle is guessed (a search in vain at worst).
        check_guessed("pub use gates::{/* c */ Feature as F};", &["F"]);
        let far = format!("use gates::{{\n{}    Feature as F,\n}};", "    a,\n".repeat(TRIVIA_BYTES / 6));
        check_guessed(&far, &["F"]);
    }

    /// An enum's alias is guessed; an alias's alias is not (a guess of a
    /// guess: `<Gate as Trait>` would add `Trait`, then whatever `Trait` is
    /// cast to).
    #[test]
    fn aliases_are_guessed_from_the_enums_names_only() {
        let early = EarlyNames::new();
        let names = |early: &EarlyNames| early.current().names.iter().cloned().collect::<Vec<_>>();
        first_read(GATES, &early);
        assert_eq!(names(&early), ["Feature"]);
        first_read("pub use crate::gates::Feature as Gate;\nfn f() { Gate::A; }\n", &early);
        assert_eq!(names(&early), ["Feature", "Gate"]);
        first_read("fn g() -> u8 { <Gate as Into<u8>>::into(Gate::A) }\npub type Short = Gate;\n", &early);
        assert_eq!(names(&early), ["Feature", "Gate"]);
        first_read("pub type Flag = crate::gates::Feature;\n", &early);
        assert_eq!(names(&early), ["Feature", "Flag", "Gate"]);
    }

    #[test]
    fn wrong_guesses_cost_reads_never_findings() {
        // The real name is missed: every released file is read again,
        // whatever the order.
        let hidden = GATES.replace(")]\npub enum", ")] #[repr(u8)] pub enum");
        let files = [("gates.rs", &hidden[..]), ("uses.rs", USES), ("plain.rs", PLAIN)];
        check_orders(&files, 1, |_| 2);
        // An enum in a string literal is no guess: the real name is found,
        // and a released file is read again only when met before it.
        let literal = GATES.replace("pub enum", "#[doc = \"\nenum Fake\"]\npub enum");
        let files = [("gates.rs", &literal[..]), ("uses.rs", USES), ("plain.rs", PLAIN)];
        check_orders(&files, 1, |order| 1 + usize::from(at(order, 2) < at(order, 0)));
        // `FeatureGates` in a comment and an enum in a macro: names searched
        // for in vain.
        let notes = "// FeatureGates are declared in gates.rs.\nenum Local { A }\nfn f() { Local::A; }\n";
        let mac = "macro_rules! m { () => { #[derive(FeatureGates)] enum Fake { A } } }\nfn g() { Fake::A; }\n";
        let files = [("gates.rs", GATES), ("notes.rs", notes), ("mac.rs", mac), ("uses.rs", USES)];
        check_orders(&files, 1, |_| 1);
    }
}
