//! The findings of `kompat plan` (upgrade-plan simulation): documented,
//! explainable and levelable like every other code. The simulation is
//! `kompat_engine::plan`; these rules give its finding kinds their severity,
//! and `kompat plan` applies `[lint.levels]` to them.

use kompat_diag::declare_rule;
use kompat_engine::plan::FindingKind;

use super::Pass;
use kompat_diag::Rule;

declare_rule! {
    /// ### What it does
    ///
    /// Checks every server of every step of an upgrade plan: its emulation version must lie in [floor, binary] and its min-compatibility version in [floor, emulation], where the floor is the binary version minus the window's skew (and 1.31 under the Kubernetes profile).
    ///
    /// ### Why is this bad?
    ///
    /// A server started with versions outside its window refuses to start (KEP-4330's flag validation, with the message kube-apiserver prints), so the step never happens.
    ///
    /// ### Example
    ///
    /// ```toml
    /// set = [{ server = "apiserver-1", binary = "1.37", emulation = "1.33" }]
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// set = [{ server = "apiserver-1", binary = "1.37", emulation = "1.34" }]
    /// ```
    pub INVALID_VERSIONS, "invalid-versions", Error, "a plan step starts a server with versions outside its window"
}

declare_rule! {
    /// ### What it does
    ///
    /// Checks that no server's min-compatibility version is above a peer's emulation version at any step (reported once per server, against the peer with the oldest emulation version).
    ///
    /// ### Why is this bad?
    ///
    /// A server promises readable data only to versions from its min-compatibility version on. A peer emulating an older version is outside that promise: it may be handed data it cannot read.
    ///
    /// ### Example
    ///
    /// ```toml
    /// set = [{ server = "apiserver-1", min_compatibility = "1.36" }]   # apiserver-2 still emulates 1.35
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # raise min-compatibility only after every peer emulates at least that version
    /// ```
    pub MIN_COMPAT_ABOVE_PEER_EMULATION, "min-compat-above-peer-emulation", Error, "a server's min-compatibility version is above a peer's emulation version"
}

declare_rule! {
    /// ### What it does
    ///
    /// Checks that the newest and the oldest emulation versions of the servers are at most one minor apart, in the same major version, at every step.
    ///
    /// ### Why is this bad?
    ///
    /// Kubernetes supports HA kube-apiservers within one minor of each other; KEP-4330 states that skew in emulation versions. Wider skew leaves the storage range without a version every server can read.
    ///
    /// ### Example
    ///
    /// ```toml
    /// set = [{ server = "apiserver-1", binary = "1.37", emulation = "1.37" }]   # apiserver-2 emulates 1.35
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # raise every server to 1.36 first, then to 1.37
    /// ```
    pub EMULATION_SKEW, "emulation-skew", Error, "emulation versions of the servers are more than one minor apart"
}

declare_rule! {
    /// ### What it does
    ///
    /// Points out steps at which a server emulates a version newer than a peer's binary version.
    ///
    /// ### Why is this bad?
    ///
    /// During an ordinary rolling upgrade this is expected, but clients see APIs and features the older peer lacks. KEP-4330 recommends upgrading binaries first with emulation held back, then raising emulation.
    ///
    /// ### Example
    ///
    /// ```toml
    /// set = [{ server = "apiserver-1", binary = "1.37" }]   # apiserver-2 is still a 1.36 binary
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// set = [{ server = "apiserver-1", binary = "1.37", emulation = "1.36" }]
    /// ```
    pub EMULATION_ABOVE_PEER_BINARY, "emulation-above-peer-binary", Warning, "a server emulates a version newer than a peer's binary"
}

declare_rule! {
    /// ### What it does
    ///
    /// At every step, checks that each version in the persisted set, and each version another server writes at that step, is one every participating server can decode.
    ///
    /// ### Why is this bad?
    ///
    /// A server handed an object in a version it cannot decode fails the request, and a controller that rewrites what it could read drops fields: the data is lost.
    ///
    /// ### Example
    ///
    /// ```toml
    /// # apiserver-1 (1.37) writes v1; apiserver-2 (1.35) cannot decode v1
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # hold the storage version back with min-compatibility until every server decodes it
    /// ```
    pub DATA_LOSS, "data-loss", Error, "a server may be handed data it cannot decode"
}

