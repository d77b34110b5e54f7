//! Kubernetes' kube-aware ordering of version names (`v1alpha1` < `v1beta1`
//! < `v1` < `v2alpha1` < `v2`), used to tell the older of two versions.

use std::cmp::Ordering;

/// `(major, stage, minor)` for a kube-like version name: stage 0 alpha,
/// 1 beta, 2 GA.
fn parse(name: &str) -> Option<(u64, u8, u64)> {
    let rest = name.strip_prefix('v')?;
    let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let major: u64 = rest[..digits].parse().ok()?;
    if major == 0 {
        return None;
    }
    let rest = &rest[digits..];
    if rest.is_empty() {
        return Some((major, 2, 0));
    }
    let (stage, minor) = if let Some(m) = rest.strip_prefix("alpha") {
        (0, m)
    } else if let Some(m) = rest.strip_prefix("beta") {
        (1, m)
    } else {
        return None;
    };
    if minor.is_empty() || !minor.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((major, stage, minor.parse().ok()?))
}

/// Orders version names oldest (least stable) first: kube-like names by
/// major, then alpha < beta < GA, then minor; every other name sorts before
/// them, by bytes.
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    match (parse(a), parse(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => a.cmp(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order() {
        let mut names =
            ["v2", "foo", "v1", "v10beta3", "v1beta1", "v11alpha2", "v1alpha1", "v2beta1", "v1beta2", "bar"];
        names.sort_by(|a, b| compare_versions(a, b));
        assert_eq!(
            names,
            ["bar", "foo", "v1alpha1", "v1beta1", "v1beta2", "v1", "v2beta1", "v2", "v10beta3", "v11alpha2"]
        );
    }
}
