//! A replacement that is not GROUP/VERSION/KIND.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1beta1", resource = "cronjobs", introduced = "1.8", replacement = "batch,v1,CronJob"))]
struct CronJob;

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1beta1", resource = "jobs", introduced = "1.8", replacement = "batch/v1/"))]
struct Job;

fn main() {}
