//! Rust sources: `#[derive(FeatureGates)]` enums become feature declarations
//! (with their `#[kompat(allow(...))]` suppressions) and
//! `#[derive(ApiLifecycle)]` types API declarations, at any depth of inline
//! modules; every `Enum::Variant` path of such an enum, and every
//! `enabled("Gate")`-style string use, is a reference to a gate. Files are
//! parsed in parallel.

use std::collections::BTreeMap;

use crate::error::{Diagnostic, Error, Location, Result};
use crate::load::{Decls, SourceFile};
use kompat_decls::api_toml::{ApiFile, ApiSpans};
use kompat_decls::{FeatureFile, FeatureSpans, Span};
use syn::visit::Visit;

// The derives' own parsing, shared so that kompat reads a
// `#[derive(FeatureGates)]` enum or `#[derive(ApiLifecycle)]` type exactly as
// the compiler does.
use kompat_derive_internals::ast::{ApiInput, Input};
use kompat_derive_internals::attr;
use kompat_derive_internals::ctxt::Ctxt;

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

/// Parses every file (already read; in parallel), adds the derive-declared
/// gates to `decls`, and collects every reference to a gate.
pub fn scan(files: &[SourceFile], decls: &mut Decls) -> Result<RustScan> {
    // Parse and summarise in parallel, keeping file order so that everything
    // after is deterministic. syn's trees are not `Send`; the summaries are.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(files.len().max(1));
    let chunk = files.len().div_ceil(workers).max(1);
    let results: Vec<Result<FileScan>> = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        let mut failures = Vec::new();
        for part in files.chunks(chunk) {
            // syn recurses on nested syntax; `check_nesting` bounds how deep.
            let spawned = std::thread::Builder::new()
                .stack_size(SCAN_STACK_BYTES)
                .spawn_scoped(scope, move || part.iter().map(scan_file).collect::<Vec<_>>());
            match spawned {
                Ok(handle) => handles.push((part, handle)),
                Err(err) => failures.push(Err(Error::msg(format!("cannot start a thread: {err}")))),
            }
        }
        let mut results: Vec<Result<FileScan>> = Vec::new();
        for (part, handle) in handles {
            match handle.join() {
                Ok(scans) => results.extend(scans),
                // Never silently: a file whose scan panicked is an error.
                Err(_) => results
                    .extend(part.iter().map(|p| Err(Error::in_file(&p.path, "internal error reading this file")))),
            }
        }
        results.extend(failures);
        results
    });
    let mut scans = Vec::new();
    let mut failures = Vec::new();
    for result in results {
        match result {
            Ok(scan) => scans.push(scan),
            Err(err) => failures.extend(err.diagnostics),
        }
    }
    if !failures.is_empty() {
        return Err(Error { diagnostics: failures });
    }

    let mut out = RustScan { files: scans.len(), ..RustScan::default() };
    let mut enums: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for scan in &mut scans {
        if scan.features.is_empty() && scan.apis.is_empty() {
            continue;
        }
        for (name, variants) in std::mem::take(&mut scan.enums) {
            enums.insert(name, variants);
        }
        out.allows.append(&mut scan.allows);
        decls.add_parsed(scan.source.clone(), std::mem::take(&mut scan.features), std::mem::take(&mut scan.apis));
    }
    for scan in &scans {
        for (owner, variant, span) in &scan.paths {
            if let Some(gate) = enums.get(owner).and_then(|v| v.get(variant)) {
                out.refs.push(GateRef { gate: gate.clone(), location: scan.source.locate(span.start, span.end) });
            }
        }
        for (gate, span) in &scan.strings {
            out.refs.push(GateRef { gate: gate.clone(), location: scan.source.locate(span.start, span.end) });
        }
    }
    Ok(out)
}

