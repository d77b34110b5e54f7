//! The bounded, deterministic mutator behind the fuzz tests of every parser:
//! a seeded xorshift, and byte-level edits (delete, insert a syntax-laden
//! piece, overwrite, duplicate a run) applied to a valid seed.

/// How many mutations a fuzz test tries: `default` (what CI runs), or
/// `KOMPAT_FUZZ_ITERS` when set, to run the same tests much longer
/// (`KOMPAT_FUZZ_ITERS=1000000 cargo test --release fuzz`).
pub fn iterations(default: usize) -> usize {
    std::env::var("KOMPAT_FUZZ_ITERS").ok().and_then(|n| n.parse().ok()).unwrap_or(default)
}

/// xorshift64*, so every run mutates the same way.
pub struct Rng(pub u64);

impl Rng {
    // Never ending, so not an `Iterator`: `next` is the generator's step.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

pub const INTERESTING: &[&str] = &[
    "\n", " ", ":", "- ", "\"", "'", "[", "]", "{", "}", "#", "&a", "*a", "---\n", "é", "\t", "=", ",", "1.", "0",
    "\u{0}",
];

pub fn mutate(seed: &str, rng: &mut Rng) -> String {
    let mut bytes = seed.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(4) {
            0 if at < bytes.len() => {
                bytes.remove(at);
            }
            1 => {
                let piece = INTERESTING[rng.below(INTERESTING.len())];
                bytes.splice(at..at, piece.bytes());
            }
            2 if at < bytes.len() => bytes[at] = (rng.next() & 0x7f) as u8,
            _ => {
                let len = rng.below(16).min(bytes.len() - at.min(bytes.len()));
                let copy: Vec<u8> = bytes[at.min(bytes.len())..at.min(bytes.len()) + len].to_vec();
                let to = rng.below(bytes.len() + 1);
                bytes.splice(to..to, copy);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}
