//! Bounded, deterministic mutation fuzzing of the declaration parsers: no
//! input may make them panic, and whatever parses must render and parse back.

use kompat_decls::{parse_k8s_yaml, parse_toml, render_k8s_yaml, render_toml};

const YAML_SEED: &str = "# header\n\n- name: WatchList\n  versionedSpecs:\n  - default: false\n    lockToDefault: false\n    preRelease: Alpha\n    version: \"1.27\"\n  - default: true\n    lockToDefault: false\n    preRelease: Beta\n    version: \"1.32\"\n    minCompatibilityVersion: \"1.31\"\n- name: KMSv1\n  versionedSpecs: []\n";

const TOML_SEED: &str = "[[feature]]\nname = \"WatchList\"\ndescription = \"d\"\ndependencies = [\"KMSv1\"]\nratchet = { tolerated_since = \"1.31\" }\nspecs = [\n  { version = \"1.27\", stage = \"Alpha\", default = false },\n  { version = \"1.32\", stage = \"Beta\", default = true, lockToDefault = true, minCompatibilityVersion = \"1.31\" },\n]\n\n[[feature]]\nname = \"KMSv1\"\nspecs = []\n";

/// xorshift64*, so every run mutates the same way.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const INTERESTING: &[&str] = &[
    "\n", " ", ":", "- ", "\"", "'", "[", "]", "{", "}", "#", "&a", "*a", "---\n", "é", "\t", "=", ",", "1.", "0",
    "\u{0}",
];

fn mutate(seed: &str, rng: &mut Rng) -> String {
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

#[test]
fn yaml_parser_never_panics() {
    let mut rng = Rng(0x6b6f_6d70_6174_0001);
    let mut accepted = 0;
    for _ in 0..3000 {
        let input = mutate(YAML_SEED, &mut rng);
        if let Ok(file) = parse_k8s_yaml(&input) {
            accepted += 1;
            let rendered = render_k8s_yaml(&file.features);
            let again = parse_k8s_yaml(&rendered).expect("rendered YAML parses");
            assert_eq!(render_k8s_yaml(&again.features), rendered, "input:\n{input}");
        }
    }
    assert!(accepted > 0, "the mutations never produced a valid file");
}

#[test]
fn toml_parser_never_panics() {
    let mut rng = Rng(0x6b6f_6d70_6174_0002);
    let mut accepted = 0;
    for _ in 0..3000 {
        let input = mutate(TOML_SEED, &mut rng);
        if let Ok(file) = parse_toml(&input) {
            accepted += 1;
            let rendered = render_toml(&file.features.features);
            let again = parse_toml(&rendered).expect("rendered TOML parses");
            assert_eq!(again.features.features, file.features.features, "input:\n{input}");
        }
    }
    assert!(accepted > 0, "the mutations never produced a valid file");
}
