//! References to gates in one Rust file, as name resolution would find them
//! without expanding macros: `Enum::Variant` paths, through aliases
//! (`use crate::Feature as F`, `type F = Feature`, `Self` in `impl Feature`),
//! variants imported by name (`use Feature::{A, B}`), bare variant names where
//! a glob import of the enum (`use Feature::*`) is in scope, re-exports
//! (`pub use Feature::*` references every variant), and `enabled("Gate")`
//! strings; inside macro invocations too, whose tokens are read as
//! comma-separated expressions or statements where they parse and scanned for
//! paths where they do not.
//!
//! Scopes follow Rust's: a `use` or an item is visible in its whole module or
//! block and in the blocks inside, not in nested modules, except through
//! `use super::*`; an item or a named import shadows a glob import of the
//! same name. Which names are derived enums is decided later, over every
//! file ([`FileRefs`] holds the candidates), so the owner of a path here is
//! only a name.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{LineColumn, TokenStream, TokenTree};
use syn::parse::Parser;
use syn::visit::Visit;

/// Function and method names whose first string argument is a gate name.
pub(super) const GATE_FUNCTIONS: [&str; 4] = ["enabled", "feature_enabled", "is_enabled", "enabled_by_name"];

/// How deep macro invocations inside macro invocations are parsed; deeper
/// ones are scanned as tokens with the one around them (linear, so a file
/// of nested macros costs a bounded number of passes over its tokens).
const MAX_MACRO_PARSE_DEPTH: usize = 4;

/// Up to how many known names a token is compared with each; beyond, it is
/// looked up in the set.
const FEW_NAMES: usize = 8;

/// How many aliases of aliases in one file are followed.
const MAX_ALIAS_CHAIN: usize = 8;

/// Where a name is written: its start and end.
pub(super) type At = (LineColumn, LineColumn);

/// Where a text lexed on its own starts in its file (a chunk of a file is
/// lexed alone): positions in it map to the file's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Origin {
    /// The 1-based line of its first character.
    pub line: usize,
    /// The 0-based column (in characters) of its first character.
    pub column: usize,
}

impl Origin {
    /// A whole file.
    pub const FILE: Origin = Origin { line: 1, column: 0 };

    /// The position in the file of `at`, a position in the text.
    pub fn map(self, at: LineColumn) -> LineColumn {
        if at.line <= 1 {
            LineColumn { line: self.line, column: self.column + at.column }
        } else {
            LineColumn { line: self.line + at.line - 1, column: at.column }
        }
    }

    fn span(self, span: proc_macro2::Span) -> At {
        (self.map(span.start()), self.map(span.end()))
    }
}

/// The candidate references of one file.
#[derive(Debug, Default)]
pub(super) struct FileRefs {
    /// `Owner::Variant`: the owner (aliases and `Self` resolved as far as
    /// this file knows them), the variant and where it is written.
    pub paths: Vec<(String, String, At)>,
    /// A bare name where glob imports are in scope: the index of the
    /// imported owners in `globs`, the name and where it is written.
    pub bare: Vec<(usize, String, At)>,
    /// The owners glob-imported, innermost scope first, per scope chain.
    pub globs: Vec<Vec<String>>,
    /// `pub use Owner::*`: every variant of the owner is re-exported.
    pub reexports: Vec<(String, At)>,
    /// Aliases visible beyond their module (`pub use X as Y`, `pub type Y =
    /// X`): alias, owner.
    pub aliases: Vec<(String, String)>,
    /// `enabled("Gate")`-style strings: the gate name and its literal.
    pub strings: Vec<(String, At)>,
}

/// Reads the references of `file`. With `known`, only owners among those
/// names are kept (others cannot be derived enums or their aliases);
/// without, every candidate.
pub(super) fn find(file: &syn::File, known: Option<&BTreeSet<String>>) -> FileRefs {
    let mut refs = Refs::new(known);
    refs.bind(&file.items);
    refs.visit(&file.items);
    refs.finish()
}

