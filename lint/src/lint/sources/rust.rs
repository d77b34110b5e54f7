//! Rust sources: `#[derive(FeatureGates)]` enums become declarations (with
//! their `#[kompat(allow(...))]` suppressions), and every `Enum::Variant`
//! path of such an enum, and every `enabled("Gate")`-style string use, is a
//! reference to a gate.

use std::collections::BTreeMap;
use std::path::PathBuf;

use kompat_decls::{FeatureFile, FeatureSpans, Span};
use kompat_project::{Decls, Error, Failure, Result, SourceFile};
use syn::visit::Visit;

use super::ast::Input;
use super::ctxt::Ctxt;
use super::GateRef;

/// What the Rust sources say.
#[derive(Debug, Default)]
pub struct RustScan {
    pub files: usize,
    pub refs: Vec<GateRef>,
    /// (gate, lint code) pairs suppressed with `#[kompat(allow(...))]`.
    pub allows: Vec<(String, String)>,
}

/// Function and method names whose first string argument is a gate name.
const GATE_FUNCTIONS: [&str; 4] = ["enabled", "feature_enabled", "is_enabled", "enabled_by_name"];

/// Parses every file, adds the derive-declared gates to `decls`, and
/// collects every reference to a gate.
pub fn scan(files: &[PathBuf], decls: &mut Decls) -> Result<RustScan> {
    let mut parsed = Vec::new();
    let mut failures = Vec::new();
    for path in files {
        let source = SourceFile::read(path)?;
        match syn::parse_file(&source.text) {
            Ok(file) => parsed.push((source, file)),
            Err(err) => {
                let start = err.span().start();
                let offset = offset_of(&source.text, start.line, start.column);
                failures.push(Failure {
                    message: format!("cannot parse Rust source: {err}"),
                    location: Some(source.locate(offset, offset)),
                });
            }
        }
    }
    if !failures.is_empty() {
        return Err(Error { failures });
    }
    let mut scan = RustScan { files: parsed.len(), ..RustScan::default() };
    // Pass 1: the enums.
    let mut enums: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (source, file) in &parsed {
        let mut feature_file = FeatureFile::default();
        for item in &file.items {
            let syn::Item::Enum(item) = item else { continue };
            if !derives_feature_gates(&item.attrs) {
                continue;
            }
            let input: syn::DeriveInput = item.clone().into();
            let cx = Ctxt::new();
            let Some(parsed_input) = Input::from_syn(&cx, &input) else {
                let _ = cx.check();
                continue;
            };
            // Mistakes in the attributes are the compiler's to report.
            let decls_of_enum = parsed_input.decls();
            let mut variants = BTreeMap::new();
            for (variant, decl) in parsed_input.variants.iter().zip(&decls_of_enum) {
                variants.insert(variant.ident.to_string(), decl.name.clone());
                for allow in &variant.attrs.allows {
                    scan.allows.push((decl.name.clone(), allow.code.value()));
                }
                let span = span_of(&source.text, variant.ident.span());
                feature_file.spans.push(FeatureSpans { entry: span, name: span, ..FeatureSpans::default() });
                feature_file.features.push(decl.clone());
            }
            let _ = cx.check();
            enums.insert(item.ident.to_string(), variants);
        }
        if !feature_file.features.is_empty() {
            decls.add_features(source.clone(), feature_file);
        }
    }
    // Pass 2: the references.
    for (source, file) in &parsed {
        let mut visitor = Refs { source, enums: &enums, refs: Vec::new() };
        visitor.visit_file(file);
        scan.refs.extend(visitor.refs);
    }
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
    source: &'a SourceFile,
    enums: &'a BTreeMap<String, BTreeMap<String, String>>,
    refs: Vec<GateRef>,
}

impl Refs<'_> {
    fn push(&mut self, gate: String, span: proc_macro2::Span) {
        let span = span_of(&self.source.text, span);
        self.refs.push(GateRef { gate, location: self.source.locate(span.start, span.end) });
    }

    fn string_arg(&mut self, name: &syn::Ident, args: &syn::punctuated::Punctuated<syn::Expr, syn::Token![,]>) {
        if !GATE_FUNCTIONS.iter().any(|f| name == f) {
            return;
        }
        if let Some(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(lit), .. })) = args.first() {
            self.push(lit.value(), lit.span());
        }
    }
}

impl<'ast> Visit<'ast> for Refs<'_> {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let n = path.segments.len();
        if n >= 2 {
            let owner = path.segments[n - 2].ident.to_string();
            let variant = &path.segments[n - 1].ident;
            if let Some(gate) = self.enums.get(&owner).and_then(|v| v.get(&variant.to_string())) {
                self.push(gate.clone(), variant.span());
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
