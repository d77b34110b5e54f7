//! `migration_plan`: the structured plan and the inputs it refuses (its
//! renderings are the binary's, snapshotted there).

use crate::common::crd;
use kompat_crd::{migration_plan, MigrationState, PlanError};

fn plan(dir: &str) -> kompat_crd::MigrationPlan {
    let (_, old) = crd(&format!("upgrade/{dir}/old.yaml"));
    let (_, new) = crd(&format!("upgrade/{dir}/new.yaml"));
    migration_plan(&old, &new).unwrap_or_else(|e| panic!("{dir}: {e}"))
}

#[test]
fn removing_the_storage_version() {
    let plan = plan("remove-v1alpha1");
    assert_eq!((plan.remove.as_slice(), plan.target.as_str()), (&["v1alpha1".to_owned()][..], "v1"));
    let states: Vec<MigrationState> = plan.steps.iter().map(|s| s.state).collect();
    assert_eq!(states, [MigrationState::Done, MigrationState::ToDo, MigrationState::ToDo, MigrationState::ToDo]);
    let titles: Vec<&str> = plan.steps.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Add `v1` next to `v1alpha1`",
            "Make `v1` the storage version",
            "Migrate the stored objects to `v1` and prune `status.storedVersions`",
            "Stop serving `v1alpha1`, then remove it",
        ]
    );
}

#[test]
fn the_current_storage_version_is_named() {
    // `v1beta1` is stored today and stays served; only `v1alpha1` goes.
    let kept = plan("remove-v1alpha1-stored-v1beta1");
    assert_eq!(kept.remove, ["v1alpha1"]);
    assert_eq!((kept.current.as_deref(), kept.target.as_str()), (Some("v1beta1"), "v1"));
    assert_eq!(kept.stored, ["v1beta1"]);
    let flip = &kept.steps[1];
    assert_eq!(flip.state, MigrationState::ToDo);
    assert_eq!(
        flip.actions[0].text,
        "set `storage: true` on `v1` and `storage: false` on `v1beta1`; keep every version served"
    );
    assert!(flip.verify[1].ends_with("the others are still persisted as `v1beta1`"), "{}", flip.verify[1]);
    // Removing the storage version itself names it too.
    let storage_removed = plan("remove-v1alpha1");
    assert_eq!(
        (storage_removed.current.as_deref(), storage_removed.stored.as_slice()),
        (Some("v1alpha1"), &["v1alpha1".to_owned()][..])
    );
}

#[test]
fn steps_already_taken_are_marked_done() {
    // The old manifest (from the cluster) already stores v1 and still lists
    // v1alpha1 in status.storedVersions.
    let plan = plan("stored-version-removed");
    let states: Vec<MigrationState> = plan.steps.iter().map(|s| s.state).collect();
    assert_eq!(states, [MigrationState::Done, MigrationState::Done, MigrationState::ToDo, MigrationState::ToDo]);
}

#[test]
fn refused_inputs() {
    let (_, gadgets) = crd("upgrade/remove-v1alpha1/new.yaml");
    let (_, widgets) = crd("kube-rs/widget-merged.yaml");
    let (_, two_storage) = crd("single/storage-version-count.yaml");
    let (_, unserved) = crd("single/unserved-storage-version.yaml");
    let (_, clean) = crd("single/clean.yaml");
    let cases = [
        (&gadgets, &gadgets, "nothing to remove: the new manifest still serves every version of `gadgets.example.io`"),
        (&widgets, &gadgets, "the old manifest is for `widgets.example.io` and the new one for `gadgets.example.io`"),
        (
            &clean,
            &two_storage,
            "the new manifest of `gadgets.example.io` must have exactly one version marked as storage version",
        ),
        (&clean, &unserved, "the new storage version `v1alpha1` of `gadgets.example.io` must be served"),
    ];
    assert_eq!(
        migration_plan(&gadgets, &gadgets).err(),
        Some(PlanError::NothingToRemove { crd: "gadgets.example.io".to_owned() })
    );
    for (old, new, want) in cases {
        assert_eq!(migration_plan(old, new).err().map(|e| e.to_string()).as_deref(), Some(want));
    }
}