impl<'a> Refs<'a> {
    /// A reader of one file, at its top level.
    pub(super) fn new(known: Option<&'a BTreeSet<String>>) -> Refs<'a> {
        let root = Scope { module: true, ..Scope::default() };
        Refs {
            known,
            scopes: vec![root],
            out: FileRefs::default(),
            macro_depth: 0,
            globbing: 0,
            origin: Origin::FILE,
            unsure: Vec::new(),
        }
    }

    /// Where the items read next start in their file.
    pub(super) fn set_origin(&mut self, origin: Origin) {
        self.origin = origin;
    }

    /// Adds what top-level `items` bring into the file's scope (imports,
    /// aliases, names).
    pub(super) fn bind(&mut self, items: &[syn::Item]) {
        self.bind_root(items, Binds::All);
    }

    /// [`Refs::bind`] for the `use` and `type` items among `items` only.
    /// A file read in runs of items binds every import of the file first
    /// (Rust sees every import of a module everywhere in it), then, run by
    /// run, binds the run's other items with [`Refs::bind_names`] and
    /// visits it: a bare name that a later run's item binds is settled by
    /// [`Refs::finish`].
    pub(super) fn bind_imports(&mut self, items: &[syn::Item]) {
        self.bind_root(items, Binds::Imports);
    }

    /// [`Refs::bind`] for the items among `items` that are not `use` or
    /// `type` items: the names they bind.
    pub(super) fn bind_names(&mut self, items: &[syn::Item]) {
        self.bind_root(items, Binds::Names);
    }

    fn bind_root(&mut self, items: &[syn::Item], binds: Binds) {
        let Some(mut root) = self.scopes.pop() else { return };
        let globbed = !root.globs.is_empty();
        self.bind_items(&mut root, items.iter().filter(|item| binds.takes(item)));
        self.globbing += usize::from(!globbed && !root.globs.is_empty());
        self.scopes.push(root);
    }

    /// The aliases the file's top level binds (alias -> target): all of
    /// them once [`Refs::bind_imports`] has read every import.
    pub(super) fn root_aliases(&self) -> &BTreeMap<String, String> {
        static NONE: BTreeMap<String, String> = BTreeMap::new();
        self.scopes.first().map_or(&NONE, |root| &root.aliases)
    }

    /// Reads the references in top-level `items`.
    pub(super) fn visit(&mut self, items: &[syn::Item]) {
        for item in items {
            self.visit_item(item);
        }
    }

    /// What was found. A bare name recorded with the file's glob imports
    /// among its owners, that an item of the file binds after all (read in
    /// a later run), has them left out, as reading the file whole does.
    pub(super) fn finish(mut self) -> FileRefs {
        let Some(root) = self.scopes.first() else { return self.out };
        let mut dropped = BTreeSet::new();
        for (entry, inner) in std::mem::take(&mut self.unsure) {
            let Some((_, name, _)) = self.out.bare.get(entry) else { continue };
            if !root.bound.contains(name) {
                continue;
            }
            if inner.is_empty() {
                dropped.insert(entry);
            } else {
                let index = self.out.globs_index(inner);
                self.out.bare[entry].0 = index;
            }
        }
        if !dropped.is_empty() {
            let mut entry = 0;
            self.out.bare.retain(|_| {
                entry += 1;
                !dropped.contains(&(entry - 1))
            });
        }
        self.out
    }
}

impl FileRefs {
    /// The index in `globs` of `owners`, added if new.
    fn globs_index(&mut self, owners: Vec<String>) -> usize {
        match self.globs.iter().position(|g| *g == owners) {
            Some(index) => index,
            None => {
                self.globs.push(owners);
                self.globs.len() - 1
            }
        }
    }
}

/// Which top-level items a bind takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Binds {
    All,
    /// `use` and `type` items.
    Imports,
    /// The others.
    Names,
}

impl Binds {
    fn takes(self, item: &syn::Item) -> bool {
        let import = matches!(item, syn::Item::Use(_) | syn::Item::Type(_));
        match self {
            Binds::All => true,
            Binds::Imports => import,
            Binds::Names => !import,
        }
    }
}

/// What one module, block or impl makes visible.
#[derive(Default)]
struct Scope {
    /// A module: names of the scopes around it are not visible, unless it
    /// `inherits` (`use super::*`), and then only its parent module's.
    module: bool,
    inherits: bool,
    /// Local name -> the name it stands for (`use a::B as C`, `type C = B`).
    aliases: BTreeMap<String, String>,
    /// Owners glob-imported (`use a::Owner::*`).
    globs: Vec<String>,
    /// Names an item or a named import binds here; they shadow globs.
    bound: BTreeSet<String>,
    /// The type `Self` names inside an `impl`.
    self_ty: Option<String>,
}

