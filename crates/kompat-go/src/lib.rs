//! Go sources that declare Kubernetes feature gates: the
//! `map[...]featuregate.VersionedSpecs{...}` literals of
//! `k8s.io/component-base/featuregate`, read exactly as Kubernetes'
//! `compatibility_lifecycle` tool reads them, and the places Go code names a
//! declared gate (`features.X`).
//!
//! Go is parsed with tree-sitter's Go grammar; nothing here is a regular
//! expression over source text.
//!
//! **Architecture Invariant:** like `kompat-formats`, every function takes text
//! and returns values with byte spans. No file access, no panics on any
//! input; every error is located.

mod extract;
mod lexed;
mod merge;
mod refs;
mod syntax;

use kompat_formats::{FeatureFile, ParseError};
use kompat_runtime::VersionLit;
use kompat_span::Span;

pub use lexed::header_imports;
pub use merge::{merge, Conflict};
pub use refs::{own_references, references_parsed, GatePackage, GoRef};

/// The import path whose `VersionedSpecs` maps declare feature gates.
pub const FEATUREGATE_IMPORT: &str = "k8s.io/component-base/featuregate";

/// The import path as written in a Go import declaration (quoted). Kubernetes'
/// tool compares the literal import text with exactly this string, so a file
/// without these bytes cannot declare gates: readers may skip it after one
/// byte search.
pub const FEATUREGATE_IMPORT_QUOTED: &str = "\"k8s.io/component-base/featuregate\"";

/// True when `text` may import featuregate (contains the quoted import path).
pub fn mentions_featuregate(text: &[u8]) -> bool {
    memchr::memmem::find(text, FEATUREGATE_IMPORT_QUOTED.as_bytes()).is_some()
}

/// One import of a Go file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The import path, unquoted.
    pub path: String,
    /// The name given in the import (`fg "k8s.io/..."`, `_`, `.`), if any.
    pub name: Option<String>,
    pub span: Span,
}

/// A top-level constant of type `featuregate.Feature`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureConst {
    pub name: String,
    /// Its doc comment, comment markers removed.
    pub doc: Option<String>,
    pub span: Span,
}

/// What one Go file declares.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GoFile {
    /// The package clause's name.
    pub package: String,
    pub imports: Vec<Import>,
    /// Every feature of every `VersionedSpecs` map, in source order (a feature
    /// in two maps is here twice; [`merge`] folds them). Descriptions come from
    /// the doc comments of this file's feature constants.
    pub features: FeatureFile,
    /// Parallel to `features.features`: the map key as written
    /// (`genericfeatures.APIListChunking`).
    pub keys: Vec<String>,
    /// The file's `featuregate.Feature` constants.
    pub constants: Vec<FeatureConst>,
    /// Every feature of every unversioned `map[...]featuregate.FeatureSpec`
    /// literal, in source order, each with one spec whose version is the
    /// release given to [`parse_file_at_release`], or 0.0 from
    /// [`parse_declarations`] (as component-base's `Add` registers it).
    /// Always empty from [`parse_file`]: Kubernetes' tool does not read those
    /// maps.
    pub unversioned: FeatureFile,
    /// From [`parse_declarations`] only: every feature of the
    /// `VersionedSpecs` maps Kubernetes' tool does not read (literals inside
    /// function bodies other than a return statement's, such as one passed
    /// to `AddVersioned(...)`), in source order.
    pub inline: FeatureFile,
    /// The keys of the spec maps read that are bare identifiers (`Foo:`, not
    /// `pkg.Foo:`): names of the package's own gate constants.
    pub bare_keys: Vec<String>,
}

impl GoFile {
    /// True when the file imports `k8s.io/component-base/featuregate`.
    pub fn imports_featuregate(&self) -> bool {
        self.imports.iter().any(|i| i.path == FEATUREGATE_IMPORT)
    }
}

/// Parses one Go file and extracts its feature declarations. A file that does
/// not import featuregate declares nothing (its package and imports are still
/// returned). Syntax errors and specs the tool cannot read are errors, with
/// Kubernetes' message texts where it has one.
pub fn parse_file(text: &str) -> Result<GoFile, Vec<ParseError>> {
    let tree = syntax::parse(text)?;
    extract::file(text, &tree, extract::Mode::Tool)
}

