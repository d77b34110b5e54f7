//! Unknown keys, with a hint for misspellings and aliases (no "missing" repeat).

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1beta1", plural = "cronjobs", introduce = "1.8", colour = "blue"))]
struct CronJob;

fn main() {}
