//! The byte searches of the reader: which files can declare (the derives'
//! names, [`DECLARES`]) and which can reference a gate ([`Refers`]: a
//! derived enum's name, or an alias's, where a reference can stand, and a
//! gate function called with a string literal), judged from the bytes
//! around each match without parsing.

use aho_corasick::AhoCorasick;
use kompat_diag::Diagnostic;

use crate::outline::{is_ident_byte, skip_comment};

/// What the reader reports when it cannot read something: one or more
/// errors, each located where known.
pub type Failures = Vec<Diagnostic>;

pub(crate) type Result<T, E = Failures> = std::result::Result<T, E>;

/// The failure of a byte search that would not build (never with the
/// patterns the reader uses).
pub(crate) fn internal(err: impl std::fmt::Display) -> Failures {
    vec![Diagnostic::error(format!("internal error building a search: {err}"))]
}

/// The byte search that finds the files that can reference a gate: a
/// derived enum's name (or an alias's) as a whole identifier followed by
/// `::` (or by what may come between: generic arguments `<`, the end `>` of
/// a qualified path's type, a comment, Unicode whitespace), by `as` or `;`
/// (an alias: `use Feature as F`, `type F = Feature;`), or by `{` or
/// `where` (an `impl` whose `Self::X` names a variant); or a gate function
/// called with a string literal (see [`gate_call`]). It never misses a file
/// that holds a reference; it may name a few that do not.
pub(crate) struct Refers {
    /// All the patterns at once: says quickly that a text holds none.
    search: AhoCorasick,
    /// Each pattern alone: every occurrence of each is judged (an
    /// overlapping search of all at once is several times slower with a
    /// few patterns)...
    finders: Vec<memchr::memmem::Finder<'static>>,
    /// ... or, with more than [`MAX_FINDERS`], all at once, where `search`
    /// matches (see [`Refers::hits`]).
    pub(crate) overlapping: Option<AhoCorasick>,
    /// The longest pattern's length.
    longest: usize,
    /// Patterns from this index on are the gate functions'.
    functions: usize,
    /// Patterns from this index on are the derives' names (only in the
    /// search of a first read, `first_read`).
    declares: usize,
}

/// What a [`Refers`] search found in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hit {
    /// A derived enum's name (or an alias's) in a place that can reference
    /// it: the name's index among those the search was built with.
    Name(usize),
    /// A gate function's call with a string literal.
    Call,
    /// `FeatureGates` or `ApiLifecycle`: the file can declare.
    Declares,
}

