//! Kubernetes manifests: the objects of a YAML stream or JSON document (JSON
//! is YAML 1.2, read through the same spanned tree, [`crate::yaml`]), each
//! with its `apiVersion` and `kind` and the span of its `apiVersion` value.
//!
//! An object is a mapping whose `apiVersion` and `kind` are strings. A list
//! (`kind: List`, or any kind ending in `List` with an `items` sequence, as
//! `kubectl get -o yaml` writes them) is not an object of its own: its items
//! are, recursively. Documents that are not objects (a Helm values file, a
//! kubelet configuration without `apiVersion`) yield nothing.
//!
//! A stream is read with [`read_stream`]: each document is skimmed
//! ([`crate::skim`]) for its `apiVersion` and `kind` without building a tree,
//! and parsed only when a reader needs its tree ([`needs_tree`], the one list
//! of such kinds; a document naming a setting's words) or the skim is not
//! sure of it; the tree of a document the skim validated is built from its
//! lines ([`crate::yaml::block`]), with no parser events. The objects, and
//! what the trees of the parsed documents say, are those of a full parse.

use crate::skim::{self, DocRead, Header};
use crate::span::ParseError;
use crate::yaml::{block, parse_documents, Node, ScalarKind};
use kompat_span::Span;

/// One object of a manifest, located by its `apiVersion` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestObject<L = Span> {
    /// The group, `""` for the core group (`apiVersion: v1`). The names are
    /// shared by the objects of one stream that have them.
    pub group: std::sync::Arc<str>,
    pub version: std::sync::Arc<str>,
    pub kind: std::sync::Arc<str>,
    /// Where the `apiVersion` value is written.
    pub location: L,
}

impl<L> ManifestObject<L> {
    /// The same object with its location mapped (a span to a file position).
    pub fn map_location<M>(self, f: impl FnOnce(L) -> M) -> ManifestObject<M> {
        ManifestObject { group: self.group, version: self.version, kind: self.kind, location: f(self.location) }
    }
}

/// Every object of every document of `text`, in order (a list's items in
/// place of the list). A YAML (or JSON) syntax error, or input beyond the
/// parser's limits, is the error.
pub fn manifest_objects(text: &str) -> Result<Vec<ManifestObject>, ParseError> {
    Ok(objects_in(&parse_documents(text)?))
}

/// [`manifest_objects`] of documents parsed already ([`parse_documents`]).
pub fn objects_in(docs: &[Node]) -> Vec<ManifestObject> {
    let mut out = Vec::new();
    for doc in docs {
        collect(doc, &mut out);
    }
    out
}

/// Whether some document of `text` is a Kubernetes object or list (parses,
/// and has a mapping with string `apiVersion` and `kind`).
pub fn has_objects(text: &str) -> bool {
    parse_documents(text).is_ok_and(|docs| has_objects_in(&docs))
}

/// [`has_objects`] of documents parsed already.
pub fn has_objects_in(docs: &[Node]) -> bool {
    docs.iter().any(|d| object_header(d).is_some())
}

/// The `apiVersion` (with its span) and `kind` of a mapping, when both are
/// non-empty strings.
fn object_header(node: &Node) -> Option<(&str, Span, &str)> {
    let api_version = match node.get("apiVersion")? {
        Node::Scalar(s) if s.kind == crate::yaml::ScalarKind::String && !s.value.is_empty() => s,
        _ => return None,
    };
    let kind = node.get("kind")?.as_str().filter(|k| !k.is_empty())?;
    Some((&api_version.value, api_version.span, kind))
}

fn collect(node: &Node, out: &mut Vec<ManifestObject>) {
    let Some((api_version, span, kind)) = object_header(node) else { return };
    if kind.ends_with("List") {
        if let Some(items) = node.get("items").and_then(Node::as_seq) {
            for item in items {
                collect(item, out);
            }
            return;
        }
    }
    // `apiVersion: GROUP/VERSION`, or just `VERSION` for the core group.
    let (group, version) = match api_version.split_once('/') {
        Some((group, version)) => (group, version),
        None => ("", api_version),
    };
    out.push(ManifestObject { group: group.into(), version: version.into(), kind: kind.into(), location: span });
}

