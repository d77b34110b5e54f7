//! `MAJOR.MINOR` versions with numeric ordering, and version literals as written
//! in declarations (which may carry a patch component that validation rejects).

use std::fmt;

/// A `MAJOR.MINOR` version. Ordering is numeric per component, so `0.10 > 0.5`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// The major version.
    pub major: u32,
    /// The minor version.
    pub minor: u32,
}

/// Why a version string was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionError {
    /// The rejected input, as given.
    pub input: String,
    /// Why it was rejected, e.g. `expected MAJOR.MINOR`.
    pub reason: &'static str,
}

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid version {:?}: {}", self.input, self.reason)
    }
}

impl std::error::Error for VersionError {}

impl Version {
    /// The version `major.minor`.
    pub const fn new(major: u32, minor: u32) -> Version {
        Version { major, minor }
    }

    /// Parses a strict `MAJOR.MINOR` string, as used in declarations.
    pub fn parse(input: &str) -> Result<Version, VersionError> {
        let lit = VersionLit::parse(input)?;
        match lit.as_major_minor() {
            Some(v) => Ok(v),
            None => Err(VersionError { input: input.to_owned(), reason: "expected MAJOR.MINOR" }),
        }
    }

    /// Parses a version given on a command line the way Kubernetes' version
    /// flags do: an optional `v` prefix and a `.0` patch are accepted, any other
    /// patch is rejected.
    pub fn parse_flag(input: &str) -> Result<Version, VersionError> {
        let trimmed = input.trim();
        let body = trimmed.strip_prefix('v').unwrap_or(trimmed);
        let lit =
            VersionLit::parse(body).map_err(|err| VersionError { input: input.to_owned(), reason: err.reason })?;
        match lit.components() {
            [major, minor] | [major, minor, 0] => Ok(Version::new(*major, *minor)),
            [_, _, _] => Err(VersionError { input: input.to_owned(), reason: "patch version not allowed" }),
            _ => Err(VersionError { input: input.to_owned(), reason: "expected MAJOR.MINOR" }),
        }
    }

    /// `SubtractMinor`: keeps the major, floors the minor at 0.
    pub fn subtract_minor(self, n: u32) -> Version {
        Version::new(self.major, self.minor.saturating_sub(n))
    }

    /// `AddMinor`: keeps the major.
    pub fn add_minor(self, n: u32) -> Version {
        Version::new(self.major, self.minor.saturating_add(n))
    }

    /// Every version from `self` to `last` inclusive, stepping minors within a
    /// major (a window never crosses a major version).
    pub fn range_to(self, last: Version) -> impl Iterator<Item = Version> {
        let major = self.major;
        let end = if last.major == major { Some(last.minor) } else { None };
        let start = self.minor;
        (start..=end.unwrap_or(start)).filter(move |_| end.is_some()).map(move |minor| Version::new(major, minor))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl std::str::FromStr for Version {
    type Err = VersionError;

    fn from_str(s: &str) -> Result<Version, VersionError> {
        Version::parse(s)
    }
}

/// An upgrade path of Kubernetes releases, `A..B`: every minor from `first`
/// to `last` inclusive, within one major. `A..A` is one step; a single
/// version `V` is the path `V..V`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VersionRange {
    first: Version,
    last: Version,
}

impl VersionRange {
    /// The most minors [`VersionRange::parse_with`] accepts in a path: every
    /// step is a lint run (and a render of every chart), so a path such as
    /// `1.0..1.4000000000` would take unbounded time and memory. Kubernetes
    /// has had fewer than 40 minors.
    pub const MAX_STEPS: u32 = 100;

    /// The path from `first` to `last`; `None` when `last` comes before
    /// `first` or the majors differ.
    pub fn new(first: Version, last: Version) -> Option<VersionRange> {
        (first.major == last.major && first <= last).then_some(VersionRange { first, last })
    }

    /// The one-step path `v..v`.
    pub const fn single(v: Version) -> VersionRange {
        VersionRange { first: v, last: v }
    }

    /// Parses `A..B` or a single `V` with `parse` for each side
    /// ([`Version::parse`] for files, [`Version::parse_flag`] for command
    /// lines). Errors name the whole input.
    pub fn parse_with(
        input: &str,
        parse: impl Fn(&str) -> Result<Version, VersionError>,
    ) -> Result<VersionRange, VersionError> {
        let error = |reason| VersionError { input: input.to_owned(), reason };
        let Some((a, b)) = input.trim().split_once("..") else {
            return parse(input).map(VersionRange::single);
        };
        let side = |text: &str| {
            if text.trim().is_empty() {
                return Err(error("expected A..B, two MAJOR.MINOR versions"));
            }
            parse(text).map_err(|err| error(err.reason))
        };
        let (first, last) = (side(a)?, side(b)?);
        if first.major != last.major {
            return Err(error("an upgrade path stays within one major version"));
        }
        let range = VersionRange::new(first, last).ok_or_else(|| error("the first version is newer than the last"))?;
        if last.minor - first.minor >= VersionRange::MAX_STEPS {
            return Err(error("an upgrade path spans at most 100 minor releases"));
        }
        Ok(range)
    }

