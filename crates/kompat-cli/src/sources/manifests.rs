//! Kubernetes manifests (objects read by `kompat_formats::manifest`, located by
//! `kompat-project`), checked against the API set a server of the target
//! version has: Kubernetes' built-in APIs, with the project's own API
//! declarations added when it has some.
//!
//! The serving question is `kompat_engine::api::served_apis`' (KEP-4330's
//! rules, `--runtime-config` and the forward-compatibility flags), asked
//! once per run; the rules `removed-api-version`, `deprecated-api-version`
//! and `unserved-api-version` only read the answers.

use std::borrow::Cow;
use std::collections::BTreeSet;

use kompat_diag::{Diagnostic, Location};
use kompat_engine::api::{served_apis, Api, ApiConfig, ApiSet, GroupVersionResource, ServeOptions};
use kompat_formats::manifest::ManifestObject;
use kompat_project::Error;
use kompat_runtime::Version;

/// An object whose group, version and kind the API set knows, and whether
/// the server serves it. Objects of group-versions or kinds the set does
/// not know (custom resources) are not checked.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The object, located by its `apiVersion` value.
    pub object: ManifestObject<Location>,
    pub api: Api,
    /// Among the resources the server serves.
    pub served: bool,
}

/// The manifests of a run, checked.
#[derive(Debug, Clone)]
pub struct Manifests {
    pub serve: ServeOptions,
    pub checked: Vec<Checked>,
}

impl Manifests {
    /// Checks every object against Kubernetes' built-in API set (and the
    /// project's declared APIs, `project`, when given) as a server with
    /// `serve` serves them. Errors are input errors: `--runtime-config` that the
    /// server would refuse, declared APIs that conflict with built-in ones.
    pub fn check(
        objects: &[ManifestObject<Location>],
        project: Option<&ApiConfig>,
        serve: &ServeOptions,
    ) -> Result<Manifests, Error> {
        if objects.is_empty() {
            return Ok(Manifests { serve: serve.clone(), checked: Vec::new() });
        }
        let set: Cow<'_, ApiSet> = match project {
            Some(project) => Cow::Owned(with_project(project)?),
            None => Cow::Borrowed(kompat_k8s::apis()),
        };
        let served = served_apis(&set, serve)
            .map_err(|err| Error { diagnostics: err.messages.into_iter().map(Diagnostic::error).collect() })?;
        let served: BTreeSet<&GroupVersionResource> = served.resources.iter().collect();
        let mut checked = Vec::new();
        for object in objects {
            let Some(api) = set.find_kind(&object.group, &object.version, &object.kind) else { continue };
            let gvr = GroupVersionResource::of(&api.group_version(), &api.resource);
            checked.push(Checked { object: object.clone(), api: api.clone(), served: served.contains(&gvr) });
        }
        Ok(Manifests { serve: serve.clone(), checked })
    }

    /// The version whose rules the server follows.
    pub fn emulation(&self) -> Version {
        self.serve.emulation
    }

    /// The server, for messages: `Kubernetes 1.37`, or `Kubernetes 1.37
    /// emulating 1.33`.
    pub fn target(&self) -> String {
        match self.serve.binary {
            Some(binary) if binary != self.serve.emulation => {
                format!("Kubernetes {binary} emulating {}", self.serve.emulation)
            }
            _ => format!("Kubernetes {}", self.serve.emulation),
        }
    }
}

/// Kubernetes' built-in API declarations and the project's, as one set.
fn with_project(project: &ApiConfig) -> Result<ApiSet, Error> {
    let mut config = kompat_k8s::api_config().clone();
    config.apis.extend(project.apis.iter().cloned());
    for (group, priority) in &project.priorities {
        config.priorities.entry(group.clone()).or_insert_with(|| priority.clone());
    }
    for (key, version) in &project.storage_overrides {
        config.storage_overrides.entry(key.clone()).or_insert_with(|| version.clone());
    }
    for (key, until) in &project.storage_override_until {
        config.storage_override_until.entry(key.clone()).or_insert(*until);
    }
    ApiSet::build(&config).map_err(|problems| Error {
        diagnostics: problems
            .into_iter()
            .map(|p| Diagnostic::error(format!("the declared APIs conflict with Kubernetes' built-in APIs: {p}")))
            .collect(),
    })
}

/// `kind "K" in version "G/V"`, as Kubernetes' `no matches for kind` error
/// names an object's type.
pub fn no_matches(checked: &Checked) -> String {
    format!("no matches for kind {:?} in version {:?}", checked.api.kind(), checked.api.group_version().to_string())
}

/// `; use G/V Kind` when the API names a replacement (the suffix of
/// Kubernetes' deprecation warning).
pub fn replacement(api: &Api) -> String {
    match &api.replacement {
        Some(r) => format!("; use {} {}", r.group_version(), r.kind),
        None => String::new(),
    }
}
