//! The project's own images: the settings of a container running one are
//! the project's, judged against its gates; any other container that is not
//! a Kubernetes component (a sidecar such as csi-provisioner) is another
//! program's, not judged.
//!
//! The images are `[project] images` in kompat.toml, else inferred from the
//! project's names (the binaries under `cmd/`, the Go module's last
//! segment, the Cargo package, the charts). Knowing none, a container is the
//! project's unless it is a known sidecar (`kompat_formats::deploy`).

use kompat_diag::Location;
use kompat_formats::deploy::{image_name, Component, GateSetting};

/// Kubebuilder's placeholder images (`controller:latest`), which kustomize
/// replaces with the project's own.
const PLACEHOLDERS: [&str; 2] = ["controller", "manager"];

/// What is known of the project's images.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectImages {
    /// `[project] images`: references without tag or digest; a reference
    /// without its registry (`jobset/jobset`) matches the same image in any
    /// registry.
    pub configured: Vec<String>,
    /// Names the project goes by, when nothing is configured: an image is
    /// the project's when its name (last path segment) is one of them or
    /// starts with one and `-`, or a segment of its path is one.
    pub inferred: Vec<String>,
}

impl ProjectImages {
    /// Whether `image` (a reference) runs one of the project's binaries;
    /// `None` when nothing is known of the project's images.
    pub fn owns(&self, image: &str) -> Option<bool> {
        let image = image_name(image);
        if !self.configured.is_empty() {
            return Some(self.configured.iter().any(|entry| {
                let entry = image_name(entry);
                image == entry || image.strip_suffix(entry).is_some_and(|head| head.ends_with('/'))
            }));
        }
        if self.inferred.is_empty() {
            return None;
        }
        let segments: Vec<&str> = image.split('/').collect();
        let name = segments.last().copied().unwrap_or_default();
        // The first segment of a longer path is the registry's host.
        let path = if segments.len() > 1 && segments[0].contains(['.', ':']) { &segments[1..] } else { &segments[..] };
        let owned = segments.len() == 1 && PLACEHOLDERS.contains(&name)
            || self.inferred.iter().any(|n| {
                name == n
                    || name.strip_prefix(n.as_str()).is_some_and(|rest| rest.starts_with('-'))
                    || path.contains(&n.as_str())
            });
        Some(owned)
    }

    /// Gives the settings of containers that run none of the project's
    /// images (and no Kubernetes component) to their image's program: not
    /// judged. Nothing changes when nothing is known of the images.
    pub fn attribute(&self, settings: &mut [GateSetting<Location>]) {
        for setting in settings {
            let Some(image) = &setting.image else { continue };
            if setting.component == Component::Project && self.owns(image) == Some(false) {
                let name = image_name(image).rsplit('/').next().unwrap_or_default().to_owned();
                setting.component = Component::Other(name);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Which of `images` `project` owns, as `image=yes|no|unknown`.
    #[track_caller]
    fn check(project: &ProjectImages, images: &[&str], expected: &[&str]) {
        let got: Vec<String> = images
            .iter()
            .map(|image| {
                let owns = match project.owns(image) {
                    Some(true) => "yes",
                    Some(false) => "no",
                    None => "unknown",
                };
                format!("{image}={owns}")
            })
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn configured_images() {
        let project = ProjectImages {
            configured: vec!["registry.k8s.io/jobset/jobset".into(), "widgets/widgetd:v1".into()],
            inferred: vec!["csi-provisioner".into()],
        };
        check(
            &project,
            &[
                "registry.k8s.io/jobset/jobset:v0.9.1",
                "registry.k8s.io/jobset/jobset@sha256:00",
                "example.com/widgets/widgetd:v2",
                "example.com/other/jobset:v1",
                "registry.k8s.io/sig-storage/csi-provisioner:v5.0.1",
                "localhost:5000/widgets/widgetd",
            ],
            &[
                "registry.k8s.io/jobset/jobset:v0.9.1=yes",
                "registry.k8s.io/jobset/jobset@sha256:00=yes",
                "example.com/widgets/widgetd:v2=yes",
                "example.com/other/jobset:v1=no",
                // Configured images are the whole list: nothing inferred.
                "registry.k8s.io/sig-storage/csi-provisioner:v5.0.1=no",
                "localhost:5000/widgets/widgetd=yes",
            ],
        );
    }

    #[test]
    fn inferred_images() {
        let project = ProjectImages { configured: vec![], inferred: vec!["cluster-api".into(), "widgetd".into()] };
        check(
            &project,
            &[
                "registry.k8s.io/cluster-api/cluster-api-controller:v1.9.0",
                "registry.k8s.io/cluster-api/kubeadm-bootstrap-controller:v1.9.0",
                "example.com/widgetd:1",
                "widgetd-webhook:1",
                "controller:latest",
                "example.com/controller:1",
                "gcr.io/kubebuilder/kube-rbac-proxy:v0.16.0",
                "registry.k8s.io/sig-storage/csi-provisioner:v5.0.1",
                "cluster-apiserver:1",
            ],
            &[
                "registry.k8s.io/cluster-api/cluster-api-controller:v1.9.0=yes",
                "registry.k8s.io/cluster-api/kubeadm-bootstrap-controller:v1.9.0=yes",
                "example.com/widgetd:1=yes",
                "widgetd-webhook:1=yes",
                "controller:latest=yes",
                "example.com/controller:1=no",
                "gcr.io/kubebuilder/kube-rbac-proxy:v0.16.0=no",
                "registry.k8s.io/sig-storage/csi-provisioner:v5.0.1=no",
                "cluster-apiserver:1=no",
            ],
        );
        check(&ProjectImages::default(), &["example.com/widgetd:1"], &["example.com/widgetd:1=unknown"]);
    }
}
