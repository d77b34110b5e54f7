//! `migration_plan`: the structured plan, its Markdown and plain-text
//! renderings as insta snapshots, and the inputs it refuses.

mod common;

use common::crd;
use kompat_crd::{migration_plan, StepState};

fn plan(dir: &str) -> kompat_crd::MigrationPlan {
    let (_, old) = crd(&format!("upgrade/{dir}/old.yaml"));
    let (_, new) = crd(&format!("upgrade/{dir}/new.yaml"));
    migration_plan(&old, &new).unwrap_or_else(|e| panic!("{dir}: {e}"))
}

#[test]
fn removing_the_storage_version() {
    let plan = plan("remove-v1alpha1");
    assert_eq!((plan.remove.as_slice(), plan.target.as_str()), (&["v1alpha1".to_owned()][..], "v1"));
    let states: Vec<StepState> = plan.steps.iter().map(|s| s.state).collect();
    assert_eq!(states, [StepState::Done, StepState::ToDo, StepState::ToDo, StepState::ToDo]);
    insta::assert_snapshot!("remove_v1alpha1_markdown", plan.to_markdown());
    insta::assert_snapshot!("remove_v1alpha1_text", plan.to_text());
}

#[test]
fn steps_already_taken_are_marked_done() {
    // The old manifest (from the cluster) already stores v1 and still lists
    // v1alpha1 in status.storedVersions.
    let plan = plan("stored-version-removed");
    let states: Vec<StepState> = plan.steps.iter().map(|s| s.state).collect();
    assert_eq!(states, [StepState::Done, StepState::Done, StepState::ToDo, StepState::ToDo]);
    insta::assert_snapshot!("stored_version_removed_markdown", plan.to_markdown());
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
    for (old, new, want) in cases {
        assert_eq!(migration_plan(old, new).err().as_deref(), Some(want));
    }
}
