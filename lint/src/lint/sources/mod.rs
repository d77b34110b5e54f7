//! Sources beyond declaration files: Rust code (declarations through
//! `#[derive(FeatureGates)]`, and every reference to a gate) and deployment
//! material (`--feature-gates` flags and `featureGates:` maps).

pub mod deploy;
pub mod rust;

// The derive's own parsing, shared so that the linter reads a
// `#[derive(FeatureGates)]` enum exactly as the compiler does.
#[path = "../../../../macros/src/ast.rs"]
#[allow(dead_code, clippy::all)]
mod ast;
#[path = "../../../../macros/src/attr.rs"]
#[allow(dead_code, clippy::all)]
mod attr;
#[path = "../../../../macros/src/ctxt.rs"]
#[allow(dead_code, clippy::all)]
mod ctxt;

use kompat_project::Location;

/// A place that names a gate.
#[derive(Debug, Clone)]
pub struct GateRef {
    pub gate: String,
    pub location: Location,
}

/// A gate set in deployment material (`--feature-gates=Gate=true`).
#[derive(Debug, Clone)]
pub struct GateSetting {
    pub gate: String,
    pub value: bool,
    pub location: Location,
}
