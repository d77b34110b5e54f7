//! The CRD model: the parts of a `CustomResourceDefinition` the checks read,
//! each with its span, and [`parse_manifests`], which finds the CRDs in a
//! multi-document YAML stream.

use std::collections::BTreeMap;

use kompat_formats::manifest;
use kompat_formats::yaml::{self, Node};
use kompat_formats::ParseError;
use kompat_span::Span;

/// The `apiVersion` of the CRDs kompat checks.
pub const V1: &str = "apiextensions.k8s.io/v1";
/// The `apiVersion` removed in Kubernetes 1.22.
pub const V1BETA1: &str = "apiextensions.k8s.io/v1beta1";

/// A value with the span of the text it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(value: T, span: Span) -> Spanned<T> {
        Spanned { value, span }
    }
}

/// One CustomResourceDefinition document.
#[derive(Debug, Clone, PartialEq)]
pub struct Crd {
    /// `apiVersion`: `apiextensions.k8s.io/v1`, or `apiextensions.k8s.io/v1beta1`
    /// (only reported as removed).
    pub api_version: Spanned<String>,
    /// `metadata.name` (empty when absent).
    pub name: Spanned<String>,
    /// `metadata.annotations` with string values.
    pub annotations: BTreeMap<String, Spanned<String>>,
    pub group: Spanned<String>,
    pub kind: Spanned<String>,
    pub plural: Spanned<String>,
    pub singular: Option<Spanned<String>>,
    pub list_kind: Option<Spanned<String>>,
    /// `Namespaced` or `Cluster`.
    pub scope: Spanned<String>,
    pub versions: Vec<CrdVersion>,
    /// The span of the `versions` key of `spec`.
    pub versions_span: Span,
    /// `spec.conversion.strategy`, when written.
    pub conversion_strategy: Option<Spanned<String>>,
    /// `spec.preserveUnknownFields`, when written.
    pub preserve_unknown_fields: Option<Spanned<bool>>,
    /// `status.storedVersions`, when the manifest has a status (an object
    /// read back from a cluster).
    pub stored_versions: Option<Spanned<Vec<Spanned<String>>>>,
    /// The whole document.
    pub span: Span,
}

/// One entry of `spec.versions`.
#[derive(Debug, Clone, PartialEq)]
pub struct CrdVersion {
    pub name: Spanned<String>,
    pub served: Spanned<bool>,
    pub storage: Spanned<bool>,
    pub deprecated: Option<Spanned<bool>>,
    pub deprecation_warning: Option<Spanned<String>>,
    /// `schema.openAPIV3Schema`.
    pub schema: Option<Tree>,
    /// The whole entry, for the comparison of the parts not modelled here;
    /// but for the value of its `schema`, which is `schema` (an empty
    /// mapping at its span stands for it: the schema is kept once).
    pub raw: Tree,
}

/// One of a CRD's trees (a version's schema or entry), shared by the
/// copies of a CRD that several files (or documents) repeat: each copy
/// holds the tree read once with how far its own document is from the one
/// it was read from. [`Tree::span`] is where the copy is; the tree itself
/// ([`Tree::node`], or `*tree`) is copied with its spans there the first
/// time a copy reads it, which most copies never do (only the checks of
/// CRDs with several versions, and upgrades, read schemas).
#[derive(Clone)]
pub struct Tree {
    shared: std::sync::Arc<Node>,
    /// This copy's offset from the shared tree's spans, in bytes.
    by: isize,
    /// The tree with its spans where this copy is, when `by` is not 0 and
    /// it was read.
    here: std::sync::OnceLock<Node>,
}

impl Tree {
    pub fn new(node: Node) -> Tree {
        Tree { shared: std::sync::Arc::new(node), by: 0, here: std::sync::OnceLock::new() }
    }

    /// The tree, its spans where this copy is.
    pub fn node(&self) -> &Node {
        if self.by == 0 {
            return &self.shared;
        }
        self.here.get_or_init(|| self.shared.shifted(self.by))
    }

    /// The span of the tree's root where this copy is, without copying it.
    pub fn span(&self) -> Span {
        shifted_span(self.shared.span(), self.by)
    }

    /// The same tree `by` bytes on (back when negative): shared, not
    /// copied.
    fn shifted(&self, by: isize) -> Tree {
        Tree { shared: self.shared.clone(), by: self.by + by, here: std::sync::OnceLock::new() }
    }
}

impl std::ops::Deref for Tree {
    type Target = Node;

    fn deref(&self) -> &Node {
        self.node()
    }
}

impl PartialEq for Tree {
    fn eq(&self, other: &Tree) -> bool {
        (std::sync::Arc::ptr_eq(&self.shared, &other.shared) && self.by == other.by) || self.node() == other.node()
    }
}

impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.node().fmt(f)
    }
}

/// `span` moved `by` bytes (a copy's offset from where its tree was read:
/// the result is a span of the copy's text, never before its start).
fn shifted_span(span: Span, by: isize) -> Span {
    Span::new(span.start.saturating_add_signed(by), span.end.saturating_add_signed(by))
}

impl CrdVersion {
    pub fn span(&self) -> Span {
        self.raw.span()
    }

    pub fn is_deprecated(&self) -> bool {
        self.deprecated.as_ref().is_some_and(|d| d.value)
    }
}

impl Crd {
    /// Moves every span `by` bytes (back when negative): a CRD read from
    /// a document, placed in a text that holds the same document there.
    /// Its trees are shared, not copied.
    fn shift(&mut self, by: isize) {
        let moved = |span: &mut Span| *span = shifted_span(*span, by);
        let Crd {
            api_version,
            name,
            annotations,
            group,
            kind,
            plural,
            singular,
            list_kind,
            scope,
            versions,
            versions_span,
            conversion_strategy,
            preserve_unknown_fields,
            stored_versions,
            span,
        } = self;
        for s in [api_version, name, group, kind, plural, scope].into_iter().chain(annotations.values_mut()) {
            moved(&mut s.span);
        }
        for s in [singular, list_kind, conversion_strategy].into_iter().flatten() {
            moved(&mut s.span);
        }
        if let Some(p) = preserve_unknown_fields {
            moved(&mut p.span);
        }
        if let Some(stored) = stored_versions {
            moved(&mut stored.span);
            stored.value.iter_mut().for_each(|v| moved(&mut v.span));
        }
        moved(versions_span);
        moved(span);
        for version in versions {
            let CrdVersion { name, served, storage, deprecated, deprecation_warning, schema, raw } = version;
            moved(&mut name.span);
            moved(&mut served.span);
            moved(&mut storage.span);
            if let Some(d) = deprecated {
                moved(&mut d.span);
            }
            if let Some(w) = deprecation_warning {
                moved(&mut w.span);
            }
            if let Some(schema) = schema {
                *schema = schema.shifted(by);
            }
            *raw = raw.shifted(by);
        }
    }

