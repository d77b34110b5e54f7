//! What a reader made of a large document, kept by the document's text: an
//! install bundle repeats the CRDs of its project's own files (argo-cd's
//! six bundles each hold the same 1.8 MB of CRDs), and each copy is read
//! once more only if it was not met twice before.
//!
//! A document is looked up by a hash of its text and then compared byte for
//! byte, so only an identical text gets another's reading: a hash collision
//! costs a reading, never a wrong one. A document met once costs its hash;
//! its text (and the reading) are kept from its second meeting on, up to
//! [`MAX_KEPT_BYTES`] in all.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Documents smaller than this are read each time: looking them up would
/// cost about as much.
pub(crate) const MIN_BYTES: usize = 16 * 1024;

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
        let hash = foldhash::fast::FixedState::with_seed(0x6b6f_6d70_6174).hash_one(doc);
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

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::{Seen, MIN_BYTES};

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
    }
}
