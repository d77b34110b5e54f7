//! `pattern` compared by meaning: the language a pattern matches, for the
//! regular-expression subset Kubernetes' CRD patterns use (ECMA-262 as the
//! API server reads it, RE2 as most are written): literals, character
//! classes (ranges, negation, `\d`, `\w`), `.`, anchors, groups,
//! alternation and quantifiers.
//!
//! Both patterns are read into the same token sequence, each character
//! class (and each literal character, a class of one) as the set of code
//! points it matches. Two patterns with the same tokens except for their
//! classes match the same strings when every class is the same set, and
//! the new one accepts every string the old one did when every class of the
//! new is a superset of the old's (the constructs around them are monotone
//! in their classes); a class that lost characters is a narrowing. Anything else (flags, back-references, Unicode
//! properties, different structure) is not decided here: the caller reports
//! the change with both patterns.

/// The last code point.
const MAX: u32 = 0x10_FFFF;

/// One token: a set of code points (sorted, disjoint, non-adjacent
/// inclusive ranges), or any other construct, compared as text.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Class(Vec<(u32, u32)>),
    Other(String),
}

/// How the new pattern's language relates to the old one's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// The same strings match.
    Same,
    /// Every string the old pattern matched still matches (and more).
    Wider,
    /// The same structure, with a class that no longer holds every
    /// character it held: some strings that matched no longer do.
    Narrower,
    /// Not decided: report the change.
    Unknown,
}

/// Compares two patterns as languages, where this module can decide it.
pub fn compare(old: &str, new: &str) -> Relation {
    if old == new {
        return Relation::Same;
    }
    let (Some(a), Some(b)) = (tokens(old), tokens(new)) else { return Relation::Unknown };
    if a.len() != b.len() {
        return Relation::Unknown;
    }
    let (mut same, mut narrower) = (true, false);
    for (x, y) in a.iter().zip(&b) {
        match (x, y) {
            (Tok::Other(x), Tok::Other(y)) if x == y => {}
            (Tok::Class(x), Tok::Class(y)) if x == y => {}
            (Tok::Class(x), Tok::Class(y)) if contains(y, x) => same = false,
            // A class that lost characters: every string with one of them
            // there matched (the patterns are otherwise alike) and no
            // longer does, when the rest of the pattern can match at all.
            (Tok::Class(_), Tok::Class(_)) => narrower = true,
            _ => return Relation::Unknown,
        }
    }
    match (same, narrower) {
        (_, true) => Relation::Narrower,
        (true, false) => Relation::Same,
        (false, false) => Relation::Wider,
    }
}

/// True when the set `outer` holds every code point of `inner`.
fn contains(outer: &[(u32, u32)], inner: &[(u32, u32)]) -> bool {
    inner.iter().all(|&(lo, hi)| outer.iter().any(|&(a, b)| a <= lo && hi <= b))
}

/// Sorts and merges ranges (overlapping or adjacent) into the canonical set.
fn normalize(mut ranges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    ranges.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
    for (lo, hi) in ranges {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// The complement of a canonical set.
fn complement(set: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut next = 0u32;
    for &(lo, hi) in set {
        if lo > next {
            out.push((next, lo - 1));
        }
        next = hi.saturating_add(1);
    }
    if next <= MAX && set.last().is_none_or(|&(_, hi)| hi < MAX) {
        out.push((next, MAX));
    }
    out
}

const DIGIT: &[(u32, u32)] = &[('0' as u32, '9' as u32)];
const WORD: &[(u32, u32)] =
    &[('0' as u32, '9' as u32), ('A' as u32, 'Z' as u32), ('_' as u32, '_' as u32), ('a' as u32, 'z' as u32)];

/// The set of a shorthand class (`\d`, `\w`, negated `\D`, `\W`), if one
/// this module decides (`\s` differs between RE2 and ECMA-262: not decided).
fn shorthand(c: char) -> Option<Vec<(u32, u32)>> {
    match c {
        'd' => Some(DIGIT.to_vec()),
        'w' => Some(WORD.to_vec()),
        'D' => Some(complement(DIGIT)),
        'W' => Some(complement(WORD)),
        _ => None,
    }
}

/// The character an escape outside a shorthand stands for, if it is a
/// punctuation escape (`\.`, `\-`, `\\`, ...) or a control escape.
fn escaped_char(c: char) -> Option<char> {
    match c {
        'n' => Some('\n'),
        't' => Some('\t'),
        'r' => Some('\r'),
        'f' => Some('\u{c}'),
        'v' => Some('\u{b}'),
        c if c.is_ascii_punctuation() => Some(c),
        _ => None,
    }
}

fn single(c: char) -> Tok {
    Tok::Class(vec![(c as u32, c as u32)])
}

/// The tokens of a pattern, or `None` for a construct not decided here.
fn tokens(pattern: &str) -> Option<Vec<Tok>> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                let e = *chars.get(i + 1)?;
                i += 2;
                if let Some(set) = shorthand(e) {
                    out.push(Tok::Class(set));
                } else if matches!(e, 'b' | 'B' | 's' | 'S') {
                    out.push(Tok::Other(format!("\\{e}")));
                } else {
                    out.push(single(escaped_char(e)?));
                }
                continue;
            }
            '[' => {
                let (set, next) = class(&chars, i)?;
                out.push(Tok::Class(set));
                i = next;
                continue;
            }
            '(' if chars.get(i + 1) == Some(&'?') => return None,
            '{' => {
                // A quantifier `{n}`, `{n,}`, `{n,m}` is one token.
                let end = chars[i..].iter().position(|&c| c == '}').map(|p| i + p);
                if let Some(end) =
                    end.filter(|&e| e > i + 1 && chars[i + 1..e].iter().all(|c| c.is_ascii_digit() || *c == ','))
                {
                    out.push(Tok::Other(chars[i..=end].iter().collect()));
                    i = end + 1;
                    continue;
                }
                out.push(Tok::Other("{".to_owned()));
            }
            '.' | '^' | '$' | '|' | '(' | ')' | '*' | '+' | '?' | '}' | ']' => out.push(Tok::Other(c.to_string())),
            _ => out.push(single(c)),
        }
        i += 1;
    }
    Some(out)
}