    /// A copy with every span `by` bytes on (back when negative), its
    /// trees shared.
    fn shifted(&self, by: isize) -> Crd {
        let mut copy = self.clone();
        copy.shift(by);
        copy
    }

    /// `<plural>.<group>`: the name the API server requires for the CRD.
    pub fn id(&self) -> String {
        format!("{}.{}", self.plural.value, self.group.value)
    }

    /// `<plural>.<group>/<version>`.
    pub fn subject(&self, version: &str) -> String {
        format!("{}/{version}", self.id())
    }

    pub fn is_v1(&self) -> bool {
        self.api_version.value == V1
    }

    pub fn version(&self, name: &str) -> Option<&CrdVersion> {
        self.versions.iter().find(|v| v.name.value == name)
    }

    /// The versions marked `storage: true`.
    pub fn storage_versions(&self) -> impl Iterator<Item = &CrdVersion> {
        self.versions.iter().filter(|v| v.storage.value)
    }

    /// The storage version, when exactly one is marked.
    pub fn storage_version(&self) -> Option<&CrdVersion> {
        let mut storage = self.storage_versions();
        match (storage.next(), storage.next()) {
            (Some(v), None) => Some(v),
            _ => None,
        }
    }

    pub fn served_versions(&self) -> impl Iterator<Item = &CrdVersion> {
        self.versions.iter().filter(|v| v.served.value)
    }

    /// `status.storedVersions`, or what the API server would have recorded
    /// for this manifest (its storage version) when it has no status.
    pub fn stored_or_storage(&self) -> (Vec<String>, bool) {
        match &self.stored_versions {
            Some(stored) => (stored.value.iter().map(|v| v.value.clone()).collect(), true),
            None => (self.storage_versions().map(|v| v.name.value.clone()).take(1).collect(), false),
        }
    }

    /// True when the API server keeps objects of `version`: it is served,
    /// the storage version, or listed in `status.storedVersions`. Schema and
    /// pruning rules judge only these versions.
    pub fn is_live(&self, version: &CrdVersion) -> bool {
        version.served.value
            || version.storage.value
            || self.stored_versions.as_ref().is_some_and(|s| s.value.iter().any(|v| v.value == version.name.value))
    }

    /// True with `spec.conversion.strategy: Webhook`.
    pub fn converts_by_webhook(&self) -> bool {
        self.conversion_strategy.as_ref().is_some_and(|s| s.value == "Webhook")
    }

    /// The release channel from the Gateway API annotation, if any.
    pub fn channel_annotation(&self) -> Option<&str> {
        self.annotations.get("gateway.networking.k8s.io/channel").map(|c| c.value.as_str())
    }
}

/// Finds the CustomResourceDefinitions in a multi-document YAML stream, in
/// order. Other documents (and empty ones) are skipped; `kind: List`
/// documents are searched. `apiextensions.k8s.io/v1beta1` CRDs are returned
/// for [`crate::check_crd`] to report. Every structural problem of every CRD
/// is reported, each with its span.
///
/// Each document is skimmed first (`kompat_formats::manifest`): only those
/// whose `kind` is `CustomResourceDefinition` or `List` (and those the skim
/// cannot read) are parsed, each on its own, so an install bundle of many
/// kinds costs the parse of its CRDs alone. The result, and the error, are
/// [`parse_manifests_whole`]'s (with `KOMPAT_FULL_PARSE` set in the
/// environment that is what runs, for the fast path's test).
pub fn parse_manifests(text: &str) -> Result<Vec<Crd>, Vec<ParseError>> {
    parse_manifests_in(text, None, None)
}

/// [`parse_manifests`], each large CRD document read once per `seen`: a
/// CRD that several files repeat (an install bundle and the CRD's own
/// file) is parsed the first time, and copied the next.
pub fn parse_manifests_seen(text: &str, seen: &SeenCrds) -> Result<Vec<Crd>, Vec<ParseError>> {
    parse_manifests_in(text, None, Some(seen))
}

/// [`parse_manifests_seen`], `text` being `shared` when that is given.
fn parse_manifests_in(
    text: &str,
    shared: Option<&std::sync::Arc<str>>,
    seen: Option<&SeenCrds>,
) -> Result<Vec<Crd>, Vec<ParseError>> {
    if !kompat_formats::manifest::full_parse() {
        let spans = manifest::documents_of_kinds(text, wanted);
        if let Some(found) = spans.and_then(|spans| crds_skimmed(text, shared, spans, seen, &[])) {
            return found.finish();
        }
    }
    parse_manifests_whole(text)
}

/// [`parse_manifests_seen`] of a text some of whose documents were parsed
/// already: `stream` is what [`kompat_formats::manifest::read_stream`]
/// says of `text` (when it read it). A document it parsed is not parsed
/// again; when it parsed the whole text, its trees are what
/// [`parse_manifests_whole`] reads.
pub fn parse_manifests_read(
    text: &str,
    stream: Option<&manifest::Stream>,
    seen: &SeenCrds,
) -> Result<Vec<Crd>, Vec<ParseError>> {
    parse_manifests_read_in(text, None, stream, seen)
}

/// [`parse_manifests_read`] of a text the caller keeps for as long as
/// `seen`: the large CRD documents `seen` keeps are kept as this text
/// (its `Arc`) rather than as copies.
pub fn parse_manifests_read_shared(
    text: &std::sync::Arc<str>,
    stream: Option<&manifest::Stream>,
    seen: &SeenCrds,
) -> Result<Vec<Crd>, Vec<ParseError>> {
    parse_manifests_read_in(text, Some(text), stream, seen)
}

