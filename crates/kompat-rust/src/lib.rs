//! The Rust source reader: text in, values out. `#[derive(FeatureGates)]`
//! enums become feature declarations (with their `#[kompat(allow(...))]`
//! suppressions) and `#[derive(ApiLifecycle)]` types API declarations, at
//! any depth of inline modules, each checked as its derive checks it (what a
//! derive rejects is an error at the derive's span). Every use of such an
//! enum's variant (see `refs.rs`: paths, aliases, glob imports, re-exports,
//! macro invocations) and every `enabled("Gate")`-style string is a
//! reference to a gate. Only files that a byte search finds able to declare
//! or reference something are parsed, in parallel; a large file in chunks
//! of whole top-level items (see `outline.rs`), so that its memory is
//! bounded by a chunk; a file that names a derive only in the items whose
//! derive lists can name one, for its declarations (`scan_declarations`),
//! and a file read for references only in its imports and the items that
//! can hold one (see `select.rs`).
//!
//! **Architecture Invariant:** this crate reads no file. The loader
//! (`kompat-project`) reads them and hands them over through [`Files`]: each
//! file is [`Held`](File::Held) (its text, which the reader reads) or
//! [`Released`](File::Released) after its first read ([`first_read`]),
//! which has no text to read, only the names that read ruled out. A released
//! file the reader must search again is searched by the loader
//! ([`Files::search`]), which reads it again and holds it if it matches.

// Bottom up: each module uses only those above it.
mod early;
pub mod memory;
mod outline;
pub mod parallel;
mod refs;
mod search;
mod select;

pub use early::{first_read, EarlyNames, Keep, Names};
pub use search::Failures;
use search::{in_derive_list, internal, starts_ident, Refers, Result, DECLARES};

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use kompat_diag::{Diagnostic, Location};
use kompat_formats::api_toml::{ApiFile, ApiSpans};
use kompat_formats::{FeatureFile, FeatureSpans};
use kompat_span::{LineIndex, Span};
use proc_macro2::LineColumn;

// The derives' own parsing, shared so that kompat reads a
// `#[derive(FeatureGates)]` enum or `#[derive(ApiLifecycle)]` type exactly as
// the compiler does.
use kompat_derive_internals::attr;
use kompat_derive_internals::ctxt::Ctxt;
use kompat_derive_internals::valid;

/// A held Rust file: its path and text, and where its bytes are (what the
/// reader locates its findings with).
pub trait Source: Sync {
    fn path(&self) -> &Path;
    fn text(&self) -> &str;
    /// The text's line index.
    fn lines(&self) -> &LineIndex;
    /// A location in this file for a byte span.
    fn locate(&self, start: usize, end: usize) -> Location;
}

/// A Rust file as the loader holds it.
pub enum File<'a, S> {
    /// Its text is held: the reader reads it.
    Held(&'a S),
    /// Its text was let go after its first read ([`first_read`]), which
    /// ruled out references to these names: only a search for another name
    /// needs it ([`Files::search`] reads it again).
    Released(&'a Names),
}

/// The Rust files a scan reads, as the loader holds them, in input order.
pub trait Files: Sync {
    type Source: Source;

    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// File `index` (below [`Files::len`]).
    fn get(&self, index: usize) -> File<'_, Self::Source>;

    /// The files among `picked` (indices, in order) whose text `matches`,
    /// searched on every core, with how many released files were read again
    /// to search them. A held file is searched in memory; a released one is
    /// read again and held from then on if it matches; if it does not,
    /// `names` are ruled out for it too. A file that cannot be read again
    /// (removed, changed into invalid UTF-8) is an error of its own; all are
    /// reported together.
    fn search(
        &mut self,
        picked: &[usize],
        names: &Names,
        matches: &(dyn Fn(&[u8]) -> bool + Sync),
    ) -> Result<(Vec<usize>, usize)>;
}

/// Whether a search for references to `names` must look at `file`: always
/// when its text is held; when it is released, only if one of `names` is
/// not among those its first read (or a later search) ruled out (those
/// searched the same bytes for them, so a second read could not match).
fn needs_search<S>(file: &File<'_, S>, names: &Names) -> bool {
    match file {
        File::Held(_) => true,
        File::Released(ruled_out) => names.iter().any(|name| !ruled_out.contains(name)),
    }
}

/// A place in Rust code that names a gate.
#[derive(Debug, Clone)]
pub struct GateRef {
    pub gate: String,
    pub location: Location,
}

/// `#[kompat(allow(code = "...", reason = "..."))]` on a gate.
#[derive(Debug, Clone)]
pub struct RustAllow {
    pub gate: String,
    pub code: String,
    /// The mandatory `reason`.
    pub reason: String,
    /// Where `allow(...)` is written.
    pub location: Location,
    /// Where its `code` literal is written.
    pub code_location: Location,
}

/// What the Rust sources say.
#[derive(Debug, Default, Clone)]
pub struct RustScan {
    pub files: usize,
    pub refs: Vec<GateRef>,
    /// The `#[kompat(allow(...))]` suppressions of derive-declared gates.
    pub allows: Vec<RustAllow>,
    /// The `#[derive(ApiLifecycle)]` types that are kube-rs custom resources.
    pub custom_resources: Vec<CustomResource>,
    /// How many released Rust files were read again (a file read again in
    /// two rounds of the name loop counts twice), and how many were released
    /// after their first read: what the names searched for in the first
    /// reads save (see `early.rs`). A measurement, not a finding; the
    /// binary prints it on request (`KOMPAT_DEBUG_REREADS`).
    pub rereads: Rereads,
}

/// Released Rust files, and how often one was read again; see
/// [`RustScan::rereads`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rereads {
    pub read_again: usize,
    pub released: usize,
}

/// A `#[derive(ApiLifecycle)]` type that is a CustomResourceDefinition's
/// version: it also derives kube-rs' `CustomResource`, or carries
/// `#[kube(...)]`. Its lifecycle follows CRD semantics (docs/crd.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomResource {
    pub group: String,
    pub version: String,
    pub kind: String,
    /// The type's name.
    pub location: Location,
    /// `deprecated` in the type's `#[kube(...)]`: kube-rs marks the CRD's
    /// version `deprecated: true` (with `deprecated = "..."` as its
    /// `deprecationWarning`).
    pub deprecated: Option<Location>,
}

/// The declarations of one Rust file: its `#[derive(FeatureGates)]` enums'
/// gates and its `#[derive(ApiLifecycle)]` types, with their spans in it.
#[derive(Debug)]
pub struct Declared {
    /// The file's index in the [`Files`] scanned (a held file).
    pub file: usize,
    pub features: FeatureFile,
    pub apis: ApiFile,
}

/// What a scan finds: the declarations, by file, in input order, and the
/// rest.
#[derive(Debug)]
pub struct Found {
    pub declared: Vec<Declared>,
    pub scan: RustScan,
}

/// Which files [`scan_with`] parses.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parse {
    /// Only files whose bytes can hold a declaration or a reference (what
    /// [`scan`] does).
    Candidates,
    /// Every file: the reference the prefilter is tested against.
    Every,
}

/// Scans the Rust files (in parallel): the derive-declared gates and APIs
/// of each, and every reference to a gate.
///
/// Only files that can declare or reference something are parsed: a byte
/// search first finds the files that name `FeatureGates` or `ApiLifecycle`
/// (the declarations), then, with the declared enums known, the files where a
/// derived enum's name (or an alias's) is followed by `::` (or `<`, `>`, a
/// comment), `as`, `{`, `where` or ends a `type` alias, and those where a
/// gate function's own name is followed by a string literal in `(`, `[` or
/// `{`, or by a turbofish (comments may stand between); an alias
/// visible beyond its module found there (`pub use Feature as Gate`) adds
/// its name, and the search runs again until no new name turns up.
/// Everything else cannot change the result; it is neither parsed nor
/// checked for syntax (that is the compiler's job).
///
/// How many released files had to be read again is in
/// [`RustScan::rereads`].
pub fn scan<F: Files>(files: &mut F) -> Result<Found> {
    let released = (0..files.len()).filter(|&i| matches!(files.get(i), File::Released(_))).count();
    let (mut found, read_again) = scan_with_rereads(files, Parse::Candidates)?;
    found.scan.rereads = Rereads { read_again, released };
    Ok(found)
}

