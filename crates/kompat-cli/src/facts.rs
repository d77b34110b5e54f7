//! What a project's own files say about it: its version (Cargo.toml, a Go
//! `version.go`, a `VERSION` file, a Makefile, Chart.yaml, its release
//! tags), the Kubernetes version it is built against (go.mod's `k8s.io/*`
//! modules, k8s-openapi's feature, a kind node image) and its names (the Go
//! module, the Cargo package, a chart).
//!
//! Text in, values out: `kompat init` and `kompat lint` read the files and
//! hand their text here.

use kompat_runtime::Version;

/// A version found in a file, and what it was written as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// MAJOR.MINOR.
    pub version: Version,
    /// The text it was read from (`v0.13.0`, `v1_33`).
    pub written: String,
}

/// `v1.8.0`, `1.8`, `0.13.0-rc.1` as MAJOR.MINOR; `None` for anything else,
/// and for the `0.0.0` placeholders projects build with when no tag is at
/// hand (`v0.0.0-main`).
pub fn release_version(text: &str) -> Option<Found> {
    let text = text.trim().trim_matches(['"', '\'']);
    let bare = text.strip_prefix('v').unwrap_or(text);
    let core = bare.split(['-', '+']).next()?;
    let mut parts = core.split('.');
    let major: u32 = number(parts.next()?)?;
    let minor: u32 = number(parts.next()?)?;
    if let Some(patch) = parts.next() {
        number(patch)?;
    }
    // `0.0.x` is a development placeholder (`0.0.1-dev`), and so is a
    // version of 99 (Argo CD's `99.99.99`).
    if parts.next().is_some() || (major, minor) == (0, 0) || major >= 99 || minor >= 99 {
        return None;
    }
    Some(Found { version: Version::new(major, minor), written: text.to_owned() })
}

fn number(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A Cargo manifest's version: `[package] version`, or the workspace's
/// (`[workspace.package] version`, which `version.workspace = true` names).
pub fn cargo_version(text: &str) -> Option<Found> {
    let doc: toml::Table = text.parse().ok()?;
    let package = doc.get("package").and_then(|p| p.get("version")).and_then(toml::Value::as_str);
    let workspace = doc
        .get("workspace")
        .and_then(|w| w.get("package"))
        .and_then(|p| p.get("version"))
        .and_then(toml::Value::as_str);
    package.or(workspace).and_then(release_version)
}

/// A Cargo manifest's package name.
pub fn cargo_package_name(text: &str) -> Option<String> {
    let doc: toml::Table = text.parse().ok()?;
    doc.get("package")?.get("name")?.as_str().map(str::to_owned)
}

/// The newest Kubernetes version each k8s-openapi release supports (its
/// `latest` feature), from k8s-openapi's changelog.
const K8S_OPENAPI_LATEST: [(u32, Version); 6] = [
    (20, Version::new(1, 28)),
    (21, Version::new(1, 29)),
    (22, Version::new(1, 30)),
    (23, Version::new(1, 31)),
    (24, Version::new(1, 32)),
    (25, Version::new(1, 33)),
];

/// The Kubernetes version a Cargo manifest builds k8s-openapi for: its
/// `v1_NN` feature, or for `latest` the newest its version supports (`None`
/// when kompat does not know that release).
pub fn cargo_kubernetes(text: &str) -> Option<Found> {
    let doc: toml::Table = text.parse().ok()?;
    let tables = [
        doc.get("dependencies"),
        doc.get("workspace").and_then(|w| w.get("dependencies")),
        doc.get("dev-dependencies"),
    ];
    let dep = tables.into_iter().flatten().find_map(|t| t.get("k8s-openapi"))?;
    let features: Vec<&str> = dep
        .get("features")
        .and_then(toml::Value::as_array)
        .map(|a| a.iter().filter_map(toml::Value::as_str).collect())
        .unwrap_or_default();
    if let Some(feature) = features.iter().find(|f| f.starts_with("v1_")) {
        let minor = number(&feature[3..])?;
        return Some(Found { version: Version::new(1, minor), written: format!("k8s-openapi feature `{feature}`") });
    }
    if features.contains(&"latest") {
        let version = dep.as_str().or_else(|| dep.get("version").and_then(toml::Value::as_str))?;
        let version = version.trim_start_matches(['^', '=', '~', ' ']);
        let mut parts = version.split('.');
        let (major, minor) = (number(parts.next()?)?, number(parts.next()?)?);
        let (_, kubernetes) = K8S_OPENAPI_LATEST.iter().find(|(m, _)| major == 0 && *m == minor)?;
        return Some(Found { version: *kubernetes, written: format!("k8s-openapi {version} with feature `latest`") });
    }
    None
}

/// The Kubernetes version go.mod builds against: Kubernetes' staging
/// modules (`k8s.io/api`, else `k8s.io/client-go`, `k8s.io/apimachinery`)
/// are versioned `v0.MINOR.PATCH` for Kubernetes `1.MINOR`.
pub fn go_kubernetes(text: &str) -> Option<Found> {
    let mut required: Vec<(&str, &str)> = Vec::new();
    let mut in_require = false;
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or_default().trim();
        if line.starts_with("require (") {
            in_require = true;
            continue;
        }
        if in_require && line == ")" {
            in_require = false;
            continue;
        }
        let entry = match line.strip_prefix("require ") {
            Some(entry) => entry,
            None if in_require => line,
            None => continue,
        };
        let mut words = entry.split_whitespace();
        if let (Some(module), Some(version)) = (words.next(), words.next()) {
            required.push((module, version));
        }
    }
    ["k8s.io/api", "k8s.io/client-go", "k8s.io/apimachinery"].iter().find_map(|wanted| {
        let (module, version) = required.iter().find(|(m, _)| m == wanted)?;
        let found = release_version(version)?;
        (found.version.major == 0)
            .then(|| Found { version: Version::new(1, found.version.minor), written: format!("{module} {version}") })
    })
}