/// The kinds whose documents are read as trees, by `(group, kind)` (`*`:
/// any group), because some reader looks inside them: the one list the
/// loader consults ([`needs_tree`]). A rule that reads an object's content
/// adds its kinds here.
///
/// - Component configurations, for their gates (`crate::deploy`): kind's
///   `Cluster`, the kubelet's, kube-proxy's and the scheduler's, kubeadm's.
/// - RBAC roles: their rules.
///
/// Lists are read as trees too (their items are the objects), and so is any
/// document naming a word of a setting ([`skim::TREE_WORDS`]): a workload
/// whose containers carry `--feature-gates` or `--runtime-config` is parsed
/// for them (and its containers' images name their component); one without
/// is not, as nothing reads it further (a rule about containers or images
/// would add the workload kinds here). CustomResourceDefinitions are parsed
/// whole by `kompat-crd`, from the text: the loader needs only their header.
pub const TREE_KINDS: [(&str, &str); 12] = [
    ("kind.x-k8s.io", "Cluster"),
    ("*", "KubeletConfiguration"),
    ("*", "KubeProxyConfiguration"),
    ("*", "KubeSchedulerConfiguration"),
    ("*", "ClusterConfiguration"),
    ("*", "InitConfiguration"),
    ("*", "JoinConfiguration"),
    ("*", "UpgradeConfiguration"),
    ("*", "ResetConfiguration"),
    ("rbac.authorization.k8s.io", "Role"),
    ("rbac.authorization.k8s.io", "ClusterRole"),
    ("*", "List"),
];

/// Whether a document of `kind` in `group` is read as a tree: [`TREE_KINDS`],
/// and every kind ending in `List`.
pub fn needs_tree(group: &str, kind: &str) -> bool {
    kind.ends_with("List") || TREE_KINDS.iter().any(|&(g, k)| k == kind && (g == "*" || g == group))
}

/// A YAML (or JSON) stream, read document by document: the objects of every
/// document, and the trees of those parsed.
#[derive(Debug, Clone, Default)]
pub struct Stream {
    docs: Vec<Doc>,
    trees: Vec<Node>,
    /// Some document was skimmed as a mapping.
    skimmed: bool,
    /// Every document was parsed, as one stream.
    whole: bool,
    /// What the skim read of each document that is not empty, when the
    /// stream was read from its scans: for [`Stream::documents_of_kinds`],
    /// which then need not scan the text again.
    kinds: Option<Kinds>,
}

/// The documents of a stream by kind, compactly (a stream may have hundreds
/// of thousands): each document's span and its kind's index (`names`),
/// [`Kinds::UNSURE`] for a document the skim could not read, or
/// [`Kinds::OTHER`] for a mapping whose `kind` is absent or not a string.
#[derive(Debug, Clone, Default)]
struct Kinds {
    docs: Vec<(u32, u32, u32)>,
    /// Hashed with foldhash, seeded per process (as std's SipHash is): the
    /// names are the input's text, looked up once per document.
    names: foldhash::HashMap<Box<str>, u32>,
}

impl Kinds {
    const UNSURE: u32 = u32::MAX;
    const OTHER: u32 = u32::MAX - 1;

    /// Records a document; false when its offsets (or the names) do not
    /// fit (then the stream keeps no kinds).
    fn push(&mut self, span: Span, read: &DocRead<'_>) -> bool {
        let kind = match read {
            DocRead::Empty => return true,
            DocRead::Unsure => Kinds::UNSURE,
            DocRead::Map(header) => match &header.kind {
                Some(skim::Value { scalar: Some((kind, ScalarKind::String, _)) }) => {
                    let next = self.names.len();
                    match self.names.get(kind.as_ref()) {
                        Some(&index) => index,
                        None => match u32::try_from(next) {
                            Ok(index) if index < Kinds::OTHER => {
                                self.names.insert(kind.as_ref().into(), index);
                                index
                            }
                            _ => return false,
                        },
                    }
                }
                _ => Kinds::OTHER,
            },
        };
        let (Ok(start), Ok(end)) = (u32::try_from(span.start), u32::try_from(span.end)) else { return false };
        self.docs.push((start, end, kind));
        true
    }
}

#[derive(Debug, Clone)]
enum Doc {
    /// Skimmed: its object, if it is one.
    Skimmed(Option<ManifestObject>),
    /// Parsed: its tree's index in `trees`.
    Parsed(usize),
}

impl Stream {
    /// Every object of every document, in order (a list's items in place of
    /// the list): [`manifest_objects`].
    pub fn objects(&self) -> Vec<ManifestObject> {
        self.objects_located(|span| span)
    }

