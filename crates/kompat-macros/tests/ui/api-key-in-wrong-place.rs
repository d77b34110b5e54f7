//! Keys of `api(...)` and of feature gates written directly in `#[kompat(...)]`.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(group = "batch", introduced = "1.8")]
#[kompat(spec(version = "1.8", stage = "Beta", default = true))]
#[kompat(api(group = "batch", version = "v1", resource = "cronjobs", introduced = "1.21"))]
struct CronJob;

fn main() {}
