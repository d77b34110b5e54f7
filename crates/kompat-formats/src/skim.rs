//! The manifests' fast path: a validating scan of a YAML stream, line by
//! line, that reads each document's `apiVersion` and `kind` without building
//! a tree, for a subset of YAML (block mappings and sequences indented with
//! spaces, plain and simple quoted scalars, either going on over more
//! indented lines (as generated CRDs write long descriptions), `[]`,
//! `{}`, block scalars, comments: what Kubernetes manifests are written
//! in).
//!
//! A document it accepts is one [`crate::yaml::parse_documents`] accepts,
//! with the same `apiVersion` and `kind` at the same spans (a test holds
//! both to this on every fixture, a synthetic tree and mutated inputs). It
//! is never guessed at: whatever is outside the subset (anchors, aliases,
//! tags, flow collections, escapes, a line going on with an indicator or
//! a `: `, tabs, odd
//! indentation, directives, merge keys, a document that is not a mapping)
//! makes the scan say so ([`DocRead::Unsure`]) or give up on the stream
//! (`None`), and the caller parses that text fully.
//!
//! A large CustomResourceDefinition, whose tree the CRD reader builds
//! anyway, is read by building that tree ([`crate::yaml::block`], exact on
//! the same subset) rather than by scanning it first: its header is read
//! off the tree, and the tree waits for the CRD reader ([`take_tree`]).

use std::borrow::Cow;

use crate::seen::Seen;
use crate::subset::{
    bytes_in_subset, continuation, ends_in_spaces, key_end, key_text, quoted_close, spaces_at_start, value, Rest,
    Written,
};
use crate::yaml::{Node, ScalarKind};
use kompat_span::Span;

/// One document of a stream, as the scan read it.
#[derive(Debug, Clone, PartialEq)]
pub struct DocScan<'a> {
    /// The document's text (after its `---` line, up to the next one), to
    /// parse on its own when the scan could not read it.
    pub span: Span,
    pub read: DocRead<'a>,
}

/// What the scan made of a document.
#[derive(Debug, Clone, PartialEq)]
pub enum DocRead<'a> {
    /// Comments and blank lines only.
    Empty,
    /// A mapping, valid YAML, with its top-level `apiVersion` and `kind`
    /// when they are scalars written on their key's line.
    Map(Header<'a>),
    /// Outside the subset: to be parsed.
    Unsure,
}

impl<'a> DocRead<'a> {
    /// A copy with every span `by` bytes on.
    fn moved(self, by: usize) -> DocRead<'a> {
        self.map(|(text, kind, span)| (text, kind, Span::new(span.start + by, span.end + by)))
    }

    /// A copy that owns its strings.
    fn into_owned(self) -> DocRead<'static> {
        self.map(|(text, kind, span)| (Cow::Owned(text.into_owned()), kind, span))
    }

    /// A copy with `f` applied to each scalar of the header.
    fn map<'b>(self, f: impl Fn((Cow<'a, str>, ScalarKind, Span)) -> (Cow<'b, str>, ScalarKind, Span)) -> DocRead<'b> {
        let value = |v: Option<Value<'a>>| v.map(|Value { scalar }| Value { scalar: scalar.map(&f) });
        match self {
            DocRead::Map(Header { api_version, kind, words }) => {
                DocRead::Map(Header { api_version: value(api_version), kind: value(kind), words })
            }
            DocRead::Empty => DocRead::Empty,
            DocRead::Unsure => DocRead::Unsure,
        }
    }
}

/// The top-level `apiVersion` and `kind` of a mapping and whether the
/// document names any of the words only a tree reads ([`TREE_WORDS`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Header<'a> {
    pub api_version: Option<Value<'a>>,
    pub kind: Option<Value<'a>>,
    /// The document names one of [`TREE_WORDS`].
    pub words: bool,
}

/// A top-level value: a scalar written on its key's line (its text, how it
/// resolves, where it is written), or anything else (`None` there).
#[derive(Debug, Clone, PartialEq)]
pub struct Value<'a> {
    /// Borrowed from the text but for a single-quoted scalar with `''`.
    pub scalar: Option<(Cow<'a, str>, ScalarKind, Span)>,
}

/// Words whose settings only a YAML tree gives (the deployment scanner's
/// keys and flags, `kompat_formats::deploy`), and the backslash of an
/// escape that could spell them: a document with one is parsed.
pub const TREE_WORDS: [&str; 6] =
    ["eatureGates", "eature-gates", "untime-config", "untimeConfig", "ConfigPatches", "\\"];

/// The stems the words of [`TREE_WORDS`] start with (but the backslash,
/// found by itself): one search each instead of one per word.
const TREE_STEMS: [&str; 3] = ["eature", "untime", "ConfigPatches"];

/// Whether `doc` names one of [`TREE_WORDS`]: a backslash, or a stem of
/// [`TREE_STEMS`] where one of the words starting with it is written (each
/// word starts with a stem, so every word written is found at its stem).
/// The stems are looked for in one search (a packed multi-pattern searcher,
/// Teddy, where the processor has the vector instructions it needs), from
/// one byte past each stem found (stems may overlap: `untimeatureGates`);
/// else by a search for each. Searchers built once.
fn names_tree_word(doc: &[u8]) -> bool {
    static PACKED: std::sync::OnceLock<Option<aho_corasick::packed::Searcher>> = std::sync::OnceLock::new();
    static FINDERS: std::sync::OnceLock<Vec<memchr::memmem::Finder<'static>>> = std::sync::OnceLock::new();
    if memchr::memchr(b'\\', doc).is_some() {
        return true;
    }
    let word_at = |at: usize| TREE_WORDS.iter().any(|word| doc[at..].starts_with(word.as_bytes()));
    if let Some(packed) =
        PACKED.get_or_init(|| aho_corasick::packed::Config::new().builder().extend(TREE_STEMS).build())
    {
        let mut from = 0;
        while let Some(found) = packed.find_in(doc, aho_corasick::Span { start: from, end: doc.len() }) {
            if word_at(found.start()) {
                return true;
            }
            from = found.start() + 1;
        }
        return false;
    }
    let finders =
        FINDERS.get_or_init(|| TREE_STEMS.iter().map(|w| memchr::memmem::Finder::new(w.as_bytes())).collect());
    finders.iter().any(|finder| finder.find_iter(doc).any(word_at))
}

