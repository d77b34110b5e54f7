//! A counting global allocator for tests that enforce a memory cap
//! in-process: it records the live bytes and their peak, and [`peak_of`]
//! measures the peak above the starting point while a closure runs. A test
//! binary that installs it counts every allocation it makes:
//!
//! ```
//! use kompat_testkit::counting_alloc::{peak_of, Counting, SERIAL};
//!
//! #[global_allocator]
//! static ALLOCATOR: Counting = Counting;
//!
//! let _serial = SERIAL.lock();
//! let (v, peak) = peak_of(|| vec![1u8; 4096]);
//! assert!(peak >= 4096, "{peak}");
//! # drop(v);
//! ```
//!
//! (installed by the test binary itself, so that a test that only mutates
//! inputs does not count). Tests that measure hold [`SERIAL`] throughout, so
//! no other test allocates meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting.
pub struct Counting;

pub static LIVE: AtomicUsize = AtomicUsize::new(0);
pub static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

/// Held by every test that measures.
pub static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Peak live bytes above the starting point while `f` runs.
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = LIVE.load(Ordering::Relaxed);
    PEAK.store(start, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed).saturating_sub(start))
}