/// [`scan`], parsing the files `parse` says.
#[doc(hidden)]
pub fn scan_with<F: Files>(files: &mut F, parse: Parse) -> Result<Found> {
    scan_with_rereads(files, parse).map(|(found, _)| found)
}

/// What the first read of `text`, found in a directory whose reads have met
/// the derived enums' names `known` so far, decides: `None` when it keeps the
/// text, else the names it rules out (the file is read again only for the
/// others, see [`first_read`]). For the fuzz target `rust_first_read`; not a
/// stable API.
#[doc(hidden)]
pub fn first_read_rules_out(text: &str, known: &[&str]) -> Option<Vec<String>> {
    let early = EarlyNames::new();
    early.add(known.iter().map(|name| (*name).to_owned()).collect());
    match first_read(text, &early) {
        Keep::Text => None,
        Keep::Release(names) => Some(names.iter().cloned().collect()),
    }
}

/// [`scan_with`], and how many times a released file was read again (a file
/// read again in two rounds of the name loop counts twice): what the
/// names ruled out by the first reads save (see [`first_read`]).
fn scan_with_rereads<F: Files>(files: &mut F, parse: Parse) -> Result<(Found, usize)> {
    // Released files (see `first_read`) are read again by the loader when a
    // search needs them; held from then on.
    let mut rereads = 0;
    let all: Vec<usize> = (0..files.len()).collect();
    if parse == Parse::Every {
        rereads += files.search(&all, &Names::new(), &|_| true)?.1;
    }
    // First the files that can declare: their enums decide which paths of
    // the other files are references.
    let declares = DECLARES.as_ref().map_err(internal)?;
    let mut results = parallel(&*files, &all, |file| match parse {
        Parse::Every => Some(scan_file(file, None)),
        Parse::Candidates => declares.is_match(file.text().as_bytes()).then(|| scan_declarations(file)),
    });
    let mut enums: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut out = RustScan { files: files.len(), ..RustScan::default() };
    let mut declared = Vec::new();
    for (i, result) in results.iter_mut().enumerate() {
        let Some(Ok(scan)) = result else { continue };
        if scan.features.is_empty() && scan.apis.is_empty() {
            continue;
        }
        for (name, variants) in std::mem::take(&mut scan.enums) {
            enums.insert(name, variants);
        }
        out.allows.append(&mut scan.allows);
        out.custom_resources.append(&mut scan.custom_resources);
        let (features, apis) = (std::mem::take(&mut scan.features), std::mem::take(&mut scan.apis));
        declared.push(Declared { file: i, features, apis });
    }
    // A file of which only the declarations were read is read for
    // references as the others are: when a search says it can hold one.
    for result in &mut results {
        if matches!(result, Some(Ok(scan)) if scan.partial) {
            *result = None;
        }
    }

    // Then the files that can reference: only their references whose owner
    // is a derived enum, or an alias of one, are kept. An alias visible
    // beyond its module (`pub use gates::Feature as Gate`) adds a name, and
    // the files that name it are read (again) with it.
    let mut known: BTreeSet<String> = enums.keys().cloned().collect();
    let mut aliases: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let complete: Vec<bool> = results.iter().map(Option::is_some).collect();
    let mut fresh = known.clone();
    let mut functions = true;
    loop {
        for scan in results.iter().flatten().flatten() {
            for (alias, target) in &scan.refs.aliases {
                aliases.entry(alias.clone()).or_default().insert(target.clone());
            }
        }
        // Only aliases of derived enums (`pub use std::io::Result as
        // IoResult` adds nothing to look for).
        let new: Vec<String> =
            aliases.keys().filter(|a| !known.contains(*a) && enum_of(&enums, &aliases, a).is_some()).cloned().collect();
        fresh.extend(new);
        known.extend(fresh.iter().cloned());
        if fresh.is_empty() && !functions {
            break;
        }
        // Only the items that can matter are parsed (not when every file is
        // parsed whole: the reference); from here on, `known` is the round's
        // names with that search.
        let select = match parse {
            Parse::Candidates => Some(select::Select::new(&known, enums.values().flat_map(BTreeMap::keys))?),
            Parse::Every => None,
        };
        let known = Known { names: &known, select: select.as_ref() };
        let refers = Refers::new(fresh.iter(), functions)?;
        // A released file failed this search for the gate functions and for
        // the names its first read (or an earlier round) ruled out: only
        // another name can make it match.
        let picked: Vec<usize> =
            (0..files.len()).filter(|&i| !complete[i] && needs_search(&files.get(i), &fresh)).collect();
        let (pending, read) = files.search(&picked, &fresh, &|text| parse == Parse::Every || refers.is_match(text))?;
        rereads += read;
        let later = parallel(&*files, &pending, |file| Some(scan_file(file, Some(&known))));
        for (&i, result) in pending.iter().zip(later) {
            if result.is_some() {
                results[i] = result;
            }
        }
        fresh.clear();
        functions = false;
    }

    let resolve = |name: &str| enum_of(&enums, &aliases, name);
    let mut failures = Vec::new();
    for (i, result) in results.into_iter().enumerate() {
        match result {
            None => {}
            Some(Err(err)) => failures.extend(err),
            Some(Ok(scan)) => {
                // Only a held file has a scan.
                let File::Held(file) = files.get(i) else { continue };
                let refs = scan.refs;
                let mut push = |gate: &String, (start, end): refs::At| {
                    let (start, end) = (offset(file, start), offset(file, end));
                    out.refs.push(GateRef { gate: gate.clone(), location: file.locate(start, end) });
                };
                for (owner, variant, at) in &refs.paths {
                    if let Some(gate) = resolve(owner).and_then(|v| v.get(variant)) {
                        push(gate, *at);
                    }
                }
                for (globs, name, at) in &refs.bare {
                    let owners = refs.globs.get(*globs).map_or(&[][..], Vec::as_slice);
                    if let Some(gate) = owners.iter().find_map(|owner| resolve(owner).and_then(|v| v.get(name))) {
                        push(gate, *at);
                    }
                }
                for (owner, at) in &refs.reexports {
                    for gate in resolve(owner).into_iter().flat_map(BTreeMap::values) {
                        push(gate, *at);
                    }
                }
                for (gate, at) in &refs.strings {
                    push(gate, *at);
                }
            }
        }
    }
    if !failures.is_empty() {
        return Err(failures);
    }
    Ok((Found { declared, scan: out }, rereads))
}

/// The variants of the derived enum `name` stands for, directly or through
/// aliases (a name may alias several things in several modules: the first
/// derived enum found, in name order, counts).
fn enum_of<'e>(
    enums: &'e BTreeMap<String, BTreeMap<String, String>>,
    aliases: &BTreeMap<String, BTreeSet<String>>,
    name: &str,
) -> Option<&'e BTreeMap<String, String>> {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut pending = vec![name];
    while let Some(name) = pending.pop() {
        if let Some(variants) = enums.get(name) {
            return Some(variants);
        }
        if seen.insert(name) {
            pending.extend(aliases.get(name).into_iter().flatten().rev().map(String::as_str));
        }
    }
    None
}

/// What one file holds, in plain (sendable) values.
struct FileScan {
    /// Its `#[derive(FeatureGates)]` enums as declarations with spans.
    features: FeatureFile,
    /// Its `#[derive(ApiLifecycle)]` types as declarations with spans.
    apis: ApiFile,
    /// Enum name -> variant -> gate name.
    enums: Vec<(String, BTreeMap<String, String>)>,
    allows: Vec<RustAllow>,
    custom_resources: Vec<CustomResource>,
    /// The candidate references: paths, names under glob imports,
    /// re-exports, aliases and gate-name strings.
    refs: refs::FileRefs,
    /// The errors the derives report for this file's declarations.
    errors: Vec<Diagnostic>,
    /// Only the items naming a derive were read ([`scan_declarations`]):
    /// the file's references are still to be read, as any other file's.
    partial: bool,
}

/// Runs `scan` over the held files `pick` names on every core (see
/// [`crate::parallel`]) and returns the results in `pick`'s order; a
/// released file has none. A scan that panics is an error of its file,
/// never a silently missing one.
fn parallel<F, W>(files: &F, pick: &[usize], scan: W) -> Vec<Option<Result<Box<FileScan>>>>
where
    F: Files,
    W: Fn(&F::Source) -> Option<Result<Box<FileScan>>> + Sync,
{
    // syn recurses on nested syntax; `check_nesting` bounds how deep.
    crate::parallel::map(
        pick,
        SCAN_STACK_BYTES,
        |&i| {
            let File::Held(file) = files.get(i) else { return None };
            let result = scan(file);
            // Spans index a per-thread map of every source lexed; what a scan
            // keeps is converted already, so the map is emptied.
            proc_macro2::extra::invalidate_current_thread_spans();
            result
        },
        |&i, why| {
            let path = match files.get(i) {
                File::Held(file) => file.path(),
                File::Released(_) => Path::new(""),
            };
            Some(Err(vec![why.diagnostic(path)]))
        },
    )
}