/// A version constant of a Go file: `const Version = "1.8.0"`, `var version
/// = "v0.5.0"`, `GitVersion string = "v0.3.1"` in a `const (...)` block.
pub fn go_version_constant(text: &str) -> Option<Found> {
    text.lines().find_map(|line| {
        let line = line.trim();
        let line = line.strip_prefix("const ").or_else(|| line.strip_prefix("var ")).unwrap_or(line);
        let (lhs, rhs) = line.split_once('=')?;
        let mut words = lhs.split_whitespace();
        let name = words.next()?;
        if !matches!(words.next(), None | Some("string")) || words.next().is_some() {
            return None;
        }
        // `Version`, `GitVersion`, `versionCore` (VPA), `ClusterAutoscalerVersion`;
        // not the versions of what it needs (`MinimumKubernetesVersion`).
        let name = name.to_ascii_lowercase();
        let known = ["version", "gitversion", "releaseversion", "appversion", "versioncore"];
        let other = ["kube", "min", "max", "api", "go", "schema", "protocol"];
        let own = name.strip_suffix("version").is_some_and(|what| !other.iter().any(|o| what.contains(o)));
        if !known.contains(&name.as_str()) && !own {
            return None;
        }
        let rhs = rhs.split("//").next()?.trim();
        (rhs.len() >= 2 && rhs.starts_with('"') && rhs.ends_with('"')).then_some(())?;
        release_version(rhs)
    })
}

/// A `VERSION` file: one version on its first line.
pub fn version_file(text: &str) -> Option<Found> {
    release_version(text.lines().next()?)
}

/// A Makefile's (or `versions.mk`'s) `VERSION ?= v0.13.0` (also `:=`, `=`,
/// and `RELEASE_VERSION`).
pub fn makefile_version(text: &str) -> Option<Found> {
    text.lines().find_map(|line| {
        let line = line.trim();
        let (name, value) = line.split_once('=')?;
        let name = name.trim_end_matches(['?', ':', '+']).trim();
        if !matches!(name, "VERSION" | "RELEASE_VERSION") {
            return None;
        }
        release_version(value.split('#').next()?)
    })
}

/// Chart.yaml's `appVersion`, else its `version`.
pub fn chart_version(text: &str) -> Option<Found> {
    let field = |key: &str| {
        text.lines().find_map(|line| line.strip_prefix(key)?.strip_prefix(':').map(|v| v.split('#').next()))
    };
    field("appVersion")
        .flatten()
        .and_then(release_version)
        .or_else(|| field("version").flatten().and_then(release_version))
}

/// Chart.yaml's `name`.
pub fn chart_name(text: &str) -> Option<&str> {
    text.lines()
        .find_map(|line| line.strip_prefix("name:"))
        .map(|name| name.split('#').next().unwrap_or_default().trim().trim_matches(['"', '\'']))
        .filter(|name| !name.is_empty())
}