impl Refers {
    pub(crate) fn new<'a>(names: impl Iterator<Item = &'a String>, functions: bool) -> Result<Refers> {
        Refers::build(names, functions, false)
    }

    /// The search for `names`, the gate functions when `functions`, and the
    /// derives' names when `declares`.
    pub(crate) fn build<'a>(
        names: impl Iterator<Item = &'a String>,
        functions: bool,
        declares: bool,
    ) -> Result<Refers> {
        let mut patterns: Vec<&str> = names.map(String::as_str).collect();
        let first_function = patterns.len();
        if functions {
            patterns.push("enabled");
        }
        let first_declare = patterns.len();
        if declares {
            patterns.extend(DERIVES);
        }
        // Leftmost-first: the same answer to "any?", with the SIMD searcher
        // (the standard semantics have only a first-byte prefilter, and
        // `e` is everywhere).
        let search = AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build(&patterns)
            .map_err(internal)?;
        let (finders, overlapping) = if patterns.len() <= MAX_FINDERS {
            (patterns.iter().map(|p| memchr::memmem::Finder::new(p.as_bytes()).into_owned()).collect(), None)
        } else {
            let all = AhoCorasick::new(&patterns).map_err(internal)?;
            (Vec::new(), Some(all))
        };
        let longest = patterns.iter().map(|p| p.len()).max().unwrap_or(0);
        Ok(Refers { search, finders, overlapping, longest, functions: first_function, declares: first_declare })
    }

    pub(crate) fn is_match(&self, text: &[u8]) -> bool {
        self.hits(text).next().is_some()
    }

    /// Every hit in `text` with where its match ends, pattern by pattern,
    /// each in the order of the text. Each occurrence of each pattern is
    /// judged on its own, so a text matches a set of names if and only if it
    /// matches one of them alone: what lets a first read rule out each of
    /// the names it searched for (`first_read`).
    pub(crate) fn hits<'t>(&'t self, text: &'t [u8]) -> Box<dyn Iterator<Item = (Hit, usize)> + 't> {
        if !self.search.is_match(text) {
            return Box::new(std::iter::empty());
        }
        let judge = move |pattern: usize, start: usize, end: usize| {
            let hit = if pattern >= self.declares {
                Some(Hit::Declares)
            } else if pattern >= self.functions {
                gate_call(text, start, end).then_some(Hit::Call)
            } else {
                name_ref(text, start, end).then_some(Hit::Name(pattern))
            };
            hit.map(|hit| (hit, end))
        };
        match &self.overlapping {
            // Every occurrence of a pattern starts inside a match of the
            // non-overlapping search (its leftmost start is never skipped),
            // so the overlapping search runs only over those matches and
            // what a pattern starting in them can reach: the same
            // occurrences, at the speed of the search with a prefilter (an
            // overlapping search has none worth the name, and reads every
            // byte).
            Some(all) => Box::new(self.search.find_iter(text).flat_map(move |m| {
                let (start, end) = (m.start(), m.end());
                let reach = (end - 1 + self.longest).min(text.len());
                let window = aho_corasick::Input::new(text).span(start..reach);
                all.find_overlapping_iter(window)
                    .filter(move |o| o.start() < end)
                    .filter_map(move |o| judge(o.pattern().as_usize(), o.start(), o.end()))
            })),
            None => Box::new(self.finders.iter().enumerate().flat_map(move |(pattern, finder)| {
                finder.find_iter(text).filter_map(move |start| judge(pattern, start, start + finder.needle().len()))
            })),
        }
    }
}

/// The most patterns [`Refers`] searches for one by one.
pub(crate) const MAX_FINDERS: usize = 8;

/// Whether a derived enum's name (or an alias's) found at `start..end` of
/// `text` can be a reference (see [`Refers`]).
fn name_ref(text: &[u8], start: usize, end: usize) -> bool {
    // `;` ends a type alias (after `=` or a path's `::`); `a`
    // and `w` stand for `as` and `where`: a superset.
    let aliased = || matches!(text[..start].iter().rev().find(|b| !b.is_ascii_whitespace()), Some(b'=' | b':'));
    starts_ident(text, start)
        && match skip_trivia(text, end).map(|at| text.get(at)) {
            // Too far to tell: a possible match.
            None => true,
            Some(Some(b';')) => aliased(),
            Some(next) => matches!(next, Some(b':' | b'<' | b'>' | b'{' | b'a' | b'w' | 0x80..)),
        }
}

/// The names of the derives that declare, as a byte search looks for them.
pub(crate) const DERIVES: [&str; 2] = ["FeatureGates", "ApiLifecycle"];

/// The byte search for the files that can declare: the derives' names.
pub(crate) static DECLARES: std::sync::LazyLock<std::result::Result<AhoCorasick, aho_corasick::BuildError>> =
    std::sync::LazyLock::new(|| AhoCorasick::new(DERIVES));