/// How deep the scan follows nesting before it leaves a document to the
/// parser (whose own limit is [`crate::yaml::MAX_DEPTH`]).
const MAX_SCAN_DEPTH: usize = 200;

/// Scans every document of `text`; `None` when the stream itself is beyond
/// the scan (a directive, a byte-order mark, a `---` line with content, a
/// `...` line, a carriage return alone).
pub fn scan(text: &str) -> Option<Vec<DocScan<'_>>> {
    let bytes = text.as_bytes();
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) || bare_carriage_return(bytes) {
        return None;
    }
    // The text between `---` lines, each scanned: what comes before the
    // first one, and between two with nothing in between, is read as empty
    // (the parser's count of documents may differ; their content does not).
    let mut docs = Vec::new();
    // Large documents another thread was scanning when met: scanned (or
    // their readings taken) after the others.
    let mut busy = Vec::new();
    let mut start = 0;
    for line_start in marker_candidates(bytes) {
        let end = memchr::memchr(b'\n', &bytes[line_start..]).map_or(bytes.len(), |i| line_start + i);
        let line = &bytes[line_start..end];
        if marker(line)? {
            // A marker line is no document's text: its comment's bytes are
            // checked here, as `scan_doc` checks a document's.
            if !bytes_in_subset(line) {
                return None;
            }
            // The parser does not always end a block scalar at the root at
            // a `---` line (with an indentation indicator and no content,
            // it reports the line as wrongly indented): such a stream is
            // the parser's.
            if root_block_scalar(&bytes[start..line_start]) {
                return None;
            }
            docs.push(scan_doc_seen(text, Span::new(start, line_start), &mut busy, docs.len()));
            start = (end + 1).min(bytes.len());
        }
    }
    docs.push(scan_doc_seen(text, Span::new(start, bytes.len()), &mut busy, docs.len()));
    for at in busy {
        docs[at].read = read_large(text, docs[at].span, true).unwrap_or(DocRead::Unsure);
    }
    Some(docs)
}

/// The readings of large documents ([`scan_doc_seen`]).
static SCANS: std::sync::LazyLock<Seen<Scanned>> = std::sync::LazyLock::new(Seen::new);

/// A large document's reading as [`SCANS`] keeps it, and for a
/// CustomResourceDefinition read by building its tree ([`read_alone`]),
/// that tree, for the CRD reader to take ([`take_tree`]).
#[derive(Clone)]
struct Scanned {
    read: DocRead<'static>,
    built: Option<std::sync::Arc<Built>>,
}

/// A document's tree built in place of its scan, until it is taken. While
/// it waits, its document's bytes count against [`MAX_UNTAKEN_BYTES`].
struct Built {
    /// The tree, its spans in the text it was built in, and where the
    /// document's content starts there.
    tree: std::sync::Mutex<Option<(Node, usize)>>,
    bytes: usize,
}

/// The most bytes of documents whose trees wait to be taken ([`Built`]):
/// a tree is several times its text, and a document no CRD reader reads
/// (a CRD in a file linted as something else) leaves its tree unread.
const MAX_UNTAKEN_BYTES: usize = 8 << 20;

/// The bytes of documents whose trees wait to be taken.
static UNTAKEN_BYTES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl Built {
    /// A tree of a document of `bytes` bytes to wait, if there is room.
    fn reserve(bytes: usize) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        UNTAKEN_BYTES
            .fetch_update(Relaxed, Relaxed, |n| n.checked_add(bytes).filter(|&n| n <= MAX_UNTAKEN_BYTES))
            .is_ok()
    }

    fn release(bytes: usize) {
        UNTAKEN_BYTES.fetch_sub(bytes, std::sync::atomic::Ordering::Relaxed);
    }

    fn take(&self) -> Option<(Node, usize)> {
        let tree = self.tree.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        if tree.is_some() {
            Built::release(self.bytes);
        }
        tree
    }
}

impl Drop for Built {
    fn drop(&mut self) {
        if self.tree.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner).is_some() {
            Built::release(self.bytes);
        }
    }
}

/// [`scan_doc`], a large document's reading kept by its text
/// ([`crate::seen`]): a copy of it (in another file, at another offset)
/// takes the first's reading, its spans moved. A document's scan depends on
/// its text alone (a test checks), so a large one is scanned by itself; the
/// kept reading owns its few strings.
///
/// A large document another thread is scanning is left for later: its
/// place (`at`, among the documents) is added to `busy`, and its reading
/// for now is [`DocRead::Empty`].
fn scan_doc_seen<'a>(text: &'a str, span: Span, busy: &mut Vec<usize>, at: usize) -> DocScan<'a> {
    if span.end - span.start < crate::seen::MIN_BYTES {
        return scan_doc(text, span);
    }
    match read_large(text, span, false) {
        Some(read) => DocScan { span, read },
        None => {
            busy.push(at);
            DocScan { span, read: DocRead::Empty }
        }
    }
}