/// [`parse_manifests_read`], `text` being `shared` when it is given.
fn parse_manifests_read_in(
    text: &str,
    shared: Option<&std::sync::Arc<str>>,
    stream: Option<&manifest::Stream>,
    seen: &SeenCrds,
) -> Result<Vec<Crd>, Vec<ParseError>> {
    let Some(stream) = stream else { return parse_manifests_in(text, shared, Some(seen)) };
    if stream.is_whole() {
        let mut found = Found::default();
        stream.trees().iter().for_each(|tree| found.document(tree));
        return found.finish();
    }
    // The documents by kind, as the stream's read kept them.
    let spans = stream.documents_of_kinds(wanted).or_else(|| manifest::documents_of_kinds(text, wanted));
    match spans.and_then(|spans| crds_skimmed(text, shared, spans, Some(seen), stream.trees())) {
        Some(found) => found.finish(),
        None => parse_manifests_whole(text),
    }
}

/// [`parse_manifests`] by one parse of the whole stream.
pub fn parse_manifests_whole(text: &str) -> Result<Vec<Crd>, Vec<ParseError>> {
    let docs = yaml::parse_documents(text).map_err(|e| vec![e])?;
    let mut found = Found::default();
    for doc in docs {
        found.document_owned(doc);
    }
    found.finish()
}

/// The kinds of the documents the CRD reader reads: any other mapping is
/// skipped by [`Found::document`] too.
fn wanted(kind: &str) -> bool {
    kind == "List" || kind == "CustomResourceDefinition"
}

/// The CRDs of a stream whose documents all skim or parse on their own,
/// parsing only `spans`, the documents whose `kind` is [`wanted`] (and
/// those the skim could not read: [`manifest::documents_of_kinds`]); `None`
/// when some document does not parse by itself (the whole stream is parsed
/// then, for the error a full parse gives).
fn crds_skimmed(
    text: &str,
    shared: Option<&std::sync::Arc<str>>,
    spans: Vec<Span>,
    seen: Option<&SeenCrds>,
    parsed: &[Node],
) -> Option<Found> {
    // What the documents gave so far, and the documents another thread was
    // reading when met: read after the rest (rather than waited for), each
    // where it stands among the others.
    let mut found = Found::default();
    let mut parts: Vec<Part> = Vec::new();
    for span in spans {
        // Parsed already: the trees that start in the document's text.
        let first = parsed.partition_point(|tree| tree.span().start < span.start);
        let count = parsed[first..].iter().take_while(|tree| tree.span().start <= span.end).count();
        if count > 0 {
            parsed[first..first + count].iter().for_each(|tree| found.document(tree));
            continue;
        }
        let doc = &text[span.start..span.end];
        if let Some(seen) = seen.filter(|_| doc.len() >= SeenCrds::MIN_BYTES) {
            match seen.read(text, shared, span, false) {
                Lookup::Read(read, by) => {
                    found.append_shifted(&read.found, by);
                    continue;
                }
                Lookup::Busy => {
                    parts.push(Part::Found(std::mem::take(&mut found)));
                    parts.push(Part::Busy(span));
                    continue;
                }
                Lookup::Here => {}
                Lookup::Unreadable => return None,
            }
        }
        found.append_owned(read_document(text, span)?);
    }
    if parts.is_empty() {
        return Some(found);
    }
    parts.push(Part::Found(found));
    let mut all = Found::default();
    for part in parts {
        match part {
            Part::Found(part) => all.append_owned(part),
            Part::Busy(span) => match seen.map_or(Lookup::Here, |seen| seen.read(text, shared, span, true)) {
                Lookup::Read(read, by) => all.append_shifted(&read.found, by),
                Lookup::Here | Lookup::Busy => all.append_owned(read_document(text, span)?),
                Lookup::Unreadable => return None,
            },
        }
    }
    Some(all)
}

/// What [`crds_skimmed`] has of a stream's documents: what some gave, or
/// one that another thread was reading.
enum Part {
    Found(Found),
    Busy(Span),
}

/// The CRDs (and errors) of the document at `span` of `text`, their spans
/// in `text`; `None` when it does not parse by itself.
fn read_document(text: &str, span: Span) -> Option<Found> {
    read_built(text, span, None)
}

/// [`read_document`], from `built` when it is given: the document's tree
/// built already, its spans in `text` (what [`yaml::block::build`] gives).
fn read_built(text: &str, span: Span, built: Option<Node>) -> Option<Found> {
    let mut found = Found::default();
    match built.or_else(|| yaml::block::build(text, span)) {
        // Within the skim's subset: built from its lines.
        Some(node) => found.document_owned(node),
        None => {
            for mut node in yaml::parse_documents(text.get(span.start..span.end)?).ok()? {
                node.shift(span.start);
                found.document_owned(node);
            }
        }
    }
    Some(found)
}

/// How far a document at `to` is from one at `from`, in bytes.
fn offset(to: usize, from: usize) -> isize {
    // Offsets in texts, which no allocation makes longer than `isize::MAX`.
    (to as isize).wrapping_sub(from as isize)
}

/// The large CRD documents met so far ([`parse_manifests_seen`]): for each,
/// its text and its CRDs as read where it was first met, which every later
/// meeting copies, sharing their trees ([`Tree`]). Each is read once.
/// Shared by threads: a thread that meets a document another is reading
/// waits for that read rather than reading it too.
#[derive(Default)]
pub struct SeenCrds {
    docs: std::sync::Mutex<std::collections::HashMap<u64, Met>>,
    /// Signalled when a document being read ([`Met::Reading`]) is read.
    read: std::sync::Condvar,
}

enum Met {
    /// Being read by a thread.
    Reading,
    Read(Kept, std::sync::Arc<Read>),
    /// It does not parse by itself.
    Unreadable,
}

/// The text of a document kept: a copy, or the text it is in (which its
/// caller keeps anyway: [`parse_manifests_read_shared`]) and its span.
struct Kept {
    text: std::sync::Arc<str>,
    span: Span,
}

/// A document as read where it was first met.
struct Read {
    found: Found,
    /// Where it starts in the text it was read from.
    at: usize,
}

