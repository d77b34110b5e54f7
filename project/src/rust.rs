//! Rust sources: `#[derive(FeatureGates)]` enums become feature declarations
//! (with their `#[kompat(allow(...))]` suppressions) and
//! `#[derive(ApiLifecycle)]` types API declarations, at any depth of inline
//! modules; every `Enum::Variant` path of such an enum, and every
//! `enabled("Gate")`-style string use, is a reference to a gate. Only files
//! that a byte search finds able to declare or reference something are
//! parsed, in parallel.

use std::collections::BTreeMap;

use crate::error::{Diagnostic, Error, Location, Result};
use crate::load::{Decls, SourceFile};
use aho_corasick::AhoCorasick;
use kompat_decls::api_toml::{ApiFile, ApiSpans};
use kompat_decls::{FeatureFile, FeatureSpans, Span};
use proc_macro2::LineColumn;
use syn::visit::Visit;

// The derives' own parsing, shared so that kompat reads a
// `#[derive(FeatureGates)]` enum or `#[derive(ApiLifecycle)]` type exactly as
// the compiler does.
use kompat_derive_internals::attr;
use kompat_derive_internals::ctxt::Ctxt;
use kompat_derive_internals::valid;

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
}

/// Function and method names whose first string argument is a gate name.
const GATE_FUNCTIONS: [&str; 4] = ["enabled", "feature_enabled", "is_enabled", "enabled_by_name"];

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

/// Scans the Rust files (already read; in parallel), adds the
/// derive-declared gates to `decls`, and collects every reference to a gate.
///
/// Only files that can declare or reference something are parsed: a byte
/// search first finds the files that name `FeatureGates` or `ApiLifecycle`
/// (the declarations), then, with the declared enums known, the files where a
/// derived enum's name is followed by `::` (or `<`, `>`, a comment) and those
/// where a gate function's name is followed by `(` (or `::`, a comment).
/// Everything else cannot change the result; it is neither parsed nor
/// checked for syntax (that is the compiler's job).
pub fn scan(files: &[SourceFile], decls: &mut Decls) -> Result<RustScan> {
    scan_with(files, decls, Parse::Candidates)
}

/// [`scan`], parsing the files `parse` says.
#[doc(hidden)]
pub fn scan_with(files: &[SourceFile], decls: &mut Decls, parse: Parse) -> Result<RustScan> {
    // First the files that can declare: their enums decide which paths of
    // the other files are references.
    let declares = AhoCorasick::new(["FeatureGates", "ApiLifecycle"])
        .map_err(|err| Error::msg(format!("internal error building a search: {err}")))?;
    let all: Vec<usize> = (0..files.len()).collect();
    let mut results = parallel(files, &all, |file| {
        (parse == Parse::Every || declares.is_match(file.text.as_bytes())).then(|| scan_file(file, None))
    });
    let mut enums: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut out = RustScan { files: files.len(), ..RustScan::default() };
    for (file, result) in files.iter().zip(&mut results) {
        let Some(Ok(scan)) = result else { continue };
        if scan.features.is_empty() && scan.apis.is_empty() {
            continue;
        }
        for (name, variants) in std::mem::take(&mut scan.enums) {
            enums.insert(name, variants);
        }
        out.allows.append(&mut scan.allows);
        decls.add_parsed(file.clone(), std::mem::take(&mut scan.features), std::mem::take(&mut scan.apis));
    }

    // Then the files that can reference: only their paths whose owner is a
    // derived enum are kept.
    let refers = Refers::new(enums.keys())?;
    let pending: Vec<usize> = (0..files.len()).filter(|&i| results[i].is_none()).collect();
    let later = parallel(files, &pending, |file| {
        (parse == Parse::Every || refers.is_match(file.text.as_bytes())).then(|| scan_file(file, Some(&enums)))
    });
    for (&i, result) in pending.iter().zip(later) {
        results[i] = result;
    }

    let mut failures = Vec::new();
    for (file, result) in files.iter().zip(results) {
        match result {
            None => {}
            Some(Err(err)) => failures.extend(err.diagnostics),
            Some(Ok(scan)) => {
                for (owner, variant, start, end) in &scan.paths {
                    if let Some(gate) = enums.get(owner).and_then(|v| v.get(variant)) {
                        let (start, end) = (offset(file, *start), offset(file, *end));
                        out.refs.push(GateRef { gate: gate.clone(), location: file.locate(start, end) });
                    }
                }
                for (gate, span) in scan.strings {
                    out.refs.push(GateRef { gate, location: file.locate(span.start, span.end) });
                }
            }
        }
    }
    if !failures.is_empty() {
        return Err(Error { diagnostics: failures });
    }
    Ok(out)
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
    /// Every `Owner::Variant` path whose owner may be a derived enum, with
    /// the variant's start and end; byte offsets are computed only for the
    /// paths that turn out to be references.
    paths: Vec<(String, String, LineColumn, LineColumn)>,
    /// Every `enabled("Gate")`-style string use.
    strings: Vec<(String, Span)>,
    /// The errors the derives report for this file's declarations.
    errors: Vec<Diagnostic>,
}

