//! A key without a value: syn's error, nothing else.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1", resource = "cronjobs", introduced))]
struct CronJob;

fn main() {}
