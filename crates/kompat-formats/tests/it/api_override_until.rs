//! Storage overrides with an expiry: `"g/r" = { version = "v1", until = "1.38" }`.

use kompat_formats::parse_toml;
use kompat_span::LineIndex;

/// Parses `overrides` (the body of `[storage_overrides]`) and prints the pins
/// with their expiry, or the located errors.
#[track_caller]
fn check(overrides: &str, expected: &str) {
    let text = format!("[storage_overrides]\n{overrides}");
    let got = match parse_toml(&text).map(|file| file.apis) {
        Ok(file) => file
            .config()
            .storage_overrides
            .iter()
            .map(|(k, v)| {
                let until =
                    file.config().storage_override_until.get(k).map_or_else(|| "-".to_owned(), |u| u.to_string());
                format!("{k}={v} until {until}")
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Err(errors) => {
            let index = LineIndex::new(&text);
            errors
                .iter()
                .map(|e| {
                    let (line, col) = e.span.map_or((0, 0), |s| index.line_col(s.start));
                    format!("{line}:{col}: {}", e.message)
                })
                .collect::<Vec<_>>()
                .join("\n")
        }
    };
    assert_eq!(got, expected);
}

#[test]
fn pins_with_and_without_expiry() {
    check("\"g/r\" = \"v1\"\n", "g/r=v1 until -");
    check("\"g/r\" = { version = \"v1\", until = \"1.38\" }\n", "g/r=v1 until 1.38");
    check("\"g/r\" = { version = \"v1\" }\n", "g/r=v1 until -");
}

#[test]
fn malformed_pins() {
    check("\"g/r\" = { until = \"1.38\" }\n", "2:9: missing `version` in storage_overrides.\"g/r\"");
    check(
        "\"g/r\" = { version = \"v1\", until = \"soon\" }\n",
        "2:35: invalid version \"soon\": version components must be non-negative integers",
    );
    check(
        "\"g/r\" = { version = \"v1\", untl = \"1.38\" }\n",
        "2:27: unknown key `untl`, expected one of `version`, `until` (did you mean `until`?)",
    );
}