/// Runs `scan` over the files `pick` names on every core, each thread taking
/// the next file when done with one (a slow file holds up only its own
/// thread), and returns the results in `pick`'s order. A scan that panics is
/// an error of its file, never a silently missing one.
fn parallel<F>(files: &[SourceFile], pick: &[usize], scan: F) -> Vec<Option<Result<FileScan>>>
where
    F: Fn(&SourceFile) -> Option<Result<FileScan>> + Sync,
{
    let count = pick.len();
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(count);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= count {
                break done;
            }
            let file = &files[pick[i]];
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| scan(file)))
                .unwrap_or_else(|_| Some(Err(Error::in_file(&file.path, "internal error reading this file"))));
            // Spans index a per-thread map of every source lexed; what a scan
            // keeps is converted already, so the map is emptied.
            proc_macro2::extra::invalidate_current_thread_spans();
            done.push((i, result));
        }
    };
    let mut results: Vec<Option<Result<FileScan>>> = (0..count).map(|_| None).collect();
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for _ in 0..workers {
            // syn recurses on nested syntax; `check_nesting` bounds how deep.
            match std::thread::Builder::new().stack_size(SCAN_STACK_BYTES).spawn_scoped(scope, work) {
                Ok(handle) => handles.push(handle),
                // Fewer threads: the ones started take all the work.
                Err(_) => break,
            }
        }
        let mut finished = Vec::new();
        if handles.is_empty() {
            for (i, &file) in pick.iter().enumerate() {
                let failure = Error::in_file(&files[file].path, "cannot start a thread to read this file");
                finished.push((i, Some(Err(failure))));
            }
        }
        for handle in handles {
            if let Ok(done) = handle.join() {
                finished.extend(done);
            }
        }
        for (i, result) in finished {
            results[i] = result;
        }
    });
    results
}

/// The byte search that finds the files that can reference a gate: a
/// derived enum's name as a whole identifier followed by `::` (or by what
/// may come between: generic arguments `<`, the end `>` of a qualified
/// path's type, a comment, Unicode whitespace), or a gate function's name
/// (every one ends in `enabled` or `enabled_by_name`) followed by `(` (or a
/// turbofish `::`, a comment, Unicode whitespace). It never misses a file
/// that holds a reference; it may name a few that do not.
struct Refers {
    search: AhoCorasick,
    /// Patterns from this index on are the gate functions'.
    functions: usize,
}