/// The stack of each scanning thread: room for syn's recursion up to the
/// limits [`check_nesting`] enforces (unoptimised builds use several KB per
/// level). Reserved, not committed: untouched pages cost nothing.
const SCAN_STACK_BYTES: usize = 256 << 20;

/// The deepest nesting of delimiters (`(`, `[`, `{`) a Rust source may have.
pub const MAX_RUST_DELIMITER_DEPTH: usize = 256;

/// The most nested syntax, estimated, that a Rust source may have: open
/// delimiters, calls and indexing, operators and keywords that wrap what
/// follows (`-`, `&`, `as`, `return`, `else if`, ...) and unclosed `<`,
/// counted along the way from the
/// file's start to any token, where commas, semicolons and the end of a
/// block statement start over.
pub const MAX_RUST_NESTING: usize = 4096;

/// Keywords that nest what follows them in syn's tree.
const NESTING_KEYWORDS: [&str; 14] = [
    "as", "return", "break", "yield", "let", "dyn", "impl", "if", "else", "move", "async", "static", "unsafe", "const",
];

/// Refuses a source whose syntax would nest deeper than syn's recursive
/// parser (and the recursive visits and drops of its tree) can go on a
/// thread's stack, before syn parses it: rustc's own parser is protected by
/// growing its stack; syn is not. The check walks syn's token buffer
/// iteratively, from `cursor` (the start of the file) on.
fn check_nesting(cursor: syn::buffer::Cursor<'_>) -> syn::Result<()> {
    use proc_macro2::{Delimiter, TokenTree};
    struct Level<'a> {
        cursor: syn::buffer::Cursor<'a>,
        /// The estimate where this group opened.
        base: usize,
        /// Nesting operators since the last comma, semicolon or statement.
        segment: usize,
        /// Unclosed `<`.
        angles: usize,
        previous: Option<char>,
    }
    let level = |cursor, base| Level { cursor, base, segment: 0, angles: 0, previous: None };
    let mut stack = vec![level(cursor, 0)];
    loop {
        let depth = stack.len();
        let Some(top) = stack.last_mut() else { break };
        if top.cursor.eof() {
            stack.pop();
            continue;
        }
        if let Some((inside, delimiter, span, after)) = top.cursor.any_group() {
            top.cursor = after;
            if delimiter == Delimiter::Brace {
                // A block that ends a statement, an item or a match arm.
                // (`#` starts the attributes of what comes next.)
                let ends = after.eof()
                    || after.ident().is_some_and(|(next, _)| next != "as" && next != "else")
                    || after.punct().is_some_and(|(punct, _)| punct.as_char() == '#');
                if ends {
                    top.segment = 0;
                    top.angles = 0;
                }
            } else {
                // A call or an index nests what it follows.
                top.segment += 1;
            }
            let base = top.base + top.segment + top.angles + 1;
            top.previous = None;
            if depth >= MAX_RUST_DELIMITER_DEPTH {
                let message = format!("delimiters nest deeper than {MAX_RUST_DELIMITER_DEPTH} levels");
                return Err(syn::Error::new(span.open(), message));
            }
            if base > MAX_RUST_NESTING {
                return Err(syn::Error::new(
                    span.open(),
                    format!("syntax nests deeper than {MAX_RUST_NESTING} levels"),
                ));
            }
            stack.push(level(inside, base));
            continue;
        }
        let Some((token, after)) = top.cursor.token_tree() else {
            stack.pop();
            continue;
        };
        top.cursor = after;
        let mut punct = None;
        match &token {
            TokenTree::Group(_) | TokenTree::Literal(_) => {}
            TokenTree::Punct(p) => {
                let c = p.as_char();
                match c {
                    ',' => top.segment = 0,
                    ';' => {
                        top.segment = 0;
                        top.angles = 0;
                    }
                    '#' | '\'' => {}
                    '<' => top.angles += 1,
                    '>' if !matches!(top.previous, Some('-' | '=')) => top.angles = top.angles.saturating_sub(1),
                    _ => top.segment += 1,
                }
                punct = Some(c);
            }
            TokenTree::Ident(ident) => {
                if NESTING_KEYWORDS.iter().any(|k| ident == k) {
                    top.segment += 1;
                }
            }
        }
        top.previous = punct;
        if top.base + top.segment + top.angles > MAX_RUST_NESTING {
            return Err(syn::Error::new(token.span(), format!("syntax nests deeper than {MAX_RUST_NESTING} levels")));
        }
    }
    Ok(())
}

/// The syntax tree of a Rust source, as `syn::parse_file` reads it, after
/// the nesting guard: the text is lexed once, and the guard runs on the
/// token buffer syn then parses.
fn parse_checked(text: &str) -> syn::Result<syn::File> {
    if text.starts_with('\u{feff}') || text.starts_with("#!") {
        // A byte order mark or a shebang line, which `syn::parse_file`
        // strips before it lexes: its positions are its own. A source that
        // does not lex is reported by syn.
        if let Ok(tokens) = text.parse::<proc_macro2::TokenStream>() {
            check_nesting(syn::buffer::TokenBuffer::new2(tokens).begin())?;
        }
        return syn::parse_file(text);
    }
    let tokens = text.parse::<proc_macro2::TokenStream>()?;
    let parse = |input: syn::parse::ParseStream<'_>| -> syn::Result<syn::File> {
        check_nesting(input.cursor())?;
        input.parse()
    };
    syn::parse::Parser::parse2(parse, tokens)
}

/// The items of a chunk of a file, after the nesting guard, as
/// `syn::File` parses them (with the file's inner attributes first when
/// `inner`, the chunk being the file's first).
fn parse_items(text: &str, inner: bool) -> syn::Result<Vec<syn::Item>> {
    let tokens = text.parse::<proc_macro2::TokenStream>()?;
    let parse = |input: syn::parse::ParseStream<'_>| -> syn::Result<Vec<syn::Item>> {
        check_nesting(input.cursor())?;
        if inner {
            input.call(syn::Attribute::parse_inner)?;
        }
        let mut items = Vec::new();
        while !input.is_empty() {
            items.push(input.parse()?);
        }
        Ok(items)
    };
    syn::parse::Parser::parse2(parse, tokens)
}

/// Files larger than this are read in chunks of whole top-level items of
/// about this size (see [`scan_chunks`]).
const CHUNK_BYTES: usize = 64 << 10;

impl FileScan {
    fn new() -> FileScan {
        FileScan {
            features: FeatureFile::default(),
            apis: ApiFile::default(),
            enums: Vec::new(),
            allows: Vec::new(),
            custom_resources: Vec::new(),
            refs: refs::FileRefs::default(),
            errors: Vec::new(),
            partial: false,
        }
    }
}

/// What a reference pass knows: the names of the derived enums and their
/// aliases and, to parse only the items that can matter, the search for
/// them (see [`select`]; none when every file is parsed whole).
struct Known<'a> {
    names: &'a BTreeSet<String>,
    select: Option<&'a select::Select>,
}

/// Parses one file. With `known` (the derived enums and their aliases), only
/// references whose owner is one of them are kept (the others cannot be
/// references), and with its search only the items that can matter are
/// parsed; without, every candidate.
/// (Boxed: one result is kept per file, most of them without a scan.)
fn scan_file<S: Source>(source: &S, known: Option<&Known<'_>>) -> Result<Box<FileScan>> {
    scan_file_in(source, known, CHUNK_BYTES).map(Box::new)
}

