//! Lifecycle versions are `MAJOR.MINOR`, checked as the TOML reader checks them.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1beta1", resource = "cronjobs", introduced = "1.8.0", deprecated = "v1.21", removed = "1"))]
struct CronJob;

fn main() {}
