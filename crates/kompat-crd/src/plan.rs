//! The storage-migration plan for removing versions of a CRD safely: add the
//! new version, make it the storage version, migrate the stored objects and
//! prune `status.storedVersions`, stop serving the old versions and then
//! remove them. A structured value; the `kompat` binary renders it.

use std::fmt;
use std::fmt::Write as _;

use crate::model::{release_order, Crd};

/// Whether the old manifest already reflects a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MigrationState {
    /// The old manifest already satisfies it.
    Done,
    ToDo,
}

/// One thing to do, with the manifest to apply if there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    pub text: String,
    pub manifest: Option<String>,
}

impl From<String> for Action {
    fn from(text: String) -> Action {
        Action { text, manifest: None }
    }
}

/// One step of a [`MigrationPlan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationStep {
    pub title: String,
    pub state: MigrationState,
    pub actions: Vec<Action>,
    pub verify: Vec<String>,
}

/// How to get from the old manifest to the new one without losing objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationPlan {
    /// `<plural>.<group>`.
    pub crd: String,
    pub group: String,
    pub kind: String,
    pub plural: String,
    /// The versions that stop being served (and are removed), oldest first.
    pub remove: Vec<String>,
    /// The storage version of the new manifest.
    pub target: String,
    /// The storage version of the old manifest (the one marked `storage:
    /// true`), when it has exactly one: where objects are written today,
    /// whether or not it is removed.
    pub current: Option<String>,
    /// The versions objects may be persisted in today: the old
    /// `status.storedVersions`, or its storage version when it has no status.
    pub stored: Vec<String>,
    pub steps: Vec<MigrationStep>,
}

fn actions(texts: Vec<String>) -> Vec<Action> {
    texts.into_iter().map(Action::from).collect()
}

/// `` `a` ``, `` `a` and `b` ``, `` `a`, `b` and `c` ``: names in prose.
pub fn quoted_list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Why there is no plan for a pair of manifests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanError {
    /// The manifests are for different CRDs (`<plural>.<group>` each).
    DifferentCrds { old: String, new: String },
    /// The new manifest does not have exactly one storage version.
    NoStorageVersion { crd: String },
    /// The new storage version is not served.
    StorageNotServed { crd: String, target: String },
    /// The new manifest still serves every version of the old one: there is
    /// nothing to plan (not a mistake in the manifests).
    NothingToRemove { crd: String },
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::DifferentCrds { old, new } => {
                write!(f, "the old manifest is for `{old}` and the new one for `{new}`")
            }
            PlanError::NoStorageVersion { crd } => {
                write!(f, "the new manifest of `{crd}` must have exactly one version marked as storage version")
            }
            PlanError::StorageNotServed { crd, target } => {
                write!(f, "the new storage version `{target}` of `{crd}` must be served")
            }
            PlanError::NothingToRemove { crd } => {
                write!(f, "nothing to remove: the new manifest still serves every version of `{crd}`")
            }
        }
    }
}

