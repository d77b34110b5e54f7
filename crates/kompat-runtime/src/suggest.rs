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
    known
        .into_iter()
        .filter(|k| *k != unknown)
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
    }
}
