//! Kubernetes' API version strings: the GA / beta / alpha patterns and
//! `CompareKubeAwareVersionStrings` (apimachinery `util/version`), the order
//! in which versions of a group are preferred.

use std::cmp::Ordering;

/// `^v\d+$`: a GA version (also prerelease-lifecycle-gen's `isGA`).
pub fn is_ga(version: &str) -> bool {
    split_v(version).is_some_and(|rest| digits(rest).is_some_and(|d| d.len() == rest.len()))
}

/// `^v\d+beta\d+$`.
pub fn is_beta(version: &str) -> bool {
    matches!(parse_kube(version), Some((_, Stability::Beta, _)))
}

/// `^v\d+alpha\d+$` (the `resourceconfig` / `deleted_kinds.go` pattern; the
/// storage-version choice instead tests for the substring `alpha`).
pub fn is_alpha(version: &str) -> bool {
    matches!(parse_kube(version), Some((_, Stability::Alpha, _)))
}

/// The stability level a Kubernetes version name states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stability {
    Alpha,
    Beta,
    Ga,
}

/// A Kubernetes version name, `v<major>[alpha|beta<minor>]`, as
/// `parseKubeVersion` reads it. Ordered as versions are released: by major,
/// then alpha < beta < GA, then minor (`v1alpha1 < v1beta1 < v1 < v2alpha1`);
/// [`compare_kube_aware`] is the other order, the one of preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KubeVersion {
    pub major: i64,
    pub stability: Stability,
    /// 0 for a GA version.
    pub minor: i64,
}

impl KubeVersion {
    /// `parseKubeVersion`; `None` for a name that is not a Kubernetes version.
    pub fn parse(name: &str) -> Option<KubeVersion> {
        let (major, stability, minor) = parse_kube(name)?;
        Some(KubeVersion { major, stability, minor })
    }
}

fn split_v(version: &str) -> Option<&str> {
    version.strip_prefix('v')
}

/// The leading ASCII digits of `s`, if there is at least one.
fn digits(s: &str) -> Option<&str> {
    let end = s.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(s.len());
    (end > 0).then(|| &s[..end])
}

/// `parseKubeVersion`: `^v(\d+)(?:(alpha|beta)(\d+))?$`, with the numbers
/// parsed as Go `int`s (an overflowing number makes the string non-matching).
fn parse_kube(version: &str) -> Option<(i64, Stability, i64)> {
    let rest = split_v(version)?;
    let major_digits = digits(rest)?;
    let major: i64 = major_digits.parse().ok()?;
    let rest = &rest[major_digits.len()..];
    if rest.is_empty() {
        return Some((major, Stability::Ga, 0));
    }
    let (stability, rest) = if let Some(r) = rest.strip_prefix("alpha") {
        (Stability::Alpha, r)
    } else if let Some(r) = rest.strip_prefix("beta") {
        (Stability::Beta, r)
    } else {
        return None;
    };
    let minor_digits = digits(rest)?;
    if minor_digits.len() != rest.len() {
        return None;
    }
    let minor: i64 = minor_digits.parse().ok()?;
    Some((major, stability, minor))
}

/// `CompareKubeAwareVersionStrings(a, b)`: `Greater` when `a` is preferred.
/// GA > beta > alpha, then the higher major, then the higher minor; strings
/// that are not Kubernetes versions rank below all that are, and among
/// themselves in reverse byte order (so a descending sort lists them
/// lexically).
pub fn compare_kube_aware(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    match (parse_kube(a), parse_kube(b)) {
        (None, None) => b.cmp(a),
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some((amaj, atype, amin)), Some((bmaj, btype, bmin))) => {
            atype.cmp(&btype).then(amaj.cmp(&bmaj)).then(amin.cmp(&bmin))
        }
    }
}

/// Sorts versions most preferred first (`v2, v1, v1beta2, v1beta1, v1alpha1`).
pub fn sort_kube_aware<S: AsRef<str>>(versions: &mut [S]) {
    versions.sort_by(|a, b| compare_kube_aware(b.as_ref(), a.as_ref()));
}
