//! `api` is a list of keys, not a value.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api = "batch/v1/CronJob")]
struct CronJob;

fn main() {}