/// The reading of the large document at `span` of `text` through the memo
/// ([`SCANS`]), `None` when another thread is scanning it and `wait` says
/// not to wait. The memo holds the reading of the document's content (past
/// the blank and comment lines before it, [`crate::seen::content_start`]):
/// those lines add nothing to a scan but their bytes' check and the words
/// they may name, both taken here.
fn read_large(text: &str, span: Span, wait: bool) -> Option<DocRead<'static>> {
    let doc = &text[span.start..span.end];
    let skip = crate::seen::content_start(doc.as_bytes());
    if skip == doc.len() || !bytes_in_subset(&doc.as_bytes()[..skip]) {
        return Some(scan_alone(doc).moved(span.start));
    }
    let content = &doc[skip..];
    let read = |kept| read_alone(text, Span::new(span.start + skip, span.end), kept);
    let read = if wait { SCANS.read(content, read) } else { SCANS.try_read(content, read).ok()? };
    // The lines skipped are whole lines, and no tree word holds a line
    // break: each word the document names is in them or in the content.
    Some(match read.read.moved(span.start + skip) {
        DocRead::Map(header) if skip > 0 => {
            DocRead::Map(Header { words: header.words || names_tree_word(&doc.as_bytes()[..skip]), ..header })
        }
        read => read,
    })
}

/// The reading of a large document by itself: of its content, at `span`
/// of `text` (no blank or comment line first), its spans from the
/// content's start, owning its strings. A CustomResourceDefinition
/// whose reading is `kept` is read by building its tree, which the CRD
/// reader builds anyway ([`take_tree`]): its header is the tree's, and the
/// scan (which would validate the same lines first) is skipped.
fn read_alone(text: &str, span: Span, kept: bool) -> Scanned {
    let content = &text[span.start..span.end];
    if kept && names_crd_kind(content.as_bytes()) && Built::reserve(content.len()) {
        let tree = crate::yaml::block::build(text, span);
        if let Some((header, tree)) = tree.and_then(|tree| Some((header_of_tree(&tree, text, span)?, tree))) {
            let built = Built { tree: std::sync::Mutex::new(Some((tree, span.start))), bytes: content.len() };
            return Scanned { read: DocRead::Map(header), built: Some(std::sync::Arc::new(built)) };
        }
        Built::release(content.len());
    }
    Scanned { read: scan_alone(content), built: None }
}

/// The tree of a large document's content, built when the skim read it
/// ([`read_alone`]) and not taken yet: what [`crate::yaml::block::build`]
/// gives of it in the text it was read in, and where the content starts
/// there. Taken once.
pub(crate) fn take_tree(content: &str) -> Option<(Node, usize)> {
    SCANS.get(content)?.built?.take()
}

/// Whether a document's first lines hold `kind: CustomResourceDefinition`
/// at the start of a line: a guess, which only decides how the document is
/// read ([`read_alone`]).
fn names_crd_kind(doc: &[u8]) -> bool {
    const KIND: &[u8] = b"kind: CustomResourceDefinition";
    let head = &doc[..doc.len().min(4096)];
    head.starts_with(KIND) || memchr::memmem::find(head, b"\nkind: CustomResourceDefinition").is_some()
}

/// The header the scan reads of the document at `span` of `text`, whose
/// tree is `tree`, its spans from the document's start: its `apiVersion`
/// and `kind` when both are scalars written on their keys' lines (the
/// subset's header, as [`Scanner::key_line`] reads it); `None` for any
/// other header, which the scan is left to read.
fn header_of_tree(tree: &Node, text: &str, span: Span) -> Option<Header<'static>> {
    let at = span.start;
    let field = |key: &str| -> Option<Value<'static>> {
        let (key, Node::Scalar(value)) = tree.entry(key)? else { return None };
        let on_its_line = value.span.start < value.span.end && !text.get(key.span.end..value.span.end)?.contains('\n');
        let span = Span::new(value.span.start.checked_sub(at)?, value.span.end - at);
        on_its_line.then(|| Value { scalar: Some((Cow::Owned(value.value.to_string()), value.kind, span)) })
    };
    Some(Header {
        api_version: Some(field("apiVersion")?),
        kind: Some(field("kind")?),
        words: names_tree_word(&text.as_bytes()[span.start..span.end]),
    })
}

/// The reading of a large document scanned by itself, owning its strings.
fn scan_alone(doc: &str) -> DocRead<'static> {
    scan_doc(doc, Span::new(0, doc.len())).read.into_owned()
}

/// Whether `bytes` has a carriage return that is not the first half of a
/// `\r\n`: a line break of its own, after which the scan (reading lines
/// by `\n`) would not see a directive or a document marker.
fn bare_carriage_return(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'\r', bytes).any(|i| bytes.get(i + 1) != Some(&b'\n'))
}

/// Whether a document's root node is a block scalar (`>`, `|`, perhaps
/// after a tag and an anchor, on its line or on lines before it): its first
/// line that is neither blank nor a comment once its node properties are
/// read starts with one.
fn root_block_scalar(doc: &[u8]) -> bool {
    let blank = |b: u8| matches!(b, b' ' | b'\t' | b'\r');
    let skip_blanks = |s: &[u8]| -> usize { s.iter().position(|&b| !blank(b)).unwrap_or(s.len()) };
    for line in doc.split(|&b| b == b'\n') {
        let mut rest = &line[skip_blanks(line)..];
        // Node properties (`!tag`, `&anchor`), each ended by a blank or the
        // line's end: alone on their line, the node is on a later one.
        while matches!(rest.first(), Some(b'!' | b'&')) {
            let end = rest.iter().position(|&b| blank(b)).unwrap_or(rest.len());
            rest = &rest[end..];
            rest = &rest[skip_blanks(rest)..];
        }
        if rest.is_empty() || rest[0] == b'#' {
            continue;
        }
        return matches!(rest[0], b'>' | b'|');
    }
    false
}

