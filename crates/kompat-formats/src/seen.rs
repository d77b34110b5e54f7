//! What a reader made of a large document, kept by the document's text: an
//! install bundle repeats the CRDs of its project's own files (argo-cd's
//! six bundles each hold the same 1.8 MB of CRDs), and each copy after the
//! first takes the first's reading.
//!
//! A document is looked up by a hash of its length and of samples of its
//! text, and then compared byte for byte, so only an identical text gets
//! another's reading: texts the hash does not tell apart cost a reading,
//! never a wrong one. A large document's text (a copy) and reading are kept
//! from its first meeting on while `FIRST_KEPT_BYTES` allow, and from its
//! second meeting on once they are spent, up to `MAX_KEPT_BYTES` in all (a
//! tree of many large documents met once keeps few copies); a thread that
//! meets a document another is reading waits for that reading, or goes on
//! with other work first ([`Seen::try_read`]); a kept reading is found
//! again without reading ([`Seen::get`]: the skim's memo holds the trees it
//! built of large CRDs for the CRD reader to take). The CRD reader's memo of
//! large CRDs (`kompat_crd::SeenCrds`) looks its documents up with the same
//! threshold ([`MIN_BYTES`]) and hash ([`sample_hash`]).

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// Documents smaller than this are read each time: looking them up would
/// cost about as much.
pub const MIN_BYTES: usize = 16 * 1024;

/// The most text a [`Seen`] keeps: beyond it, documents met again are read
/// again.
pub(crate) const MAX_KEPT_BYTES: usize = 64 << 20;

/// The most text a [`Seen`] keeps of documents met once: beyond it, a
/// document is kept from its second meeting on.
pub(crate) const FIRST_KEPT_BYTES: usize = 16 << 20;

/// The readings of the large documents met so far, shared by threads.
pub(crate) struct Seen<V> {
    docs: Mutex<HashMap<u64, Met<V>>>,
    /// Signalled when a document being read ([`Met::Reading`]) is read.
    read: Condvar,
    /// The bytes of text kept, and how many may be: in all, and of
    /// documents met once.
    kept: AtomicUsize,
    max_kept: usize,
    first_kept: usize,
}

enum Met<V> {
    /// Being read by a thread, which will keep its reading.
    Reading,
    Kept(Box<str>, V),
    /// Met once, and not kept: there was no room for documents met once.
    Once,
    /// Read, and not kept (no room was left, or the reader unwound): read
    /// again at each meeting.
    Unkept,
}

impl<V: Clone> Seen<V> {
    pub(crate) fn new() -> Seen<V> {
        Seen::with_room(FIRST_KEPT_BYTES, MAX_KEPT_BYTES)
    }

    /// A [`Seen`] that keeps at most `max_kept` bytes of text, `first_kept`
    /// of them of documents met once.
    fn with_room(first_kept: usize, max_kept: usize) -> Seen<V> {
        Seen { docs: Mutex::new(HashMap::new()), read: Condvar::new(), kept: AtomicUsize::new(0), max_kept, first_kept }
    }