impl Refers {
    fn new<'a>(enums: impl Iterator<Item = &'a String>) -> Result<Refers> {
        let mut patterns: Vec<&str> = enums.map(String::as_str).collect();
        let functions = patterns.len();
        patterns.push("enabled");
        let search = AhoCorasick::new(&patterns)
            .map_err(|err| Error::msg(format!("internal error building a search: {err}")))?;
        Ok(Refers { search, functions })
    }

    fn is_match(&self, text: &[u8]) -> bool {
        let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        self.search.find_overlapping_iter(text).any(|found| {
            let mut end = found.end();
            let next = |end: usize| text[end..].iter().copied().find(|b| !b.is_ascii_whitespace());
            if found.pattern().as_usize() >= self.functions {
                if text[end..].starts_with(b"_by_name") {
                    end += "_by_name".len();
                }
                matches!(next(end), Some(b'(' | b':' | b'/' | 0x80..))
            } else {
                let starts_ident = found.start() == 0 || !ident(text[found.start() - 1]);
                starts_ident && matches!(next(end), Some(b':' | b'<' | b'>' | b'/' | 0x80..))
            }
        })
    }
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
/// thread's stack, before syn sees it: rustc's own parser is protected by
/// growing its stack; syn is not. The check walks the tokens iteratively
/// (proc-macro2 lexes and drops token trees without recursion). Returns the
/// offending token's position and a message.
fn check_nesting(tokens: proc_macro2::TokenStream) -> std::result::Result<(), (proc_macro2::Span, String)> {
    use proc_macro2::{Delimiter, TokenTree};
    struct Level {
        tokens: std::iter::Peekable<proc_macro2::token_stream::IntoIter>,
        /// The estimate where this group opened.
        base: usize,
        /// Nesting operators since the last comma, semicolon or statement.
        segment: usize,
        /// Unclosed `<`.
        angles: usize,
        previous: Option<char>,
    }
    let level = |tokens: proc_macro2::TokenStream, base: usize| Level {
        tokens: tokens.into_iter().peekable(),
        base,
        segment: 0,
        angles: 0,
        previous: None,
    };
    let mut stack = vec![level(tokens, 0)];
    while let Some(top) = stack.last_mut() {
        let Some(token) = top.tokens.next() else {
            stack.pop();
            continue;
        };
        let mut punct = None;
        match &token {
            TokenTree::Group(group) => {
                if group.delimiter() == Delimiter::Brace {
                    // A block that ends a statement, an item or a match arm.
                    let ends = match top.tokens.peek() {
                        None => true,
                        Some(TokenTree::Ident(next)) => next != "as" && next != "else",
                        Some(_) => false,
                    };
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
                if stack.len() >= MAX_RUST_DELIMITER_DEPTH {
                    let message = format!("delimiters nest deeper than {MAX_RUST_DELIMITER_DEPTH} levels");
                    return Err((group.span_open(), message));
                }
                if base > MAX_RUST_NESTING {
                    return Err((group.span_open(), format!("syntax nests deeper than {MAX_RUST_NESTING} levels")));
                }
                let inner = level(group.stream(), base);
                stack.push(inner);
                continue;
            }
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
            TokenTree::Literal(_) => {}
        }
        top.previous = punct;
        if top.base + top.segment + top.angles > MAX_RUST_NESTING {
            return Err((token.span(), format!("syntax nests deeper than {MAX_RUST_NESTING} levels")));
        }
    }
    Ok(())
}

/// Parses one file. With `enums`, only paths whose owner is one of them are
/// kept (the others cannot be references); without, every two-segment path.
fn scan_file(source: &SourceFile, enums: Option<&BTreeMap<String, BTreeMap<String, String>>>) -> Result<FileScan> {
    // A source that does not lex is reported by syn below.
    if let Ok(tokens) = source.text.parse::<proc_macro2::TokenStream>() {
        if let Err((span, message)) = check_nesting(tokens) {
            let offset = offset(source, span.start());
            let failure =
                Diagnostic::error(format!("cannot parse Rust source: {message}")).at(source.locate(offset, offset));
            return Err(Error { diagnostics: vec![failure] });
        }
    }
    let file = syn::parse_file(&source.text).map_err(|err| {
        let offset = offset(source, err.span().start());
        Error {
            diagnostics: vec![
                Diagnostic::error(format!("cannot parse Rust source: {err}")).at(Some(source.locate(offset, offset)))
            ],
        }
    })?;
    let mut scan = FileScan {
        features: FeatureFile::default(),
        apis: ApiFile::default(),
        enums: Vec::new(),
        allows: Vec::new(),
        paths: Vec::new(),
        strings: Vec::new(),
        errors: Vec::new(),
    };
    scan_items(source, &file.items, &mut scan);
    if !scan.errors.is_empty() {
        return Err(Error { diagnostics: scan.errors });
    }
    let mut visitor = Refs { source, enums, paths: Vec::new(), strings: Vec::new() };
    visitor.visit_file(&file);
    scan.paths = visitor.paths;
    scan.strings = visitor.strings;
    Ok(scan)
}

/// Collects the derive-declared gates and APIs of `items` and of the inline
/// modules among them. Each item goes through the derives' own checks
/// (`kompat_derive_internals::valid`): an item a derive rejects declares
/// nothing, and its errors (the derive's messages at the derive's spans) are
/// the file's errors.
fn scan_items(source: &SourceFile, items: &[syn::Item], scan: &mut FileScan) {
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
fn derive_errors(source: &SourceFile, cx: Ctxt, scan: &mut FileScan) -> bool {
    let Err(errors) = cx.check() else { return true };
    for error in errors {
        let span = span_of(source, error.span());
        scan.errors.push(Diagnostic::error(error.to_string()).at(Some(source.locate(span.start, span.end))));
    }
    false
}

fn scan_feature_gates(source: &SourceFile, input: &syn::DeriveInput, scan: &mut FileScan) {
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
            let code = span_of(source, allow.code.span());
            let whole = tokens_span(source, &allow.tokens).unwrap_or(code);
            scan.allows.push(RustAllow {
                gate: decl.name.clone(),
                code: allow.code.value(),
                location: source.locate(whole.start, whole.end),
                code_location: source.locate(code.start, code.end),
            });
        }
        let span = span_of(source, variant.ident.span());
        scan.features.push(decl, FeatureSpans { entry: span, name: span, ..FeatureSpans::default() });
    }
    scan.enums.push((input.ident.to_string(), variants));
}

