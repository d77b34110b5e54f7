//! A version written as a number, and a boolean where a version belongs.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1beta1", resource = "cronjobs", introduced = 1.10, removed = true))]
struct CronJob;

fn main() {}
