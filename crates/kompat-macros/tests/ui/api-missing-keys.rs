//! `group`, `version` and `resource` are required.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api(kind = "CronJob", introduced = "1.8"))]
struct CronJob;

#[derive(ApiLifecycle)]
#[kompat(api())]
struct Job;

fn main() {}