    /// The oldest release of the path.
    pub fn first(self) -> Version {
        self.first
    }

    /// The newest release of the path: the upgrade's target.
    pub fn last(self) -> Version {
        self.last
    }

    /// Whether the path is one release.
    pub fn is_single(self) -> bool {
        self.first == self.last
    }

    /// Every release of the path, oldest first.
    pub fn steps(self) -> impl Iterator<Item = Version> {
        self.first.range_to(self.last)
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_single() {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}..{}", self.first, self.last)
        }
    }
}

/// A version literal as written in a declaration: dot-separated numeric
/// components, at least two. Validation rejects any literal that is not
/// exactly `MAJOR.MINOR` with the Kubernetes message.
///
/// **Invariant:** at least two components, so [`VersionLit::major_minor`]
/// always exists; built only by [`VersionLit::parse`] and from a [`Version`].
/// Up to `INLINE` (3) components are kept in place, without an allocation
/// (every spec of a declaration has one or two literals; issue 18); longer
/// literals in `more`. Equality, hashing and `Debug` are those of the
/// components.
#[derive(Clone)]
pub struct VersionLit {
    /// The components when there are at most [`INLINE`] (unused slots 0).
    inline: [u32; INLINE],
    /// How many of `inline` are used; 0 when the components are in `more`.
    len: u8,
    /// The components when there are more than [`INLINE`].
    more: Vec<u32>,
}

/// How many components a [`VersionLit`] keeps without an allocation.
const INLINE: usize = 3;

impl PartialEq for VersionLit {
    fn eq(&self, other: &VersionLit) -> bool {
        self.components() == other.components()
    }
}

impl Eq for VersionLit {}

impl std::hash::Hash for VersionLit {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.components().hash(state);
    }
}

impl fmt::Debug for VersionLit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VersionLit").field("components", &self.components()).finish()
    }
}

impl VersionLit {
    /// Parses dot-separated non-negative integers without leading zeros, at
    /// least two of them.
    pub fn parse(input: &str) -> Result<VersionLit, VersionError> {
        let err = |reason| VersionError { input: input.to_owned(), reason };
        if input.is_empty() {
            return Err(err("empty version"));
        }
        let mut components: Vec<u32> = Vec::new();
        let mut inline = [0; INLINE];
        let mut len = 0;
        for part in input.split('.') {
            if part.is_empty() {
                return Err(err("empty version component"));
            }
            if !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err("version components must be non-negative integers"));
            }
            if part.len() > 1 && part.starts_with('0') {
                return Err(err("version components must not have leading zeros"));
            }
            let value: u32 = part.parse().map_err(|_| err("version component out of range"))?;
            if len < INLINE && components.is_empty() {
                inline[len] = value;
                len += 1;
            } else {
                if components.is_empty() {
                    components.extend_from_slice(&inline[..len]);
                }
                components.push(value);
            }
        }
        if components.is_empty() && len < 2 {
            return Err(err("expected MAJOR.MINOR"));
        }
        if components.is_empty() {
            Ok(VersionLit { inline, len: len as u8, more: Vec::new() })
        } else {
            Ok(VersionLit { inline: [0; INLINE], len: 0, more: components })
        }
    }

    /// The components as written, at least two.
    pub fn components(&self) -> &[u32] {
        match self.len {
            0 => &self.more,
            len => &self.inline[..usize::from(len)],
        }
    }

    /// The version, if the literal is exactly `MAJOR.MINOR`.
    pub fn as_major_minor(&self) -> Option<Version> {
        match self.components() {
            [major, minor] => Some(Version::new(*major, *minor)),
            _ => None,
        }
    }

    /// The numeric `MAJOR.MINOR` part, ignoring any further component (used for
    /// ordering comparisons, which Kubernetes makes on all components).
    pub fn major_minor(&self) -> Version {
        match self.components() {
            [major, minor, ..] => Version::new(*major, *minor),
            // Unreachable: every constructor keeps at least two components.
            [major] => Version::new(*major, 0),
            [] => Version::new(0, 0),
        }
    }
}

impl From<Version> for VersionLit {
    fn from(v: Version) -> VersionLit {
        VersionLit { inline: [v.major, v.minor, 0], len: 2, more: Vec::new() }
    }
}