/// Marks a document whose read did not finish (the reader unwound) as
/// unreadable, so that no thread waits for it for ever.
struct Reading<'a> {
    seen: &'a SeenCrds,
    hash: u64,
    done: bool,
}

impl Drop for Reading<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.seen.finish(self.hash, Met::Unreadable);
        }
    }
}

impl SeenCrds {
    /// Documents smaller than this are parsed each time: looking them up
    /// would cost about as much (the skim's threshold for the same lookup).
    const MIN_BYTES: usize = kompat_formats::seen::MIN_BYTES;

    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<u64, Met>> {
        self.docs.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Records what a read gave, for the threads waiting for it.
    fn finish(&self, hash: u64, met: Met) {
        self.lock().insert(hash, met);
        self.read.notify_all();
    }

    /// What the document at `span` of `text` (which is `shared` when that
    /// is given) holds, as read where it was first met (read now, here,
    /// when this is the first time). A document another thread is reading
    /// is waited for when `wait` says so, and [`Lookup::Busy`] otherwise.
    fn read(&self, text: &str, shared: Option<&std::sync::Arc<str>>, span: Span, wait: bool) -> Lookup {
        use std::collections::hash_map::Entry;
        // Looked up without the comment and blank lines before its content:
        // a bundle's first document often has a header comment that the
        // CRD's own file does not.
        let Some(whole) = text.get(span.start..span.end) else { return Lookup::Unreadable };
        let span = content_span(whole.as_bytes(), span);
        let doc = &text[span.start..span.end];
        // The skim's hash of a large document: a lookup compares the whole
        // text anyway.
        let hash = kompat_formats::seen::sample_hash(doc.as_bytes());
        let mut docs = self.lock();
        loop {
            match docs.entry(hash) {
                Entry::Vacant(entry) => {
                    entry.insert(Met::Reading);
                    break;
                }
                Entry::Occupied(entry) => match entry.get() {
                    Met::Read(met, read) if met.text.get(met.span.start..met.span.end) == Some(doc) => {
                        return Lookup::Read(read.clone(), offset(span.start, read.at))
                    }
                    // Another text of the same hash: parsed where it is.
                    Met::Read(..) | Met::Unreadable => return Lookup::Here,
                    Met::Reading if !wait => return Lookup::Busy,
                    Met::Reading => docs = self.read.wait(docs).unwrap_or_else(std::sync::PoisonError::into_inner),
                },
            }
        }
        drop(docs);
        let mut reading = Reading { seen: self, hash, done: false };
        // The tree the skim built when it read the stream, if it did, moved
        // to where this copy is.
        let built = manifest::take_tree(doc).map(|(mut tree, at)| {
            if at != span.start {
                tree.shift_signed(offset(span.start, at));
            }
            tree
        });
        let Some(found) = read_built(text, span, built) else { return Lookup::Unreadable };
        let read = std::sync::Arc::new(Read { found, at: span.start });
        reading.done = true;
        let kept = match shared {
            Some(text) => Kept { text: text.clone(), span },
            None => Kept { text: doc.into(), span: Span::new(0, doc.len()) },
        };
        self.finish(hash, Met::Read(kept, read.clone()));
        Lookup::Read(read, 0)
    }
}

/// The span of a document's content within its `span` (`doc` its bytes):
/// without the blank and comment lines before the content, which are no
/// part of its tree ([`kompat_formats::seen::content_start`]). What follows
/// the content is kept as it is: a last line of spaces can end a block
/// scalar differently.
fn content_span(doc: &[u8], span: Span) -> Span {
    Span::new(span.start + kompat_formats::seen::content_start(doc), span.end)
}

/// What [`SeenCrds::read`] tells of a large document.
enum Lookup {
    /// Read, here or where it was first met, and how far this document's
    /// content is from that reading's.
    Read(std::sync::Arc<Read>, isize),
    /// To be parsed where it is (another document of the same hash was met
    /// first, or its first reading failed).
    Here,
    /// Being read by another thread.
    Busy,
    /// It does not parse by itself.
    Unreadable,
}

/// The CRDs, and the errors, of the documents read so far.
#[derive(Default)]
struct Found {
    crds: Vec<Crd>,
    errors: Vec<ParseError>,
}

impl Found {
    /// Reads one document of a stream kept by the caller: the schemas and
    /// versions the CRDs hold are copied out of it.
    fn document(&mut self, doc: &Node) {
        self.read(Doc::Borrowed(doc));
    }

    /// Reads one document of a stream, its tree the reader's: the schemas
    /// and versions the CRDs hold are moved out of it, not copied.
    fn document_owned(&mut self, doc: Node) {
        self.read(Doc::Owned(doc));
    }

    fn read(&mut self, doc: Doc<'_>) {
        let mut pending: Vec<Doc<'_>> = vec![doc];
        while let Some(doc) = pending.pop() {
            let node = doc.node();
            if node.is_null() {
                continue;
            }
            if node.as_map().is_none() {
                self.errors.push(ParseError::at(
                    node.span(),
                    format!("a manifest must be a mapping, not {}", node.describe()),
                ));
                continue;
            }
            let kind = node.get("kind").and_then(Node::as_str);
            if kind == Some("List") {
                match doc {
                    Doc::Borrowed(node) => {
                        if let Some(items) = node.get("items").and_then(Node::as_seq) {
                            pending.extend(items.iter().rev().map(Doc::Borrowed));
                        }
                    }
                    Doc::Owned(mut node) => {
                        if let Some(Node::Seq(items, _)) = value_mut(&mut node, "items").map(take) {
                            pending.extend(items.into_iter().rev().map(Doc::Owned));
                        }
                    }
                }
                continue;
            }
            let node_doc = node;
            if kind != Some("CustomResourceDefinition") {
                continue;
            }
            let Some((api_node, api_version)) = node_doc.get("apiVersion").and_then(|n| Some((n, n.as_str()?))) else {
                continue;
            };
            if !api_version.starts_with("apiextensions.k8s.io/") {
                continue;
            }
            if api_version != V1 && api_version != V1BETA1 {
                self.errors.push(ParseError::at(
                    api_node.span(),
                    format!("unknown CustomResourceDefinition apiVersion `{api_version}`, expected `{V1}`"),
                ));
                continue;
            }
            let mut reader = Reader { errors: Vec::new(), trees: Vec::new() };
            let crd = reader.crd(node_doc, Spanned::new(api_version.to_owned(), api_node.span()));
            if reader.errors.is_empty() {
                if let Some(mut crd) = crd {
                    match doc {
                        Doc::Borrowed(doc) => trees_cloned(&mut crd, &reader.trees, doc),
                        Doc::Owned(doc) => trees_moved(&mut crd, &reader.trees, doc),
                    }
                    self.crds.push(crd);
                }
            } else {
                self.errors.append(&mut reader.errors);
            }
        }
    }

