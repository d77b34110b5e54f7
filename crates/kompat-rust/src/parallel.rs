//! Work over many files on every core: each thread takes the next item when
//! done with one (a slow file holds up only its own thread), and the results
//! come back in the items' order, whatever order they finished in. The Rust
//! reader's scans run on it, and so do the loader's reads of a directory.

use std::sync::atomic::{AtomicUsize, Ordering};

use kompat_diag::{Diagnostic, Location};

/// Why an item has no result of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The work on it panicked.
    Panicked,
    /// No thread could be started to run it.
    NoThread,
}

impl Failure {
    /// The error of the file at `path` whose work failed so.
    pub fn diagnostic(self, path: &std::path::Path) -> Diagnostic {
        let message = match self {
            Failure::Panicked => "internal error reading this file",
            Failure::NoThread => "cannot start a thread to read this file",
        };
        Diagnostic::error(message).at(Location::file(path))
    }
}

/// Runs `work` over `items` on every core, with `stack_bytes` of stack per
/// thread, and returns the results in `items`' order. An item whose work
/// panics, or that no thread could be started for, gets `failed(item, why)`:
/// never a silently missing result.
pub fn map<T, R, W, F>(items: &[T], stack_bytes: usize, work: W, failed: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    W: Fn(&T) -> R + Sync,
    F: Fn(&T, Failure) -> R + Sync,
{
    let count = items.len();
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(count);
    let run = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { break done };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(item)))
                .unwrap_or_else(|_| failed(item, Failure::Panicked));
            done.push((i, result));
        }
    };
    let mut results: Vec<Option<R>> = (0..count).map(|_| None).collect();
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for _ in 0..workers {
            match std::thread::Builder::new().stack_size(stack_bytes).spawn_scoped(scope, run) {
                Ok(handle) => handles.push(handle),
                // Fewer threads: the ones started take all the work.
                Err(_) => break,
            }
        }
        for handle in handles {
            // `run` catches every panic of `work`; a thread that still fails
            // leaves its items to the check below.
            if let Ok(done) = handle.join() {
                for (i, result) in done {
                    results[i] = Some(result);
                }
            }
        }
    });
    results
        .into_iter()
        .zip(items)
        .map(|(result, item)| result.unwrap_or_else(|| failed(item, Failure::NoThread)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_items_order() {
        for count in [0, 1, 2, 3, 10, 1000] {
            let items: Vec<usize> = (0..count).collect();
            let got = map(&items, 1 << 20, |&i| Ok(i * 2), |_, why| Err(why));
            let expected: Vec<Result<usize, Failure>> = items.iter().map(|&i| Ok(i * 2)).collect();
            assert_eq!(got, expected);
        }
    }

    #[test]
    fn a_panic_is_the_failure_of_its_item_only() {
        let items = [1, 0, 2];
        let got = map(
            &items,
            1 << 20,
            |&i| match 6usize.checked_div(i) {
                Some(q) => Ok(q),
                None => std::panic::panic_any("division by zero"),
            },
            |_, why| Err(why),
        );
        assert_eq!(got, [Ok(6), Err(Failure::Panicked), Ok(3)]);
    }
}