impl fmt::Display for VersionLit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (idx, c) in self.components().iter().enumerate() {
            if idx > 0 {
                f.write_str(".")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl PartialOrd for VersionLit {
    fn partial_cmp(&self, other: &VersionLit) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for VersionLit {
    /// Component-wise numeric comparison; missing components count as 0, so
    /// `1.4 == 1.4.0`, as in apimachinery's `util/version`.
    fn cmp(&self, other: &VersionLit) -> std::cmp::Ordering {
        let (mine, theirs) = (self.components(), other.components());
        let n = mine.len().max(theirs.len());
        for idx in 0..n {
            let a = mine.get(idx).copied().unwrap_or(0);
            let b = theirs.get(idx).copied().unwrap_or(0);
            match a.cmp(&b) {
                std::cmp::Ordering::Equal => (),
                ord => return ord,
            }
        }
        std::cmp::Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(input: &str, expected: Result<(u32, u32), &str>) {
        let got = Version::parse(input).map(|v| (v.major, v.minor));
        let got = got.map_err(|e| e.to_string());
        assert_eq!(got, expected.map_err(|s| s.to_owned()), "input {input:?}");
    }

    #[test]
    fn parses_major_minor() {
        check("1.31", Ok((1, 31)));
        check("0.10", Ok((0, 10)));
        check("0.0", Ok((0, 0)));
        check("1", Err("invalid version \"1\": expected MAJOR.MINOR"));
        check("1.31.2", Err("invalid version \"1.31.2\": expected MAJOR.MINOR"));
        check("1.x", Err("invalid version \"1.x\": version components must be non-negative integers"));
        check("", Err("invalid version \"\": empty version"));
        check("1.", Err("invalid version \"1.\": empty version component"));
        check("1.031", Err("invalid version \"1.031\": version components must not have leading zeros"));
        check("1.99999999999", Err("invalid version \"1.99999999999\": version component out of range"));
        check("-1.2", Err("invalid version \"-1.2\": version components must be non-negative integers"));
    }

    #[test]
    fn orders_numerically() {
        let v = |s| Version::parse(s).unwrap();
        assert!(v("0.10") > v("0.5"));
        assert!(v("1.9") < v("1.10"));
        assert!(v("2.0") > v("1.99"));
        let mut all = [v("1.10"), v("0.5"), v("1.2"), v("0.10")];
        all.sort();
        let printed: Vec<String> = all.iter().map(|v| v.to_string()).collect();
        assert_eq!(printed, ["0.5", "0.10", "1.2", "1.10"]);
    }

    #[test]
    fn flag_versions() {
        let p = |s| Version::parse_flag(s).map(|v| v.to_string()).map_err(|e| e.to_string());
        assert_eq!(p("v1.31"), Ok("1.31".to_owned()));
        assert_eq!(p("1.31.0"), Ok("1.31".to_owned()));
        assert_eq!(p("1.31.2"), Err("invalid version \"1.31.2\": patch version not allowed".to_owned()));
        assert_eq!(p("1.31.2.1"), Err("invalid version \"1.31.2.1\": expected MAJOR.MINOR".to_owned()));
    }

    #[test]
    fn minor_arithmetic() {
        let v = Version::new(1, 2);
        assert_eq!(v.subtract_minor(3), Version::new(1, 0));
        assert_eq!(v.subtract_minor(1), Version::new(1, 1));
        assert_eq!(v.add_minor(3), Version::new(1, 5));
        let window: Vec<String> = Version::new(1, 31).range_to(Version::new(1, 34)).map(|v| v.to_string()).collect();
        assert_eq!(window, ["1.31", "1.32", "1.33", "1.34"]);
        assert_eq!(Version::new(1, 3).range_to(Version::new(2, 0)).count(), 0);
    }

    #[test]
    fn literal_comparison_pads_with_zero() {
        let l = |s| VersionLit::parse(s).unwrap();
        assert_eq!(l("1.4").cmp(&l("1.4.0")), std::cmp::Ordering::Equal);
        assert!(l("1.4.1") > l("1.4"));
        assert_eq!(l("1.31.2").to_string(), "1.31.2");
        assert_eq!(l("1.31.2").components(), [1, 31, 2]);
        assert_eq!(l("1.31.2").major_minor(), Version::new(1, 31));
        assert_eq!(VersionLit::from(Version::new(0, 7)).components(), [0, 7]);
    }

    /// Literals of every length read back as written, whether their
    /// components are kept in place or not, and compare, hash and debug-print
    /// by their components alone.
    #[test]
    fn literals_of_every_length() {
        use std::collections::hash_map::DefaultHasher;
        use std::hash::{Hash, Hasher};
        let hash = |lit: &VersionLit| {
            let mut hasher = DefaultHasher::new();
            lit.hash(&mut hasher);
            hasher.finish()
        };
        let cases: [(&str, &[u32]); 6] = [
            ("1.31", &[1, 31]),
            ("0.0", &[0, 0]),
            ("1.31.2", &[1, 31, 2]),
            ("1.31.2.7", &[1, 31, 2, 7]),
            ("4294967295.1.2.3.4", &[4_294_967_295, 1, 2, 3, 4]),
            ("10.20.30.40.50.60", &[10, 20, 30, 40, 50, 60]),
        ];
        for (text, components) in cases {
            let lit = VersionLit::parse(text).unwrap();
            assert_eq!(lit.components(), components, "{text}");
            assert_eq!(lit.to_string(), text);
            assert_eq!(format!("{lit:?}"), format!("VersionLit {{ components: {components:?} }}"));
            let copy = lit.clone();
            assert_eq!(copy, lit);
            assert_eq!(hash(&copy), hash(&lit));
            assert_eq!(hash(&lit), {
                let mut hasher = DefaultHasher::new();
                components.to_vec().hash(&mut hasher);
                hasher.finish()
            });
        }
        assert_ne!(VersionLit::parse("1.2.3").unwrap(), VersionLit::parse("1.2.3.0").unwrap());
        assert_eq!(VersionLit::from(Version::new(1, 2)), VersionLit::parse("1.2").unwrap());
        assert!(VersionLit::parse("7").is_err());
    }
    /// A range as written, with its steps or the error's text.
    #[track_caller]
    fn check_range(input: &str, flag: bool, expected: Result<&[&str], &str>) {
        let parse = if flag { Version::parse_flag } else { Version::parse };
        let got = VersionRange::parse_with(input, parse)
            .map(|r| r.steps().map(|v| v.to_string()).collect::<Vec<_>>())
            .map_err(|e| e.to_string());
        let expected = expected.map(|s| s.iter().map(|v| (*v).to_owned()).collect()).map_err(str::to_owned);
        assert_eq!(got, expected, "input {input:?}");
    }

    #[test]
    fn ranges() {
        check_range("1.30..1.34", false, Ok(&["1.30", "1.31", "1.32", "1.33", "1.34"]));
        check_range("1.30..1.30", false, Ok(&["1.30"]));
        check_range("1.30", false, Ok(&["1.30"]));
        check_range(" 1.30..1.31 ", true, Ok(&["1.30", "1.31"]));
        check_range("v1.30..v1.31.0", true, Ok(&["1.30", "1.31"]));
        check_range(
            "v1.30..1.31",
            false,
            Err("invalid version \"v1.30..1.31\": version components must be non-negative integers"),
        );
        check_range(
            "1.34..1.30",
            false,
            Err("invalid version \"1.34..1.30\": the first version is newer than the last"),
        );
        check_range(
            "1.30..2.1",
            false,
            Err("invalid version \"1.30..2.1\": an upgrade path stays within one major version"),
        );
        check_range(
            "1.0..1.4294967295",
            false,
            Err("invalid version \"1.0..1.4294967295\": an upgrade path spans at most 100 minor releases"),
        );
        check_range(
            "1.0..1.100",
            true,
            Err("invalid version \"1.0..1.100\": an upgrade path spans at most 100 minor releases"),
        );
        assert_eq!(VersionRange::parse_with("1.0..1.99", Version::parse).map(|r| r.steps().count()), Ok(100));
        check_range("1.30..", false, Err("invalid version \"1.30..\": expected A..B, two MAJOR.MINOR versions"));
        check_range("..1.30", true, Err("invalid version \"..1.30\": expected A..B, two MAJOR.MINOR versions"));
        check_range("1.30...1.31", false, Err("invalid version \"1.30...1.31\": empty version component"));
        check_range("1.30..1.31.2", true, Err("invalid version \"1.30..1.31.2\": patch version not allowed"));
        check_range(
            "1.30..1.x",
            false,
            Err("invalid version \"1.30..1.x\": version components must be non-negative integers"),
        );
        let range = VersionRange::parse_with("1.30..1.34", Version::parse).unwrap();
        assert_eq!((range.first(), range.last()), (Version::new(1, 30), Version::new(1, 34)));
        assert_eq!(range.to_string(), "1.30..1.34");
        assert_eq!(VersionRange::single(Version::new(1, 30)).to_string(), "1.30");
        assert!(VersionRange::new(Version::new(1, 31), Version::new(1, 30)).is_none());
    }
}