/// What one file holds, in plain (sendable) values.
struct FileScan {
    source: SourceFile,
    /// Its `#[derive(FeatureGates)]` enums as declarations with spans.
    features: FeatureFile,
    /// Its `#[derive(ApiLifecycle)]` types as declarations with spans.
    apis: ApiFile,
    /// Enum name -> variant -> gate name.
    enums: Vec<(String, BTreeMap<String, String>)>,
    allows: Vec<RustAllow>,
    /// Every `Owner::Variant` path.
    paths: Vec<(String, String, Span)>,
    /// Every `enabled("Gate")`-style string use.
    strings: Vec<(String, Span)>,
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

fn scan_file(source: &SourceFile) -> Result<FileScan> {
    let source = source.clone();
    // A source that does not lex is reported by syn below.
    if let Ok(tokens) = source.text.parse::<proc_macro2::TokenStream>() {
        if let Err((span, message)) = check_nesting(tokens) {
            let start = span.start();
            let offset = offset_of(&source.text, start.line, start.column);
            let failure =
                Diagnostic::error(format!("cannot parse Rust source: {message}")).at(source.locate(offset, offset));
            return Err(Error { diagnostics: vec![failure] });
        }
    }
    let file = syn::parse_file(&source.text).map_err(|err| {
        let start = err.span().start();
        let offset = offset_of(&source.text, start.line, start.column);
        Error {
            diagnostics: vec![
                Diagnostic::error(format!("cannot parse Rust source: {err}")).at(Some(source.locate(offset, offset)))
            ],
        }
    })?;
    let mut scan = FileScan {
        source,
        features: FeatureFile::default(),
        apis: ApiFile::default(),
        enums: Vec::new(),
        allows: Vec::new(),
        paths: Vec::new(),
        strings: Vec::new(),
    };
    scan_items(&file.items, &mut scan);
    let mut visitor = Refs { text: &scan.source.text, paths: Vec::new(), strings: Vec::new() };
    visitor.visit_file(&file);
    scan.paths = visitor.paths;
    scan.strings = visitor.strings;
    Ok(scan)
}

/// Collects the derive-declared gates and APIs of `items` and of the inline
/// modules among them. Mistakes in the attributes are the compiler's to
/// report: a type whose attributes do not parse declares nothing here.
fn scan_items(items: &[syn::Item], scan: &mut FileScan) {
    for item in items {
        match item {
            syn::Item::Mod(module) => {
                if let Some((_, items)) = &module.content {
                    scan_items(items, scan);
                }
            }
            syn::Item::Enum(item) if attr::derives(&item.attrs, "FeatureGates") => {
                scan_feature_gates(&item.clone().into(), scan);
            }
            syn::Item::Enum(item) if attr::derives(&item.attrs, "ApiLifecycle") => {
                scan_api(&item.clone().into(), scan);
            }
            syn::Item::Struct(item) if attr::derives(&item.attrs, "ApiLifecycle") => {
                scan_api(&item.clone().into(), scan);
            }
            _ => {}
        }
    }
}

fn scan_feature_gates(input: &syn::DeriveInput, scan: &mut FileScan) {
    let cx = Ctxt::new();
    if let Some(parsed) = Input::from_syn(&cx, input) {
        let mut variants = BTreeMap::new();
        for (variant, decl) in parsed.variants.iter().zip(parsed.decls()) {
            variants.insert(variant.ident.to_string(), decl.name.clone());
            for allow in &variant.attrs.allows {
                let text = &scan.source.text;
                let code = span_of(text, allow.code.span());
                let whole = tokens_span(text, &allow.tokens).unwrap_or(code);
                scan.allows.push(RustAllow {
                    gate: decl.name.clone(),
                    code: allow.code.value(),
                    location: scan.source.locate(whole.start, whole.end),
                    code_location: scan.source.locate(code.start, code.end),
                });
            }
            let span = span_of(&scan.source.text, variant.ident.span());
            scan.features.push(decl, FeatureSpans { entry: span, name: span, ..FeatureSpans::default() });
        }
        scan.enums.push((input.ident.to_string(), variants));
    }
    let _ = cx.check();
}

fn scan_api(input: &syn::DeriveInput, scan: &mut FileScan) {
    let cx = Ctxt::new();
    if let Some(parsed) = ApiInput::from_syn(&cx, input) {
        if let (Some(decl), Some(api)) = (parsed.decl(), parsed.attrs.api.as_ref()) {
            let text = &scan.source.text;
            let lit = |lit: &Option<syn::LitStr>| lit.as_ref().map(|l| span_of(text, l.span()));
            let release = |r: &Option<attr::ReleaseAttr>| r.as_ref().map(|r| span_of(text, r.lit.span()));
            let ident = span_of(text, input.ident.span());
            let spans = ApiSpans {
                entry: tokens_span(text, &api.tokens).unwrap_or(ident),
                group: lit(&api.group),
                version: lit(&api.version),
                kind: lit(&api.kind).or(Some(ident)),
                resource: lit(&api.resource),
                introduced: release(&api.introduced),
                deprecated: release(&api.deprecated),
                removed: release(&api.removed),
                replacement: lit(&api.replacement),
                enabled_by_default: api.enabled_by_default.as_ref().map(|b| span_of(text, b.span)),
            };
            scan.apis.push(decl, spans);
        }
    }
    let _ = cx.check();
}

/// The byte range from the first to the last token of `tokens`.
fn tokens_span(text: &str, tokens: &proc_macro2::TokenStream) -> Option<Span> {
    let mut iter = tokens.clone().into_iter();
    let first = span_of(text, iter.next()?.span());
    let last = iter.last().map_or(first, |t| span_of(text, t.span()));
    Some(Span::new(first.start, last.end))
}

struct Refs<'a> {
    text: &'a str,
    paths: Vec<(String, String, Span)>,
    strings: Vec<(String, Span)>,
}

impl Refs<'_> {
    fn string_arg(&mut self, name: &syn::Ident, args: &syn::punctuated::Punctuated<syn::Expr, syn::Token![,]>) {
        if !GATE_FUNCTIONS.iter().any(|f| name == f) {
            return;
        }
        if let Some(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(lit), .. })) = args.first() {
            self.strings.push((lit.value(), span_of(self.text, lit.span())));
        }
    }
}

impl<'ast> Visit<'ast> for Refs<'_> {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let n = path.segments.len();
        if n >= 2 {
            let variant = &path.segments[n - 1].ident;
            self.paths.push((
                path.segments[n - 2].ident.to_string(),
                variant.to_string(),
                span_of(self.text, variant.span()),
            ));
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

/// The byte range of a span in `text` (proc-macro2 reports 1-based lines and
/// 0-based character columns).
fn span_of(text: &str, span: proc_macro2::Span) -> Span {
    let (start, end) = (span.start(), span.end());
    Span::new(offset_of(text, start.line, start.column), offset_of(text, end.line, end.column))
}

fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    let rest = &text[line_start.min(text.len())..];
    line_start + rest.char_indices().nth(column).map_or(rest.len(), |(i, _)| i)
}
