//! A key given twice, and `api(...)` given twice.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1beta1", version = "v1", resource = "cronjobs", introduced = "1.8"))]
#[kompat(api(group = "batch", version = "v1", resource = "cronjobs", introduced = "1.21"))]
struct CronJob;

fn main() {}
