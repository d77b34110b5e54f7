//! `crate = "..."` must be a path.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(crate = "not a path")]
#[kompat(api(group = "batch", version = "v1", resource = "cronjobs", introduced = "1.21"))]
struct CronJob;

fn main() {}