/// [`scan_file`], reading a file larger than `chunk_bytes` in chunks when
/// it can, and reading only the selected items of a file when `known` has
/// a search.
fn scan_file_in<S: Source>(source: &S, known: Option<&Known<'_>>, chunk_bytes: usize) -> Result<FileScan> {
    let text = source.text();
    let select = known.and_then(|known| known.select);
    let names = known.map(|known| known.names);
    if (select.is_some() || text.len() > chunk_bytes) && !text.starts_with('\u{feff}') && !text.starts_with("#!") {
        let chunked =
            outline::outline(text).and_then(|outline| scan_chunks(source, names, select, &outline, chunk_bytes));
        proc_macro2::extra::invalidate_current_thread_spans();
        if let Some(scan) = chunked {
            return scan;
        }
    }
    let whole = Piece { source, origin: refs::Origin::FILE };
    let file = parse_checked(text).map_err(|err| {
        let offset = whole.offset(err.span().start());
        vec![Diagnostic::error(format!("cannot parse Rust source: {err}")).at(Some(source.locate(offset, offset)))]
    })?;
    let mut scan = FileScan::new();
    scan_items(&whole, &file.items, &mut scan);
    if !scan.errors.is_empty() {
        return Err(scan.errors);
    }
    scan.refs = refs::find(&file, names);
    Ok(scan)
}

/// The declarations of a file that names a derive, read from the runs of
/// its top-level items (between two of its [`outline`](outline::outline)'s
/// cuts) that name one (`FeatureGates` or `ApiLifecycle`) in what can be a
/// `#[derive(...)]` list ([`search::in_derive_list`]: not a trait bound or
/// an import) in code (not in a comment or a literal: a test's Rust source
/// in a string declares nothing), each run lexed, checked by the nesting guard and
/// parsed alone: a derive is read from its item's own tokens, and a
/// 2,000-line file that declares one enum parses that enum. The result is
/// [`partial`](FileScan::partial): the file's references are read later,
/// as any other file's (its items that cannot matter are then not parsed
/// either, see [`select`]); as there, a syntax error in an item not read
/// is the compiler's to report. A file with no outline (an unclosed
/// delimiter, string or comment), starting with a byte order mark or a
/// shebang line, with a selected run that does not parse alone, or mostly
/// declarations ([`MOSTLY_DECLARATIONS`]), is read whole, for its
/// references too: the same findings and the same error.
fn scan_declarations<S: Source>(source: &S) -> Result<Box<FileScan>> {
    let partial = declarations_in_runs(source);
    proc_macro2::extra::invalidate_current_thread_spans();
    match partial {
        Some(scan) => scan.map(Box::new),
        None => scan_file(source, None),
    }
}

/// A file whose runs that name a derive are more than this fraction
/// (1/N) of its bytes is read whole: its references are read in the same
/// parse, where reading by runs would parse its declarations a second time
/// with its references (a derived enum names its variants).
const MOSTLY_DECLARATIONS: usize = 4;

/// [`scan_declarations`] of a file read in runs; `None` where it is to be
/// read whole.
fn declarations_in_runs<S: Source>(source: &S) -> Option<Result<FileScan>> {
    let text = source.text();
    if text.starts_with('\u{feff}') || text.starts_with("#!") {
        return None;
    }
    let cuts = outline::outline(text)?.cuts;
    let cuts = cuts.as_slice();
    let bytes = text.as_bytes();
    let declares = DECLARES.as_ref().ok()?;
    let hits = declares
        .find_iter(bytes)
        .map(|found| found.start())
        .filter(|&at| starts_ident(bytes, at) && in_derive_list(bytes, at))
        .collect();
    let keep = select::runs_in_code(bytes, cuts, hits);
    // Mostly declarations (a file of gates): read whole, once, for its
    // references too, rather than its declarations twice.
    let starts = std::iter::once(0).chain(cuts.iter().copied());
    let ends = cuts.iter().copied().chain([text.len()]);
    let declaring: usize = starts.zip(ends).zip(&keep).filter(|(_, &keep)| keep).map(|((a, b), _)| b - a).sum();
    if declaring > text.len() / MOSTLY_DECLARATIONS {
        return None;
    }
    let mut scan = FileScan::new();
    scan.partial = true;
    let mut line = 1;
    let mut start = 0;
    for (end, keep) in cuts.iter().copied().chain([text.len()]).zip(keep) {
        let run = &text[start..end];
        if keep {
            let piece = Piece { source, origin: refs::Origin { line, column: 0 } };
            let items = parse_items(run, start == 0).ok()?;
            scan_items(&piece, &items, &mut scan);
            drop(items);
            proc_macro2::extra::invalidate_current_thread_spans();
        }
        line += memchr::memchr_iter(b'\n', run.as_bytes()).count();
        start = end;
    }
    if !scan.errors.is_empty() {
        return Some(Err(scan.errors));
    }
    Some(Ok(scan))
}

/// Reads a file in chunks of whole top-level items, cut where its
/// [`outline`](outline::outline) says items end, each chunk lexed, checked
/// by the nesting guard, parsed and read on its own, and dropped before the
/// next: a large file never has its whole syntax tree, nor all its tokens,
/// in memory. Every import of the file (its top-level `use` and `type`
/// items) is bound first, as Rust sees them everywhere in the module; then
/// each chunk binds its other items and is visited. With `select`, only the
/// runs of items it selects are read (see [`select`] for why the others
/// change nothing). The result is the one reading the file whole gives;
/// `None` (read it whole) where a chunk does not lex or parse on its own,
/// or its imports are not the ones the outline found: a syntax error, or an
/// outline that went wrong, has the file read whole for the same findings
/// and the same error.
fn scan_chunks<S: Source>(
    source: &S,
    known: Option<&BTreeSet<String>>,
    select: Option<&select::Select>,
    outline: &outline::Outline,
    chunk_bytes: usize,
) -> Option<Result<FileScan>> {
    let text = source.text();
    let mut refs = refs::Refs::new(known);
    // Where each import starts, and where its keyword is written.
    let mut keywords = Vec::new();
    let mut at = Position { offset: 0, origin: refs::Origin::FILE };
    for range in &outline.imports {
        at.advance(text, range.start);
        let items = parse_items(&text[range.clone()], false).ok()?;
        let keyword = match items.as_slice() {
            [syn::Item::Use(item)] => item.use_token.span,
            [syn::Item::Type(item)] => item.type_token.span,
            _ => return None,
        };
        keywords.push((range.start, at.origin.map(keyword.start())));
        refs.set_origin(at.origin);
        refs.bind_imports(&items);
        drop(items);
        proc_macro2::extra::invalidate_current_thread_spans();
    }
    // The runs of items to read: all, or those selected.
    let keep = match (select, known) {
        (Some(select), Some(known)) => {
            select.runs(text, &outline.cuts, &select::local_names(refs.root_aliases(), known))
        }
        _ => vec![true; outline.cuts.len() + 1],
    };
    let mut imports = keywords.into_iter().peekable();
    let mut scan = FileScan::new();
    // The piece being gathered (or the next run) starts at `start`, on `line`.
    let (mut start, mut line) = (0, 1);
    let ends = outline.cuts.iter().copied().chain([text.len()]);
    for (run, end) in ends.enumerate() {
        let lines = || memchr::memchr_iter(b'\n', &text.as_bytes()[start..end]).count();
        if !keep[run] {
            line += lines();
            start = end;
            continue;
        }
        // A kept run ends its piece before a skipped one, or when it is large
        // enough.
        if keep.get(run + 1).copied().unwrap_or(false) && end - start < chunk_bytes {
            continue;
        }
        // Imports in skipped runs were bound and need no check here.
        while imports.next_if(|&(from, _)| from < start).is_some() {}
        let piece = Piece { source, origin: refs::Origin { line, column: 0 } };
        let items = parse_items(&text[start..end], start == 0).ok()?;
        for item in &items {
            let keyword = match item {
                syn::Item::Use(item) => item.use_token.span,
                syn::Item::Type(item) => item.type_token.span,
                _ => continue,
            };
            if imports.next().map(|(_, at)| at) != Some(piece.origin.map(keyword.start())) {
                return None;
            }
        }
        if imports.peek().is_some_and(|&(from, _)| from < end) {
            return None;
        }
        // Only a piece that names a derive can declare; a file read for
        // references only (`select`) had its declarations read already
        // (`scan_declarations`).
        if select.is_none() && DECLARES.as_ref().map_or(true, |declares| declares.is_match(&text[start..end])) {
            scan_items(&piece, &items, &mut scan);
        }
        refs.set_origin(piece.origin);
        refs.bind_names(&items);
        refs.visit(&items);
        drop(items);
        proc_macro2::extra::invalidate_current_thread_spans();
        line += lines();
        start = end;
    }
    if !scan.errors.is_empty() {
        return Some(Err(scan.errors));
    }
    scan.refs = refs.finish();
    Some(Ok(scan))
}

