//! An API type without `#[kompat(api(...))]`.

use kompat::ApiLifecycle;

/// An API type needs `#[kompat(api(...))]`.
#[derive(ApiLifecycle)]
struct CronJob;

fn main() {}
