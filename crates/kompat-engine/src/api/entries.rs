//! The engine's view of the registry entries that `#[derive(ApiLifecycle)]`
//! emits: an [`ApiEntry`] (runtime, `'static` strings) becomes an [`ApiDecl`]
//! exactly as the TOML reader would produce it, and a list of entries becomes
//! an [`ApiConfig`].

use kompat_runtime::api::typed::ApiEntry;

use super::decl::{ApiConfig, ApiDecl};

impl From<ApiEntry> for ApiDecl {
    /// The declaration, as the TOML reader would produce it.
    fn from(entry: ApiEntry) -> ApiDecl {
        ApiDecl {
            group: entry.group.to_owned(),
            version: entry.version.to_owned(),
            kind: entry.kind.to_owned(),
            resource: entry.resource.to_owned(),
            introduced: Some(entry.introduced),
            deprecated: entry.deprecated,
            removed: entry.removed,
            replacement: entry.replacement.map(|r| format!("{}/{}/{}", r.group, r.version, r.kind)),
            enabled_by_default: entry.enabled_by_default,
        }
    }
}

impl ApiConfig {
    /// The declarations of `entries`, in order, with no explicit priorities
    /// or storage overrides: e.g. `ApiConfig::from_entries([CronJobV1beta1::API, CronJobV1::API])`.
    pub fn from_entries(entries: impl IntoIterator<Item = ApiEntry>) -> ApiConfig {
        ApiConfig { apis: entries.into_iter().map(ApiDecl::from).collect(), ..ApiConfig::default() }
    }
}

#[cfg(test)]
mod tests {
    use kompat_runtime::api::typed::{ApiLifecycle, StaticGvk};
    use kompat_runtime::version::Version;

    use super::*;
    use crate::api::ApiSet;

    /// A hand-written impl, as the derive would generate it
    /// (`batch/v1beta1` CronJob, prerelease-lifecycle-gen's tags).
    struct CronJob;

    impl ApiLifecycle for CronJob {
        const API: ApiEntry = ApiEntry {
            group: "batch",
            version: "v1beta1",
            kind: "CronJob",
            resource: "cronjobs",
            introduced: Version::new(1, 8),
            deprecated: Some(Version::new(1, 21)),
            removed: Some(Version::new(1, 25)),
            replacement: Some(StaticGvk { group: "batch", version: "v1", kind: "CronJob" }),
            enabled_by_default: None,
        };
        const INTRODUCED: Version = Version::new(1, 8);
        const DEPRECATED: Option<Version> = Some(Version::new(1, 21));
        const REMOVED: Option<Version> = Some(Version::new(1, 25));
        const REPLACEMENT: Option<StaticGvk> = Some(StaticGvk { group: "batch", version: "v1", kind: "CronJob" });
        const ENABLED_BY_DEFAULT: bool = false;
    }

    #[test]
    fn registry_entry_builds_the_completed_api() {
        let decl = ApiDecl::from(CronJob::API);
        assert_eq!(decl.replacement.as_deref(), Some("batch/v1/CronJob"));
        assert_eq!(decl.introduced, Some(CronJob::INTRODUCED));
        let config = ApiConfig::from_entries([CronJob::API]);
        let set = match ApiSet::build(&config) {
            Ok(set) => set,
            Err(problems) => panic!("{problems:?}"),
        };
        let api = &set.apis()[0];
        assert_eq!(api.gvk, CronJob::group_version_kind());
        assert_eq!(api.lifecycle.deprecated, CronJob::DEPRECATED);
        assert_eq!(api.lifecycle.removed, CronJob::REMOVED);
        assert_eq!(api.replacement, CronJob::REPLACEMENT.map(StaticGvk::to_gvk));
        assert_eq!(api.enabled_by_default, CronJob::ENABLED_BY_DEFAULT);
    }
}
