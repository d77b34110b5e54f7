//! The `[window]` table that kompat.toml and upgrade plan files share:
//! a profile (`kubernetes` or `default`), optionally with the skew and the
//! floor overridden.

use kompat_runtime::{Version, WindowPolicy};
use serde::Deserialize;
use toml::Spanned;

use crate::span::ParseError;

/// `[window]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WindowTable {
    profile: Option<Spanned<String>>,
    skew: Option<u32>,
    floor: Option<Spanned<String>>,
}

impl WindowTable {
    /// Whether the table names the Kubernetes profile (`profile =
    /// "kubernetes"`): the project's versions are Kubernetes'.
    pub fn is_kubernetes_profile(&self) -> bool {
        self.profile.as_ref().is_some_and(|p| p.get_ref() == "kubernetes")
    }

    /// The policy the table describes, starting from the default profile;
    /// every problem located at its value.
    pub fn policy(&self) -> Result<WindowPolicy, Vec<ParseError>> {
        let mut errors = Vec::new();
        let mut window = WindowPolicy::DEFAULT;
        if let Some(profile) = &self.profile {
            match profile.get_ref().as_str() {
                "kubernetes" => window = WindowPolicy::KUBERNETES,
                "default" => window = WindowPolicy::DEFAULT,
                other => {
                    let hint = kompat_runtime::suggest::did_you_mean(other, ["kubernetes", "default"])
                        .map(|h| format!(" (did you mean `{h}`?)"))
                        .unwrap_or_default();
                    errors.push(ParseError::at(
                        profile.span().into(),
                        format!("unknown window profile `{other}`, expected `kubernetes` or `default`{hint}"),
                    ))
                }
            }
        }
        if let Some(skew) = self.skew {
            window.skew = skew;
        }
        if let Some(floor) = &self.floor {
            match Version::parse(floor.get_ref()) {
                Ok(version) => window.floor = Some(version),
                Err(err) => errors.push(ParseError::at(floor.span().into(), err.to_string())),
            }
        }
        if errors.is_empty() {
            Ok(window)
        } else {
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[window]` text to its policy as `skew/floor`, or its errors as
    /// `start..end: message`.
    #[track_caller]
    fn check(text: &str, expected: &str) {
        let table: WindowTable = toml::from_str(text).unwrap_or_else(|err| panic!("{err}"));
        let got = match table.policy() {
            Ok(w) => format!("{}/{}", w.skew, w.floor.map_or("-".to_owned(), |f| f.to_string())),
            Err(errors) => errors
                .iter()
                .map(|e| format!("{:?}: {}", e.span.map(|s| s.start..s.end), e.message))
                .collect::<Vec<_>>()
                .join("\n"),
        };
        assert_eq!(got, expected, "{text}");
    }

    #[test]
    fn profiles_and_overrides() {
        check("", "3/-");
        check("profile = \"default\"", "3/-");
        check("profile = \"kubernetes\"", "3/1.31");
        check("profile = \"kubernetes\"\nskew = 2\nfloor = \"1.30\"", "2/1.30");
        check(
            "profile = \"k8s\"\nfloor = \"one\"",
            "Some(10..15): unknown window profile `k8s`, expected `kubernetes` or `default`\nSome(24..29): invalid version \"one\": version components must be non-negative integers",
        );
        check(
            "profile = \"kubernets\"",
            "Some(10..21): unknown window profile `kubernets`, expected `kubernetes` or `default` (did you mean `kubernetes`?)",
        );
    }
}
