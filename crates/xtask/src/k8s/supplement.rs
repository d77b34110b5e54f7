//! The declared supplement: facts about Kubernetes' built-in APIs that no
//! prerelease-lifecycle-gen file states, each naming its source.
//!
//! ```toml
//! [[resource]]              # an irregular plural
//! group = ""
//! kind = "Endpoints"
//! resource = "endpoints"
//! source = "kubernetes/kubernetes pkg/registry/core/endpoint/storage/storage.go"
//!
//! [[enabled_by_default]]    # a beta kube-apiserver serves by default after KEP-3136
//! group = "flowcontrol.apiserver.k8s.io"
//! version = "v1beta3"
//! kind = "FlowSchema"
//! source = "kubernetes/kubernetes pkg/controlplane/instance.go, legacyBetaEnabledByDefaultResources"
//!
//! [[resource_type]]         # a resource type without +genclient
//! group = ""
//! version = "v1"
//! kind = "Binding"
//! source = "kubernetes/kubernetes pkg/registry/core/rest/storage_core.go"
//!
//! [[replacement]]           # a generated replacement that cannot be meant
//! group = "networking.k8s.io"
//! version = "v1beta1"
//! kind = "IngressClass"
//! replacement = "networking.k8s.io/v1/IngressClass"
//! source = "the upstream tag names the List kind"
//! ```

use kompat_formats::ParseError;
use kompat_span::Span;
use serde::Deserialize;
use toml::Spanned;

/// A resource name that is not kube's default plural of the kind.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceName {
    pub group: String,
    pub kind: String,
    pub resource: String,
    pub source: Spanned<String>,
}

/// A beta resource served by default although introduced after 1.23.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnabledByDefault {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub source: Spanned<String>,
}

/// A type the API server serves as a resource although client-gen makes no
/// client for it (no `+genclient`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceType {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub source: Spanned<String>,
}

/// A corrected replacement, where the generated one cannot be meant.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replacement {
    pub group: String,
    pub version: String,
    pub kind: String,
    /// `GROUP/VERSION/KIND` (core: `/v1/Pod`).
    pub replacement: String,
    pub source: Spanned<String>,
}

/// Everything a supplement declares.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Supplement {
    #[serde(default)]
    pub resource: Vec<ResourceName>,
    #[serde(default)]
    pub enabled_by_default: Vec<EnabledByDefault>,
    #[serde(default)]
    pub resource_type: Vec<ResourceType>,
    #[serde(default)]
    pub replacement: Vec<Replacement>,
}

impl Supplement {
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.resource.len() + self.enabled_by_default.len() + self.resource_type.len() + self.replacement.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The declared resource name of a kind, in any version of its group.
    pub fn resource_of(&self, group: &str, kind: &str) -> Option<&str> {
        self.resource.iter().find(|r| r.group == group && r.kind == kind).map(|r| r.resource.as_str())
    }

    /// The corrected replacement of a kind, if one is declared.
    pub fn replacement_of(&self, group: &str, version: &str, kind: &str) -> Option<&str> {
        self.replacement
            .iter()
            .find(|r| r.group == group && r.version == version && r.kind == kind)
            .map(|r| r.replacement.as_str())
    }

    /// Whether a kind without `+genclient` is declared a resource.
    pub fn is_resource_type(&self, group: &str, version: &str, kind: &str) -> bool {
        self.resource_type.iter().any(|r| r.group == group && r.version == version && r.kind == kind)
    }

    /// Whether a beta kind is declared on by default.
    pub fn enabled_by_default(&self, group: &str, version: &str, kind: &str) -> bool {
        self.enabled_by_default.iter().any(|e| e.group == group && e.version == version && e.kind == kind)
    }
}

/// Parses a supplement; an entry without a non-empty `source` is an error.
pub fn parse_supplement(text: &str) -> Result<Supplement, Vec<ParseError>> {
    let supplement: Supplement =
        toml::from_str(text).map_err(|err| vec![kompat_formats::span::toml_syntax_error(text, &err)])?;
    let sources = supplement
        .resource
        .iter()
        .map(|r| &r.source)
        .chain(supplement.enabled_by_default.iter().map(|e| &e.source))
        .chain(supplement.resource_type.iter().map(|r| &r.source))
        .chain(supplement.replacement.iter().map(|r| &r.source));
    let errors: Vec<ParseError> = sources
        .filter(|s| s.get_ref().trim().is_empty())
        .map(|s| {
            ParseError::at(Span { start: s.span().start, end: s.span().end }, "every supplement entry names its source")
        })
        .collect();
    if errors.is_empty() {
        Ok(supplement)
    } else {
        Err(errors)
    }
}