/// A byte offset in a text and its line and column, moved forward along
/// the text (linear, however long its lines).
struct Position {
    offset: usize,
    origin: refs::Origin,
}

impl Position {
    fn advance(&mut self, text: &str, to: usize) {
        for &b in &text.as_bytes()[self.offset..to] {
            if b == b'\n' {
                self.origin.line += 1;
                self.origin.column = 0;
            } else if !(0x80..0xc0).contains(&b) {
                // Not a UTF-8 continuation byte: a character.
                self.origin.column += 1;
            }
        }
        self.offset = to;
    }
}

/// A text lexed on its own: a file, or a chunk of one.
struct Piece<'a, S> {
    source: &'a S,
    /// Where it starts in the file.
    origin: refs::Origin,
}

impl<S: Source> Piece<'_, S> {
    /// The byte offset in the file of a position in the piece.
    fn offset(&self, at: LineColumn) -> usize {
        offset(self.source, self.origin.map(at))
    }

    /// The byte range in the file of a span in the piece.
    fn span(&self, span: proc_macro2::Span) -> Span {
        Span::new(self.offset(span.start()), self.offset(span.end()))
    }

    fn locate(&self, start: usize, end: usize) -> Location {
        self.source.locate(start, end)
    }
}

/// Collects the derive-declared gates and APIs of `items` and of the inline
/// modules among them. Each item goes through the derives' own checks
/// (`kompat_derive_internals::valid`): an item a derive rejects declares
/// nothing, and its errors (the derive's messages at the derive's spans) are
/// the file's errors.
fn scan_items(source: &Piece<'_, impl Source>, items: &[syn::Item], scan: &mut FileScan) {
    for item in items {
        let attrs = match item {
            syn::Item::Mod(module) => {
                if let Some((_, items)) = &module.content {
                    scan_items(source, items, scan);
                }
                continue;
            }
            syn::Item::Enum(item) => &item.attrs,
            syn::Item::Struct(item) => &item.attrs,
            syn::Item::Union(item) => &item.attrs,
            _ => continue,
        };
        let (gates, api) = (attr::derives(attrs, "FeatureGates"), attr::derives(attrs, "ApiLifecycle"));
        if !gates && !api {
            continue;
        }
        let input: syn::DeriveInput = match item {
            syn::Item::Enum(item) => item.clone().into(),
            syn::Item::Struct(item) => item.clone().into(),
            syn::Item::Union(item) => item.clone().into(),
            _ => continue,
        };
        if gates {
            scan_feature_gates(source, &input, scan);
        }
        if api {
            scan_api(source, &input, scan);
        }
    }
}

/// The errors a derive recorded in `cx`, located in `source`; `true` when
/// there were none.
fn derive_errors(source: &Piece<'_, impl Source>, cx: Ctxt, scan: &mut FileScan) -> bool {
    let Err(errors) = cx.check() else { return true };
    for error in errors {
        let span = source.span(error.span());
        scan.errors.push(Diagnostic::error(error.to_string()).at(Some(source.locate(span.start, span.end))));
    }
    false
}

fn scan_feature_gates(source: &Piece<'_, impl Source>, input: &syn::DeriveInput, scan: &mut FileScan) {
    let cx = Ctxt::new();
    let checked = valid::feature_gates(&cx, input);
    if !derive_errors(source, cx, scan) {
        return;
    }
    let Some((parsed, _)) = checked else { return };
    let mut variants = BTreeMap::new();
    for (variant, decl) in parsed.variants.iter().zip(parsed.decls()) {
        variants.insert(variant.ident.to_string(), decl.name.clone());
        for allow in &variant.attrs.allows {
            let code = source.span(allow.code.span());
            let whole = tokens_span(source, &allow.tokens).unwrap_or(code);
            scan.allows.push(RustAllow {
                gate: decl.name.clone(),
                code: allow.code.value(),
                reason: allow.reason.value(),
                location: source.locate(whole.start, whole.end),
                code_location: source.locate(code.start, code.end),
            });
        }
        let span = source.span(variant.ident.span());
        scan.features.push(decl, FeatureSpans { entry: span, name: span, ..FeatureSpans::default() });
    }
    scan.enums.push((input.ident.to_string(), variants));
}

fn scan_api(source: &Piece<'_, impl Source>, input: &syn::DeriveInput, scan: &mut FileScan) {
    let cx = Ctxt::new();
    let checked = valid::api_lifecycle(&cx, input);
    if !derive_errors(source, cx, scan) {
        return;
    }
    let Some((parsed, Some(_))) = checked else { return };
    if let (Some(decl), Some(api)) = (parsed.decl(), parsed.attrs.api.as_ref()) {
        let lit = |lit: &Option<syn::LitStr>| lit.as_ref().map(|l| source.span(l.span()));
        let release = |r: &Option<attr::ReleaseAttr>| r.as_ref().map(|r| source.span(r.lit.span()));
        let ident = source.span(input.ident.span());
        let spans = ApiSpans {
            entry: tokens_span(source, &api.tokens).unwrap_or(ident),
            group: lit(&api.group),
            version: lit(&api.version),
            kind: lit(&api.kind).or(Some(ident)),
            resource: lit(&api.resource),
            introduced: release(&api.introduced),
            deprecated: release(&api.deprecated),
            removed: release(&api.removed),
            replacement: lit(&api.replacement),
            enabled_by_default: api.enabled_by_default.as_ref().map(|b| source.span(b.span)),
        };
        if is_custom_resource(&input.attrs) {
            scan.custom_resources.push(CustomResource {
                group: decl.group.clone(),
                version: decl.version.clone(),
                kind: decl.kind.clone(),
                location: source.locate(ident.start, ident.end),
                deprecated: kube_deprecated(&input.attrs).map(|span| {
                    let span = source.span(span);
                    source.locate(span.start, span.end)
                }),
            });
        }
        scan.apis.push(decl, spans);
    }
}

/// kube-rs' `#[derive(CustomResource)]` (any path ending in it) or its
/// `#[kube(...)]` attribute on the same type.
fn is_custom_resource(attrs: &[syn::Attribute]) -> bool {
    attr::derives(attrs, "CustomResource") || attrs.iter().any(|a| a.path().is_ident("kube"))
}

/// The `deprecated` key of a `#[kube(...)]` attribute (`deprecated` or
/// `deprecated = "warning"`), at the top level of its list.
fn kube_deprecated(attrs: &[syn::Attribute]) -> Option<proc_macro2::Span> {
    attrs.iter().filter(|a| a.path().is_ident("kube")).find_map(|a| match &a.meta {
        syn::Meta::List(list) => list.tokens.clone().into_iter().find_map(|tt| match tt {
            proc_macro2::TokenTree::Ident(ident) if ident == "deprecated" => Some(ident.span()),
            _ => None,
        }),
        _ => None,
    })
}

/// The byte range from the first to the last token of `tokens`.
fn tokens_span(source: &Piece<'_, impl Source>, tokens: &proc_macro2::TokenStream) -> Option<Span> {
    let mut iter = tokens.clone().into_iter();
    let first = source.span(iter.next()?.span());
    let last = iter.last().map_or(first, |t| source.span(t.span()));
    Some(Span::new(first.start, last.end))
}

