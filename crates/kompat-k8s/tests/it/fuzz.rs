//! Bounded, deterministic mutation fuzzing of the removed-gate table's
//! parser: no input may make it panic, and every error is located. (The
//! generators' readers are fuzzed beside them, `crates/xtask/tests/it/fuzz.rs`.)

use kompat_testkit::mutate;

use kompat_formats::ParseError;
use mutate::{mutate, Rng};

#[track_caller]
fn all_located(input: &str, result: Result<(), Vec<ParseError>>) -> bool {
    match result {
        Ok(()) => true,
        Err(errors) => {
            assert!(!errors.is_empty(), "an error without a problem, input:\n{input}");
            for error in errors {
                let span = error.span.unwrap_or_else(|| panic!("unlocated {:?}, input:\n{input}", error.message));
                assert!(span.start <= span.end && span.end <= input.len(), "span out of range, input:\n{input}");
            }
            false
        }
    }
}

const REMOVED_SEED: &str = "[[removed]]\nname = \"Gone\"\nremoved = \"1.34\"\nspecs = [\n  { version = \"1.30\", stage = \"Beta\", default = true },\n  { version = \"1.32\", stage = \"GA\", default = true, lockToDefault = true, minCompatibilityVersion = \"1.31\" },\n]\n";

#[test]
fn removed_table_parser_never_panics() {
    let mut rng = Rng(0x6b38_735f_676f_0003);
    let mut accepted = 0;
    for _ in 0..1500 {
        let input = mutate(REMOVED_SEED, &mut rng);
        accepted += usize::from(all_located(&input, kompat_k8s::removed::parse(&input).map(drop)));
    }
    assert!(accepted > 0, "the mutations never produced a valid file");
}