/// The starts of the lines [`marker`] may say more of than `Some(false)`,
/// in order: the first line, and every line that starts with `---`, `...`
/// or `%`. One search of the text for the three (a packed multi-pattern
/// searcher, Teddy, where the processor has the vector instructions it
/// needs), else a search for each.
fn marker_candidates(bytes: &[u8]) -> Vec<usize> {
    const MARKERS: [&str; 3] = ["\n---", "\n...", "\n%"];
    static PACKED: std::sync::OnceLock<Option<aho_corasick::packed::Searcher>> = std::sync::OnceLock::new();
    static FINDERS: std::sync::OnceLock<Vec<memchr::memmem::Finder<'static>>> = std::sync::OnceLock::new();
    let mut starts = vec![0];
    // No marker is part of another (none holds a line break but at its
    // start): the leftmost matches, one after another, are all of them.
    if let Some(packed) = PACKED.get_or_init(|| aho_corasick::packed::Config::new().builder().extend(MARKERS).build()) {
        starts.extend(packed.find_iter(bytes).map(|m| m.start() + 1));
        return starts;
    }
    let finders = FINDERS.get_or_init(|| MARKERS.iter().map(|w| memchr::memmem::Finder::new(w.as_bytes())).collect());
    for finder in finders {
        starts.extend(finder.find_iter(bytes).map(|at| at + 1));
    }
    starts.sort_unstable();
    starts.dedup();
    starts
}

/// Whether a line is a document start (`---` alone, perhaps with a
/// comment); `None` for a line at column 0 beyond the scan (a directive, a
/// document end, `---` with content).
fn marker(line: &[u8]) -> Option<bool> {
    match line.first() {
        Some(b'%') => None,
        Some(b'-') if line.starts_with(b"---") => {
            let rest = &line[3..];
            if rest.is_empty() {
                return Some(true);
            }
            if rest[0] != b' ' {
                return None;
            }
            let rest = trim_spaces(rest);
            if rest.is_empty() || rest.starts_with(b"#") {
                Some(true)
            } else {
                None
            }
        }
        Some(b'.') if line.starts_with(b"...") => None,
        _ => Some(false),
    }
}

fn trim_spaces(s: &[u8]) -> &[u8] {
    let start = spaces_at_start(s);
    let end = s.iter().rposition(|&b| b != b' ').map_or(start, |i| i + 1);
    &s[start..end.max(start)]
}

/// Scans one document: its header, or unsure.
fn scan_doc(text: &str, span: Span) -> DocScan<'_> {
    let doc = &text[span.start..span.end];
    let read = if !bytes_in_subset(doc.as_bytes()) || ends_in_spaces(doc.as_bytes()) {
        DocRead::Unsure
    } else {
        match Scanner::new(text, span).run() {
            Some(read) => read,
            None => DocRead::Unsure,
        }
    };
    DocScan { span, read }
}

/// A block collection open at an indentation.
struct Level<'a> {
    indent: usize,
    /// A mapping's keys (a sequence has none).
    keys: Option<Keys<'a>>,
}

/// How many keys a mapping's [`Keys`] holds in a vector (searched) before
/// a hash set.
const SMALL_KEYS: usize = 16;

/// The keys of a mapping, to refuse a duplicate as the parser does.
#[derive(Default)]
struct Keys<'a> {
    small: Vec<Cow<'a, str>>,
    /// Hashed with foldhash: the keys are the input's text, and foldhash's
    /// seed is random per process (as std's is), cheaper than SipHash on
    /// short keys.
    large: Option<foldhash::HashSet<Cow<'a, str>>>,
}

impl<'a> Keys<'a> {
    /// False when `key` is there already.
    fn insert(&mut self, key: Cow<'a, str>) -> bool {
        if let Some(large) = &mut self.large {
            return large.insert(key);
        }
        if self.small.contains(&key) {
            return false;
        }
        self.small.push(key);
        if self.small.len() > SMALL_KEYS {
            let mut large = foldhash::HashSet::with_capacity_and_hasher(2 * SMALL_KEYS, Default::default());
            large.extend(self.small.drain(..));
            self.large = Some(large);
        }
        true
    }
}

/// What the line before asked of the lines after it.
#[derive(Clone, Copy, PartialEq)]
enum Pending {
    Nothing,
    /// `key:` with nothing after it at this indentation: a nested block (or a
    /// sequence at the same indentation), or null.
    KeyValue(usize),
    /// `-` with nothing after it at this indentation: a nested block or null.
    ItemValue(usize),
}

