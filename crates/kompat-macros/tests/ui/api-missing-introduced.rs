//! `introduced` is required (prerelease-lifecycle-gen's rule, the core's message).

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1beta1", kind = "CronJob", resource = "cronjobs"))]
struct CronJob;

fn main() {}