/// A bracket class starting at `chars[start] == '['`: its set and the index
/// after its `]`.
fn class(chars: &[char], start: usize) -> Option<(Vec<(u32, u32)>, usize)> {
    let mut i = start + 1;
    let negated = chars.get(i) == Some(&'^');
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    loop {
        let c = *chars.get(i)?;
        if c == ']' && !first {
            i += 1;
            break;
        }
        first = false;
        if c == '[' && chars.get(i + 1) == Some(&':') {
            return None;
        }
        // One member: a character, or a shorthand class.
        let (lo, next) = if c == '\\' {
            let e = *chars.get(i + 1)?;
            if let Some(set) = shorthand(e) {
                ranges.extend(set);
                i += 2;
                continue;
            }
            (escaped_char(e)?, i + 2)
        } else {
            (c, i + 1)
        };
        i = next;
        // A range `lo-hi`, unless `-` ends the class.
        if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&n| n != ']') {
            let h = *chars.get(i + 1)?;
            let (hi, after) = if h == '\\' { (escaped_char(*chars.get(i + 2)?)?, i + 3) } else { (h, i + 2) };
            if hi < lo {
                return None;
            }
            ranges.push((lo as u32, hi as u32));
            i = after;
        } else {
            ranges.push((lo as u32, lo as u32));
        }
    }
    let set = normalize(ranges);
    Some((if negated { complement(&set) } else { set }, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(cases: &[(&str, &str, Relation)]) {
        for &(old, new, want) in cases {
            assert_eq!(compare(old, new), want, "{old:?} -> {new:?}");
        }
    }

    #[test]
    fn same_languages() {
        use Relation::Same;
        check(&[
            ("[-a-zSA-Z0-9]", "[-a-zA-Z0-9]", Same),
            ("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "^[0-9a-z]([a-z0-9-]*[0-9a-z])?$", Same),
            ("^[a-z]+$", "^[a-z]+$", Same),
            ("a", "[a]", Same),
            ("\\d+", "[0-9]+", Same),
            ("[\\w]", "[0-9A-Z_a-z]", Same),
            ("[^a-z]", "[^a-mn-z]", Same),
            ("\\.", "[.]", Same),
            ("x{2,3}", "[x]{2,3}", Same),
            ("[a-cb-d]", "[a-d]", Same),
        ]);
    }

    #[test]
    fn wider_languages() {
        use Relation::Wider;
        check(&[
            ("^[a-z]+$", "^[a-zA-Z]+$", Wider),
            ("[a-z0-9]", "[-a-z0-9.]", Wider),
            ("[^a-z]", "[^a-m]", Wider),
            ("a", "[ab]", Wider),
            ("\\d", "\\w", Wider),
        ]);
    }

    #[test]
    fn narrower_languages() {
        use Relation::Narrower;
        check(&[("^[a-zA-Z]+$", "^[a-z]+$", Narrower), ("[a-z]", "[^a-z]", Narrower), ("\\w", "\\d", Narrower)]);
    }

    #[test]
    fn not_decided() {
        use Relation::Unknown;
        check(&[
            ("^[a-z]+$", "^[a-z]*$", Unknown),
            ("^[a-z]+$", "^[a-z]{1,63}$", Unknown),
            ("(?i)a", "(?i)[ab]", Unknown),
            ("[[:alpha:]]", "[a-zA-Z]", Unknown),
            ("\\p{L}", "[a-z]", Unknown),
            ("[z-a]", "[a-z]", Unknown),
            ("[a-z", "[a-z]", Unknown),
            ("\\", "a", Unknown),
            ("\\s", "[ ]", Unknown),
        ]);
    }

    #[test]
    fn sets() {
        assert_eq!(normalize(vec![(5, 9), (1, 3), (4, 4), (20, 30)]), vec![(1, 9), (20, 30)]);
        assert_eq!(complement(&[(0, 9)]), vec![(10, MAX)]);
        assert_eq!(complement(&[(10, MAX)]), vec![(0, 9)]);
        assert_eq!(complement(&complement(&[(3, 7), (20, 20)])), vec![(3, 7), (20, 20)]);
    }
}