    /// [`Stream::objects`], each located by `locate` as it is collected: no
    /// second vector of the objects (a stream may have hundreds of
    /// thousands).
    pub fn objects_located<L>(&self, mut locate: impl FnMut(Span) -> L) -> Vec<ManifestObject<L>> {
        let mut out = Vec::with_capacity(self.docs.len());
        let mut parsed = Vec::new();
        for doc in &self.docs {
            match doc {
                Doc::Skimmed(object) => out.extend(object.iter().map(|o| o.clone().map_location(&mut locate))),
                Doc::Parsed(i) => {
                    collect(&self.trees[*i], &mut parsed);
                    out.extend(parsed.drain(..).map(|o| o.map_location(&mut locate)));
                }
            }
        }
        out
    }

    /// Whether some document is an object or a list ([`has_objects`]).
    pub fn has_objects(&self) -> bool {
        self.docs.iter().any(|doc| match doc {
            Doc::Skimmed(object) => object.is_some(),
            Doc::Parsed(i) => object_header(&self.trees[*i]).is_some(),
        })
    }

    /// The parsed documents, in order, their spans in the whole text: every
    /// document of the stream when [`Stream::is_whole`], else those a reader
    /// needs the tree of (the others have nothing a tree reader looks for).
    pub fn trees(&self) -> &[Node] {
        &self.trees
    }

    /// Whether every document was parsed (so [`Stream::trees`] is what
    /// [`parse_documents`] returns).
    pub fn is_whole(&self) -> bool {
        self.whole
    }

    /// Whether some document was skimmed as a mapping (so the stream is not
    /// one sequence, such as a feature list).
    pub fn has_skimmed_mapping(&self) -> bool {
        self.skimmed
    }

    /// The stream of documents parsed already.
    pub fn parsed(trees: Vec<Node>) -> Stream {
        Stream { docs: (0..trees.len()).map(Doc::Parsed).collect(), trees, skimmed: false, whole: true, kinds: None }
    }

    /// [`documents_of_kinds`] of the text this stream was read from, from
    /// what its read kept (the text is not scanned again); `None` when the
    /// stream was not read from the skim's scans (parsed whole, or made
    /// otherwise): then ask [`documents_of_kinds`].
    pub fn documents_of_kinds(&self, wanted: impl Fn(&str) -> bool) -> Option<Vec<Span>> {
        let kinds = self.kinds.as_ref()?;
        let mut picks = vec![false; kinds.names.len()];
        for (name, &index) in &kinds.names {
            if let Some(pick) = picks.get_mut(index as usize) {
                *pick = wanted(name);
            }
        }
        let picked = kinds.docs.iter().filter(|&&(_, _, kind)| match kind {
            Kinds::UNSURE => true,
            Kinds::OTHER => false,
            index => picks.get(index as usize).copied().unwrap_or(false),
        });
        Some(picked.map(|&(start, end, _)| Span::new(start as usize, end as usize)).collect())
    }
}

/// Reads a stream: each document skimmed, those that need a tree (or that
/// the skim is unsure of) parsed. The result, and the error, are a full
/// parse's ([`parse_documents`]): the skim accepts only what the parser
/// accepts, and a document it cannot vouch for is parsed.
pub fn read_stream(text: &str) -> Result<Stream, ParseError> {
    if let Some(stream) = skim::scan(text).and_then(|scans| from_scans(text, scans)) {
        return Ok(stream);
    }
    Ok(Stream::parsed(parse_documents(text)?))
}

/// [`read_stream`] when every document could be skimmed or parsed on its own;
/// `None` when a document does not parse by itself (the whole text is
/// parsed then, for the error a full parse gives).
fn from_scans(text: &str, scans: Vec<skim::DocScan<'_>>) -> Option<Stream> {
    let mut stream = Stream::default();
    stream.docs.reserve_exact(scans.len());
    let mut names = Names::default();
    let mut kinds = Some(Kinds::default());
    for scan in scans {
        if kinds.as_mut().is_some_and(|kinds| !kinds.push(scan.span, &scan.read)) {
            kinds = None;
        }
        let header = match scan.read {
            DocRead::Empty => continue,
            DocRead::Map(header) => Some(header),
            DocRead::Unsure => None,
        };
        if let Some(object) = header.as_ref().and_then(|h| skimmed(h, &mut names)) {
            stream.skimmed = true;
            stream.docs.push(Doc::Skimmed(object));
            continue;
        }
        // A document the skim validated is built from its lines; any other
        // is parsed.
        if let Some(doc) = header.and_then(|_| block::build(text, scan.span)) {
            stream.docs.push(Doc::Parsed(stream.trees.len()));
            stream.trees.push(doc);
            continue;
        }
        let start = scan.span.start;
        for mut doc in parse_alone(&text[start..scan.span.end])? {
            doc.shift(start);
            stream.docs.push(Doc::Parsed(stream.trees.len()));
            stream.trees.push(doc);
        }
    }
    stream.kinds = kinds;
    Some(stream)
}