fn scan_api(source: &SourceFile, input: &syn::DeriveInput, scan: &mut FileScan) {
    let cx = Ctxt::new();
    let checked = valid::api_lifecycle(&cx, input);
    if !derive_errors(source, cx, scan) {
        return;
    }
    let Some((parsed, Some(_))) = checked else { return };
    if let (Some(decl), Some(api)) = (parsed.decl(), parsed.attrs.api.as_ref()) {
        let lit = |lit: &Option<syn::LitStr>| lit.as_ref().map(|l| span_of(source, l.span()));
        let release = |r: &Option<attr::ReleaseAttr>| r.as_ref().map(|r| span_of(source, r.lit.span()));
        let ident = span_of(source, input.ident.span());
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
            enabled_by_default: api.enabled_by_default.as_ref().map(|b| span_of(source, b.span)),
        };
        scan.apis.push(decl, spans);
    }
}

/// The byte range from the first to the last token of `tokens`.
fn tokens_span(source: &SourceFile, tokens: &proc_macro2::TokenStream) -> Option<Span> {
    let mut iter = tokens.clone().into_iter();
    let first = span_of(source, iter.next()?.span());
    let last = iter.last().map_or(first, |t| span_of(source, t.span()));
    Some(Span::new(first.start, last.end))
}

struct Refs<'a> {
    source: &'a SourceFile,
    /// When known, the derived enums: other owners are not kept.
    enums: Option<&'a BTreeMap<String, BTreeMap<String, String>>>,
    paths: Vec<(String, String, LineColumn, LineColumn)>,
    strings: Vec<(String, Span)>,
}

impl Refs<'_> {
    fn string_arg(&mut self, name: &syn::Ident, args: &syn::punctuated::Punctuated<syn::Expr, syn::Token![,]>) {
        if !GATE_FUNCTIONS.iter().any(|f| name == f) {
            return;
        }
        if let Some(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(lit), .. })) = args.first() {
            self.strings.push((lit.value(), span_of(self.source, lit.span())));
        }
    }
}

impl<'ast> Visit<'ast> for Refs<'_> {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let n = path.segments.len();
        if n >= 2 {
            let owner = path.segments[n - 2].ident.to_string();
            if self.enums.is_none_or(|enums| enums.contains_key(&owner)) {
                let variant = &path.segments[n - 1].ident;
                let span = variant.span();
                self.paths.push((owner, variant.to_string(), span.start(), span.end()));
            }
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        self.string_arg(&call.method, &call.args);
        syn::visit::visit_expr_method_call(self, call);
    }

    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        if let syn::Expr::Path(path) = &*call.func {
            if let Some(last) = path.path.segments.last() {
                let ident = last.ident.clone();
                self.string_arg(&ident, &call.args);
            }
        }
        syn::visit::visit_expr_call(self, call);
    }
}

/// The byte range of a span in `source`.
fn span_of(source: &SourceFile, span: proc_macro2::Span) -> Span {
    Span::new(offset(source, span.start()), offset(source, span.end()))
}

/// The byte offset of a proc-macro2 position (1-based line, 0-based
/// character column), through the file's line index: no walk from the
/// file's start.
fn offset(source: &SourceFile, at: LineColumn) -> usize {
    source.lines.offset(at.line, at.column + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let refers = Refers::new(["Feature".to_owned()].iter()).map_err(|e| format!("{e:?}"));
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
        ] {
            check(text, true);
        }
        for text in [
            "",
            "let x = MyFeature::WatchList;",
            "let x = Feature;",
            "struct Feature;",
            "let enabled = true;",
            "// enabled by default",
            "let x = FeatureSet::new();",
        ] {
            check(text, false);
        }
    }

    /// `files` scanned with and without the prefilter, rendered.
    fn both(texts: &[&str]) -> (String, String) {
        let files: Vec<SourceFile> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| SourceFile::new(format!("f{i}.rs").into(), (*t).to_owned()))
            .collect();
        let run = |parse| {
            let mut decls = Decls::default();
            let scan = scan_with(&files, &mut decls, parse);
            format!("{scan:#?}\n{decls:#?}")
        };
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
}