/// The newest release among tag names (`v0.9.1`, `1.2.0`; no pre-release
/// such as `v0.9.0-rc.1` or `v0.9.0-devel`, no prefixed tag such as
/// `api/v0.1.0`), by MAJOR.MINOR.PATCH.
pub fn newest_tag<'t>(tags: impl IntoIterator<Item = &'t str>) -> Option<Found> {
    let mut best: Option<((u32, u32, u32), Found)> = None;
    for tag in tags {
        let bare = tag.strip_prefix('v').unwrap_or(tag);
        let mut parts = bare.split('.');
        let (Some(major), Some(minor), Some(patch), None) = (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (Some(major), Some(minor), Some(patch)) = (number(major), number(minor), number(patch)) else { continue };
        let key = (major, minor, patch);
        if key == (0, 0, 0) || best.as_ref().is_some_and(|(b, _)| *b >= key) {
            continue;
        }
        best = Some((key, Found { version: Version::new(major, minor), written: tag.to_owned() }));
    }
    best.map(|(_, found)| found)
}

/// The tag names of a `packed-refs` file.
pub fn packed_tags(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter_map(|line| line.split_once(' ')?.1.strip_prefix("refs/tags/"))
}

/// The Kubernetes version of a kind node image (`kindest/node:v1.35.0`) in
/// a text.
pub fn kind_node_image(text: &str) -> Option<Found> {
    let at = text.find("kindest/node:")?;
    let rest = &text[at + "kindest/node:".len()..];
    let tag: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-')).collect();
    let found = release_version(&tag)?;
    Some(Found { version: found.version, written: format!("kindest/node:{tag}") })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `reader(input)` as `MAJOR.MINOR from WRITTEN`, or `none`.
    #[track_caller]
    fn check(reader: fn(&str) -> Option<Found>, input: &str, expected: &str) {
        let got = match reader(input) {
            Some(found) => format!("{} from {}", found.version, found.written),
            None => "none".to_owned(),
        };
        assert_eq!(got, expected, "{input}");
    }

    #[test]
    fn release_versions() {
        for (input, expected) in [
            ("v1.8.0", "1.8 from v1.8.0"),
            ("1.8", "1.8 from 1.8"),
            ("\"0.13.0-rc.1\"", "0.13 from 0.13.0-rc.1"),
            ("v0.0.0-main", "none"),
            // Placeholders: ingress-nginx's certgen image, Argo CD's version.go.
            ("0.0.1-dev", "none"),
            ("99.99.99", "none"),
            ("dev", "none"),
            ("1", "none"),
            ("1.2.3.4", "none"),
            ("v1.x.0", "none"),
        ] {
            check(release_version, input, expected);
        }
    }

    #[test]
    fn cargo_manifests() {
        for (input, expected) in [
            ("[package]\nname = \"w\"\nversion = \"0.4.2\"\n", "0.4 from 0.4.2"),
            ("[workspace.package]\nversion = \"1.2.0\"\n", "1.2 from 1.2.0"),
            ("[package]\nversion.workspace = true\n[workspace.package]\nversion = \"2.1.0\"\n", "2.1 from 2.1.0"),
            ("[package]\nname = \"w\"\n", "none"),
            ("not toml [", "none"),
        ] {
            check(cargo_version, input, expected);
        }
        assert_eq!(cargo_package_name("[package]\nname = \"widgetd\"\n").as_deref(), Some("widgetd"));
        assert_eq!(cargo_package_name("[workspace]\n"), None);
    }

    #[test]
    fn k8s_openapi_features() {
        let dep = |spec: &str| format!("[dependencies]\nkube = \"1\"\nk8s-openapi = {spec}\n");
        for (input, expected) in [
            (dep("{ version = \"0.25\", features = [\"v1_33\"] }"), "1.33 from k8s-openapi feature `v1_33`"),
            (
                dep("{ version = \"0.24\", features = [\"latest\"] }"),
                "1.32 from k8s-openapi 0.24 with feature `latest`",
            ),
            (
                dep("{ version = \"^0.22.0\", features = [\"latest\"] }"),
                "1.30 from k8s-openapi 0.22.0 with feature `latest`",
            ),
            // A release kompat does not know: not guessed.
            (dep("{ version = \"0.99\", features = [\"latest\"] }"), "none"),
            (dep("\"0.24\""), "none"),
            (
                "[workspace.dependencies]\nk8s-openapi = { version = \"0.23\", features = [\"v1_30\"] }\n".to_owned(),
                "1.30 from k8s-openapi feature `v1_30`",
            ),
            ("[dependencies]\nserde = \"1\"\n".to_owned(), "none"),
        ] {
            check(cargo_kubernetes, &input, expected);
        }
    }

    #[test]
    fn go_mod_files() {
        let block = "module sigs.k8s.io/widget\n\ngo 1.24\n\nrequire (\n\tgithub.com/x/y v1.2.0\n\tk8s.io/apimachinery v0.34.1\n\tk8s.io/api v0.35.0 // indirect\n)\n";
        for (input, expected) in [
            (block, "1.35 from k8s.io/api v0.35.0"),
            ("module m\nrequire k8s.io/client-go v0.33.2\n", "1.33 from k8s.io/client-go v0.33.2"),
            ("module m\nrequire (\n\tk8s.io/apimachinery v0.31.0\n)\n", "1.31 from k8s.io/apimachinery v0.31.0"),
            // Not a staging module's v0.MINOR.
            ("module m\nrequire k8s.io/api v1.2.0\n", "none"),
            ("module m\nrequire k8s.io/klog/v2 v2.130.1\n", "none"),
            ("module m\n", "none"),
        ] {
            check(go_kubernetes, input, expected);
        }
        // The module, as the loader reads it.
        let module = kompat_project::go::module_directive;
        assert_eq!(module(block).as_deref(), Some("sigs.k8s.io/widget"));
        assert_eq!(module("go 1.24\n"), None);
    }

    #[test]
    fn go_version_files() {
        for (input, expected) in [
            ("package version\n\nconst Version = \"1.8.0\"\n", "1.8 from 1.8.0"),
            ("package version\nvar version = \"v0.5.0\" // set by the build\n", "0.5 from v0.5.0"),
            ("var (\n\tGitVersion string = \"v0.3.1\"\n)\n", "0.3 from v0.3.1"),
            // The fallback of builds without a tag.
            ("var (\n\tGitVersion string = \"v0.0.0-main\"\n)\n", "none"),
            // Other versions a version.go holds.
            ("const MinimumKubernetesVersion = \"v1.20.0\"\n", "none"),
            ("const APIVersion = \"v1beta1\"\n", "none"),
            ("var version = getVersion()\n", "none"),
            // The Vertical Pod Autoscaler's and the Cluster Autoscaler's.
            ("// versionCore is the version of VPA.\nconst versionCore = \"1.8.0\"\n", "1.8 from 1.8.0"),
            ("var ClusterAutoscalerVersion = \"1.34.0\"\n", "1.34 from 1.34.0"),
            ("var ClusterAutoscalerVersion = \"dev\"\n", "none"),
            ("const GoVersion = \"1.24.0\"\n", "none"),
        ] {
            check(go_version_constant, input, expected);
        }
    }

    #[test]
    fn version_files_and_makefiles() {
        for (input, expected) in [("v0.13.0\n", "0.13 from v0.13.0"), ("1.2\n", "1.2 from 1.2"), ("\n", "none")] {
            check(version_file, input, expected);
        }
        for (input, expected) in [
            ("VERSION ?= v0.13.0\n", "0.13 from v0.13.0"),
            ("RELEASE_VERSION=v0.19.2\n", "0.19 from v0.19.2"),
            ("VERSION := 1.4.0 # the next release\n", "1.4 from 1.4.0"),
            ("GO_VERSION ?= 1.26.6\nKUSTOMIZE_VERSION ?= v5.2.1\n", "none"),
            ("VERSION ?= $(shell git describe --tags)\n", "none"),
        ] {
            check(makefile_version, input, expected);
        }
    }

    #[test]
    fn charts() {
        for (input, expected) in [
            ("apiVersion: v2\nname: widget\nversion: 0.12.0\nappVersion: \"v0.19.2\"\n", "0.19 from v0.19.2"),
            ("apiVersion: v2\nname: widget\nversion: 0.12.0\n", "0.12 from 0.12.0"),
            ("apiVersion: v2\n# version: 1.0.0\n", "none"),
        ] {
            check(chart_version, input, expected);
        }
        assert_eq!(chart_name("apiVersion: v2\nname: \"widget\"\n"), Some("widget"));
    }

    #[test]
    fn tags() {
        let check_tags = |text: &str| -> Option<Found> { newest_tag(packed_tags(text)) };
        for (input, expected) in [
            (
                "# pack-refs with: peeled fully-peeled sorted\nfa8a refs/tags/v0.9.0\n^0011\n8b2c refs/tags/v0.9.0-devel\n7931 refs/tags/v0.10.1\n1111 refs/tags/v0.9.1\n",
                "0.10 from v0.10.1",
            ),
            ("aaaa refs/tags/api/v1.0.0\nbbbb refs/tags/v1.0.0-rc.1\n", "none"),
            ("aaaa refs/heads/main\n", "none"),
            ("aaaa refs/tags/1.2.3\nbbbb refs/tags/v1.2.0\n", "1.2 from 1.2.3"),
        ] {
            let got = match check_tags(input) {
                Some(found) => format!("{} from {}", found.version, found.written),
                None => "none".to_owned(),
            };
            assert_eq!(got, expected, "{input}");
        }
    }

    #[test]
    fn kind_node_images() {
        for (input, expected) in [
            (
                "nodes:\n- role: control-plane\n  image: kindest/node:v1.35.0@sha256:00\n",
                "1.35 from kindest/node:v1.35.0",
            ),
            ("KIND_IMAGE ?= kindest/node:v1.34.2\n", "1.34 from kindest/node:v1.34.2"),
            ("image: kindest/node:latest\n", "none"),
        ] {
            check(kind_node_image, input, expected);
        }
    }
}