/// The trees of a document the skim could not read, parsed by itself
/// (`None` when it does not parse so). A large one's trees are kept by its
/// text ([`crate::seen`]): a copy in another bundle takes them, rather than
/// being parsed again (one another thread is parsing is parsed here too,
/// not waited for).
fn parse_alone(doc: &str) -> Option<Vec<Node>> {
    static PARSED: std::sync::LazyLock<crate::seen::Seen<Option<Vec<Node>>>> =
        std::sync::LazyLock::new(crate::seen::Seen::new);
    let parse = |_| parse_documents(doc).ok();
    match PARSED.try_read(doc, parse) {
        Ok(trees) => trees,
        Err(parse) => parse(false),
    }
}

/// The tree of a large document's content (its text past the blank and
/// comment lines before it: [`crate::seen::content_start`]) that
/// [`read_stream`] built, rather than scanned, when it read the document
/// (it does so for a CustomResourceDefinition, whose tree the CRD reader
/// builds anyway), and that no one took yet: taken. It is what
/// [`crate::yaml::block::build`] gives of the content in the text it was
/// read in, with where the content starts there (the caller moves it to
/// its own copy: [`Node::shift_signed`]).
pub fn take_tree(content: &str) -> Option<(Node, usize)> {
    skim::take_tree(content)
}

/// The documents of `text` a reader selects by kind, to parse each on its
/// own ([`parse_documents`] of the span's text, then [`Node::shift`]), in
/// order: those whose top-level `kind` is a string `wanted` accepts, and
/// those the skim cannot read. The documents left out are empty ones and
/// mappings whose `kind` is absent, not a string or not wanted: what a
/// reader of a full parse that looks only at the wanted kinds skips. `None`
/// when the skim gives up on the stream; when a document does not parse by
/// itself either, the caller parses the whole text, for the error a full
/// parse gives.
pub fn documents_of_kinds(text: &str, wanted: impl Fn(&str) -> bool) -> Option<Vec<Span>> {
    let scans = skim::scan(text)?;
    let picked = scans.into_iter().filter(|scan| match &scan.read {
        DocRead::Empty => false,
        DocRead::Map(header) => matches!(
            &header.kind,
            Some(skim::Value { scalar: Some((kind, ScalarKind::String, _)) }) if wanted(kind)
        ),
        DocRead::Unsure => true,
    });
    Some(picked.map(|scan| scan.span).collect())
}

/// The documents of a stream as the skim splits it: each one's span and
/// whether the skim validated it as a mapping (then
/// [`crate::yaml::block::build`] reads it); `None` when the skim gives up
/// on the stream. For the builder's tests and fuzz target.
pub fn skimmed_documents(text: &str) -> Option<Vec<(Span, bool)>> {
    let scans = skim::scan(text)?;
    Some(scans.into_iter().map(|scan| (scan.span, matches!(scan.read, DocRead::Map(_)))).collect())
}

/// Whether every document is parsed whole, the fast paths of
/// [`read_stream`] and of the readers that skim left out:
/// `KOMPAT_FULL_PARSE` set in the environment. The fast paths' reference,
/// for their tests.
pub fn full_parse() -> bool {
    static FULL: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FULL.get_or_init(|| std::env::var_os("KOMPAT_FULL_PARSE").is_some())
}

