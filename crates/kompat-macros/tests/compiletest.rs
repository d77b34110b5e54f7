//! Compile-fail UI tests: one case per validation rule and per attribute
//! mistake, `.stderr` files blessed with `TRYBUILD=overwrite`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