/// The byte offset of a proc-macro2 position (1-based line, 0-based
/// character column), through the file's line index: no walk from the
/// file's start.
fn offset(source: &impl Source, at: LineColumn) -> usize {
    source.lines().offset(at.line, at.column + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{Text, Texts};
    use crate::search::TRIVIA_BYTES;

    const DECLARES: &str = r#"
#[derive(kompat::FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.0", stage = "Alpha", default = false))]
    WatchList,
}
"#;

    /// Whether the prefilter picks `text` as a file that may reference the
    /// enum `Feature` or call a gate function.
    fn check(text: &str, expected: bool) {
        let refers = Refers::new(["Feature".to_owned()].iter(), true).map_err(|e| format!("{e:?}"));
        assert_eq!(refers.map(|r| r.is_match(text.as_bytes())), Ok(expected), "{text}");
    }

    #[test]
    fn prefilter() {
        for text in [
            "let x = Feature::WatchList;",
            "let x = Feature :: WatchList;",
            "let x = Feature /* c */ ::WatchList;",
            "let x = crate::Feature\n::WatchList;",
            "type T = Feature<u8>::X;",
            "type T = <u8 as Feature>::X;",
            "let x = r#Feature::WatchList;",
            "if gates.enabled(\"A\") {}",
            "if gates.enabled_by_name (\"A\") {}",
            "if feature_enabled::<u8>(\"A\") {}",
            "if is_enabled // why\n(\"A\") {}",
            "if is_enabled(\"A\") || feature_enabled(\"B\") {}",
            "if enabled(/* why */ r#\"A\"#) {}",
            "if g.enabled( r\"A\") {}",
            "m! { enabled[\"A\"] }",
            "m! { enabled { \"A\" } }",
            "if Gates::enabled\n(\n\"A\") {}",
            "if r#enabled(\"A\") {}",
            "use crate::Feature as F;",
            "use crate::{Feature\n    as F};",
            "pub type F = gates::Feature;",
            "type F = Feature ;",
            "impl Feature { fn f(self) -> bool { matches!(self, Self::WatchList) } }",
            "impl std::fmt::Display for Feature {",
            "impl Feature where {",
            // A superset: a value that happens to be a unit type.
            "let x = Feature;",
        ] {
            check(text, true);
        }
        for text in [
            "",
            "let x = MyFeature::WatchList;",
            "struct Feature;",
            "use crate::Features;",
            "fn f(x: Feature) {}",
            "let enabled = true;",
            "// enabled by default",
            "let x = FeatureSet::new();",
            "let x = Feature / 2;",
            "let x = Feature /* c */ / 2;",
            // Gate functions need a string literal first, and their own name.
            "if gates.enabled(Feature) {}",
            "if gates.is_enabled(name) {}",
            "if gates.enabled_by_name(&name) {}",
            "if gates.enabled() {}",
            "if log_enabled(\"A\") {}",
            "if is_enabled_by_name(\"A\") {}",
            "if enabled_at(\"A\") {}",
            "if tracing::enabled!(\"A\") {}",
            "if enabled (b\"A\") {}",
            "if enabled (r2) {}",
            "if enabled {}",
            "struct S { pub enabled: u32 }",
            "let x = enabled::other(\"A\");",
            "/* enabled(",
            "let is_enabled_x = 1; let xis_enabled(\"A\");",
        ] {
            check(text, false);
        }
        // Past a long comment: too far to tell, a possible match.
        let long = "x".repeat(TRIVIA_BYTES);
        check(&format!("let x = Feature /* {long} */ / 2;"), true);
        check(&format!("if enabled( // {long}\n x) {{}}"), true);
        check(&format!("let x = Feature /* {long} */ / 2;").replace(&long, "x"), false);
    }

    /// One file's scan, rendered (bare names with their owners).
    fn render(scan: &Result<FileScan>) -> String {
        match scan {
            Err(err) => format!("{err:?}"),
            Ok(s) => {
                let r = &s.refs;
                let bare: Vec<_> = r.bare.iter().map(|(g, name, at)| (r.globs.get(*g), name, at)).collect();
                format!(
                    "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{bare:?}\n{:?}\n{:?}\n{:?}",
                    s.features,
                    s.apis,
                    s.enums,
                    s.allows,
                    s.custom_resources,
                    r.paths,
                    r.reexports,
                    r.aliases,
                    r.strings
                )
            }
        }
    }

    /// `text` read in the smallest chunks its outline allows and read
    /// whole, with `known` names, rendered; and whether it was read in
    /// chunks at all.
    fn chunked(text: &str, known: Option<&BTreeSet<String>>) -> (String, String, bool) {
        let source = Text::new("f.rs", text);
        let outline = outline::outline(text);
        let in_chunks = outline.as_ref().and_then(|o| scan_chunks(&source, known, None, o, 1)).is_some();
        let known = known.map(|names| Known { names, select: None });
        let chunks = render(&scan_file_in(&source, known.as_ref(), 0));
        proc_macro2::extra::invalidate_current_thread_spans();
        let whole = render(&scan_file_in(&source, known.as_ref(), usize::MAX));
        (chunks, whole, in_chunks)
    }

    #[test]
    fn chunks_find_what_the_whole_file_finds() {
        let known: BTreeSet<String> = ["Feature".to_owned(), "F".to_owned()].into();
        let bad_spec = DECLARES.replace("Alpha", "Omega");
        let read_in_chunks = [
            "use crate::gates::Feature;\nfn a() { Feature::WatchList; }\nfn b() {}\n#[test]\nfn c() { enabled(\"X\"); }",
            "#![allow(dead_code)]\n//! Doc.\nuse a::{b, c};\nconst X: u8 = { 1 } + 2;\nfn f() { Feature::WatchList; }",
            "static S: u8 = if c { 1 }\nelse { 2 };\nconst T: u8 = match x { _ => 1 }\nas u8;\nfn g() { Feature::WatchList }",
            "impl<const N: usize> S<{ N }> for T { fn f() { Feature::WatchList; } }\nstruct U<const M: usize = { 3 }>;",
            "m! { Feature::WatchList }\nmacro_rules! n { () => {} }\nn!();\nfn h() -> Feature { Feature::WatchList }",
            // Imports below their use; a glob import shadowed by an item
            // written below.
            "fn f() { F::WatchList; WatchList; }\nuse crate::Feature as F;\nuse F::*;\n",
            "use Feature::*;\nfn f() { WatchList; Other; }\nconst WatchList: u8 = 0;\nmod m { use super::*; fn g() { Other; } }",
            "pub use Feature::*;\npub(crate) type Alias = Feature;\nfn f() { Alias::WatchList; }\nuse Feature::WatchList as W;",
            // Positions after non-ASCII text, and an import that does not
            // start its line.
            "fn f() {\n    let s = \"é\"; g.enabled(\"WatchList\");\n}\nfn g() { /* é */ Feature::WatchList; }",
            "struct A; use crate::Feature as G;\nfn f() { G::WatchList; }\nconst É: u8 = 1;\nfn h() { é(); Feature::WatchList; }",
            DECLARES,
            &bad_spec,
        ];
        for text in read_in_chunks {
            let around = format!("{DECLARES}\n{text}\nfn last() {{ Feature::WatchList; }}");
            // Inner attributes only stand first.
            let texts = if text.contains("#![") { vec![text.to_owned()] } else { vec![text.to_owned(), around] };
            for text in &texts {
                for known in [Some(&known), None] {
                    let (chunks, whole, in_chunks) = chunked(text, known);
                    assert_eq!(chunks, whole, "{text}");
                    assert!(in_chunks, "{text}");
                }
            }
        }
        // Syntax errors, and cuts that are not between items, have the
        // file read whole: the same error.
        for text in [
            "fn broken( { Feature::WatchList",
            "fn a() {}\n#![inner_too_late]\nfn b() { Feature::WatchList; }",
            "const X: u8 = { 1 }\nfn f() { Feature::WatchList; }",
            "fn a() {}\nfn b() { let x = ; Feature::WatchList; }\n",
        ] {
            let (chunks, whole, in_chunks) = chunked(text, Some(&known));
            assert_eq!(chunks, whole, "{text}");
            assert!(!in_chunks && whole.contains("cannot parse Rust source"), "{text}: {whole}");
        }
        // Not vacuous: references found, derive errors reported.
        // A path through an alias and a bare name under a glob import, both
        // imported below.
        assert_eq!(chunked(read_in_chunks[5], Some(&known)).0.matches("\"WatchList\"").count(), 2);
        assert!(chunked(&bad_spec, None).0.contains("Omega"));
    }

    /// Every Rust file of the fixtures reads the same in chunks and whole.
    #[test]
    fn fixtures_read_the_same_in_chunks() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
        let mut pending = vec![root];
        let mut compared = 0;
        while let Some(dir) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
                if path.is_dir() {
                    pending.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let Ok(text) = std::fs::read_to_string(&path) else { continue };
                    let (chunks, whole, _) = chunked(&text, None);
                    assert_eq!(chunks, whole, "{}", path.display());
                    compared += 1;
                }
            }
        }
        assert!(compared >= 10, "only {compared} Rust fixtures");
    }

    /// A long file of documented items, each a block followed by the next
    /// one's attributes, is not taken for deeply nested syntax.
    #[test]
    fn items_after_attributes_do_not_nest() {
        let mut text = String::new();
        for i in 0..3000 {
            text.push_str(&format!("/// Doc.\npub fn f{i}() -> std::io::Result<u8> {{ Ok(0) }}\n"));
        }
        assert!(parse_checked(&text).is_ok());
        // A block that goes on (`{ 1 } + 2`) still counts.
        let deep = format!("const X: u8 = {};", "{ 1 } + ".repeat(MAX_RUST_NESTING + 1) + "1");
        assert!(parse_checked(&deep).is_err());
    }

    /// `files` scanned with and without the prefilter, rendered.
    fn both(texts: &[&str]) -> (String, String) {
        let run = |parse| format!("{:#?}", scan_with(&mut Texts::numbered(texts), parse));
        (run(Parse::Candidates), run(Parse::Every))
    }

    #[test]
    fn prefilter_keeps_every_finding() {
        let refs = "fn f(g: &G) { let _ = Feature :: WatchList; g.enabled(\"WatchList\"); other::Feature::WatchList; }";
        let unrelated = "fn g() -> std::io::Result<()> { Self::new(); Ok(()) }";
        let cases: [&[&str]; 4] = [
            &[DECLARES, refs, unrelated],
            &[refs, unrelated, DECLARES],
            &[unrelated, "fn h() { enabled_by_name::<u8>(\"X\"); }"],
            &[DECLARES, "fn broken( { Feature::WatchList"],
        ];
        for texts in cases {
            let (fast, full) = both(texts);
            assert_eq!(fast, full, "{texts:?}");
        }
        // Not vacuous: references are found and a broken candidate is an error.
        assert_eq!(both(cases[0]).0.matches("GateRef {").count(), 3);
        assert!(both(cases[3]).0.contains("cannot parse Rust source"));
    }

    /// Two variants, so that one can be named where the other is not.
    const DECLARES_TWO: &str = r#"