/// Every gate the file registers with component-base, for references,
/// settings and the linter: [`parse_file`]'s `VersionedSpecs` maps (in
/// [`GoFile::features`], what Kubernetes' tool and `export --format k8s-yaml`
/// read), and also
/// - unversioned `map[...]featuregate.FeatureSpec` literals (registered with
///   `Add`), each spec at version 0.0 as `Add` sets it, so that it applies at
///   every emulation version (into [`GoFile::unversioned`]; a `Version` field
///   is overwritten, as `Add` overwrites it);
/// - maps of either kind anywhere in function bodies: passed inline to
///   `Add(...)`/`AddVersioned(...)`, returned from a function, assigned to a
///   local (versioned ones into [`GoFile::inline`]).
pub fn parse_declarations(text: &str) -> Result<GoFile, Vec<ParseError>> {
    let tree = syntax::parse(text)?;
    extract::file(text, &tree, extract::Mode::Component)
}

/// A Go file's syntax tree, kept from reading its declarations
/// ([`parse_declarations_keeping`]) for reading its references
/// ([`references_with_own_kept`]): a declaring file is parsed once.
#[derive(Clone)]
pub struct Syntax(tree_sitter::Tree);

impl std::fmt::Debug for Syntax {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Syntax")
    }
}

/// [`parse_declarations`], and the syntax tree it read.
pub fn parse_declarations_keeping(text: &str) -> Result<(GoFile, Syntax), Vec<ParseError>> {
    let tree = syntax::parse(text)?;
    let file = extract::file(text, &tree, extract::Mode::Component)?;
    Ok((file, Syntax(tree)))
}

/// [`parse_file`], and also the unversioned `map[...]featuregate.FeatureSpec`
/// literals that Kubernetes declared most gates in before 1.32 (into
/// [`GoFile::unversioned`]): each entry's one spec is taken as the gate's
/// state at `release`, the release the file is from. For reading old
/// releases' gate lists (`cargo xtask k8s-removed-features`), not for declarations:
/// Kubernetes' tool ignores these maps, and so do `kompat export` and `lint`.
/// Their specs are read with the same rules and error texts as versioned
/// ones; a `Version` field in one is an error.
pub fn parse_file_at_release(text: &str, release: &VersionLit) -> Result<GoFile, Vec<ParseError>> {
    let tree = syntax::parse(text)?;
    extract::file(text, &tree, extract::Mode::Release(release))
}

/// Every reference in `text` to a gate of a package `resolve` knows by import
/// path. Keys of `VersionedSpecs` map literals are declarations, not
/// references. Code around a syntax error is read as far as the parser
/// recovers (Go's syntax may be newer than the grammar's); declarations, not
/// references, are where syntax errors are reported.
///
/// Most files are read from their tokens alone, which find the same
/// references as the syntax tree ([`references_parsed`]) at a fraction of
/// the cost; a file that mentions spec maps, or whose tokens are not Go's, is
/// parsed.
pub fn references<'p>(
    text_: &str,
    resolve: impl Fn(&str) -> Option<&'p GatePackage>,
) -> Result<Vec<GoRef>, Vec<ParseError>> {
    match lexed::references(text_, &resolve) {
        Some(found) => Ok(found),
        None => refs::references_parsed(text_, resolve),
    }
}

/// [`references`] and [`own_references`] of one file of a declaring
/// package, in source order, from one reading of it: the declaring files
/// are the largest a tree holds, and a syntax tree is read once for both.
pub fn references_with_own<'p>(
    text_: &str,
    resolve: impl Fn(&str) -> Option<&'p GatePackage>,
    package: &GatePackage,
) -> Result<Vec<GoRef>, Vec<ParseError>> {
    let tree = syntax::parse_tolerant(text_)?;
    Ok(references_with_own_in(text_, &tree, resolve, package))
}

/// [`references_with_own`] of the text [`parse_declarations_keeping`]
/// read, from the tree it kept (a tree without syntax errors: the one
/// [`references_with_own`] would parse).
pub fn references_with_own_kept<'p>(
    text_: &str,
    syntax: &Syntax,
    resolve: impl Fn(&str) -> Option<&'p GatePackage>,
    package: &GatePackage,
) -> Vec<GoRef> {
    references_with_own_in(text_, &syntax.0, resolve, package)
}

fn references_with_own_in<'p>(
    text_: &str,
    tree: &tree_sitter::Tree,
    resolve: impl Fn(&str) -> Option<&'p GatePackage>,
    package: &GatePackage,
) -> Vec<GoRef> {
    let mut all = match lexed::references(text_, &resolve) {
        Some(found) => found,
        None => refs::references_in(text_, tree, resolve),
    };
    all.extend(refs::own_references_in(text_, tree, package));
    all.sort_by_key(|r| r.span.start);
    all
}
