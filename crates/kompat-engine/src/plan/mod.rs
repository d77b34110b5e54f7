//! Upgrade plans for a set of HA API servers: a pure simulation of a sequence
//! of version changes (rolling binary upgrades, emulation bumps, rollbacks,
//! skip-level upgrades with stepwise emulation) and storage migrations.
//!
//! For every step the simulation answers, per resource: what each server
//! encodes and can decode (the StorageVersion API's view), whether they agree
//! on a common encoding version, whether some server may be handed data it
//! cannot decode (data-loss risk), whether a storage migration may start or
//! must be aborted, what a StorageState tracker (kube-storage-version-migrator)
//! would record, and whether rolling back to each earlier step is safe. It
//! also checks each step's versions (the version window and the skew rules of
//! KEP-4330) and reports feature gates whose stage or default changes.
//!
//! The plan is a value ([`Plan`]); reading it from a file is the binary's
//! job. Problems with the plan's *outcome* are [`PlanFinding`]s, never errors.

mod features;
mod simulate;
mod skew;
mod tracker;

#[cfg(test)]
mod tests;

use crate::api::GroupResource;
use crate::kinds::kinds;
use kompat_runtime::effective::WindowPolicy;
use kompat_runtime::version::Version;

pub use features::FeatureChange;
pub use simulate::{
    simulate, Blocker, MigrationStatus, ResourceState, RollbackCheck, ServerState, Simulation, StepState, Undecodable,
    UndecodableSource,
};
pub use tracker::{StorageState, TrackerReport, UNKNOWN};

/// One API server as the plan starts: its id and command-line versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanServer {
    pub id: String,
    pub flags: ServerFlags,
}

/// A server's version flags. `None` is an unset flag: emulation then defaults
/// to the binary version and min-compatibility to emulation - 1 (floored), as
/// [`WindowPolicy::resolve`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerFlags {
    pub binary: Version,
    pub emulation: Option<Version>,
    pub min_compatibility: Option<Version>,
}

/// What a step does to one flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FlagChange {
    /// Leave the flag as it was.
    #[default]
    Keep,
    /// Unset the flag (back to Kubernetes' default).
    Unset,
    Set(Version),
}

impl FlagChange {
    fn apply(self, old: Option<Version>) -> Option<Version> {
        match self {
            FlagChange::Keep => old,
            FlagChange::Unset => None,
            FlagChange::Set(v) => Some(v),
        }
    }
}

/// A change of one server's flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerChange {
    /// Index into [`Plan::servers`].
    pub server: usize,
    /// `None` keeps the binary version.
    pub binary: Option<Version>,
    pub emulation: FlagChange,
    pub min_compatibility: FlagChange,
}

impl ServerChange {
    /// The flags after this change.
    pub fn apply(&self, old: ServerFlags) -> ServerFlags {
        ServerFlags {
            binary: self.binary.unwrap_or(old.binary),
            emulation: self.emulation.apply(old.emulation),
            min_compatibility: self.min_compatibility.apply(old.min_compatibility),
        }
    }
}

/// One step of a plan: server changes (applied together), then storage
/// migration events.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlanStep {
    pub name: String,
    pub changes: Vec<ServerChange>,
    /// Resources whose storage migration is started after this step's changes.
    pub start_migration: Vec<GroupResource>,
    /// Resources whose running migration completes at this step.
    pub complete_migration: Vec<GroupResource>,
}

/// What the StorageState tracker records before the first step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InitialPersisted {
    /// The tracker is created by the plan's first observation:
    /// `persistedStorageVersionHashes = ["Unknown"]`.
    #[default]
    Unknown,
    /// A migration has completed before the plan starts: the tracker lists
    /// exactly the initial encoding versions.
    Migrated,
}

/// An upgrade plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub window: WindowPolicy,
    pub servers: Vec<PlanServer>,
    pub initial_persisted: InitialPersisted,
    pub steps: Vec<PlanStep>,
}

kinds! {
    /// The kinds of findings; each one's code is the variant in kebab-case.
    pub enum FindingKind {
        /// A server's emulation or min-compatibility version is outside its
        /// binary's window (Kubernetes' flag validation messages).
        InvalidVersions,
        /// A server's min-compatibility version is above a peer's emulation version.
        MinCompatAbovePeerEmulation,
        /// The newest and oldest emulation versions are more than one minor apart.
        EmulationSkew,
        /// A server emulates a version newer than a peer's binary.
        EmulationAbovePeerBinary,
        /// A server may be handed data it cannot decode.
        DataLoss,
        /// A migration was started while the servers disagree on the encoding version.
        MigrationWithoutAgreement,
        /// A running migration must be aborted: agreement lost or changed.
        MigrationAborted,
        /// A migration was completed that is not running.
        MigrationNotRunning,
    }
}

/// Something wrong (or worth knowing) about a step's outcome.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct PlanFinding {
    /// 0 is the initial state, `n` the plan's `n`th step.
    pub step: usize,
    pub kind: FindingKind,
    /// The server concerned, by id.
    pub server: Option<String>,
    /// The resource concerned (`GroupResource` display: `crontabs.stable.example.io`).
    pub resource: Option<String>,
    pub message: String,
}