/// A skimmed mapping's object (or `Some(None)`: no object), unless its tree
/// is needed.
fn skimmed(header: &Header<'_>, names: &mut Names) -> Option<Option<ManifestObject>> {
    if header.words {
        return None;
    }
    // The header's text, borrowed: the object's names are the shared ones.
    fn string<'v>(v: &'v Option<skim::Value<'_>>) -> Option<(&'v str, Span)> {
        match v {
            Some(skim::Value { scalar: Some((text, ScalarKind::String, span)) }) if !text.is_empty() => {
                Some((text.as_ref(), *span))
            }
            _ => None,
        }
    }
    let (Some((api_version, span)), Some((kind, _))) = (string(&header.api_version), string(&header.kind)) else {
        return Some(None);
    };
    let (group, version) = match api_version.split_once('/') {
        Some((group, version)) => (group, version),
        None => ("", api_version),
    };
    if needs_tree(group, kind) {
        return None;
    }
    Some(Some(ManifestObject {
        group: names.get(group),
        version: names.get(version),
        kind: names.get(kind),
        location: span,
    }))
}

/// The names of a stream's skimmed objects, each held once: a manifest of
/// thousands of objects names a few groups, versions and kinds, and every
/// object (and every copy of it) shares them. Hashed with foldhash, seeded
/// per process (as std's SipHash is): the names are the input's text,
/// looked up three times per object.
#[derive(Default)]
struct Names(foldhash::HashSet<std::sync::Arc<str>>);

impl Names {
    fn get(&mut self, name: &str) -> std::sync::Arc<str> {
        if let Some(shared) = self.0.get(name) {
            return shared.clone();
        }
        let shared: std::sync::Arc<str> = std::sync::Arc::from(name);
        self.0.insert(shared.clone());
        shared
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each object as `GROUP/VERSION/KIND@text-at-span`.
    fn check(text: &str, expected: &[&str]) {
        let objects = manifest_objects(text).unwrap_or_else(|err| panic!("{err:?}"));
        let actual: Vec<String> = objects
            .iter()
            .map(|o| format!("{}/{}/{}@{}", o.group, o.version, o.kind, &text[o.location.start..o.location.end]))
            .collect();
        assert_eq!(actual, expected, "{text}");
    }

    #[test]
    fn yaml_documents() {
        check("apiVersion: v1\nkind: Pod\n", &["/v1/Pod@v1"]);
        check(
            "apiVersion: apps/v1\nkind: Deployment\n---\n# comment only\n---\napiVersion: extensions/v1beta1\nkind: Ingress\n",
            &["apps/v1/Deployment@apps/v1", "extensions/v1beta1/Ingress@extensions/v1beta1"],
        );
        // Quoted values: the span covers what is written.
        check("kind: Pod\napiVersion: \"v1\"\n", &["/v1/Pod@\"v1\""]);
    }

    #[test]
    fn not_objects() {
        check("replicas: 3\n", &[]);
        check("apiVersion: v1\n", &[]);
        check("apiVersion: 1\nkind: Pod\n", &[]);
        check("apiVersion: v1\nkind: [Pod]\n", &[]);
        check("- apiVersion: v1\n  kind: Pod\n", &[]);
        check("", &[]);
    }

    #[test]
    fn lists_recursively() {
        check(
            "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n- apiVersion: v1\n  kind: List\n  items:\n  - apiVersion: batch/v1beta1\n    kind: CronJob\n",
            &["/v1/ConfigMap@v1", "batch/v1beta1/CronJob@batch/v1beta1"],
        );
        check("apiVersion: v1\nkind: PodList\nitems: []\n", &[]);
        // A kind ending in List without items is an object.
        check("apiVersion: example.com/v1\nkind: AllowList\n", &["example.com/v1/AllowList@example.com/v1"]);
    }

    #[test]
    fn json_documents() {
        check(
            "{\n  \"apiVersion\": \"policy/v1beta1\",\n  \"kind\": \"PodSecurityPolicy\",\n  \"metadata\": {\"name\": \"x\"}\n}\n",
            &["policy/v1beta1/PodSecurityPolicy@\"policy/v1beta1\""],
        );
        check(
            r#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"apps/v1","kind":"Deployment"}]}"#,
            &["apps/v1/Deployment@\"apps/v1\""],
        );
        assert!(has_objects(r#"{"apiVersion":"v1","kind":"Pod"}"#));
        assert!(!has_objects(r#"{"name":"x","version":"1.0.0"}"#));
    }

    #[test]
    fn errors_and_limits() {
        assert!(manifest_objects("apiVersion: v1\nkind: Pod\n  bad: [\n").is_err());
        assert!(manifest_objects("{\"apiVersion\": \"v1\",").is_err());
        let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
        let err = manifest_objects(&deep).err().unwrap_or_else(|| panic!("deep nesting parsed"));
        assert!(crate::yaml::is_limit_error(&err), "{err:?}");
    }
}