    /// Appends what another read gave.
    fn append_owned(&mut self, mut other: Found) {
        self.crds.append(&mut other.crds);
        self.errors.append(&mut other.errors);
    }

    /// Appends what another document holds, its spans moved `by` bytes
    /// (back when negative), its trees shared.
    fn append_shifted(&mut self, other: &Found, by: isize) {
        self.crds.extend(other.crds.iter().map(|crd| crd.shifted(by)));
        self.errors.extend(
            other
                .errors
                .iter()
                .map(|err| ParseError { span: err.span.map(|s| shifted_span(s, by)), message: err.message.clone() }),
        );
    }

    fn finish(self) -> Result<Vec<Crd>, Vec<ParseError>> {
        if self.errors.is_empty() {
            Ok(self.crds)
        } else {
            Err(self.errors)
        }
    }
}

/// A document the reader reads: kept by its caller, or its own.
enum Doc<'a> {
    Borrowed(&'a Node),
    Owned(Node),
}

impl Doc<'_> {
    fn node(&self) -> &Node {
        match self {
            Doc::Borrowed(node) => node,
            Doc::Owned(node) => node,
        }
    }
}

/// Where the trees of a version the reader read are in its document: the
/// `spec.versions` entry at `item` is the version `version` of the CRD,
/// whose `schema.openAPIV3Schema` (when `schema`) is its schema. The
/// reader reads the document by reference; its trees are copied or moved
/// out after ([`trees_cloned`], [`trees_moved`]).
struct VersionTrees {
    version: usize,
    item: usize,
    schema: bool,
}

/// The value of `key` in a mapping, to change.
fn value_mut<'a>(node: &'a mut Node, key: &str) -> Option<&'a mut Node> {
    match node {
        Node::Map(entries, _) => entries.iter_mut().find(|(k, _)| k.value == key).map(|(_, v)| v),
        _ => None,
    }
}

/// Moves a tree out, an empty sequence left in its place.
fn take(node: &mut Node) -> Node {
    let span = node.span();
    std::mem::replace(node, Node::Seq(Vec::new(), span))
}

/// The entries of `spec.versions`.
fn version_items(doc: &Node) -> Option<&[Node]> {
    doc.get("spec")?.get("versions")?.as_seq()
}

/// Copies the trees `trees` names out of `doc` into `crd`'s versions.
fn trees_cloned(crd: &mut Crd, trees: &[VersionTrees], doc: &Node) {
    let Some(items) = version_items(doc) else { return };
    for t in trees {
        let (Some(item), Some(version)) = (items.get(t.item), crd.versions.get_mut(t.version)) else { continue };
        version.raw = Tree::new(without_schema(item));
        if t.schema {
            version.schema = item.get("schema").and_then(|s| s.get("openAPIV3Schema")).cloned().map(Tree::new);
        }
    }
}

/// Moves the trees `trees` names out of `doc` into `crd`'s versions, as
/// [`trees_cloned`] copies them.
fn trees_moved(crd: &mut Crd, trees: &[VersionTrees], mut doc: Node) {
    let items = value_mut(&mut doc, "spec").and_then(|spec| value_mut(spec, "versions"));
    let Some(Node::Seq(items, _)) = items else { return };
    for t in trees {
        let (Some(item), Some(version)) = (items.get_mut(t.item), crd.versions.get_mut(t.version)) else { continue };
        let mut item = take(item);
        let mut schema = None;
        if let Node::Map(entries, _) = &mut item {
            for (_, value) in entries.iter_mut().filter(|(key, _)| key.value == "schema") {
                if t.schema {
                    schema = value_mut(value, "openAPIV3Schema").map(take);
                }
                *value = Node::Map(Vec::new(), value.span());
            }
        }
        version.raw = Tree::new(item);
        if t.schema {
            version.schema = schema.map(Tree::new);
        }
    }
}

struct Reader {
    errors: Vec<ParseError>,
    /// The trees of the versions read, to copy or move out of the document.
    trees: Vec<VersionTrees>,
}

impl Reader {
    fn error(&mut self, span: Span, message: String) {
        self.errors.push(ParseError::at(span, message));
    }

