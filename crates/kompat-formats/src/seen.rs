//! What a reader made of a large document, kept by the document's text: an
//! install bundle repeats the CRDs of its project's own files (argo-cd's
//! six bundles each hold the same 1.8 MB of CRDs), and each copy is read
//! once more only if it was not met twice before.
//!
//! A document is looked up by a hash of its length and of samples of its
//! text, and then compared byte for byte, so only an identical text gets
//! another's reading: texts the hash does not tell apart cost a reading,
//! never a wrong one. A document met once costs its hash;
//! its text (and the reading) are kept from its second meeting on, up to
//! `MAX_KEPT_BYTES` in all. The CRD reader's memo of large CRDs
//! (`kompat_crd::SeenCrds`) looks its documents up with the same threshold
//! ([`MIN_BYTES`]) and hash ([`sample_hash`]).

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Documents smaller than this are read each time: looking them up would
/// cost about as much.
pub const MIN_BYTES: usize = 16 * 1024;

/// The most text a [`Seen`] keeps: beyond it, documents met again are read
/// again.
pub(crate) const MAX_KEPT_BYTES: usize = 64 << 20;

/// The readings of the large documents met so far, shared by threads.
pub(crate) struct Seen<V> {
    docs: Mutex<HashMap<u64, Met<V>>>,
    kept: AtomicUsize,
}

enum Met<V> {
    Once,
    Again(Box<str>, V),
}

impl<V: Clone> Seen<V> {
    pub(crate) fn new() -> Seen<V> {
        Seen { docs: Mutex::new(HashMap::new()), kept: AtomicUsize::new(0) }
    }

    /// `read()`, the reading of `doc`, or a copy of the reading of the same
    /// text met before. `read` must depend on nothing but `doc`'s text.
    pub(crate) fn read(&self, doc: &str, read: impl FnOnce() -> V) -> V {
        if doc.len() < MIN_BYTES {
            return read();
        }
        let hash = sample_hash(doc.as_bytes());
        let keep = {
            let mut docs = self.lock();
            match docs.get(&hash) {
                Some(Met::Again(text, reading)) if **text == *doc => return reading.clone(),
                // Another text of the same hash: read, and not kept.
                Some(Met::Again(..)) => false,
                Some(Met::Once) => true,
                None => {
                    docs.insert(hash, Met::Once);
                    false
                }
            }
        };
        let reading = read();
        if keep && self.kept.fetch_add(doc.len(), Ordering::Relaxed) + doc.len() <= MAX_KEPT_BYTES {
            let mut docs = self.lock();
            // Another thread may have kept its reading meanwhile.
            if let Some(met @ Met::Once) = docs.get_mut(&hash) {
                *met = Met::Again(doc.into(), reading.clone());
            }
        }
        reading
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Met<V>>> {
        self.docs.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
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
                seen.read(doc, || {
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
    fn large_documents_are_read_twice_at_most() {
        let a = "a".repeat(MIN_BYTES);
        let b = "b".repeat(MIN_BYTES);
        let small = "s".repeat(MIN_BYTES - 1);
        let mut one_off = a.clone();
        one_off.replace_range(MIN_BYTES / 2..MIN_BYTES / 2 + 1, "c");
        check(&[&a], 1);
        check(&[&a, &a], 2);
        check(&[&a, &a, &a, &a], 2);
        check(&[&a, &b, &a, &b, &a, &b], 4);
        check(&[&small, &small, &small], 3);
        check(&[&a, &one_off, &a, &one_off, &a], 4);
        // A byte the hash does not sample: the texts are told apart when
        // compared.
        let mut hidden = a.clone();
        hidden.replace_range(EDGE_BYTES + 100..EDGE_BYTES + 101, "c");
        assert_eq!(sample_hash(a.as_bytes()), sample_hash(hidden.as_bytes()));
        check(&[&a, &hidden, &a, &hidden, &a, &hidden], 4);
    }
}
