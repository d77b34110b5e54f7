//! Go formatting conventions that Kubernetes messages depend on.

/// Go's `%q` / `strconv.Quote` for the strings kompat quotes (names, flag
/// values): double quotes, with `"` and `\` escaped and control characters
/// written as escapes.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `utilerrors.NewAggregate(errs).Error()`: one message alone, several as
/// `[a, b]`.
pub fn go_aggregate(messages: &[String]) -> String {
    match messages {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_like_go() {
        let cases = [
            ("WatchList", "\"WatchList\""),
            ("a\"b", "\"a\\\"b\""),
            ("back\\slash", "\"back\\\\slash\""),
            ("tab\there", "\"tab\\there\""),
            ("\u{1}", "\"\\x01\""),
            ("", "\"\""),
        ];
        for (input, expected) in cases {
            assert_eq!(go_quote(input), expected, "input {input:?}");
        }
    }

    #[test]
    fn aggregates_like_go() {
        assert_eq!(go_aggregate(&["a".to_owned()]), "a");
        assert_eq!(go_aggregate(&["a".to_owned(), "b".to_owned()]), "[a, b]");
    }
}
