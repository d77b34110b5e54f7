//! Unions are not API types.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1", resource = "cronjobs", introduced = "1.21"))]
union CronJob {
    a: u32,
}

fn main() {}