    /// Whether `bytes` more fit within `limit` bytes kept (counted if so).
    fn room(&self, bytes: usize, limit: usize) -> bool {
        self.kept
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |kept| kept.checked_add(bytes).filter(|&k| k <= limit))
            .is_ok()
    }

    /// `read(kept)`, the reading of `doc`, or a copy of the reading of the
    /// same text met before (waiting for it when another thread is reading
    /// it). `read` must depend on nothing but `doc`'s text; `kept` tells it
    /// whether its reading will be kept (so found again by [`Seen::get`]).
    pub(crate) fn read(&self, doc: &str, read: impl FnOnce(bool) -> V) -> V {
        self.lookup(doc, read, true).unwrap_or_else(|read| read(false))
    }

    /// [`Seen::read`], or `read` back when another thread is reading the
    /// same text: the caller reads it later ([`Seen::read`]), and meanwhile
    /// goes on with other work.
    pub(crate) fn try_read<F: FnOnce(bool) -> V>(&self, doc: &str, read: F) -> Result<V, F> {
        self.lookup(doc, read, false)
    }

    /// The reading of `doc`, or `read` back when another thread is reading
    /// it and `wait` is false.
    fn lookup<F: FnOnce(bool) -> V>(&self, doc: &str, read: F, wait: bool) -> Result<V, F> {
        if doc.len() < MIN_BYTES {
            return Ok(read(false));
        }
        let hash = sample_hash(doc.as_bytes());
        let keep = {
            let mut docs = self.lock();
            loop {
                match docs.get(&hash) {
                    Some(Met::Kept(text, reading)) if **text == *doc => return Ok(reading.clone()),
                    // Another text of the same hash: read, and not kept.
                    Some(Met::Kept(..) | Met::Unkept) => break false,
                    Some(Met::Reading) if !wait => return Err(read),
                    Some(Met::Reading) => {
                        docs = self.read.wait(docs).unwrap_or_else(std::sync::PoisonError::into_inner)
                    }
                    Some(Met::Once) => {
                        let room = self.room(doc.len(), self.max_kept);
                        docs.insert(hash, if room { Met::Reading } else { Met::Unkept });
                        break room;
                    }
                    None => {
                        let room = self.room(doc.len(), self.first_kept);
                        docs.insert(hash, if room { Met::Reading } else { Met::Once });
                        break room;
                    }
                }
            }
        };
        if !keep {
            return Ok(read(false));
        }
        let mut reading = Reading { seen: self, hash, done: false };
        let value = read(true);
        reading.done = true;
        self.finish(hash, Met::Kept(doc.into(), value.clone()));
        Ok(value)
    }

    /// The kept reading of `doc`, if there is one; nothing is read.
    pub(crate) fn get(&self, doc: &str) -> Option<V> {
        if doc.len() < MIN_BYTES {
            return None;
        }
        match self.lock().get(&sample_hash(doc.as_bytes())) {
            Some(Met::Kept(text, reading)) if **text == *doc => Some(reading.clone()),
            _ => None,
        }
    }

    /// Records what a reading gave, for the threads waiting for it.
    fn finish(&self, hash: u64, met: Met<V>) {
        self.lock().insert(hash, met);
        self.read.notify_all();
    }

    /// Marks `doc` as being read by another thread (tests of the callers).
    #[cfg(test)]
    pub(crate) fn reading_elsewhere(&self, doc: &str) {
        self.lock().insert(sample_hash(doc.as_bytes()), Met::Reading);
    }

    /// Ends [`Seen::reading_elsewhere`] with that reading not kept.
    #[cfg(test)]
    pub(crate) fn read_elsewhere_unkept(&self, doc: &str) {
        self.finish(sample_hash(doc.as_bytes()), Met::Unkept);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Met<V>>> {
        self.docs.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Marks a document whose reading did not finish (the reader unwound) as
/// not kept, so that no thread waits for it for ever.
struct Reading<'a, V: Clone> {
    seen: &'a Seen<V>,
    hash: u64,
    done: bool,
}

impl<V: Clone> Drop for Reading<'_, V> {
    fn drop(&mut self) {
        if !self.done {
            self.seen.finish(self.hash, Met::Unkept);
        }
    }
}

/// Where the content of a document's text `doc` starts: after the blank
/// lines and comment lines before it (lines of spaces, or of spaces and a
/// `#` and anything after), which are no part of its tree. The memos look a
/// document up by its content: a bundle's first document often has a
/// header comment that the same document in its own file does not.
pub fn content_start(doc: &[u8]) -> usize {
    let mut start = 0;
    while start < doc.len() {
        let end = memchr::memchr(b'\n', &doc[start..]).map_or(doc.len(), |i| start + i + 1);
        let line = &doc[start..end];
        let spaces = line.iter().take_while(|&&b| b == b' ').count();
        if !matches!(line.get(spaces), None | Some(b'\n' | b'#')) {
            break;
        }
        start = end;
    }
    start
}

/// A hash of a large text's length and of some of its bytes: its first and
/// last `EDGE_BYTES` and `WINDOWS` windows spread over the rest. Texts
/// it does not tell apart are compared whole (`Seen::read`); hashing all
/// of every large document would cost more than most lookups save.
pub fn sample_hash(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = foldhash::fast::FixedState::with_seed(0x6b6f_6d70_6174).build_hasher();
    hasher.write_usize(bytes.len());
    let edge = EDGE_BYTES.min(bytes.len());
    hasher.write(&bytes[..edge]);
    hasher.write(&bytes[bytes.len() - edge..]);
    let step = bytes.len() / WINDOWS;
    for i in 0..WINDOWS {
        let start = i * step;
        hasher.write(&bytes[start..(start + WINDOW_BYTES).min(bytes.len())]);
    }
    hasher.finish()
}