declare_rule! {
    /// ### What it does
    ///
    /// Checks that a storage migration starts only while every server agrees on one encoding version.
    ///
    /// ### Why is this bad?
    ///
    /// A migration rewrites every object in the encoding version of whichever server handles the write; without agreement it rewrites objects into versions that are about to change again (the StorageVersion KEP's "polluted migration").
    ///
    /// ### Example
    ///
    /// ```toml
    /// [[step]]
    /// name = "upgrade apiserver-1"
    /// set = [{ server = "apiserver-1", binary = "1.37" }]
    /// start_migration = ["stable.example.io/crontabs"]
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # start the migration in a step after every server encodes the same version
    /// ```
    pub MIGRATION_WITHOUT_AGREEMENT, "migration-without-agreement", Error, "a migration starts while the servers disagree on the encoding version"
}

declare_rule! {
    /// ### What it does
    ///
    /// Points out steps at which a running migration must be aborted: agreement on the encoding version is lost, or the common encoding version changes.
    ///
    /// ### Why is this bad?
    ///
    /// It is the expected reaction, not a fault, but the migration has to be started again once the servers agree, and until then old objects stay in old versions.
    ///
    /// ### Example
    ///
    /// ```toml
    /// # a migration runs while apiserver-1 is upgraded and starts encoding v2
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # migrate after the rolling upgrade, not during it
    /// ```
    pub MIGRATION_ABORTED, "migration-aborted", Warning, "a running migration must be aborted"
}

declare_rule! {
    /// ### What it does
    ///
    /// Checks that every `complete_migration` names a migration that is running.
    ///
    /// ### Why is this bad?
    ///
    /// Completing a migration that never started, or was aborted, records old objects as migrated: a later removal of their version loses them.
    ///
    /// ### Example
    ///
    /// ```toml
    /// complete_migration = ["stable.example.io/crontabs"]   # never started
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// start_migration = ["stable.example.io/crontabs"]
    /// # ... a later step:
    /// complete_migration = ["stable.example.io/crontabs"]
    /// ```
    pub MIGRATION_NOT_RUNNING, "migration-not-running", Error, "a migration is completed that is not running"
}

/// Reported by `kompat plan`, not by `kompat lint`.
pub static PASS: Pass = Pass {
    rules: &[
        &INVALID_VERSIONS,
        &MIN_COMPAT_ABOVE_PEER_EMULATION,
        &EMULATION_SKEW,
        &EMULATION_ABOVE_PEER_BINARY,
        &DATA_LOSS,
        &MIGRATION_WITHOUT_AGREEMENT,
        &MIGRATION_ABORTED,
        &MIGRATION_NOT_RUNNING,
    ],
    check: None,
};

/// The rule of a plan finding kind.
pub fn rule_of(kind: FindingKind) -> &'static Rule {
    match kind {
        FindingKind::InvalidVersions => &INVALID_VERSIONS,
        FindingKind::MinCompatAbovePeerEmulation => &MIN_COMPAT_ABOVE_PEER_EMULATION,
        FindingKind::EmulationSkew => &EMULATION_SKEW,
        FindingKind::EmulationAbovePeerBinary => &EMULATION_ABOVE_PEER_BINARY,
        FindingKind::DataLoss => &DATA_LOSS,
        FindingKind::MigrationWithoutAgreement => &MIGRATION_WITHOUT_AGREEMENT,
        FindingKind::MigrationAborted => &MIGRATION_ABORTED,
        FindingKind::MigrationNotRunning => &MIGRATION_NOT_RUNNING,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_rule() {
        let kinds = [
            FindingKind::InvalidVersions,
            FindingKind::MinCompatAbovePeerEmulation,
            FindingKind::EmulationSkew,
            FindingKind::EmulationAbovePeerBinary,
            FindingKind::DataLoss,
            FindingKind::MigrationWithoutAgreement,
            FindingKind::MigrationAborted,
            FindingKind::MigrationNotRunning,
        ];
        for kind in kinds {
            assert_eq!(rule_of(kind).code, kind.code());
        }
        assert_eq!(PASS.rules.len(), kinds.len());
    }
}
