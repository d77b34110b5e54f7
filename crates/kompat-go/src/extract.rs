//! Extraction of `VersionedSpecs` maps, rule for rule as Kubernetes'
//! `compatibility_lifecycle` tool (`extractFeatureInfoListFromFile` and the
//! functions it calls), with its error texts.
//!
//! Where the tool would panic (a `version.MustParse()` without argument) or
//! write a value kompat cannot hold (an empty `preRelease`, a map key that is
//! not an identifier), this reports a located error instead. Where the tool
//! stops at the first error, this reports every error of the file.

use std::collections::{HashMap, HashSet};

use kompat_engine::{FeatureDecl, SpecDecl};
use kompat_formats::{FeatureSpans, ParseError, SpecSpans};
use kompat_runtime::{Stage, VersionLit};
use tree_sitter::{Node, Tree};

use crate::syntax::{
    children, doc_comment, element, field_children, identifier_name, is_basic_lit, is_composite_lit, literal_body,
    span, text, trimmed_string,
};
use crate::{FeatureConst, GoFile, Import, FEATUREGATE_IMPORT_QUOTED};

/// Top-level `const`/`var` names and the expression each is bound to
/// (`globalVariableDeclarations`: with several values, the last one).
type Variables<'t> = HashMap<String, Node<'t>>;

/// Which maps are read besides the `VersionedSpecs` maps the tool reads.
#[derive(Clone, Copy)]
pub enum Mode<'a> {
    /// Only what Kubernetes' tool reads.
    Tool,
    /// Also unversioned `map[...]<alias>.FeatureSpec` literals where the tool
    /// looks for maps (into [`GoFile::unversioned`]), each spec taken as the
    /// state at that release; a `Version` field in one is an error.
    Release(&'a VersionLit),
    /// Every map component-base registers: also unversioned maps, each spec at
    /// version 0.0 as `Add` registers it (a `Version` field is overwritten,
    /// as `Add` overwrites it), and maps of either kind anywhere inside
    /// function bodies (passed to `Add`/`AddVersioned`, assigned to a local):
    /// versioned ones the tool does not read go to [`GoFile::inline`].
    Component,
}