pub(super) struct Refs<'a> {
    known: Option<&'a BTreeSet<String>>,
    scopes: Vec<Scope>,
    out: FileRefs,
    macro_depth: usize,
    /// How many scopes on the stack glob-import something.
    globbing: usize,
    /// Where the items being read start in their file.
    origin: Origin,
    /// Bare names recorded with the file's own glob imports among their
    /// owners while not every top-level name was bound yet: the entry in
    /// `out.bare` and its owners without the file's globs.
    unsure: Vec<(usize, Vec<String>)>,
}

/// The last segment of a path, as a name.
fn last_name(path: &syn::Path) -> Option<String> {
    path.segments.last().map(|s| s.ident.to_string())
}

fn is_pub(vis: &syn::Visibility) -> bool {
    !matches!(vis, syn::Visibility::Inherited)
}

/// The leaves of a use tree: the path before each leaf and the leaf.
fn use_leaves<'t>(tree: &'t syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, &'t syn::UseTree)>) {
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            use_leaves(&path.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                use_leaves(tree, prefix, out);
            }
        }
        leaf => out.push((prefix.clone(), leaf)),
    }
}

impl Refs<'_> {
    /// The scope `items` open (a module's or a block's).
    fn scope<'i>(&mut self, items: impl Iterator<Item = &'i syn::Item>, module: bool) -> Scope {
        let mut scope = Scope { module, ..Scope::default() };
        self.bind_items(&mut scope, items);
        scope
    }

    /// Adds what `items` bring into `scope`.
    fn bind_items<'i>(&mut self, scope: &mut Scope, items: impl Iterator<Item = &'i syn::Item>) {
        for item in items {
            let name = match item {
                syn::Item::Use(item) => {
                    let mut leaves = Vec::new();
                    use_leaves(&item.tree, &mut Vec::new(), &mut leaves);
                    for (prefix, leaf) in leaves {
                        self.bind_use(scope, &prefix, leaf, is_pub(&item.vis));
                    }
                    continue;
                }
                syn::Item::Type(item) => {
                    if let (true, syn::Type::Path(ty)) = (item.generics.params.is_empty(), &*item.ty) {
                        if let Some(target) = last_name(&ty.path).filter(|_| ty.qself.is_none()) {
                            let alias = item.ident.to_string();
                            if is_pub(&item.vis) {
                                self.out.aliases.push((alias.clone(), target.clone()));
                            }
                            scope.aliases.insert(alias, target);
                        }
                    }
                    &item.ident
                }
                syn::Item::Const(item) => &item.ident,
                syn::Item::Static(item) => &item.ident,
                syn::Item::Fn(item) => &item.sig.ident,
                syn::Item::Struct(item) => &item.ident,
                syn::Item::Enum(item) => &item.ident,
                syn::Item::Union(item) => &item.ident,
                syn::Item::Mod(item) => &item.ident,
                syn::Item::Trait(item) => &item.ident,
                _ => continue,
            };
            scope.bound.insert(name.to_string());
        }
    }

    /// What one leaf of a `use` brings into `scope`.
    fn bind_use(&mut self, scope: &mut Scope, prefix: &[String], leaf: &syn::UseTree, public: bool) {
        let owner = prefix.last().map(String::as_str);
        match leaf {
            syn::UseTree::Glob(glob) => match owner {
                Some("super") if prefix.len() == 1 => scope.inherits = true,
                Some("super" | "self" | "crate") | None => {}
                Some(owner) => {
                    let owner = self.resolve(owner, Some(scope));
                    if public && self.keeps(&owner) {
                        let star = self.origin.span(glob.star_token.span);
                        self.out.reexports.push((owner.clone(), star));
                    }
                    scope.globs.push(owner);
                }
            },
            syn::UseTree::Name(name) => {
                // `use Owner::Variant;` names the variant: a reference.
                if let Some(owner) = owner {
                    self.path(owner, &name.ident, Some(&*scope));
                }
                if name.ident != "self" {
                    scope.bound.insert(name.ident.to_string());
                }
            }
            syn::UseTree::Rename(rename) => {
                if let Some(owner) = owner {
                    self.path(owner, &rename.ident, Some(&*scope));
                }
                let (alias, target) = (rename.rename.to_string(), rename.ident.to_string());
                if alias == "_" {
                    return;
                }
                let target = if target == "self" { owner.unwrap_or_default().to_owned() } else { target };
                if public {
                    self.out.aliases.push((alias.clone(), target.clone()));
                }
                scope.bound.insert(alias.clone());
                scope.aliases.insert(alias, target);
            }
            syn::UseTree::Path(_) | syn::UseTree::Group(_) => {}
        }
    }

    /// Whether an owner named `name` is worth recording.
    fn keeps(&self, name: &str) -> bool {
        self.known.is_none_or(|known| known.contains(name))
    }

    /// Calls `f` on each scope whose names are visible here, innermost
    /// first, until it returns `false`; `first` is a scope being built, not
    /// yet on the stack. Past a module only its parent module is visible,
    /// and only through `use super::*` (blocks between them are skipped).
    fn each_visible<'s>(&'s self, first: Option<&'s Scope>, mut f: impl FnMut(&'s Scope) -> bool) {
        let mut seeking_parent = false;
        for scope in first.into_iter().chain(self.scopes.iter().rev()) {
            if seeking_parent && !scope.module {
                continue;
            }
            seeking_parent = false;
            if !f(scope) {
                return;
            }
            if scope.module {
                if !scope.inherits {
                    return;
                }
                seeking_parent = true;
            }
        }
    }

    /// The name `name` stands for here: through aliases (an alias of an
    /// alias too, a few deep) and `Self`.
    fn resolve(&self, name: &str, first: Option<&Scope>) -> String {
        let mut name = name.to_owned();
        for _ in 0..MAX_ALIAS_CHAIN {
            match self.resolve_once(&name, first) {
                Some(target) if target != name => name = target,
                _ => break,
            }
        }
        name
    }

    /// What `name` stands for one alias away, if it is an alias here.
    fn resolve_once(&self, name: &str, first: Option<&Scope>) -> Option<String> {
        let mut found = None;
        self.each_visible(first, |scope| {
            if name == "Self" {
                found = scope.self_ty.clone();
                return found.is_none();
            }
            if let Some(target) = scope.aliases.get(name) {
                found = Some(target.clone());
                return false;
            }
            !scope.bound.contains(name)
        });
        found
    }

    /// Records `owner::variant`.
    fn path(&mut self, owner: &str, variant: &proc_macro2::Ident, first: Option<&Scope>) {
        let owner = self.resolve(owner, first);
        if self.keeps(&owner) {
            let at = self.origin.span(variant.span());
            self.out.paths.push((owner, variant.to_string(), at));
        }
    }

    /// Records a bare `name` if glob imports are in scope for it.
    fn bare(&mut self, name: &proc_macro2::Ident) {
        if self.globbing == 0 {
            return;
        }
        let text = name.to_string();
        let mut owners = Vec::new();
        // The owners from scopes inside the file's own, when its globs
        // count too.
        let mut inner = None;
        let root = self.scopes.first();
        self.each_visible(None, |scope| {
            if scope.bound.contains(&text) {
                return false;
            }
            let before = owners.len();
            owners.extend(scope.globs.iter().filter(|o| self.keeps(o)).cloned());
            if root.is_some_and(|root| std::ptr::eq(root, scope)) && owners.len() > before {
                inner = Some(owners[..before].to_vec());
            }
            true
        });
        if owners.is_empty() {
            return;
        }
        let index = self.out.globs_index(owners);
        if let Some(inner) = inner {
            self.unsure.push((self.out.bare.len(), inner));
        }
        let at = self.origin.span(name.span());
        self.out.bare.push((index, text, at));
    }

    fn string_arg(&mut self, name: &syn::Ident, args: &syn::punctuated::Punctuated<syn::Expr, syn::Token![,]>) {
        if !GATE_FUNCTIONS.iter().any(|f| name == f) {
            return;
        }
        if let Some(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(lit), .. })) = args.first() {
            let at = self.origin.span(lit.span());
            self.out.strings.push((lit.value(), at));
        }
    }

    fn with_scope(&mut self, scope: Scope, visit: impl FnOnce(&mut Self)) {
        let globs = usize::from(!scope.globs.is_empty());
        self.globbing += globs;
        self.scopes.push(scope);
        visit(self);
        self.scopes.pop();
        self.globbing -= globs;
    }

    /// The tokens of a macro invocation: as expressions or statements where
    /// they parse, otherwise scanned.
    fn macro_tokens(&mut self, tokens: &TokenStream) {
        if !self.relevant(tokens) {
            return;
        }
        if self.macro_depth >= MAX_MACRO_PARSE_DEPTH {
            self.scan_tokens(tokens.clone());
            return;
        }
        self.macro_depth += 1;
        let exprs = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated.parse2(tokens.clone());
        if let Ok(exprs) = exprs {
            for expr in &exprs {
                self.visit_expr(expr);
            }
        } else if let Ok(stmts) = syn::Block::parse_within.parse2(tokens.clone()) {
            for stmt in &stmts {
                self.visit_stmt(stmt);
            }
        } else {
            self.scan_tokens(tokens.clone());
        }
        self.macro_depth -= 1;
    }

    /// Whether `tokens` can hold a reference: with the known names given,
    /// they must name one of them, `Self`, a local alias or a gate
    /// function, or stand where a glob import is in scope. A cheap walk that
    /// spares parsing most macro invocations (`tracing::info!("...")`).
    fn relevant(&self, tokens: &TokenStream) -> bool {
        let Some(known) = self.known else { return true };
        if self.globbing > 0 {
            return true;
        }
        let aliased = |ident: &proc_macro2::Ident| {
            self.scopes.iter().any(|scope| scope.aliases.keys().any(|alias| ident == alias))
        };
        let mut pending = vec![tokens.clone()];
        while let Some(stream) = pending.pop() {
            for token in stream {
                match token {
                    TokenTree::Group(group) => pending.push(group.stream()),
                    TokenTree::Ident(ident) => {
                        // A few names are compared one by one; more are
                        // looked up, so that the cost of a token does not
                        // grow with the number of names declared.
                        let is_known = if known.len() <= FEW_NAMES {
                            known.iter().any(|name| ident == name)
                        } else {
                            known.contains(&ident.to_string())
                        };
                        if ident == "Self" || is_known || GATE_FUNCTIONS.iter().any(|f| ident == f) || aliased(&ident) {
                            return true;
                        }
                    }
                    TokenTree::Punct(_) | TokenTree::Literal(_) => {}
                }
            }
        }
        false
    }

    /// Paths (`A::B`), bare names and `enabled("Gate")` calls in tokens that
    /// are not Rust syntax (`tracing::info!(target: "x", ...)`, a
    /// `macro_rules!` body); iterative, so nesting costs no stack.
    fn scan_tokens(&mut self, tokens: TokenStream) {
        let mut pending = vec![tokens];
        while let Some(stream) = pending.pop() {
            let tokens: Vec<TokenTree> = stream.into_iter().collect();
            let punct = |i: usize, c: char| matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == c);
            let colons = |i: usize| punct(i, ':') && punct(i + 1, ':');
            for (i, token) in tokens.iter().enumerate() {
                match token {
                    TokenTree::Group(group) => pending.push(group.stream()),
                    TokenTree::Ident(ident) => {
                        let after_path = i >= 2 && colons(i - 2);
                        if colons(i + 1) {
                            if let Some(TokenTree::Ident(variant)) = tokens.get(i + 3) {
                                self.path(&ident.to_string(), variant, None);
                            }
                        } else if !after_path
                            && !(i >= 1 && (punct(i - 1, '.') || punct(i - 1, '$')))
                            && !punct(i + 1, '!')
                        {
                            self.bare(ident);
                        }
                        if let (true, Some(TokenTree::Group(args))) =
                            (GATE_FUNCTIONS.iter().any(|f| ident == f), tokens.get(i + 1))
                        {
                            if let Some(TokenTree::Literal(lit)) = args.stream().into_iter().next() {
                                if let syn::Lit::Str(lit) = syn::Lit::new(lit) {
                                    let at = self.origin.span(lit.span());
                                    self.out.strings.push((lit.value(), at));
                                }
                            }
                        }
                    }
                    TokenTree::Punct(_) | TokenTree::Literal(_) => {}
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Refs<'_> {
    fn visit_item_mod(&mut self, module: &'ast syn::ItemMod) {
        let Some((_, items)) = &module.content else { return };
        let scope = self.scope(items.iter(), true);
        self.with_scope(scope, |this| syn::visit::visit_item_mod(this, module));
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        let items = block.stmts.iter().filter_map(|s| match s {
            syn::Stmt::Item(item) => Some(item),
            _ => None,
        });
        let scope = self.scope(items, false);
        self.with_scope(scope, |this| syn::visit::visit_block(this, block));
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        let self_ty = match &*item.self_ty {
            syn::Type::Path(ty) if ty.qself.is_none() => last_name(&ty.path).map(|name| self.resolve(&name, None)),
            _ => None,
        };
        let scope = Scope { self_ty, ..Scope::default() };
        self.with_scope(scope, |this| syn::visit::visit_item_impl(this, item));
    }

    /// `use` items are read when their scope opens.
    fn visit_item_use(&mut self, _: &'ast syn::ItemUse) {}

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let n = path.segments.len();
        if n >= 2 {
            let owner = path.segments[n - 2].ident.to_string();
            self.path(&owner, &path.segments[n - 1].ident, None);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_expr_path(&mut self, expr: &'ast syn::ExprPath) {
        if let (None, None, Some(ident)) = (&expr.qself, &expr.path.leading_colon, expr.path.get_ident()) {
            self.bare(ident);
        }
        syn::visit::visit_expr_path(self, expr);
    }

    fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
        // Where a glob import brings a unit variant in, `X` in a pattern is
        // the variant, not a new binding.
        if pat.by_ref.is_none() && pat.mutability.is_none() && pat.subpat.is_none() {
            self.bare(&pat.ident);
        }
        syn::visit::visit_pat_ident(self, pat);
    }

    /// The arguments of an attribute (an attribute macro such as
    /// `#[tracing::instrument(fields(...))]`) are scanned as tokens; the
    /// derives' own `#[kompat(...)]` names gates, it does not use them.
    fn visit_meta_list(&mut self, list: &'ast syn::MetaList) {
        syn::visit::visit_meta_list(self, list);
        if !list.path.is_ident("kompat") && self.relevant(&list.tokens) {
            self.scan_tokens(list.tokens.clone());
        }
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        syn::visit::visit_macro(self, mac);
        self.macro_tokens(&mac.tokens);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The references of `text` as `(owner, name)` pairs: paths, bare
    /// names (with their first glob-imported owner), re-exports and strings.
    fn render(refs: &FileRefs) -> Vec<String> {
        let mut out: Vec<String> = refs.paths.iter().map(|(owner, variant, _)| format!("{owner}::{variant}")).collect();
        for (globs, name, _) in &refs.bare {
            out.push(format!("{}::{name}", refs.globs[*globs].join("|")));
        }
        out.extend(refs.reexports.iter().map(|(owner, _)| format!("{owner}::*")));
        out.extend(refs.strings.iter().map(|(gate, _)| format!("{gate:?}")));
        out
    }

    /// A file read whole, and read item by item (every import bound first,
    /// then each item's names bound and the item visited, as a reader that
    /// parses a file in runs of items does), finds the same references,
    /// wherever its imports and items are written.
    #[test]
    fn runs_of_items_find_what_the_whole_file_finds() {
        let known: BTreeSet<String> = ["Feature".to_owned(), "Gate".to_owned()].into();
        for text in [
            "use crate::gates::Feature as F;\nfn f() { F::A; }\nfn g() { tracing::info!(x = ?F::B); }",
            "use crate::gates::Feature::*;\nconst C: u8 = 0;\nfn f() { let _ = [A, C]; }",
            "pub use crate::gates::Feature::*;\nimpl Feature { fn f(self) { Self::B; } }",
            "fn f(g: &G) { g.enabled(\"X\"); }\nmod m { use super::*; fn g() { Gate::A; } }",
            // Imports below their use, and an item that shadows a glob
            // import written below the name's use.
            "fn f() { F::A; let _ = [A, B, C]; }\nuse crate::gates::Feature as F;\nuse F::*;\nconst C: u8 = 0;",
            "fn f() { match x { A => {} B => {} } }\nmod m { use super::*; fn g() { B; } }\nuse Gate::*;\nfn B() {}",
            "type G = Gate;\nfn f() { G::A; Y; }\npub type Y = G;\nfn g() { Y::B; }\nuse Y::B as Z;",
        ] {
            let file = match syn::parse_file(text) {
                Ok(file) => file,
                Err(err) => panic!("{text}: {err}"),
            };
            let whole = render(&find(&file, Some(&known)));
            let mut runs = Refs::new(Some(&known));
            runs.bind_imports(&file.items);
            for item in &file.items {
                runs.bind_names(std::slice::from_ref(item));
                runs.visit(std::slice::from_ref(item));
            }
            assert_eq!(render(&runs.finish()), whole, "{text}");
            assert!(!whole.is_empty(), "{text}");
        }
    }
}