    /// A mapping at `path`; absent is `None`, anything else an error.
    fn map<'a>(&mut self, parent: &'a Node, key: &str, path: &str) -> Option<&'a Node> {
        let node = parent.get(key)?;
        if node.as_map().is_some() {
            Some(node)
        } else if node.is_null() {
            None
        } else {
            self.error(node.span(), format!("`{path}` must be a mapping, not {}", node.describe()));
            None
        }
    }

    fn opt_string(&mut self, parent: &Node, key: &str, path: &str) -> Option<Spanned<String>> {
        let node = parent.get(key)?;
        match node.as_str() {
            Some(s) => Some(Spanned::new(s.to_owned(), node.span())),
            None if node.is_null() => None,
            None => {
                self.error(node.span(), format!("`{path}` must be a string, not {}", node.describe()));
                None
            }
        }
    }

    fn string(&mut self, parent: &Node, key: &str, path: &str) -> Spanned<String> {
        match self.opt_string(parent, key, path) {
            Some(s) => s,
            None => {
                if parent.get(key).is_none_or(Node::is_null) {
                    self.error(parent.span(), format!("`{path}` is required"));
                }
                Spanned::new(String::new(), parent.span())
            }
        }
    }

    fn opt_bool(&mut self, parent: &Node, key: &str, path: &str) -> Option<Spanned<bool>> {
        let node = parent.get(key)?;
        match node.as_bool() {
            Some(b) => Some(Spanned::new(b, node.span())),
            None if node.is_null() => None,
            None => {
                self.error(node.span(), format!("`{path}` must be a boolean, not {}", node.describe()));
                None
            }
        }
    }

    fn crd(&mut self, doc: &Node, api_version: Spanned<String>) -> Option<Crd> {
        let v1 = api_version.value == V1;
        let empty = Node::Map(Vec::new(), doc.span());
        let metadata = self.map(doc, "metadata", "metadata").unwrap_or(&empty);
        let name =
            self.opt_string(metadata, "name", "metadata.name").unwrap_or(Spanned::new(String::new(), doc.span()));
        let mut annotations = BTreeMap::new();
        if let Some(entries) = self.map(metadata, "annotations", "metadata.annotations").and_then(Node::as_map) {
            for (k, v) in entries {
                if let Some(value) = v.as_str() {
                    annotations.insert(k.value.to_string(), Spanned::new(value.to_owned(), v.span()));
                }
            }
        }
        let Some(spec) = self.map(doc, "spec", "spec") else {
            self.error(doc.span(), "`spec` is required".to_owned());
            return None;
        };
        let group = self.string(spec, "group", "spec.group");
        let names = match self.map(spec, "names", "spec.names") {
            Some(names) => names,
            None => {
                self.error(spec.span(), "`spec.names` is required".to_owned());
                &empty
            }
        };
        let kind = self.string(names, "kind", "spec.names.kind");
        let plural = self.string(names, "plural", "spec.names.plural");
        let singular = self.opt_string(names, "singular", "spec.names.singular");
        let list_kind = self.opt_string(names, "listKind", "spec.names.listKind");
        let scope = self.string(spec, "scope", "spec.scope");
        if !scope.value.is_empty() && scope.value != "Namespaced" && scope.value != "Cluster" {
            self.error(scope.span, format!("`spec.scope` must be `Namespaced` or `Cluster`, not `{}`", scope.value));
        }

        let mut versions = Vec::new();
        let mut versions_span = spec.span();
        if let Some((key, _)) = spec.entry("versions") {
            versions_span = key.span;
        }
        match spec.get("versions") {
            Some(Node::Seq(items, span)) => {
                for (i, item) in items.iter().enumerate() {
                    if let Some((version, schema)) = self.version(item, i, v1, spec) {
                        self.trees.push(VersionTrees { version: versions.len(), item: i, schema });
                        versions.push(version);
                    }
                }
                if items.is_empty() && v1 {
                    self.error(*span, "`spec.versions` must have at least one version".to_owned());
                }
            }
            Some(node) if !node.is_null() => {
                self.error(node.span(), format!("`spec.versions` must be a sequence, not {}", node.describe()));
            }
            _ if v1 => self.error(spec.span(), "`spec.versions` is required".to_owned()),
            _ => {
                // apiextensions.k8s.io/v1beta1: a single `spec.version`.
                if let Some(name) = self.opt_string(spec, "version", "spec.version") {
                    let schema = spec.get("validation").and_then(|v| v.get("openAPIV3Schema")).cloned().map(Tree::new);
                    let t = Spanned::new(true, name.span);
                    versions.push(CrdVersion {
                        name,
                        served: t.clone(),
                        storage: t,
                        deprecated: None,
                        deprecation_warning: None,
                        schema,
                        raw: Tree::new(spec.clone()),
                    });
                }
            }
        }

        let conversion = self.map(spec, "conversion", "spec.conversion");
        let conversion_strategy = conversion.and_then(|c| self.opt_string(c, "strategy", "spec.conversion.strategy"));
        let preserve_unknown_fields = self.opt_bool(spec, "preserveUnknownFields", "spec.preserveUnknownFields");

        let mut stored_versions = None;
        if let Some(status) = self.map(doc, "status", "status") {
            match status.get("storedVersions") {
                Some(Node::Seq(items, span)) => {
                    let mut list = Vec::new();
                    for (i, item) in items.iter().enumerate() {
                        match item.as_str() {
                            Some(s) => list.push(Spanned::new(s.to_owned(), item.span())),
                            None => self.error(
                                item.span(),
                                format!("`status.storedVersions[{i}]` must be a string, not {}", item.describe()),
                            ),
                        }
                    }
                    stored_versions = Some(Spanned::new(list, *span));
                }
                Some(node) if !node.is_null() => self
                    .error(node.span(), format!("`status.storedVersions` must be a sequence, not {}", node.describe())),
                _ => {}
            }
        }

        Some(Crd {
            api_version,
            name,
            annotations,
            group,
            kind,
            plural,
            singular,
            list_kind,
            scope,
            versions,
            versions_span,
            conversion_strategy,
            preserve_unknown_fields,
            stored_versions,
            span: doc.span(),
        })
    }

    /// A version, but for its trees (an empty mapping for its `raw`; its
    /// `schema` when it is the CRD-wide one of a v1beta1 CRD), and whether
    /// its schema is its `schema.openAPIV3Schema`.
    fn version(&mut self, item: &Node, i: usize, v1: bool, spec: &Node) -> Option<(CrdVersion, bool)> {
        let path = |key: &str| format!("spec.versions[{i}].{key}");
        if item.as_map().is_none() {
            self.error(item.span(), format!("`spec.versions[{i}]` must be a mapping, not {}", item.describe()));
            return None;
        }
        let name = self.string(item, "name", &path("name"));
        let mut flag = |key: &str| match self.opt_bool(item, key, &path(key)) {
            Some(b) => b,
            None => {
                if item.get(key).is_none_or(Node::is_null) && v1 {
                    self.error(item.span(), format!("`{}` is required", path(key)));
                }
                Spanned::new(false, item.span())
            }
        };
        let served = flag("served");
        let storage = flag("storage");
        let deprecated = self.opt_bool(item, "deprecated", &path("deprecated"));
        let deprecation_warning = self.opt_string(item, "deprecationWarning", &path("deprecationWarning"));
        let mut own_schema = false;
        let schema = match self.map(item, "schema", &path("schema")) {
            Some(schema) => match schema.get("openAPIV3Schema") {
                Some(node) if node.as_map().is_some() => {
                    own_schema = true;
                    None
                }
                Some(node) if !node.is_null() => {
                    let message =
                        format!("`{}` must be a mapping, not {}", path("schema.openAPIV3Schema"), node.describe());
                    self.error(node.span(), message);
                    None
                }
                _ => None,
            },
            // v1beta1 CRDs may have a CRD-wide schema.
            None if !v1 => spec.get("validation").and_then(|v| v.get("openAPIV3Schema")).cloned().map(Tree::new),
            None => None,
        };
        let raw = Tree::new(Node::Map(Vec::new(), item.span()));
        Some((CrdVersion { name, served, storage, deprecated, deprecation_warning, schema, raw }, own_schema))
    }
}

