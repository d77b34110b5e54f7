use kompat::{ApiLifecycle, FeatureGates};

#[derive(Clone, Copy, FeatureGates)]
pub enum Feature {
    /// Docs.
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    #[kompat(spec(version = "1.32", stage = "Beta", default = true, min_compatibility = "1.31"))]
    WatchList,
    #[kompat(name = "KMSv1", depends_on(WatchList), ratchet(tolerated_since = "1.31"))]
    #[kompat(allow(code = "orphaned-gate", reason = "elsewhere"))]
    #[kompat(spec(version = "1.0", stage = "GA", default = true, locked = true))]
    KmsV1,
}

pub mod v1beta1 {
    #[derive(kompat::ApiLifecycle)]
    #[kube(group = "batch", version = "v1beta1", kind = "CronJob", namespaced)]
    #[kompat(api(resource = "cronjobs", introduced = "1.8", deprecated = "1.21", replacement = "batch/v1/CronJob"))]
    pub struct CronJobSpec;
}

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1", kind = "CronJob", resource = "cronjobs", introduced = "1.21"))]
pub struct CronJob;

pub fn uses(gate: &kompat::TypedGate<Feature>) -> bool {
    gate.enabled(Feature::WatchList) && gate.enabled_by_name("KMSv1")
}