#[derive(kompat::FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.0", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(spec(version = "1.0", stage = "Alpha", default = false))]
    Other,
}
"#;

    /// Whether the referencing file `text` is read item by item (not
    /// whole), with `Feature` and its aliases `Gate` and `Gate2` known.
    fn read_selectively(text: &str) -> bool {
        let known: BTreeSet<String> = ["Feature", "Gate", "Gate2"].map(String::from).into();
        let variants = ["WatchList".to_owned(), "Other".to_owned()];
        let Ok(select) = select::Select::new(&known, variants.iter()) else { return false };
        let source = Text::new("f.rs", text);
        let plain = !text.starts_with('\u{feff}') && !text.starts_with("#!");
        let read = plain
            && outline::outline(text)
                .and_then(|o| scan_chunks(&source, Some(&known), Some(&select), &o, CHUNK_BYTES))
                .is_some();
        proc_macro2::extra::invalidate_current_thread_spans();
        read
    }

    /// Reading only the items that can matter finds what parsing every
    /// file whole finds: shadowing items, glob imports, aliases, `Self`,
    /// re-exports, macros, nested modules, line endings and file starts.
    #[test]
    fn selected_items_find_what_whole_files_find() {
        let big = {
            let filler: String =
                (0..3000).map(|i| format!("/// Doc.\npub fn f{i}() -> u8 {{ {i} as u8 }}\n")).collect();
            format!("use crate::gates::Feature::*;\n{filler}fn late() {{ Feature::Other; WatchList; }}\n{filler}")
        };
        let cases: &[&[&str]] = &[
            // Items named like a variant, the enum or a local alias shadow
            // (or do not) wherever they are written.
            &["use crate::gates::Feature::*;\nfn f() { WatchList; }\nstruct WatchList;\nfn g() { Feature::Other; }"],
            &["use crate::gates::Feature::*;\nconst WatchList: u8 = 0;\nfn f() -> u8 { WatchList }\nfn g() { Other; }"],
            &["use crate::gates::Feature as F;\nfn F() {}\nfn g() { F::WatchList; }\nfn h() { Other; }"],
            &["struct Feature;\nfn a() { Feature::WatchList; }\nfn b() {}"],
            &["fn a() { Other; }\nuse crate::gates::Feature::*;\nfn b() { match x { WatchList => {} _ => {} } }\nfn Other() {}"],
            // Glob imports at the top and inside a function.
            &["use crate::gates::Feature::*;\nfn a() {}\nfn b() { let _ = [WatchList, Other]; }\nfn c() { x(); }"],
            &["fn a() { use crate::gates::Feature::*; WatchList; }\nfn b() { WatchList; }\nfn c() {}"],
            // Aliases: `type`, alias of an alias, `Self`, an impl through one.
            &["type G = crate::gates::Feature;\nfn a() { G::WatchList; }\nfn b() { H::WatchList; }"],
            &["use crate::gates::Feature as F;\ntype G = F;\nfn a() { G::WatchList; }\nfn b() { X::Other; }"],
            &["impl Feature { fn f() -> Self { Self::WatchList } }\nimpl Other { fn g() -> Self { Self::WatchList } }"],
            &["use crate::gates::Feature as F;\nimpl F { fn f() -> Self { Self::Other } }\nimpl G { fn g() { Self::A; } }"],
            &["fn a() { impl Feature { fn g() { Self::Other; } } }\nfn b() {}"],
            &["use x::Y as F;\nfn a() { use crate::gates::Feature as Y; F::WatchList; }\nfn b() { F::Other; }"],
            // Re-exports and aliases visible beyond their module, in other files.
            &["pub use crate::gates::Feature::*;\nfn a() {}"],
            // A re-export through a local alias names no variant.
            &["use crate::gates::Feature as F;\nmod m { use super::*; pub use F::*; }\nfn a() {}"],
            &["mod m { pub use crate::gates::Feature::*; }\nfn a() {}"],
            &["pub use crate::gates::Feature as Gate;\nfn a() {}", "fn f() { Gate::WatchList; }\nfn g() {}"],
            &[
                "mod m { pub use crate::gates::Feature as Gate; }\nfn x() {}",
                "mod n { pub use super::Gate as Gate2; }\nfn y() { Gate2::Other; }",
                "fn z() { Gate2::WatchList; }\nfn w() {}",
            ],
            // Macros: invocations in items, item-level invocations and
            // `macro_rules!`, with glob imports in scope.
            &["fn a() { tracing::info!(x = ?Feature::WatchList); }\nmacro_rules! m { () => { $crate::gates::Feature::Other } }\nm!();\nfn b() { vec![1]; }"],
            &["use crate::gates::Feature::*;\nlazy_static! { static ref X: Vec<u8> = vec![WatchList as u8]; }\nother! { y }\nfn c() { Feature::Other; }"],
            // A nested module under `use super::*`, one without.
            &["use crate::gates::Feature::*;\nmod m {\n    use super::*;\n    fn f() { WatchList; }\n}\nmod n { fn g() { Other; } }"],
            // Line endings, byte order mark, shebang, inner attributes, doc
            // comments and attributes.
            &["use crate::gates::Feature;\r\nfn a() {}\r\nfn b() { Feature::WatchList; }\r\n"],
            &["\u{feff}use crate::gates::Feature;\nfn a() {}\nfn b() { Feature::WatchList; }"],
            &["#!/usr/bin/env run-cargo-script\nfn a() {}\nfn b() { Feature::WatchList; }"],
            &["#![allow(dead_code)]\n//! Doc.\nuse crate::gates::Feature;\nfn a() {}\nfn b() { Feature::WatchList; }"],
            &["#![allow(x)]\nfn a() {}\nfn b() { Feature::WatchList; }"],
            &["/// Uses é WatchList.\n#[cfg(test)]\nfn a() { }\n#[doc = \"x\"]\nfn b() { Feature::Other; }\nfn é() { Feature::WatchList; }"],
            // Nothing selected but the imports; a gate string alone; two
            // items on one line.
            &["use crate::gates::Feature::WatchList;\nfn a() {}\nfn b() {}"],
            &["fn a() {}\nfn b(g: &G) { g.enabled(\"WatchList\"); }\nfn c(g: &G) { g.enabled(x); }"],
            &["fn a() {} fn b() { Feature::WatchList; }\nfn c() {}"],
            // A large file: selected runs read in chunks.
            &[&big],
            // A selected item that does not parse: the file is read whole,
            // and the first error is reported, in an item not selected.
            &["fn a() { let x = ; }\nfn b() { Feature::WatchList; let = ; }"],
        ];
        for texts in cases {
            let all: Vec<&str> = [DECLARES_TWO].into_iter().chain(texts.iter().copied()).collect();
            let (fast, full) = both(&all);
            assert_eq!(fast, full, "{texts:?}");
            // Not vacuous: references, or the error, found.
            assert!(fast.contains("GateRef {") || fast.contains("cannot parse Rust source"), "{texts:?}: {fast}");
            // And read item by item where the file allows it.
            let whole = texts.iter().any(|t| t.starts_with('\u{feff}') || t.starts_with("#!") || t.contains("= ;"));
            assert_eq!(texts.iter().all(|t| read_selectively(t)), !whole, "{texts:?}");
        }
    }

    /// A name that becomes known only once an alias inside an item is read
    /// still finds its references (`Y::Other`), a round later.
    #[test]
    fn aliases_inside_items_are_followed() {
        let texts = [
            DECLARES_TWO,
            "pub use crate::gates::Feature as X;\nfn a() {}",
            "mod m { pub use super::X as Y; }\nfn b() { Feature::WatchList; }",
            "fn c() { Y::Other; }\nfn d() {}",
        ];
        let (fast, full) = both(&texts);
        assert_eq!(fast, full);
        assert_eq!(fast.matches("GateRef {").count(), 2, "{fast}");
        assert!(fast.contains("gate: \"Other\""), "{fast}");
    }

    /// Whether the `FeatureGates` in `text` can be a derive's.
    fn check_derive(text: &str, expected: bool) {
        let at = text.find("FeatureGates").unwrap_or_default();
        assert_eq!(search::in_derive_list(text.as_bytes(), at), expected, "{text}");
    }

    #[test]
    fn derive_lists() {
        for text in [
            "#[derive(FeatureGates)]",
            "#[derive(Clone, Copy,\n Debug, kompat::FeatureGates)]",
            "#[derive ( ::kompat :: FeatureGates )]",
            "#[cfg_attr(x, derive(FeatureGates))]",
            "derive(FeatureGates",
            // Not settled by the bytes: possible.
            "#[derive(/* the gates */ FeatureGates)]",
            "#[derive(Clone) /* c */ (FeatureGates)]",
            "#[derive(r#FeatureGates)]",
            "#[derive(é, FeatureGates)]",
            &format!("{}FeatureGates", " ".repeat(search::TRIVIA_BYTES + 1)),
        ] {
            check_derive(text, true);
        }
        for text in [
            "FeatureGates",
            "impl<F: FeatureGates> TypedGate<F> {}",
            "pub trait FeatureGates: Copy {}",
            "use kompat::{FeatureGates, ApiLifecycle};",
            "fn f() { g(FeatureGates) }",
            "#[underive(FeatureGates)]",
            "#[derive(Foo = 1, FeatureGates)]",
            "  (FeatureGates)",
        ] {
            check_derive(text, false);
        }
    }

    /// Whether the first pass reads only the items of `text` that name a
    /// derive (not the whole file).
    fn declarations_only(text: &str) -> bool {
        let read = declarations_in_runs(&Text::new("f.rs", text)).is_some();
        proc_macro2::extra::invalidate_current_thread_spans();
        read
    }

    /// A file that names a derive has only the items naming one in code
    /// read for declarations, then is read for references as any other
    /// file: the same findings as parsing every file whole.
    #[test]
    fn declaring_files_find_what_whole_files_find() {
        let filler: String = (0..2000).map(|i| format!("/// Doc.\npub fn f{i}() -> u8 {{ {i} as u8 }}\n")).collect();
        let big = format!("{filler}{DECLARES_TWO}{filler}fn last() {{ Feature::Other; }}\n");
        // Items enough that the declarations are a small part of the file.
        let pad: String = (0..40).map(|i| format!("fn p{i}() -> u8 {{ {i} }}\n")).collect();
        let declares = format!("{DECLARES_TWO}{pad}");
        let refs_too = format!(
            "{DECLARES_TWO}impl Feature {{ fn on(self) -> bool {{ matches!(self, Self::WatchList) }} }}\n\
             pub use Feature as Gate;\nfn f(g: &G) -> bool {{ g.enabled(\"Other\") }}\n{pad}"
        );
        let in_module = format!(
            "fn a() {{ gates::Feature::Other; }}\nmod gates {{\n    #[derive(FeatureGates)]\n    pub enum Feature {{\n        \
             #[kompat(spec(version = \"1.0\", stage = \"Beta\", default = true))]\n        Other,\n    }}\n}}\n{pad}"
        );
        let bad_spec = declares.replacen("Alpha", "Omega", 1);
        let cases: &[(&[&str], bool)] = &[
            // Declarations and references in one file, and through its alias.
            (&[&refs_too, "fn h() { Gate::WatchList; }"], true),
            (&[&refs_too, "fn h() { x(); }"], true),
            // In an inline module; in a large file, read in runs.
            (&[&in_module], true),
            (&[&big], true),
            // A derive named in a string, a comment or a `macro_rules!`
            // only: no declaration, but its references still count.
            (
                &[&declares, "const SRC: &str = \"#[derive(FeatureGates)] enum G { A }\";\nfn f() { Feature::Other; }"],
                true,
            ),
            (&[&declares, "/// `#[derive(FeatureGates)]`\nfn f() { Feature::WatchList; }\nfn g() {}"], true),
            (
                &[
                    &declares,
                    "macro_rules! m { () => { #[derive(FeatureGates)] enum G { A } } }\nfn f() { Feature::Other; }",
                ],
                true,
            ),
            // What a derive rejects is the same error.
            (&[&bad_spec, "fn f() { Feature::Other; }"], true),
            // Mostly declarations, a byte order mark, a shebang line: read
            // whole.
            (&[DECLARES_TWO, "fn f() { Feature::Other; }"], false),
            (&[&format!("\u{feff}{declares}fn f() {{ Feature::Other; }}")], false),
            (&[&format!("#!/usr/bin/env x\n{declares}fn f() {{ Feature::Other; }}")], false),
        ];
        for (texts, partial) in cases {
            let (fast, full) = both(texts);
            assert_eq!(fast, full, "{texts:?}");
            assert!(fast.contains("GateRef {") || fast.contains("Omega"), "{texts:?}: {fast}");
            let declaring = texts.iter().find(|t| t.contains("FeatureGates)]\n")).copied().unwrap_or_default();
            assert_eq!(declarations_only(declaring), *partial, "{declaring}");
        }
        // Not vacuous: a declaring file's own references and its alias's.
        let (fast, _) = both(&[&refs_too, "fn h() { Gate::WatchList; }"]);
        assert_eq!(fast.matches("GateRef {").count(), 3, "{fast}");
        // The derive in a string is no declaration: one enum declared.
        let (fast, _) = both(&[DECLARES_TWO, "const S: &str = \"#[derive(FeatureGates)] enum G { A }\";"]);
        assert_eq!(fast.matches("Declared {").count(), 1, "{fast}");
    }

    /// A syntax error in an item that cannot matter is not reported in a
    /// file read for references (as in a file the prefilter skips): only
    /// parsing every file whole, the reference, reports it.
    #[test]
    fn syntax_errors_in_items_not_read_are_the_compilers() {
        let texts = [DECLARES_TWO, "fn a() { let x = ; }\nfn b() { Feature::WatchList; }"];
        let (fast, full) = both(&texts);
        assert!(fast.contains("GateRef {") && !fast.contains("cannot parse"), "{fast}");
        assert!(full.contains("cannot parse Rust source: expected an expression"), "{full}");
        // Nor in a file that declares.
        let pad: String = (0..40).map(|i| format!("fn p{i}() -> u8 {{ {i} }}\n")).collect();
        let declaring = format!("fn a() {{ let x = ; }}\n{DECLARES_TWO}fn b() {{ Feature::WatchList; }}\n{pad}");
        let (fast, full) = both(&[&declaring]);
        assert!(fast.contains("GateRef {") && !fast.contains("cannot parse"), "{fast}");
        assert!(full.contains("cannot parse Rust source: expected an expression"), "{full}");
        // A selected item that does not parse has the file read whole.
        let declaring = format!("{DECLARES_TWO}fn b() {{ Feature::WatchList; let = ; }}\n");
        let (fast, full) = both(&[&declaring]);
        assert_eq!(fast, full);
        assert!(fast.contains("cannot parse Rust source"), "{fast}");
        // Unclosed delimiters anywhere are still reported.
        let texts = [DECLARES_TWO, "fn a() { let x = (; }\nfn b() { Feature::WatchList; }"];
        let (fast, full) = both(&texts);
        assert_eq!(fast, full);
        assert!(fast.contains("cannot parse Rust source"), "{fast}");
    }
}