/// A copy of a `spec.versions` entry without its schema: the value of its
/// `schema` is an empty mapping at its span (the reader copies the schema
/// once, to `CrdVersion::schema`).
fn without_schema(item: &Node) -> Node {
    match item {
        Node::Map(entries, span) => {
            let copy = |(key, value): &(yaml::Scalar, Node)| {
                let value = if key.value == "schema" { Node::Map(Vec::new(), value.span()) } else { value.clone() };
                (key.clone(), value)
            };
            Node::Map(entries.iter().map(copy).collect(), *span)
        }
        other => other.clone(),
    }
}

/// Orders version names as they are released, oldest (least stable) first:
/// Kubernetes version names (`kompat-engine`'s parser) by major, then alpha <
/// beta < GA, then minor; every other name sorts before them, by bytes.
pub(crate) fn release_order(a: &str, b: &str) -> std::cmp::Ordering {
    use kompat_engine::api::KubeVersion;
    match (KubeVersion::parse(a), KubeVersion::parse(b)) {
        (Some(x), Some(y)) => x.cmp(&y).then_with(|| a.cmp(b)),
        (Some(_), None) => std::cmp::Ordering::Greater,
        (None, Some(_)) => std::cmp::Ordering::Less,
        (None, None) => a.cmp(b),
    }
}

#[cfg(test)]
mod tests {
    use super::release_order;
    use kompat_span::Span;

