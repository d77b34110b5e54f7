//! prerelease-lifecycle-gen's case checks on the replacement GVK.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1beta1", resource = "cronjobs", introduced = "1.8", replacement = "Batch/v1/CronJob"))]
struct CronJob;

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1beta1", resource = "jobs", introduced = "1.8", replacement = "batch/V1/Job"))]
struct Job;

#[derive(ApiLifecycle)]
#[kompat(api(group = "", version = "v1beta1", resource = "pods", introduced = "1.8", replacement = "/v1/pod"))]
struct Pod;

fn main() {}
