//! A bad replacement alone gives one error and no follow-on errors.

use kompat::ApiLifecycle;

/// A bad replacement alone: one error at the literal, and the trait is
/// still implemented (fallback), so using it below is not an error.
#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1beta1", resource = "cronjobs", introduced = "1.8", replacement = "batch/v1"))]
struct CronJob;

fn main() {
    let _ = CronJob::API;
}