struct Scanner<'a> {
    text: &'a str,
    span: Span,
    stack: Vec<Level<'a>>,
    /// The key vectors of closed mappings, emptied, for the next ones: a
    /// document's many small mappings allocate a few vectors, not one each.
    spare: Vec<Vec<Cow<'a, str>>>,
    pending: Pending,
    header: Header<'a>,
    /// A plain scalar that may go on over the next lines: the indentation
    /// they must go beyond, and whether it is a header value (`apiVersion`
    /// or `kind`, read from its first line only, so left to the parser when
    /// it goes on).
    plain: Option<(usize, bool)>,
    /// A quoted scalar left open at the end of its line: the indentation
    /// its next lines must go beyond, and its quote.
    quoted: Option<(usize, u8)>,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str, span: Span) -> Scanner<'a> {
        Scanner {
            text,
            span,
            stack: Vec::new(),
            spare: Vec::new(),
            pending: Pending::Nothing,
            header: Header::default(),
            plain: None,
            quoted: None,
        }
    }

    /// The document read, or `None` when it is beyond the subset.
    fn run(mut self) -> Option<DocRead<'a>> {
        let bytes = self.text.as_bytes();
        let mut at = self.span.start;
        let end = self.span.end;
        // The indentation lines of a block scalar must go beyond (`Some`).
        let mut block: Option<usize> = None;
        while at < end {
            let line_end = memchr::memchr(b'\n', &bytes[at..end]).map_or(end, |i| at + i);
            let line = &bytes[at..line_end];
            let indent = spaces_at_start(line);
            let content = &line[indent..];
            if let Some(parent) = block {
                if content.is_empty() {
                    at = line_end + 1;
                    continue;
                }
                if indent > parent {
                    // The block scalar's text: its indentation is the
                    // first line's, and every line after it has as much.
                    at = self.block_scalar(parent, at, end)?;
                    block = None;
                    continue;
                }
                block = None;
            }
            if content.is_empty() {
                at = line_end + 1;
                continue;
            }
            if let Some((parent, quote)) = self.quoted.take() {
                // A line of a quoted scalar that goes on: indented beyond
                // its collection; it closes the scalar, or goes on too.
                if indent <= parent {
                    return None;
                }
                if quoted_close(content, quote)?.is_none() {
                    self.quoted = Some((parent, quote));
                }
                at = line_end + 1;
                continue;
            }
            if let Some((parent, header)) = self.plain.take() {
                if indent > parent && content[0] != b'#' {
                    // A continuation line of a plain scalar.
                    if header || !continuation(content)? {
                        return None;
                    }
                    self.plain = Some((parent, header));
                    at = line_end + 1;
                    continue;
                }
            }
            if content[0] == b'#' {
                at = line_end + 1;
                continue;
            }
            if self.line(at + indent, indent, content)? {
                block = Some(self.block_parent(indent));
            }
            at = line_end + 1;
        }
        if self.quoted.is_some() {
            // A quoted scalar the document leaves open.
            return None;
        }
        if self.stack.is_empty() {
            return Some(DocRead::Empty);
        }
        let doc = &self.text.as_bytes()[self.span.start..self.span.end];
        self.header.words = names_tree_word(doc);
        Some(DocRead::Map(self.header))
    }

    /// The indentation a block scalar's lines must go beyond: its key's (the
    /// indentation of the mapping it is in) or its item's dash (the
    /// sequence's).
    fn block_parent(&self, indent: usize) -> usize {
        self.stack.last().map_or(indent, |l| l.indent)
    }

    /// The lines of a block scalar starting at `at` (its first non-blank
    /// line is more indented than `parent`): where the lines after it
    /// start. Beyond the subset: an all-space line before the first text
    /// line longer than it, or a line indented less than the text but more
    /// than `parent` before the end.
    fn block_scalar(&self, parent: usize, mut at: usize, end: usize) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let mut text_indent: Option<usize> = None;
        let mut leading_spaces = 0;
        // Blank lines seen before this first text line were skipped by the
        // caller; they were all-space lines: checked here by looking back.
        let mut back = at;
        while back > self.span.start {
            let prev_end = back - 1;
            let prev_start = bytes[..prev_end].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let prev = &bytes[prev_start..prev_end];
            if prev.iter().all(|&b| b == b' ') {
                leading_spaces = leading_spaces.max(prev.len());
                back = prev_start;
            } else {
                break;
            }
        }
        while at < end {
            let line_end = memchr::memchr(b'\n', &bytes[at..end]).map_or(end, |i| at + i);
            let line = &bytes[at..line_end];
            let indent = spaces_at_start(line);
            if indent == line.len() {
                at = line_end + 1;
                continue;
            }
            match text_indent {
                None => {
                    if leading_spaces > indent {
                        return None;
                    }
                    text_indent = Some(indent);
                }
                Some(t) if indent >= t => {}
                Some(_) if indent <= parent => return Some(at),
                Some(_) => return None,
            }
            at = line_end + 1;
        }
        Some(at)
    }

    /// One line with content (not a comment line) at `at`, indented by
    /// `indent`: `Some(true)` when it opens a block scalar, `None` when it
    /// is beyond the subset.
    fn line(&mut self, at: usize, indent: usize, content: &'a [u8]) -> Option<bool> {
        let is_item = content.starts_with(b"- ") || content == b"-";
        match std::mem::replace(&mut self.pending, Pending::Nothing) {
            Pending::KeyValue(k) if indent > k || (indent == k && is_item) => {
                return self.open(at, indent, content, is_item);
            }
            Pending::ItemValue(s) if indent > s => return self.open(at, indent, content, is_item),
            _ => {}
        }
        if self.stack.is_empty() {
            // The document's first line: a top-level mapping at column 0.
            if indent != 0 || is_item {
                return None;
            }
            let level = self.mapping(0);
            self.stack.push(level);
            return self.key_line(at, indent, content);
        }
        while self.stack.last().is_some_and(|l| l.indent > indent) {
            self.pop();
        }
        if self.stack.last().is_some_and(|l| l.keys.is_none() && l.indent == indent && !is_item) {
            self.pop();
        }
        let top = self.stack.last()?;
        if top.indent != indent {
            return None;
        }
        match (&top.keys, is_item) {
            (Some(_), false) => self.key_line(at, indent, content),
            (None, true) => self.item_line(at, indent, content),
            _ => None,
        }
    }

    /// A mapping opening at `indent`, its keys' vector a spare one.
    fn mapping(&mut self, indent: usize) -> Level<'a> {
        let small = self.spare.pop().unwrap_or_else(|| Vec::with_capacity(SMALL_KEYS + 1));
        Level { indent, keys: Some(Keys { small, large: None }) }
    }

    /// Closes the innermost collection, keeping its keys' vector.
    fn pop(&mut self) {
        if let Some(Level { keys: Some(Keys { mut small, .. }), .. }) = self.stack.pop() {
            small.clear();
            self.spare.push(small);
        }
    }

    /// A new collection at `indent`, the value of the line before.
    fn open(&mut self, at: usize, indent: usize, content: &'a [u8], is_item: bool) -> Option<bool> {
        if self.stack.len() >= MAX_SCAN_DEPTH {
            return None;
        }
        if is_item {
            self.stack.push(Level { indent, keys: None });
            self.item_line(at, indent, content)
        } else {
            let level = self.mapping(indent);
            self.stack.push(level);
            self.key_line(at, indent, content)
        }
    }

    /// `- ...` in the sequence at `indent`.
    fn item_line(&mut self, at: usize, indent: usize, content: &'a [u8]) -> Option<bool> {
        let after = &content[1..];
        let spaces = spaces_at_start(after);
        let rest = &after[spaces..];
        if rest.is_empty() || rest[0] == b'#' {
            self.pending = Pending::ItemValue(indent);
            return Some(false);
        }
        if rest.starts_with(b"- ") || rest == b"-" || rest.starts_with(b"? ") || rest == b"?" {
            return None;
        }
        let rest_at = at + 1 + spaces;
        // `- key: value` opens a mapping at the key's column.
        if key_end(rest).is_some() {
            if self.stack.len() >= MAX_SCAN_DEPTH {
                return None;
            }
            let column = indent + 1 + spaces;
            let level = self.mapping(column);
            self.stack.push(level);
            return self.key_line(rest_at, column, rest);
        }
        match value(self.text, rest_at, rest)? {
            Rest::Empty => {
                self.pending = Pending::ItemValue(indent);
                Some(false)
            }
            Rest::Block => Some(true),
            Rest::Scalar(w) => {
                self.may_go_on(&w, indent, false);
                Some(false)
            }
            Rest::EmptyFlow => Some(false),
            Rest::OpenQuote(quote) => {
                self.quoted = Some((indent, quote));
                Some(false)
            }
        }
    }

    /// After a scalar `w` on a line of the collection at `parent`: when it
    /// is plain, the lines after it that are indented more are its
    /// continuation, unless a comment ends it on this line.
    fn may_go_on(&mut self, w: &Written<'_>, parent: usize, header: bool) {
        if w.plain && !w.comment {
            self.plain = Some((parent, header));
        }
    }

    /// `key: ...` in the mapping at `indent` (the top of the stack).
    fn key_line(&mut self, at: usize, indent: usize, content: &'a [u8]) -> Option<bool> {
        let (key, colon) = key_end(content)?;
        // The parser's limit of an implicit key.
        if key > 1000 {
            return None;
        }
        let key = key_text(self.text, at, &content[..key])?;
        if key.value == "<<" && key.plain {
            return None;
        }
        let top_level = self.stack.len() == 1;
        let which = match (top_level, key.value.as_ref()) {
            (true, "apiVersion") => Some("apiVersion"),
            (true, "kind") => Some("kind"),
            _ => None,
        };
        let level = self.stack.last_mut()?;
        if !level.keys.get_or_insert_with(Keys::default).insert(key.value) {
            return None;
        }
        let after = &content[colon + 1..];
        let spaces = spaces_at_start(after);
        let rest = &after[spaces..];
        let rest_at = at + colon + 1 + spaces;
        let read = if rest.is_empty() || rest[0] == b'#' { Rest::Empty } else { value(self.text, rest_at, rest)? };
        let field = |scalar: Option<(Cow<'a, str>, ScalarKind, Span)>| Some(Value { scalar });
        let (set, opens_block) = match read {
            Rest::Empty => {
                self.pending = Pending::KeyValue(indent);
                // Null unless a nested block follows (then not a scalar).
                (field(Some((Cow::Borrowed(""), ScalarKind::Null, Span::new(rest_at, rest_at)))), false)
            }
            Rest::Scalar(w) if which.is_some() => {
                self.may_go_on(&w, indent, true);
                let kind = if w.plain { crate::yaml::resolve_plain(&w.value) } else { ScalarKind::String };
                (field(Some((w.value, kind, w.span))), false)
            }
            Rest::Scalar(w) => {
                self.may_go_on(&w, indent, false);
                (None, false)
            }
            // A block scalar's text is not read here: the parser reads it.
            Rest::Block if which.is_some() => return None,
            Rest::Block => (None, true),
            Rest::EmptyFlow => (field(None), false),
            // A header value is read from its line: one that goes on is the
            // parser's.
            Rest::OpenQuote(_) if which.is_some() => return None,
            Rest::OpenQuote(quote) => {
                self.quoted = Some((indent, quote));
                (None, false)
            }
        };
        match which {
            Some("apiVersion") => self.header.api_version = set,
            Some("kind") => self.header.kind = set,
            _ => {}
        }
        if which.is_some() && matches!(self.pending, Pending::KeyValue(_)) {
            // `apiVersion:` alone: its value is what follows; a nested block
            // is not a scalar, nothing is null. Not the subset's concern:
            // leave such a document to the parser.
            return None;
        }
        Some(opens_block)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines the stream's scan looks at are every line whose marker is
    /// not plainly `Some(false)`.
    #[test]
    fn marker_candidates_are_the_marker_lines() {
        #[track_caller]
        fn check(text: &str) {
            let bytes = text.as_bytes();
            let mut expected = vec![0];
            expected.extend(text.match_indices('\n').map(|(i, _)| i + 1));
            expected.retain(|&at| {
                let line = &bytes[at..];
                let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
                at == 0 || marker(line) != Some(false)
            });
            assert_eq!(marker_candidates(bytes), expected, "{text:?}");
        }
        for text in [
            "",
            "\n",
            "a: 1\n---\nb: 2\n",
            "---\n---\n",
            "a\n--\n- x\n-- -\n",
            "a\n...\n..\n.x\n",
            "%YAML 1.2\n---\na\n",
            "a\n--- # c\n---x\n ---\n",
            "---",
            "a\n---",
            "a\n%",
            "\n\n---\n...\n%\n",
        ] {
            check(text);
        }
        // Texts longer than the packed searcher's vectors, each marker (and
        // near misses) at every offset across two of them.
        for marker in ["---", "...", "%", "--", "..", "-", "."] {
            for at in 0..80 {
                let pad = "x".repeat(at);
                check(&format!("{pad}\n{marker}\n{pad}"));
                check(&format!("{pad}\n{marker}"));
                check(&format!("a: 1\n{pad}\n{marker} # c\n---\n...\n%\n{pad}\n"));
            }
        }
    }

    /// A document's scan depends on its text alone, as [`scan_doc_seen`]
    /// needs: scanned by itself, its spans moved to where it is, it reads
    /// as it does in its stream; on every YAML fixture and on mutations of
    /// streams of several documents.
    #[test]
    fn a_document_scans_by_itself() {
        #[track_caller]
        fn check(name: &str, text: &str) {
            let bytes = text.as_bytes();
            let mut start = 0;
            let mut spans = Vec::new();
            for line_start in marker_candidates(bytes) {
                let end = memchr::memchr(b'\n', &bytes[line_start..]).map_or(bytes.len(), |i| line_start + i);
                if marker(&bytes[line_start..end]) == Some(true) {
                    spans.push(Span::new(start, line_start));
                    start = (end + 1).min(bytes.len());
                }
            }
            spans.push(Span::new(start, bytes.len()));
            for span in spans {
                let doc = &text[span.start..span.end];
                let alone = scan_doc(doc, Span::new(0, doc.len()));
                assert_eq!(alone.read.moved(span.start), scan_doc(text, span).read, "{name} at {span:?}:\n{doc}");
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
        let mut files = Vec::new();
        kompat_testkit::files::yaml_files_below(&root, &mut files);
        assert!(files.len() > 50, "{} fixtures", files.len());
        for path in &files {
            let Ok(text) = std::fs::read_to_string(path) else { continue };
            check(&path.display().to_string(), &text);
        }
        let seed = "apiVersion: v1\nkind: ConfigMap # c\nmetadata:\n  name: 'a'\ndata:\n  k: |\n    x\n---\n\
                    apiVersion: \"apps/v1\"\nkind:\n  Deployment\nspec:\n  args:\n  - --feature-gates=A=true\n---\n\
                    kind: List\napiVersion: v1\nitems: []\n";
        let mut rng = kompat_testkit::mutate::Rng(0x6b6f_6d70_6174_0030);
        for i in 0..kompat_testkit::mutate::iterations(2000) {
            check(&format!("mutation {i}"), &kompat_testkit::mutate::mutate(seed, &mut rng));
        }
    }

    /// A header read off a document's built tree ([`header_of_tree`], for
    /// a CRD read by building it) is the scan's header, wherever the
    /// document is: on every YAML fixture's documents, small cases and
    /// mutations. A header it does not read (`None`) is left to the scan.
    #[test]
    fn a_built_tree_reads_as_scanned() {
        /// Whether the tree's header was read (and compared).
        #[track_caller]
        fn check(name: &str, doc: &str) -> bool {
            let alone = scan_doc(doc, Span::new(0, doc.len())).read;
            let mut read = false;
            for before in ["", "a: 1\n---\n"] {
                let text = format!("{before}{doc}");
                let span = Span::new(before.len(), text.len());
                let Some(tree) = crate::yaml::block::build(&text, span) else { continue };
                let Some(header) = header_of_tree(&tree, &text, span) else { continue };
                assert_eq!(DocRead::Map(header), alone, "{name}, after {before:?}:\n{doc}");
                read = true;
            }
            read
        }
        let cases = [
            ("apiVersion: v1\nkind: Service\n", true),
            ("kind: K # c\napiVersion: 'g/v1'\nspec:\n  a: 1\n", true),
            ("apiVersion: \"g/v1\"\nkind: 'It''s'\n", true),
            ("apiVersion: v1\nkind: 1.10\n", true),
            ("apiVersion: v1\nkind: null\n", true),
            ("apiVersion: v1\nkind: ''\n", true),
            ("apiVersion: v1\nkind:\n", false),
            ("apiVersion: v1\nkind:\n  Service\n", false),
            ("apiVersion: v1\nkind: Ser\n  vice\n", false),
            ("apiVersion: v1\nkind: 'Ser\n  vice'\n", false),
            ("apiVersion: v1\nkind: {}\n", false),
            ("apiVersion: v1\nkind: |\n  Service\n", false),
            ("apiVersion: v1\nkind:\n  a: 1\n", false),
            ("apiVersion: v1\nmetadata:\n  kind: K\n", false),
            ("kind: K\n", false),
            ("- a\n", false),
        ];
        for (i, (doc, read)) in cases.iter().enumerate() {
            assert_eq!(check(&format!("case {i}"), doc), *read, "case {i}: {doc:?}");
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
        let mut files = Vec::new();
        kompat_testkit::files::yaml_files_below(&root, &mut files);
        let mut read = 0;
        for path in &files {
            let Ok(text) = std::fs::read_to_string(path) else { continue };
            for doc in scan(&text).unwrap_or_default() {
                read += usize::from(check(&path.display().to_string(), &text[doc.span.start..doc.span.end]));
            }
        }
        assert!(read > 40, "{read} fixture documents read off their trees");
        let seed = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition # c\nmetadata:\n  name: 'a'\n\
                    spec:\n  versions:\n  - name: v1\n    schema:\n      description: a\n        b\n";
        let mut rng = kompat_testkit::mutate::Rng(0x6b6f_6d70_6174_0031);
        let mut read = 0;
        for i in 0..kompat_testkit::mutate::iterations(4000) {
            read += usize::from(check(&format!("mutation {i}"), &kompat_testkit::mutate::mutate(seed, &mut rng)));
        }
        assert!(read > 100, "{read} mutations read off their trees");
    }

    /// A large CustomResourceDefinition is read by building its tree, which
    /// waits, at most once, for the CRD reader: the tree is the parser's,
    /// where the document was read, and the stream's reading is a scan's.
    #[test]
    fn a_large_crd_is_read_by_building_its_tree() {
        let crd = kompat_testkit::manifests::large_crd("BuiltBySkim", crate::seen::MIN_BYTES);
        let before = "apiVersion: v1\nkind: Service\n---\n# a comment\n";
        let text = format!("{before}{crd}---\napiVersion: v1\nkind: Service\n");
        let docs = scan(&text).expect("the stream is skimmed");
        let whole: Vec<DocRead<'_>> = docs.iter().map(|d| scan_doc(&text, d.span).read).collect();
        assert_eq!(docs.into_iter().map(|d| d.read).collect::<Vec<_>>(), whole);
        let (tree, at) = take_tree(&crd).expect("the tree was built, and waits");
        assert_eq!(at, before.len());
        let mut parsed = crate::yaml::parse_documents(&crd).expect("parses");
        parsed.iter_mut().for_each(|doc| doc.shift(at));
        assert_eq!(vec![tree], parsed);
        assert!(take_tree(&crd).is_none(), "taken once");
        // Met again, the reading is the kept one, and nothing is built.
        assert_eq!(scan(&crd).expect("skimmed")[0].read, scan_doc(&crd, Span::new(0, crd.len())).read);
        assert!(take_tree(&crd).is_none());
    }

    /// The stems' search finds exactly the documents that name a word.
    #[test]
    fn tree_words_by_stems() {
        #[track_caller]
        fn check(doc: &str) {
            let expected = TREE_WORDS.iter().any(|w| doc.contains(w));
            assert_eq!(names_tree_word(doc.as_bytes()), expected, "{doc:?}");
        }
        assert!(TREE_WORDS.iter().all(|w| *w == "\\" || TREE_STEMS.iter().any(|s| w.starts_with(s))));
        for word in TREE_WORDS {
            for cut in 0..=word.len() {
                let (head, tail) = word.split_at(cut);
                check(head);
                check(tail);
                check(&format!("a: {head}x{tail}\n"));
                check(&format!("args:\n- --f{head}{tail}=A=true\n"));
            }
        }
        for doc in [
            "",
            "feature",
            "featureGate",
            "eatureGates",
            "feature-gates feature",
            "untime",
            "runtimeconfig",
            "RuntimeConfig: x",
            "kubeadmConfigPatches:",
            "ConfigPatche",
            "eatureeatureGates",
            "untimeatureGates",
            "ConfigPatcheatureGates",
            "featuruntime-config",
            "a\\b",
        ] {
            check(doc);
        }
    }

    /// A ConfigMap named `name` of at least [`crate::seen::MIN_BYTES`]: a
    /// large document, kept by the memo. Each test names its own, the memo
    /// being the process's.
    fn large_config_map(name: &str) -> String {
        let mut doc = format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n");
        let mut i = 0;
        while doc.len() < crate::seen::MIN_BYTES {
            doc.push_str(&format!("  {name}-key-{i}: value {i}\n"));
            i += 1;
        }
        doc
    }

    /// A large document another thread is scanning is left for after the
    /// rest of its stream: the next is scanned meanwhile, and the stream's
    /// readings are those of each document scanned by itself, in order.
    #[test]
    fn a_document_being_scanned_elsewhere_is_read_after_the_rest() {
        // Documents no other test holds (the memo is the process's).
        let (first, second) = (large_config_map("busy-first"), large_config_map("busy-second"));
        let text = format!("{first}---\n{second}");
        SCANS.reading_elsewhere(&first);
        std::thread::scope(|scope| {
            let scanner = scope.spawn(|| scan(&text));
            // The second is scanned while the first waits: polled, for at
            // most a minute.
            let scanned = (0..6000).any(|_| {
                SCANS.get(&second).is_some() || {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                    false
                }
            });
            SCANS.read_elsewhere_unkept(&first);
            assert!(scanned, "the second document was not scanned while the first was scanned elsewhere");
            let docs = scanner.join().expect("the scan finishes").expect("the stream is skimmed");
            let alone = |doc: &str, at: usize| scan_alone(doc).moved(at);
            let expected = [alone(&first, 0), alone(&second, first.len() + 4)];
            assert_eq!(docs.iter().map(|d| &d.read).collect::<Vec<_>>(), expected.iter().collect::<Vec<_>>());
        });
    }

    /// A large document after blank and comment lines (a bundle's header)
    /// reads as it does scanned whole, through the memo of its content met
    /// without them, met with them first, or met with other ones: the same
    /// header at its own offset, the words its comments name, and
    /// `Unsure` when its comments hold a byte outside the subset.
    #[test]
    fn a_document_after_comments_reads_as_scanned_whole() {
        let prefixes = [
            "",
            "# This is an auto-generated file. DO NOT EDIT\n",
            "\n  \n  # indented\n#\n",
            "# featureGates: named here\n",
            "# a tab:\there\n",
            "# no line break",
        ];
        for (round, order) in [[0, 1, 2, 3, 4, 5], [1, 0, 3, 2, 5, 4], [3, 4, 5, 0, 1, 2]].iter().enumerate() {
            // A document of its own per order: the memo is the process's.
            let doc = large_config_map(&format!("after-comments-{round}"));
            for &i in order {
                let text = format!("apiVersion: v1\nkind: Service\n---\n{}{doc}", prefixes[i]);
                let docs = scan(&text).expect("the stream is skimmed");
                let whole: Vec<DocRead<'_>> = docs.iter().map(|d| scan_doc(&text, d.span).read).collect();
                let read: Vec<DocRead<'_>> = docs.into_iter().map(|d| d.read).collect();
                assert_eq!(read, whole, "prefix {i} ({:?}), round {round}", prefixes[i]);
            }
        }
    }
}
