//! "Did you mean" hints: the one suggestion helper of the workspace, for gate
//! names (flags, deployment files, [`FeatureGate::enabled_by_name`],
//! dependencies, allowances), lint codes and the keys of every text format.
//!
//! [`FeatureGate::enabled_by_name`]: crate::FeatureGate::enabled_by_name

/// The known name closest to `unknown`, for a "did you mean" hint:
/// Levenshtein distance (strsim's) over lower-cased characters, at most a
/// third of the known name's length and at least 1. Ties go to the name that
/// sorts first, so the hint does not depend on the order of `known`. An exact
/// match is no suggestion.
pub fn did_you_mean<'a, I>(unknown: &str, known: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let folded = unknown.to_lowercase();
    let folded_chars = folded.chars().count();
    known
        .into_iter()
        .filter(|k| *k != unknown)
        // The distance is at least the difference in length: an ASCII name
        // (as long lower-cased) too much longer or shorter is too far, with
        // no distance to compute.
        .filter(|k| !k.is_ascii() || folded_chars.abs_diff(k.len()) <= (k.len() / 3).max(1))
        .map(|k| (strsim::levenshtein(&folded, &k.to_lowercase()), k))
        .filter(|(d, k)| *d <= (k.chars().count() / 3).max(1))
        .min()
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(unknown: &str, known: &[&str], expected: Option<&str>) {
        assert_eq!(did_you_mean(unknown, known.iter().copied()), expected, "{unknown}");
    }

    #[test]
    fn hints() {
        let keys = ["default", "lockToDefault", "preRelease", "version"];
        check("lockTodefault", &keys, Some("lockToDefault"));
        check("verison", &keys, Some("version"));
        check("zzz", &keys, None);
        // The distance allowed grows with the name: a third of its length.
        check("vrsn", &keys, None);
        check("DEFAULT", &keys, Some("default"));
        // Gate names.
        let gates = ["NodeSwap", "KMSv1", "KMSv2", "WatchList"];
        check("NodeSwp", &gates, Some("NodeSwap"));
        check("nodeswap", &gates, Some("NodeSwap"));
        check("WatchLists", &gates, Some("WatchList"));
        // Two at the same distance: the first in byte order, whatever the input order.
        check("KMSv3", &gates, Some("KMSv1"));
        check("KMSv3", &["KMSv2", "KMSv1"], Some("KMSv1"));
        // The name itself is no hint.
        check("KMSv1", &["KMSv1"], None);
        check("x", &[], None);
        // Names of other lengths: within the distance allowed or not.
        check("NodeSwapp", &gates, Some("NodeSwap"));
        check("NodeSwapppp", &gates, None);
        check("Node", &gates, None);
        check("ab", &["abc", "abcd"], Some("abc"));
        check("ÄBC", &["äbcd", "abcd"], Some("äbcd"));
    }
}
