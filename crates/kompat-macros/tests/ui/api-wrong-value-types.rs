//! Values of the wrong type.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api(group = batch, version = "v1", resource = "cronjobs", introduced = "1.21", enabled_by_default = "yes"))]
struct CronJob;

fn main() {}