/// Reads the file's gate declarations; `mode` says which maps.
pub fn file(src: &str, tree: &Tree, mode: Mode<'_>) -> Result<GoFile, Vec<ParseError>> {
    let zero = VersionLit::parse("0.0").ok();
    let release = match mode {
        Mode::Tool => None,
        Mode::Release(v) => Some(v),
        Mode::Component => zero.as_ref(),
    };
    let component = matches!(mode, Mode::Component);
    let root = tree.root_node();
    let mut out = GoFile::default();
    let top = children(root);
    let mut alias = None;
    for node in &top {
        match node.kind() {
            "package_clause" => {
                if let Some(name) = children(*node).first() {
                    out.package = text(src, *name).to_owned();
                }
            }
            "import_declaration" => {
                for spec in import_specs(*node) {
                    let Some(path) = spec.child_by_field_name("path") else { continue };
                    let literal = text(src, path);
                    let name = spec.child_by_field_name("name").map(|n| text(src, n).to_owned());
                    // `importAliasMap`: the name given, else the last path
                    // segment; compared with the literal as written.
                    if literal == FEATUREGATE_IMPORT_QUOTED {
                        let last = literal.rsplit('/').next().unwrap_or_default().trim_matches('"');
                        alias = Some(name.clone().unwrap_or_else(|| last.to_owned()));
                    }
                    let unquoted = literal.trim_matches('"').trim_matches('`').to_owned();
                    out.imports.push(Import { path: unquoted, name, span: span(spec) });
                }
            }
            _ => {}
        }
    }
    let Some(alias) = alias else { return Ok(out) };
    let variables = variables(src, &top);
    let mut cx = Extract {
        src,
        alias: &alias,
        variables: &variables,
        release,
        component,
        inline: false,
        read: HashSet::new(),
        errors: Vec::new(),
        out: &mut out,
    };
    for node in &top {
        match node.kind() {
            "const_declaration" | "var_declaration" => {
                for spec in value_specs(*node) {
                    if node.kind() == "const_declaration" {
                        cx.constant(*node, spec);
                    }
                    for value in values(spec) {
                        cx.map(value);
                    }
                }
            }
            "function_declaration" | "method_declaration" => {
                let Some(body) = node.child_by_field_name("body") else { continue };
                for list in children(body).into_iter().filter(|n| n.kind() == "statement_list") {
                    for stmt in children(list).into_iter().filter(|n| n.kind() == "return_statement") {
                        for results in children(stmt) {
                            let results =
                                if results.kind() == "expression_list" { children(results) } else { vec![results] };
                            for value in results {
                                cx.map(value);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if component {
        // Every other spec map of the file: inside function bodies, in
        // calls, in nested literals. Read in source order, after the tool's.
        cx.inline = true;
        let mut cursor = root.walk();
        'walk: loop {
            let node = cursor.node();
            if node.kind() == "composite_literal" && !cx.read.contains(&node.start_byte()) {
                cx.map(node);
            }
            if cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
    }
    let errors = std::mem::take(&mut cx.errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let docs: HashMap<&str, &str> =
        out.constants.iter().filter_map(|c| Some((c.name.as_str(), c.doc.as_deref()?))).collect();
    let all = out.features.features_mut().iter_mut().chain(out.unversioned.features_mut().iter_mut());
    for feature in all.chain(out.inline.features_mut().iter_mut()) {
        if let Some(doc) = docs.get(feature.name.as_str()) {
            feature.description = Some((*doc).to_owned());
        }
    }
    Ok(out)
}

fn import_specs(decl: Node<'_>) -> Vec<Node<'_>> {
    let mut specs = Vec::new();
    for child in children(decl) {
        match child.kind() {
            "import_spec" => specs.push(child),
            "import_spec_list" => specs.extend(children(child).into_iter().filter(|n| n.kind() == "import_spec")),
            _ => {}
        }
    }
    specs
}

/// The `const_spec`s or `var_spec`s of a declaration, grouped or not.
fn value_specs(decl: Node<'_>) -> Vec<Node<'_>> {
    let mut specs = Vec::new();
    for child in children(decl) {
        match child.kind() {
            "const_spec" | "var_spec" => specs.push(child),
            "var_spec_list" | "const_spec_list" => {
                specs.extend(children(child).into_iter().filter(|n| matches!(n.kind(), "const_spec" | "var_spec")))
            }
            _ => {}
        }
    }
    specs
}

fn values(spec: Node<'_>) -> Vec<Node<'_>> {
    field_children(spec, "value")
        .into_iter()
        .flat_map(|v| if v.kind() == "expression_list" { children(v) } else { vec![v] })
        .collect()
}

fn variables<'t>(src: &str, top: &[Node<'t>]) -> Variables<'t> {
    let mut vars = HashMap::new();
    for node in top.iter().filter(|n| matches!(n.kind(), "const_declaration" | "var_declaration")) {
        for spec in value_specs(*node) {
            let Some(last) = values(spec).last().copied() else { continue };
            for name in field_children(spec, "name") {
                vars.insert(text(src, name).to_owned(), last);
            }
        }
    }
    vars
}

struct Extract<'a, 't> {
    src: &'a str,
    alias: &'a str,
    variables: &'a Variables<'t>,
    /// Set when unversioned `FeatureSpec` maps are read too.
    release: Option<&'a VersionLit>,
    /// [`Mode::Component`]: a `Version` field of an unversioned spec is
    /// overwritten (as `Add` does), not an error.
    component: bool,
    /// Reading maps the tool does not read: versioned ones go to
    /// [`GoFile::inline`].
    inline: bool,
    /// Start bytes of the map literals read, so that none is read twice.
    read: HashSet<usize>,
    errors: Vec<ParseError>,
    out: &'a mut GoFile,
}

impl<'t> Extract<'_, 't> {
    /// Records `Name <alias>.Feature = "..."` constants with their doc.
    fn constant(&mut self, decl: Node<'t>, spec: Node<'t>) {
        let Some(ty) = spec.child_by_field_name("type") else { return };
        if identifier_name(self.src, ty, false) != format!("{}.Feature", self.alias) {
            return;
        }
        // An ungrouped `const X ...` carries its doc on the declaration.
        let doc = doc_comment(self.src, spec).or_else(|| {
            let mut cursor = decl.walk();
            let grouped = decl.children(&mut cursor).any(|c| c.kind() == "(");
            if grouped {
                None
            } else {
                doc_comment(self.src, decl)
            }
        });
        for name in field_children(spec, "name") {
            self.out.constants.push(FeatureConst {
                name: text(self.src, name).to_owned(),
                doc: doc.clone(),
                span: span(name),
            });
        }
    }

    /// `extractFeatureInfoList`: a `map[...]<alias>.VersionedSpecs` literal.
    fn map(&mut self, value: Node<'t>) {
        if value.kind() != "composite_literal" {
            return;
        }
        let Some(ty) = value.child_by_field_name("type") else { return };
        if ty.kind() != "map_type" {
            return;
        }
        let Some(spec_type) = ty.child_by_field_name("value") else { return };
        let spec_type = identifier_name(self.src, spec_type, false);
        let unversioned = if spec_type == format!("{}.VersionedSpecs", self.alias) {
            false
        } else if self.release.is_some() && spec_type == format!("{}.FeatureSpec", self.alias) {
            true
        } else {
            return;
        };
        let Some(body) = literal_body(value) else { return };
        self.read.insert(value.start_byte());
        for elt in children(body) {
            if elt.kind() == "keyed_element" {
                if let Some(key) = elt.child_by_field_name("key").map(element) {
                    if key.kind() == "identifier" {
                        self.out.bare_keys.push(text(self.src, key).to_owned());
                    }
                }
                if unversioned {
                    self.unversioned_feature(elt);
                } else {
                    self.feature(elt);
                }
            }
        }
    }

    /// The map key of an entry as the feature's name, or an error.
    fn feature_name(&mut self, key: Node<'t>) -> Option<String> {
        let name = identifier_name(self.src, key, true);
        if name.is_empty() {
            self.errors.push(ParseError::at(
                span(key),
                "cannot read a feature name from this map key: expected the feature's constant (`MyFeature` or `features.MyFeature`)",
            ));
            return None;
        }
        Some(name)
    }

    /// One entry of an unversioned map: `X: {Default: ..., PreRelease: ...}`,
    /// one spec whose version is the release's.
    fn unversioned_feature(&mut self, kv: Node<'t>) {
        let (Some(key), Some(value), Some(release)) =
            (kv.child_by_field_name("key"), kv.child_by_field_name("value"), self.release)
        else {
            return;
        };
        let key = element(key);
        let Some(name) = self.feature_name(key) else { return };
        let Some((mut spec, mut spec_spans)) = self.spec(value) else { return };
        if let Some(at) = spec_spans.version {
            if !self.component {
                self.errors.push(ParseError::at(at, "an unversioned FeatureSpec has no Version field"));
                return;
            }
        }
        spec.version = Some(release.clone());
        spec_spans.version = None;
        let decl = FeatureDecl { name, specs: vec![spec], ..FeatureDecl::default() };
        let spans =
            FeatureSpans { entry: span(kv), name: span(key), specs: vec![spec_spans], ..FeatureSpans::default() };
        self.out.unversioned.push(decl, spans);
    }

    /// `parseFeatureInfo`: one map entry.
    fn feature(&mut self, kv: Node<'t>) {
        let (Some(key), Some(value)) = (kv.child_by_field_name("key"), kv.child_by_field_name("value")) else {
            return;
        };
        let key = element(key);
        let value = element(value);
        let Some(name) = self.feature_name(key) else { return };
        let full = identifier_name(self.src, key, false);
        let mut decl = FeatureDecl { name, ..FeatureDecl::default() };
        let mut spans = FeatureSpans { entry: span(kv), name: span(key), ..FeatureSpans::default() };
        let elements =
            if is_composite_lit(value) { literal_body(value).map(children).unwrap_or_default() } else { Vec::new() };
        let before = self.errors.len();
        for elt in elements {
            if let Some((spec, spec_spans)) = self.spec(elt) {
                decl.specs.push(spec);
                spans.specs.push(spec_spans);
            }
        }
        if self.errors.len() > before {
            return;
        }
        self.check_order(&decl, &spans);
        if self.inline {
            self.out.inline.push(decl, spans);
        } else {
            self.out.features.push(decl, spans);
            self.out.keys.push(full);
        }
    }

    /// The tool requires specs sorted by version (equal versions may repeat).
    fn check_order(&mut self, decl: &FeatureDecl, spans: &FeatureSpans) {
        for i in 1..decl.specs.len() {
            let (Some(prev), Some(cur)) = (&decl.specs[i - 1].version, &decl.specs[i].version) else { continue };
            if version_less(cur, prev) {
                let at = spans.specs[i].version.unwrap_or(spans.specs[i].spec);
                self.errors.push(ParseError::at(
                    at,
                    format!(
                        "VersionedSpecs in feature {} are not ordered by version, diff: {} comes after {}",
                        decl.name,
                        render(cur),
                        render(prev)
                    ),
                ));
                return;
            }
        }
    }

    /// `parseFeatureSpec`: one `{Version: ..., Default: ..., ...}` literal.
    fn spec(&mut self, elt: Node<'t>) -> Option<(SpecDecl, SpecSpans)> {
        let lit = if elt.kind() == "literal_element" { element(elt) } else { elt };
        if !is_composite_lit(lit) {
            self.errors.push(ParseError::at(span(elt), "expect FeatureSpec to be a CompositeLit"));
            return None;
        }
        let mut spans = SpecSpans { spec: span(lit), ..SpecSpans::default() };
        let mut spec = SpecDecl {
            version: None,
            default: false,
            lock_to_default: false,
            stage: Stage::PreAlpha,
            min_compatibility_version: None,
        };
        let mut stage = None;
        let before = self.errors.len();
        for field in literal_body(lit).map(children).unwrap_or_default() {
            if field.kind() != "keyed_element" {
                // Like the tool, one positional field fails the whole spec.
                self.errors.push(ParseError::at(span(field), "cannot parse FeatureSpec"));
                break;
            }
            let (Some(key), Some(value)) = (field.child_by_field_name("key"), field.child_by_field_name("value"))
            else {
                continue;
            };
            let value = element(value);
            match identifier_name(self.src, element(key), true).as_str() {
                "Default" => {
                    spans.default = Some(span(value));
                    spec.default = self.boolean(value).unwrap_or_default();
                }
                "LockToDefault" => {
                    spans.lock_to_default = Some(span(value));
                    spec.lock_to_default = self.boolean(value).unwrap_or_default();
                }
                "PreRelease" => {
                    spans.stage = Some(span(value));
                    let name = identifier_name(self.src, value, true);
                    match Stage::from_name(&name) {
                        Some(s) => stage = Some(s),
                        None => self.errors.push(ParseError::at(
                            span(value),
                            format!(
                                "unknown PreRelease `{}`, expected one of `Alpha`, `Beta`, `GA`, `Deprecated`",
                                text(self.src, value)
                            ),
                        )),
                    }
                }
                "Version" => {
                    spans.version = Some(span(value));
                    spec.version = self.version(value);
                }
                "MinCompatibilityVersion" => {
                    spans.min_compatibility_version = Some(span(value));
                    spec.min_compatibility_version = self.version(value);
                }
                _ => {}
            }
        }
        if self.errors.len() > before {
            return None;
        }
        let Some(stage) = stage else {
            self.errors.push(ParseError::at(span(lit), "FeatureSpec has no PreRelease"));
            return None;
        };
        spec.stage = stage;
        Some((spec, spans))
    }

    /// `parseBool`: `true`, `false`, or a same-file top-level const or var
    /// holding one, followed through any chain of names.
    fn boolean(&mut self, node: Node<'t>) -> Option<bool> {
        let mut current = node;
        let mut seen = HashSet::new();
        loop {
            let ident = identifier_name(self.src, current, false);
            match ident.as_str() {
                "true" => return Some(true),
                "false" => return Some(false),
                _ => {}
            }
            match self.variables.get(&ident) {
                Some(next) if seen.insert(ident.clone()) => current = *next,
                _ => {
                    self.errors.push(ParseError::at(span(current), format!("cannot parse {ident} into bool")));
                    return None;
                }
            }
        }
    }

    /// `parseVersion`: `version.MustParse("X.Y")` or `version.MajorMinor(X, Y)`.
    fn version(&mut self, node: Node<'t>) -> Option<VersionLit> {
        if node.kind() != "call_expression" {
            self.errors.push(ParseError::at(span(node), "expect FeatureSpec Version to be a function call"));
            return None;
        }
        let function = node.child_by_field_name("function")?;
        let arguments = node.child_by_field_name("arguments")?;
        let args = children(arguments);
        let arg = |i: usize| args.get(i).copied();
        let (text_value, at) = match identifier_name(self.src, function, true).as_str() {
            "MustParse" => {
                let value = self.string_literal(arg(0), arguments)?;
                (value, arg(0).map_or(span(arguments), span))
            }
            "MajorMinor" => {
                let major = self.int_literal(arg(0), arguments);
                let minor = self.int_literal(arg(1), arguments);
                (format!("{}.{}", major?, minor?), span(arguments))
            }
            _ => {
                self.errors.push(ParseError::at(span(function), "unrecognized function call in FeatureSpec Version"));
                return None;
            }
        };
        match VersionLit::parse(&text_value) {
            Ok(v) => Some(v),
            Err(err) => {
                self.errors.push(ParseError::at(at, err.to_string()));
                None
            }
        }
    }

    /// `basicStringLiteral`.
    fn string_literal(&mut self, node: Option<Node<'t>>, call: Node<'t>) -> Option<String> {
        let Some(node) = node.filter(|n| is_basic_lit(*n)) else {
            let at = node.map_or(span(call), span);
            self.errors.push(ParseError::at(at, "cannot parse a non BasicLit to basicStringLiteral"));
            return None;
        };
        if !matches!(node.kind(), "interpreted_string_literal" | "raw_string_literal") {
            self.errors.push(ParseError::at(span(node), "cannot parse a non STRING token to basicStringLiteral"));
            return None;
        }
        Some(trimmed_string(self.src, node))
    }

    /// `basicIntLiteral`: a decimal `strconv.ParseInt`.
    fn int_literal(&mut self, node: Option<Node<'t>>, call: Node<'t>) -> Option<i64> {
        let Some(node) = node.filter(|n| is_basic_lit(*n)) else {
            let at = node.map_or(span(call), span);
            self.errors.push(ParseError::at(at, "cannot parse a non BasicLit to basicIntLiteral"));
            return None;
        };
        if node.kind() != "int_literal" {
            self.errors.push(ParseError::at(span(node), "cannot parse a non INT token to basicIntLiteral"));
            return None;
        }
        let literal = text(self.src, node);
        let reason = if literal.is_empty() || !literal.bytes().all(|b| b.is_ascii_digit()) {
            "invalid syntax"
        } else {
            match literal.parse::<i64>() {
                Ok(value) => return Some(value),
                Err(_) => "value out of range",
            }
        };
        self.errors.push(ParseError::at(
            span(node),
            format!("strconv.ParseInt: parsing {}: {reason}", kompat_runtime::gofmt::go_quote(literal)),
        ));
        None
    }
}

/// Kubernetes' `LessThan` on versions: components compared in order, a
/// missing one counting as 0.
fn version_less(a: &VersionLit, b: &VersionLit) -> bool {
    let n = a.components().len().max(b.components().len());
    let get = |v: &VersionLit, i: usize| v.components().get(i).copied().unwrap_or(0);
    (0..n).map(|i| (get(a, i), get(b, i))).find(|(x, y)| x != y).is_some_and(|(x, y)| x < y)
}

fn render(v: &VersionLit) -> String {
    v.components().iter().map(u32::to_string).collect::<Vec<_>>().join(".")
}