/// Plans the removal of the versions that `old` serves (or has stored) and
/// `new` does not serve. Errors if the manifests are for different CRDs, if
/// `new` does not have exactly one served storage version, or if nothing is
/// removed.
pub fn migration_plan(old: &Crd, new: &Crd) -> Result<MigrationPlan, PlanError> {
    if old.id() != new.id() {
        return Err(PlanError::DifferentCrds { old: old.id(), new: new.id() });
    }
    let crd = new.id();
    let Some(storage) = new.storage_version() else {
        return Err(PlanError::NoStorageVersion { crd });
    };
    let target = storage.name.value.clone();
    if !storage.served.value {
        return Err(PlanError::StorageNotServed { crd, target });
    }
    let (stored, _) = old.stored_or_storage();
    let current = old.storage_version().map(|v| v.name.value.clone());
    let mut remove: Vec<String> = old.versions.iter().map(|v| v.name.value.clone()).chain(stored.clone()).collect();
    remove.retain(|v| *v != target && !new.version(v).is_some_and(|nv| nv.served.value));
    remove.sort_by(|a, b| release_order(a, b));
    remove.dedup();
    if remove.is_empty() {
        return Err(PlanError::NothingToRemove { crd });
    }

    let (group, plural, kind) = (new.group.value.clone(), new.plural.value.clone(), new.kind.value.clone());
    let old_names = quoted_list(&remove);
    let it = if remove.len() == 1 { "it" } else { "them" };
    let state = |done: bool| if done { MigrationState::Done } else { MigrationState::ToDo };
    let old_target = old.version(&target);

    let add = MigrationStep {
        title: format!("Add `{target}` next to {old_names}"),
        state: state(old_target.is_some_and(|v| v.served.value)),
        actions: actions(vec![
            format!("add `{target}` to `spec.versions` with `served: true` and `storage: false`; keep {old_names} served"),
            format!(
                "declare the conversions between {old_names} and `{target}` (both directions in the experimental channel) in the conversions file, and keep `x-kubernetes-preserve-unknown-fields` where the schemas differ"
            ),
            format!("release controllers that read every served version and canonicalize older objects to `{target}`"),
        ]),
        verify: vec![
            "`kompat lint` reports no `undeclared-conversion` or `missing-preserve-unknown-fields` for the CRD".to_owned(),
            format!(
                "`kubectl get {plural}.{target}.{group} -A` lists the same objects as `kubectl get {plural}.{}.{group} -A`",
                remove[0]
            ),
        ],
    };

    // Where objects are written today and where they may be persisted: the
    // old manifest's own storage version (which need not be removed), not the
    // versions being removed.
    let persisted: Vec<String> = stored.iter().filter(|v| **v != target).cloned().collect();
    let current_text = match &current {
        // Flipped already: the versions it was flipped from are the stored ones.
        Some(c) if *c == target && !persisted.is_empty() => quoted_list(&persisted),
        Some(c) if *c == target => "the previous storage version".to_owned(),
        Some(c) => format!("`{c}`"),
        None => "the current storage version".to_owned(),
    };
    let persisted_text = if persisted.is_empty() { current_text.clone() } else { quoted_list(&persisted) };
    let flip = MigrationStep {
        title: format!("Make `{target}` the storage version"),
        state: state(current.as_deref() == Some(target.as_str())),
        actions: actions(vec![format!(
            "set `storage: true` on `{target}` and `storage: false` on {current_text}; keep every version served"
        )]),
        verify: vec![
            format!(
                "`kubectl get crd {crd} -o jsonpath='{{.status.storedVersions}}'` lists `{target}` (the API server appends it when the CRD is updated)"
            ),
            format!(
                "objects created or updated from now on are persisted as `{target}`; the others are still persisted as {persisted_text}"
            ),
        ],
    };

    let svm_name = format!("{}-{target}", crd.replace('.', "-"));
    let mut manifest = String::new();
    let _ = write!(
        manifest,
        "apiVersion: storagemigration.k8s.io/v1beta1\nkind: StorageVersionMigration\nmetadata:\n  name: {svm_name}\nspec:\n  resource:\n    group: {group}\n    resource: {plural}\n"
    );
    let pruned_already = old.stored_versions.as_ref().is_some_and(|s| s.value.len() == 1 && s.value[0].value == target);
    let migrate = MigrationStep {
        title: format!("Migrate the stored objects to `{target}` and prune `status.storedVersions`"),
        state: state(pruned_already),
        actions: vec![
            Action {
                text: format!(
                "apply this StorageVersionMigration (Kubernetes 1.35 and later, feature gate `StorageVersionMigrator`); on 1.30 to 1.34 use `storagemigration.k8s.io/v1alpha1` with `spec.resource.version: {target}`, or kube-storage-version-migrator, or update every object without changes"
            ),
                manifest: Some(manifest),
            },
            Action::from(format!(
                "when it has succeeded, set `status.storedVersions` to `[{target}]`: `kubectl patch crd {crd} --subresource=status --type=merge -p '{{\"status\":{{\"storedVersions\":[\"{target}\"]}}}}'` (the in-tree migrator does this itself when the CRD did not change during the migration)"
            )),
        ],
        verify: vec![
            format!(
                "`kubectl get storageversionmigration {svm_name} -o jsonpath='{{.status.conditions[?(@.type==\"Succeeded\")].status}}'` prints `True`"
            ),
            format!("`kubectl get crd {crd} -o jsonpath='{{.status.storedVersions}}'` prints `[\"{target}\"]`"),
            "the CRD was not changed while the migration ran".to_owned(),
        ],
    };

    let unserve = MigrationStep {
        title: format!("Stop serving {old_names}, then remove {it}"),
        state: MigrationState::ToDo,
        actions: actions(vec![
            format!(
                "mark {old_names} `deprecated: true` with a `deprecationWarning` that names `{target}`, if not done yet, so clients are warned"
            ),
            format!("set `served: false` on {old_names} (with `storage: false`) and release"),
            format!("after at least one release without requests to {it}, remove {old_names} from `spec.versions`"),
        ]),
        verify: vec![
            format!(
                "the API server audit log (or the `apiserver_requested_deprecated_apis` metric) shows no requests to {}",
                quoted_list(&remove.iter().map(|v| format!("{group}/{v}")).collect::<Vec<_>>())
            ),
            format!(
                "the API server accepts the CRD without {old_names}: it rejects the removal while `status.storedVersions` lists {it}"
            ),
        ],
    };

    Ok(MigrationPlan {
        crd,
        group,
        kind,
        plural,
        remove,
        target,
        current,
        stored,
        steps: vec![add, flip, migrate, unserve],
    })
}
