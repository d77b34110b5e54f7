//! Every mistake in one API declaration is reported at once.

use kompat::ApiLifecycle;

/// Every mistake is reported at once, each at its own span, and the fallback
/// impl keeps the uses below free of follow-on errors.
#[derive(ApiLifecycle)]
#[kompat(api(
    grup = "batch",
    version = "v1beta1",
    resource = "cronjobs",
    introduced = "1.8.1",
    deprecated = 1.21,
    replacement = "batch/v1/cronJob",
    enabled_by_default = 1
))]
struct CronJob;

const REMOVED: Option<kompat::Version> = <CronJob as ApiLifecycle>::REMOVED;

fn main() {
    let _ = (REMOVED, CronJob::deprecation_warning(kompat::Version::new(1, 30)));
}
