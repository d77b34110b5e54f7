//! Rust sources: `#[derive(FeatureGates)]` enums become declarations (with
//! their `#[kompat(allow(...))]` suppressions), and every `Enum::Variant`
//! path of such an enum, and every `enabled("Gate")`-style string use, is a
//! reference to a gate. Files are parsed in parallel.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::error::{Error, Failure, Location, Result};
use crate::load::{Decls, SourceFile};
use kompat_decls::{FeatureFile, FeatureSpans, Span};
use syn::visit::Visit;

use self::ast::Input;
use self::ctxt::Ctxt;

// The derive's own parsing, shared so that kompat reads a
// `#[derive(FeatureGates)]` enum exactly as the compiler does.
#[path = "../../macros/src/ast.rs"]
#[allow(dead_code, clippy::all)]
mod ast;
#[path = "../../macros/src/attr.rs"]
#[allow(dead_code, clippy::all)]
mod attr;
#[path = "../../macros/src/ctxt.rs"]
#[allow(dead_code, clippy::all)]
mod ctxt;

/// A place in Rust code that names a gate.
#[derive(Debug, Clone)]
pub struct GateRef {
    pub gate: String,
    pub location: Location,
}

/// What the Rust sources say.
#[derive(Debug, Default, Clone)]
pub struct RustScan {
    pub files: usize,
    pub refs: Vec<GateRef>,
    /// (gate, lint code) pairs suppressed with `#[kompat(allow(...))]`.
    pub allows: Vec<(String, String)>,
}

/// Function and method names whose first string argument is a gate name.
const GATE_FUNCTIONS: [&str; 4] = ["enabled", "feature_enabled", "is_enabled", "enabled_by_name"];

/// Parses every file (in parallel), adds the derive-declared gates to
/// `decls`, and collects every reference to a gate.
pub fn scan(files: &[PathBuf], decls: &mut Decls) -> Result<RustScan> {
    // Parse and summarise in parallel, keeping file order so that everything
    // after is deterministic. syn's trees are not `Send`; the summaries are.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(files.len().max(1));
    let chunk = files.len().div_ceil(workers).max(1);
    let results: Vec<Result<FileScan>> = std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(|p| scan_file(p)).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    });
    let mut scans = Vec::new();
    let mut failures = Vec::new();
    for result in results {
        match result {
            Ok(scan) => scans.push(scan),
            Err(err) => failures.extend(err.failures),
        }
    }
    if !failures.is_empty() {
        return Err(Error { failures });
    }

    let mut out = RustScan { files: scans.len(), ..RustScan::default() };
    let mut enums: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for scan in &mut scans {
        if scan.features.features.is_empty() {
            continue;
        }
        for (name, variants) in std::mem::take(&mut scan.enums) {
            enums.insert(name, variants);
        }
        out.allows.append(&mut scan.allows);
        decls.add_features(scan.source.clone(), std::mem::take(&mut scan.features));
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
    /// Enum name -> variant -> gate name.
    enums: Vec<(String, BTreeMap<String, String>)>,
    allows: Vec<(String, String)>,
    /// Every `Owner::Variant` path.
    paths: Vec<(String, String, Span)>,
    /// Every `enabled("Gate")`-style string use.
    strings: Vec<(String, Span)>,
}

fn scan_file(path: &std::path::Path) -> Result<FileScan> {
    let source = SourceFile::read(path)?;
    let file = syn::parse_file(&source.text).map_err(|err| {
        let start = err.span().start();
        let offset = offset_of(&source.text, start.line, start.column);
        Error {
            failures: vec![Failure {
                message: format!("cannot parse Rust source: {err}"),
                location: Some(source.locate(offset, offset)),
            }],
        }
    })?;
    let mut scan = FileScan {
        source,
        features: FeatureFile::default(),
        enums: Vec::new(),
        allows: Vec::new(),
        paths: Vec::new(),
        strings: Vec::new(),
    };
    for item in &file.items {
        let syn::Item::Enum(item) = item else { continue };
        if !derives_feature_gates(&item.attrs) {
            continue;
        }
        let input: syn::DeriveInput = item.clone().into();
        let cx = Ctxt::new();
        if let Some(parsed) = Input::from_syn(&cx, &input) {
            // Mistakes in the attributes are the compiler's to report.
            let mut variants = BTreeMap::new();
            for (variant, decl) in parsed.variants.iter().zip(parsed.decls()) {
                variants.insert(variant.ident.to_string(), decl.name.clone());
                for allow in &variant.attrs.allows {
                    scan.allows.push((decl.name.clone(), allow.code.value()));
                }
                let span = span_of(&scan.source.text, variant.ident.span());
                scan.features.spans.push(FeatureSpans { entry: span, name: span, ..FeatureSpans::default() });
                scan.features.features.push(decl);
            }
            scan.enums.push((item.ident.to_string(), variants));
        }
        let _ = cx.check();
    }
    let mut visitor = Refs { text: &scan.source.text, paths: Vec::new(), strings: Vec::new() };
    visitor.visit_file(&file);
    scan.paths = visitor.paths;
    scan.strings = visitor.strings;
    Ok(scan)
}

fn derives_feature_gates(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().filter(|a| a.path().is_ident("derive")).any(|a| {
        let mut found = false;
        let _ = a.parse_nested_meta(|meta| {
            if meta.path.segments.last().is_some_and(|s| s.ident == "FeatureGates") {
                found = true;
            }
            Ok(())
        });
        found
    })
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