/// The bytes [`sample_hash`] takes at each end of a text.
const EDGE_BYTES: usize = 1024;
/// How many windows of [`WINDOW_BYTES`] [`sample_hash`] takes between.
const WINDOWS: usize = 32;
const WINDOW_BYTES: usize = 64;

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::{sample_hash, Seen, EDGE_BYTES, MIN_BYTES};

    /// The readings `Seen::read` gives for `docs` in order, and how many
    /// times it read.
    fn readings(seen: &Seen<usize>, docs: &[&str]) -> (Vec<usize>, usize) {
        let reads = Cell::new(0);
        let out = docs
            .iter()
            .map(|doc| {
                seen.read(doc, |_| {
                    reads.set(reads.get() + 1);
                    doc.bytes().map(usize::from).sum()
                })
            })
            .collect();
        (out, reads.get())
    }

    fn check(docs: &[&str], expected_reads: usize) {
        let seen = Seen::new();
        let (out, reads) = readings(&seen, docs);
        let each: Vec<usize> = docs.iter().map(|d| d.bytes().map(usize::from).sum()).collect();
        assert_eq!(out, each, "readings");
        assert_eq!(reads, expected_reads, "reads");
    }

    #[test]
    fn content_starts_after_blank_and_comment_lines() {
        #[track_caller]
        fn check(doc: &str, expected: &str) {
            assert_eq!(&doc[super::content_start(doc.as_bytes())..], expected, "{doc:?}");
        }
        check("a: 1\n", "a: 1\n");
        check("# header\na: 1\n", "a: 1\n");
        check("\n  \n# one\n  # two\na: 1\n# after\n", "a: 1\n# after\n");
        check("  a: 1\n", "  a: 1\n");
        check("#\n", "");
        check("# no line break", "");
        check("", "");
        check("\t# a tab is content\na: 1\n", "\t# a tab is content\na: 1\n");
        check("a: 1 # not a comment line\n", "a: 1 # not a comment line\n");
    }

    #[test]
    fn large_documents_are_read_once() {
        let a = "a".repeat(MIN_BYTES);
        let b = "b".repeat(MIN_BYTES);
        let small = "s".repeat(MIN_BYTES - 1);
        let mut one_off = a.clone();
        one_off.replace_range(MIN_BYTES / 2..MIN_BYTES / 2 + 1, "c");
        check(&[&a], 1);
        check(&[&a, &a], 1);
        check(&[&a, &a, &a, &a], 1);
        check(&[&a, &b, &a, &b, &a, &b], 2);
        check(&[&small, &small, &small], 3);
        check(&[&a, &one_off, &a, &one_off, &a], 2);
        // A byte the hash does not sample: the texts are told apart when
        // compared, and the second is read at each meeting.
        let mut hidden = a.clone();
        hidden.replace_range(EDGE_BYTES + 100..EDGE_BYTES + 101, "c");
        assert_eq!(sample_hash(a.as_bytes()), sample_hash(hidden.as_bytes()));
        check(&[&a, &hidden, &a, &hidden, &a, &hidden], 4);
    }

    #[test]
    fn documents_met_once_are_kept_while_there_is_room() {
        let [a, b, c, d] = ["a", "b", "c", "d"].map(|s| s.repeat(MIN_BYTES));
        // Room for one document met once, and three in all.
        let seen = Seen::with_room(MIN_BYTES, 3 * MIN_BYTES);
        let (_, reads) = readings(&seen, &[&a, &a, &b, &b, &b]);
        assert_eq!(reads, 3, "a kept when first met, b when met again");
        let (_, reads) = readings(&seen, &[&c, &c, &c]);
        assert_eq!(reads, 2, "c kept when met again: the third in all");
        let (_, reads) = readings(&seen, &[&d, &d, &d]);
        assert_eq!(reads, 3, "no room left for d");
        let (_, reads) = readings(&seen, &[&a, &b, &c]);
        assert_eq!(reads, 0, "the kept are kept");
        let sum = |doc: &str| doc.bytes().map(usize::from).sum::<usize>();
        assert_eq!([&a, &b, &c].map(|doc| seen.get(doc)), [&a, &b, &c].map(|doc| Some(sum(doc))));
        assert_eq!(seen.get(&d), None, "d is not kept");
    }

    #[test]
    fn a_document_being_read_is_left_to_its_reader() {
        let a = "a".repeat(MIN_BYTES);
        let seen = Seen::new();
        // Met again while the first reading is under way: not read twice.
        let inner = seen.read(&a, |kept| {
            assert!(kept, "a document first met is kept while there is room");
            assert!(seen.try_read(&a, |_| 2).is_err(), "met while being read");
            assert_eq!(seen.get(&a), None, "not kept until read");
            1
        });
        assert_eq!(inner, 1);
        assert_eq!(seen.get(&a), Some(1), "kept");
        assert_eq!(seen.try_read(&a, |_| 3).ok(), Some(1), "read once, kept");
    }

    #[test]
    fn a_reading_that_unwinds_is_read_again() {
        let a = "a".repeat(MIN_BYTES);
        let seen: Seen<usize> = Seen::new();
        let unwound =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| seen.read(&a, |_| panic!("reader failed"))));
        assert!(unwound.is_err());
        // Neither waited for nor taken: read by the next meeting.
        assert_eq!(seen.try_read(&a, |kept| usize::from(kept) + 7).ok(), Some(7), "not kept");
        assert_eq!(seen.read(&a, |_| 8), 8);
        assert_eq!(seen.get(&a), None);
    }
}
