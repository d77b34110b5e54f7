//! Typed API lifecycles: the [`ApiLifecycle`] trait that `#[derive(ApiLifecycle)]`
//! implements for an API type, the static declaration [`ApiEntry`] it carries
//! (the registry entry: the fields of an `[[api]]` TOML entry with `'static`
//! strings), and Kubernetes' deprecation warning.
//!
//! The derive validates the declaration at compile time with the engine's
//! `ApiSet::build` and completes the lifecycle with its `complete_lifecycle`
//! (`kompat-engine`), so the associated constants hold what
//! prerelease-lifecycle-gen's `APILifecycle*` methods would return, usable in
//! `const` context. The engine turns entries into its declarations
//! (`ApiDecl::from(entry)`, `ApiConfig::from_entries`).

use super::names::{GroupVersion, GroupVersionKind};
use crate::version::Version;

/// A group/version/kind made of `'static` strings (`""` is the core group),
/// constructible in `const` context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StaticGvk {
    /// The API group; `""` is the core group.
    pub group: &'static str,
    /// The version, e.g. `v1`.
    pub version: &'static str,
    /// The kind, e.g. `CronJob`.
    pub kind: &'static str,
}

impl StaticGvk {
    /// The owned [`GroupVersionKind`].
    pub fn to_gvk(self) -> GroupVersionKind {
        GroupVersionKind::new(self.group, self.version, self.kind)
    }
}

/// One API version of a kind as declared in source: the fields of an
/// `[[api]]` TOML entry as written, before prerelease-lifecycle-gen's
/// defaults. The engine (`kompat-engine`) builds its declarations from entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ApiEntry {
    /// The API group; `""` is the core group.
    pub group: &'static str,
    /// The version, e.g. `v1beta1`.
    pub version: &'static str,
    /// The kind, e.g. `CronJob`.
    pub kind: &'static str,
    /// The resource (plural, lower case), e.g. `cronjobs`.
    pub resource: &'static str,
    /// `introduced`: the first release that serves this version.
    pub introduced: Version,
    /// `deprecated` as written.
    pub deprecated: Option<Version>,
    /// `removed` as written.
    pub removed: Option<Version>,
    /// `replacement` as written.
    pub replacement: Option<StaticGvk>,
    /// `enabled_by_default` as written.
    pub enabled_by_default: Option<bool>,
}

/// An API version of a kind, declared on its Rust type. Implemented by
/// `#[derive(ApiLifecycle)]`; the constants are checked and completed at
/// compile time.
pub trait ApiLifecycle {
    /// The declaration as written: the registry entry that `kompat gen` and
    /// `kompat lint` read from source, and the engine's
    /// `ApiConfig::from_entries` at run time.
    const API: ApiEntry;
    /// `APILifecycleIntroduced`.
    const INTRODUCED: Version;
    /// `APILifecycleDeprecated`: as written, else introduced + 3 minors for
    /// an alpha or beta version; `None` for a GA version that declares none.
    const DEPRECATED: Option<Version>;
    /// `APILifecycleRemoved`: as written, else deprecated + 3 minors for an
    /// alpha or beta version; `None` for a GA version that declares none.
    const REMOVED: Option<Version>;
    /// `APILifecycleReplacement`.
    const REPLACEMENT: Option<StaticGvk>;
    /// Whether the version is served without `--runtime-config`: as written,
    /// else true for GA versions (`vN`) only.
    const ENABLED_BY_DEFAULT: bool;

    /// The group, version and kind of the type.
    fn group_version_kind() -> GroupVersionKind {
        GroupVersionKind::new(Self::API.group, Self::API.version, Self::API.kind)
    }

    /// `ShouldServeForVersion` of a non-alpha binary: served at `binary` iff
    /// it is not removed by then.
    fn served_at(binary: Version) -> bool {
        Self::REMOVED.is_none_or(|removed| removed > binary)
    }

    /// Kubernetes' `deprecation.IsDeprecated` at the binary version.
    fn is_deprecated_at(binary: Version) -> bool {
        is_deprecated(Self::DEPRECATED, binary)
    }

    /// The `Warning` header kube-apiserver sends for a request to this
    /// version when the binary is at `binary`, if it is deprecated there.
    fn deprecation_warning(binary: Version) -> Option<String> {
        if !Self::is_deprecated_at(binary) {
            return None;
        }
        warning_message(&Self::group_version_kind(), Self::DEPRECATED, Self::REMOVED, Self::REPLACEMENT)
    }
}

/// `deprecation.IsDeprecated`: a non-zero deprecated version at or before
/// the binary version (a binary at 0.0 counts everything deprecated).
pub fn is_deprecated(deprecated: Option<Version>, binary: Version) -> bool {
    match deprecated {
        None => false,
        Some(d) if d == Version::new(0, 0) => false,
        Some(_) if binary == Version::new(0, 0) => true,
        Some(d) => d <= binary,
    }
}

/// `deprecation.WarningMessage`: `"G/V Kind is deprecated in vX.Y+"`, then
/// `", unavailable in vX.Y+"` with a removal, then `"; use G/V Kind"` with a
/// replacement. `None` when nothing is deprecated.
pub fn warning_message(
    gvk: &GroupVersionKind,
    deprecated: Option<Version>,
    removed: Option<Version>,
    replacement: Option<StaticGvk>,
) -> Option<String> {
    let deprecated = deprecated.filter(|d| *d != Version::new(0, 0))?;
    let mut message = format!("{} {} is deprecated in v{deprecated}+", gvk.group_version(), gvk.kind);
    if let Some(removed) = removed.filter(|r| *r != Version::new(0, 0)) {
        message.push_str(&format!(", unavailable in v{removed}+"));
    }
    if let Some(r) = replacement.filter(|r| !(r.group.is_empty() && r.version.is_empty() && r.kind.is_empty())) {
        message.push_str(&format!("; use {} {}", GroupVersion::new(r.group, r.version), r.kind));
    }
    Some(message)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn deprecation_warning_follows_kubernetes() {
        let check = |binary: Version, expected: Option<&str>| {
            assert_eq!(CronJob::deprecation_warning(binary).as_deref(), expected, "at {binary}");
        };
        check(Version::new(1, 20), None);
        let full = "batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob";
        check(Version::new(1, 21), Some(full));
        check(Version::new(1, 24), Some(full));
        check(Version::new(0, 0), Some(full));
    }

    #[test]
    fn warning_message_parts() {
        let gvk = GroupVersionKind::new("", "v1", "ComponentStatus");
        let v = |minor| Some(Version::new(1, minor));
        let check = |deprecated, removed, replacement, expected: Option<&str>| {
            assert_eq!(warning_message(&gvk, deprecated, removed, replacement).as_deref(), expected);
        };
        check(None, v(30), None, None);
        check(Some(Version::new(0, 0)), None, None, None);
        check(v(19), None, None, Some("v1 ComponentStatus is deprecated in v1.19+"));
        check(v(19), Some(Version::new(0, 0)), None, Some("v1 ComponentStatus is deprecated in v1.19+"));
        let pod = StaticGvk { group: "", version: "v1", kind: "Pod" };
        check(
            v(19),
            v(22),
            Some(pod),
            Some("v1 ComponentStatus is deprecated in v1.19+, unavailable in v1.22+; use v1 Pod"),
        );
    }

    #[test]
    fn served_until_removed() {
        assert!(CronJob::served_at(Version::new(1, 24)));
        assert!(!CronJob::served_at(Version::new(1, 25)));
        assert_eq!(CronJob::group_version_kind().to_string(), "batch/v1beta1/CronJob");
    }
}