    /// A CRD shifted (its trees shared) is the CRD read from its document
    /// placed that many bytes on, and shifted back it is the CRD read where
    /// it was: every span, those of its trees included, for every CRD of
    /// the single-CRD fixtures.
    #[test]
    fn shifted_is_read_there() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/crd/single");
        let mut files: Vec<_> = std::fs::read_dir(&dir).into_iter().flatten().flatten().map(|e| e.path()).collect();
        files.sort();
        let mut crds = 0;
        for path in files {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let read = super::parse_manifests_whole(&text).unwrap_or_default();
            for by in [0, 7, 1 << 12] {
                let there = super::parse_manifests_whole(&format!("{}{text}", "\n".repeat(by))).unwrap_or_default();
                assert_eq!(read.len(), there.len(), "{}", path.display());
                for (crd, there) in read.iter().zip(&there) {
                    let shifted = crd.shifted(by as isize);
                    // Compared tree by tree, not by the trees' sharing.
                    let trees = |crd: &super::Crd| -> Vec<Option<super::Node>> {
                        let versions = crd.versions.iter();
                        versions
                            .flat_map(|v| [v.schema.as_ref().map(|t| t.node().clone()), Some(v.raw.node().clone())])
                            .collect()
                    };
                    assert_eq!(shifted, *there, "{} by {by}", path.display());
                    assert_eq!(trees(&shifted), trees(there), "{} by {by}", path.display());
                    assert_eq!(there.shifted(-(by as isize)), *crd, "{} back by {by}", path.display());
                    assert_eq!(trees(&there.shifted(-(by as isize))), trees(crd), "{} back by {by}", path.display());
                    let spans = shifted.versions.iter().map(|v| (v.span(), v.schema.as_ref().map(super::Tree::span)));
                    let expected = there
                        .versions
                        .iter()
                        .map(|v| (v.raw.node().span(), v.schema.as_ref().map(|t| t.node().span())));
                    assert!(spans.eq(expected), "{} by {by}", path.display());
                }
            }
            crds += read.len();
        }
        assert!(crds > 5, "{crds} CRDs read");
    }

    /// A large CRD met again (through `SeenCrds`) shares the trees of its
    /// first read, at its own offset, and reads as it is where it is;
    /// read without `SeenCrds`, each copy has trees of its own.
    #[test]
    fn repeated_crds_share_their_trees() {
        let properties: String =
            (0..400).map(|i| format!("              field{i}:\n                type: string\n")).collect();
        let crd = format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: as.b\nspec:\n  group: b\n  names: {{kind: A, plural: as}}\n  scope: Cluster\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n{properties}"
        );
        assert!(crd.len() >= super::SeenCrds::MIN_BYTES, "{} bytes", crd.len());
        let other = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n---\n";
        let texts = [crd.clone(), format!("{other}{crd}"), format!("{other}{other}{crd}")];
        let seen = super::SeenCrds::default();
        let read: Vec<Vec<super::Crd>> =
            texts.iter().map(|text| super::parse_manifests_seen(text, &seen).unwrap_or_default()).collect();
        let alone: Vec<Vec<super::Crd>> =
            texts.iter().map(|text| super::parse_manifests(text).unwrap_or_default()).collect();
        let schema = |crds: &[super::Crd]| crds.first().and_then(|crd| crd.versions.first()?.schema.clone());
        let first = schema(&read[0]).unwrap_or_else(|| super::Tree::new(super::Node::Seq(Vec::new(), Span::new(0, 0))));
        for (i, text) in texts.iter().enumerate() {
            assert_eq!(read[i], alone[i], "text {i}");
            assert_eq!(read[i], super::parse_manifests_whole(text).unwrap_or_default(), "text {i}");
            let (Some(shared), Some(own)) = (schema(&read[i]), schema(&alone[i])) else {
                panic!("text {i}: no schema")
            };
            assert!(std::sync::Arc::ptr_eq(&shared.shared, &first.shared), "text {i}: not shared");
            assert_eq!(shared.by, (i * other.len()) as isize, "text {i}");
            assert!(i == 0 || !std::sync::Arc::ptr_eq(&own.shared, &first.shared), "text {i}: shared without `seen`");
            assert_eq!(shared.span(), own.span(), "text {i}");
            assert!(text[shared.span().start..].starts_with("type: object"), "text {i}");
        }
    }

    /// The CRDs (and errors) read from a tree the reader owns, its trees
    /// moved out, are those read from a tree it borrows, its trees copied,
    /// for every document of the CRD fixtures (malformed ones included) and
    /// of small cases the fixtures lack.
    #[test]
    fn owned_read_is_the_borrowed_read() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/crd");
        let mut files = Vec::new();
        kompat_testkit::files::yaml_files_below(&dir, &mut files);
        let mut texts: Vec<String> = files.iter().filter_map(|path| std::fs::read_to_string(path).ok()).collect();
        assert!(texts.len() > 20, "{} fixtures", texts.len());
        let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.b}\nspec:\n  group: b\n  names: {kind: A, plural: a}\n  scope: Cluster\n  versions:\n";
        let version = |name: &str, schema: &str| {
            format!("  - name: {name}\n    served: true\n    storage: {}\n{schema}", name == "v1")
        };
        texts.push(format!("{crd}{}", version("v1", "    schema:\n      openAPIV3Schema: {type: object}\n")));
        texts.push(format!("{crd}{}", version("v1", "    schema:\n      other: 1\n")));
        texts.push(format!("{crd}{}", version("v1", "    schema: {openAPIV3Schema: [a]}\n")));
        texts.push(format!(
            "{crd}{}  - 3\n{}",
            version("v1beta1", "    schema:\n      openAPIV3Schema: {type: string}\n"),
            version("v1", "    schema: {openAPIV3Schema: {type: object}}\n    x: y\n")
        ));
        texts.push(format!(
            "kind: List\nitems:\n- {}\n- 7\n",
            format!("{crd}{}", version("v1", "    schema:\n      openAPIV3Schema: {type: object}\n"))
                .replace('\n', "\n  ")
        ));
        let mut crds = 0;
        for text in &texts {
            let Ok(docs) = super::yaml::parse_documents(text) else { continue };
            let (mut borrowed, mut owned) = (super::Found::default(), super::Found::default());
            for doc in docs {
                borrowed.document(&doc);
                owned.document_owned(doc);
            }
            assert_eq!(owned.crds, borrowed.crds, "{text}");
            assert_eq!(owned.errors, borrowed.errors, "{text}");
            crds += owned.crds.len();
        }
        assert!(crds > 20, "{crds} CRDs read");
    }

    /// The release order of version names, as the conversion chain and the
    /// migration plan list them (docs/crd.md).
    #[test]
    fn versions_in_release_order() {
        let mut names = [
            "v2",
            "foo",
            "v1",
            "v10beta3",
            "v1beta1",
            "v11alpha2",
            "v1alpha1",
            "v2beta1",
            "v1beta2",
            "bar",
            "v2alpha1",
        ];
        names.sort_by(|a, b| release_order(a, b));
        assert_eq!(
            names,
            [
                "bar",
                "foo",
                "v1alpha1",
                "v1beta1",
                "v1beta2",
                "v1",
                "v2alpha1",
                "v2beta1",
                "v2",
                "v10beta3",
                "v11alpha2"
            ]
        );
        // Equal as versions, still a total order.
        assert_eq!(release_order("v01", "v1"), "v01".cmp("v1"));
    }

    /// A large CRD whose tree the skim built when it read a stream
    /// (`manifest::take_tree`) is not built again: the CRD reader takes that
    /// tree, moved from where it was built to where its own copy is (after
    /// it, before it, or there), and reads a full parse's CRDs.
    #[test]
    fn a_crd_built_by_the_skim_is_taken_where_it_is() {
        use kompat_testkit::manifests::large_crd;
        let other = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n---\n";
        for (i, (built, read)) in [(0, 2), (2, 0), (1, 1)].into_iter().enumerate() {
            // A CRD per case: the skim's memo is the process's.
            let crd = large_crd(&format!("Taken{i}"), super::SeenCrds::MIN_BYTES);
            let at = |n: usize| format!("{}{crd}", other.repeat(n));
            let (built, read) = (at(built), at(read));
            kompat_formats::manifest::read_stream(&built).expect("the stream reads");
            let stream = kompat_formats::manifest::read_stream(&read).expect("the stream reads");
            let seen = super::SeenCrds::default();
            let crds = super::parse_manifests_read(&read, Some(&stream), &seen);
            assert!(kompat_formats::manifest::take_tree(&crd).is_none(), "case {i}: the tree was taken");
            assert_eq!(crds, super::parse_manifests_whole(&read), "case {i}");
            assert_eq!(crds.as_ref().map(Vec::len).ok(), Some(1), "case {i}");
        }
    }

    /// A large CRD another thread is reading is left for after the others:
    /// the next is read meanwhile, and the stream's CRDs are a full
    /// parse's, in order, once the first is read.
    #[test]
    fn a_crd_being_read_elsewhere_is_read_after_the_rest() {
        use kompat_testkit::manifests::large_crd;
        let first = large_crd("Alpha", super::SeenCrds::MIN_BYTES);
        let second = large_crd("Beta", super::SeenCrds::MIN_BYTES);
        let text = format!("{first}---\n{second}");
        let hash = |doc: &str| kompat_formats::seen::sample_hash(doc.as_bytes());
        let seen = super::SeenCrds::default();
        // Another thread is reading the first.
        seen.lock().insert(hash(&first), super::Met::Reading);
        let whole = super::parse_manifests_whole(&text);
        std::thread::scope(|scope| {
            let reader = scope.spawn(|| super::parse_manifests_seen(&text, &seen));
            // The second is read while the first waits: polled, for at most
            // a minute.
            let second_doc = &text[first.len() + 4..];
            let read = (0..6000).any(|_| {
                let done = matches!(seen.lock().get(&hash(second_doc)), Some(super::Met::Read(..)));
                done || {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                    false
                }
            });
            // The other thread's reading fails: the first is parsed where it is.
            seen.finish(hash(&first), super::Met::Unreadable);
            assert!(read, "the second CRD was not read while the first was being read elsewhere");
            let crds = reader.join().expect("the reader finishes");
            assert_eq!(crds, whole);
            assert_eq!(crds.as_ref().map(Vec::len).ok(), Some(2));
        });
    }
}