/// Whether `enabled` at `start..end` of `text` can be a gate function called
/// with a string literal: the whole identifier is one of
/// `refs::GATE_FUNCTIONS`, followed by a turbofish (`::<`) or by `(`, `[` or
/// `{` (a macro's tokens count any group) whose first token is a string
/// literal (`"`, `r"`, `r#"`). Comments and whitespace may stand between;
/// anything non-ASCII (Unicode whitespace, an identifier), or more of them
/// than [`skip_trivia`] looks at, is taken as a possible match.
pub(crate) fn gate_call(text: &[u8], start: usize, end: usize) -> bool {
    // The identifier's start, looked for no further back than the longest
    // prefix (an identifier may be long, and hold many `enabled`).
    let prefixed = |prefix: &[u8]| text[..start].ends_with(prefix) && starts_ident(text, start - prefix.len());
    let by_name = text[end..].starts_with(b"_by_name");
    let exact = starts_ident(text, start) || (!by_name && (prefixed(b"is_") || prefixed(b"feature_")));
    let end = if by_name { end + "_by_name".len() } else { end };
    if !exact || text.get(end).copied().is_some_and(is_ident_byte) {
        return false;
    }
    let next = |at: usize| skip_trivia(text, at).map(|at| (at, text.get(at).copied()));
    match next(end) {
        None | Some((_, Some(0x80..))) => true,
        Some((at, Some(b':'))) => {
            text.get(at + 1) == Some(&b':') && matches!(next(at + 2), None | Some((_, Some(b'<' | 0x80..))))
        }
        Some((at, Some(b'(' | b'[' | b'{'))) => match next(at + 1) {
            None | Some((_, Some(b'"' | 0x80..))) => true,
            Some((arg, Some(b'r'))) => matches!(text.get(arg + 1), Some(b'"' | b'#')),
            Some(_) => false,
        },
        Some(_) => false,
    }
}

/// Whether the derive name at `at` of `text` can stand in a
/// `#[derive(...)]` list, as `attr::derives` reads one: only paths and
/// commas between the list's `(`, preceded by `derive`, and the name.
/// Anything the bytes cannot settle (a comment, a raw identifier,
/// non-ASCII text, more than [`TRIVIA_BYTES`] to look at) counts as a
/// possible derive; a trait's name in a bound or a path does not.
pub(crate) fn in_derive_list(text: &[u8], at: usize) -> bool {
    let from = at.saturating_sub(TRIVIA_BYTES);
    let mut i = at;
    while i > from {
        let b = text[i - 1];
        match b {
            b'(' => {
                let before = text[from..i - 1].trim_ascii_end();
                return match before.strip_suffix(b"derive") {
                    Some(rest) => rest.last().is_none_or(|&b| !is_ident_byte(b)),
                    // A comment's end, or too far to tell.
                    None => before.ends_with(b"/") || (before.is_empty() && from > 0),
                };
            }
            b',' | b':' => {}
            b'/' | b'*' | b'#' | 0x80.. => return true,
            _ if is_ident_byte(b) || b.is_ascii_whitespace() => {}
            _ => return false,
        }
        i -= 1;
    }
    // The start of the text, or too far to tell.
    from > 0
}

/// Whether an identifier can start at `at` of `text`: no identifier byte
/// just before it.
pub(crate) fn starts_ident(text: &[u8], at: usize) -> bool {
    at == 0 || !is_ident_byte(text[at - 1])
}

/// How many bytes of whitespace and comments [`skip_trivia`] looks at: a
/// bound, so that many matches followed by one long comment cost linear
/// time.
pub(crate) const TRIVIA_BYTES: usize = 1024;

/// The offset of the first byte from `at` on that is neither ASCII
/// whitespace nor in a comment (`//` to the line's end, `/* */` nested);
/// `None` past [`TRIVIA_BYTES`] of them.
pub(crate) fn skip_trivia(text: &[u8], from: usize) -> Option<usize> {
    let text = &text[..text.len().min(from + TRIVIA_BYTES + 2)];
    let mut at = from;
    loop {
        while text.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        if at > from + TRIVIA_BYTES {
            return None;
        }
        match (text.get(at), text.get(at + 1)) {
            (Some(b'/'), Some(b'/' | b'*')) => {
                at = skip_comment(text, at).unwrap_or(text.len());
            }
            _ => return Some(at),
        }
    }
}
