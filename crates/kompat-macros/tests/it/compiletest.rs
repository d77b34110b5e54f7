//! Compile-fail UI tests: one case per validation rule and per attribute
//! mistake, `.stderr` files blessed with `TRYBUILD=overwrite`; and the usual
//! operator layout, a library that declares the gates (`kompat-tests`'s) and
//! a binary that uses them, which builds and runs whether or not the binary
//! imports the `FeatureGates` trait (`tests/lib_and_bin/`).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/lib_and_bin/*.rs");
}
