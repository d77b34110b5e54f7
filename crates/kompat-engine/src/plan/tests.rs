//! Tests of the plan simulation: the storage-state KEP's three-server case
//! walkthrough, a skip-level upgrade with stepwise emulation, an unsafe
//! rollback, skew rules and feature-gate changes. Each test renders the
//! simulation compactly and compares it with the expected text.

use super::*;
use crate::api::{ApiConfig, ApiDecl, ApiSet};
use kompat_runtime::feature::{FeatureSpec, Stage};
use kompat_runtime::gate::{Feature, FeatureSet};

fn v(s: &str) -> Version {
    Version::parse(s).expect("test version")
}

fn api(group: &str, version: &str, kind: &str, resource: &str, introduced: &str) -> ApiDecl {
    ApiDecl {
        group: group.to_owned(),
        version: version.to_owned(),
        kind: kind.to_owned(),
        resource: resource.to_owned(),
        introduced: Some(v(introduced)),
        ..ApiDecl::default()
    }
}

/// CronTab moves from v1 to v2 when min-compatibility reaches 1.35; Gizmo's
/// v2 only exists from 1.37.
fn apis() -> ApiSet {
    let config = ApiConfig {
        apis: vec![
            api("stable.example.io", "v1", "CronTab", "crontabs", "1.30"),
            api("stable.example.io", "v2", "CronTab", "crontabs", "1.35"),
            api("stable.example.io", "v1", "Gizmo", "gizmos", "1.30"),
            api("stable.example.io", "v2", "Gizmo", "gizmos", "1.37"),
        ],
        ..ApiConfig::default()
    };
    ApiSet::build(&config).expect("valid test APIs")
}

fn plan(servers: &[&str], binary: &str, initial: InitialPersisted, steps: Vec<PlanStep>) -> Plan {
    Plan {
        window: WindowPolicy::DEFAULT,
        servers: servers
            .iter()
            .map(|id| PlanServer {
                id: (*id).to_owned(),
                flags: ServerFlags { binary: v(binary), emulation: None, min_compatibility: None },
            })
            .collect(),
        initial_persisted: initial,
        steps,
    }
}

/// A step setting servers (by index): `(server, binary, emulation, min-compat)`
/// with `""` keeping a flag and `"-"` unsetting it.
fn step(name: &str, sets: &[(usize, &str, &str, &str)], start: &[&str], complete: &[&str]) -> PlanStep {
    let flag = |s: &str| match s {
        "" => FlagChange::Keep,
        "-" => FlagChange::Unset,
        s => FlagChange::Set(v(s)),
    };
    let gr = |s: &&str| GroupResource::parse_key(s).expect("test resource");
    PlanStep {
        name: name.to_owned(),
        changes: sets
            .iter()
            .map(|(server, binary, emulation, mc)| ServerChange {
                server: *server,
                binary: (!binary.is_empty()).then(|| v(binary)),
                emulation: flag(emulation),
                min_compatibility: flag(mc),
            })
            .collect(),
        start_migration: start.iter().map(gr).collect(),
        complete_migration: complete.iter().map(gr).collect(),
    }
}

/// One line per step for `resource`: encoding versions per server, common
/// version, persisted versions, the tracker's persisted versions, migration.
fn resource_rows(sim: &Simulation, resource: &str) -> String {
    let short = |gv: &str| gv.rsplit('/').next().unwrap_or(gv).to_owned();
    let mut out = String::new();
    for state in &sim.steps {
        let Some(r) = state.resources.iter().find(|r| r.resource.to_string() == resource) else {
            continue;
        };
        let sv: Vec<String> = r.servers.iter().map(|s| short(&s.encoding_version)).collect();
        let persisted: Vec<String> = r.persisted_versions.iter().map(|p| short(p)).collect();
        let tracker: Vec<String> = r.storage_state.persisted.iter().map(|h| short(r.version_of_hash(h))).collect();
        out.push_str(&format!(
            "{} {}: {} | {} | {} | {} | {}\n",
            state.step,
            state.name,
            sv.join(" "),
            r.common_encoding_version.as_deref().map_or("-".to_owned(), short),
            persisted.join(","),
            tracker.join(","),
            r.migration.as_str()
        ));
    }
    out
}

fn finding_rows(sim: &Simulation) -> String {
    sim.findings.iter().map(|f| format!("{} {} {}\n", f.step, f.kind.code(), f.message)).collect()
}

/// For each step, the earlier steps it is safe to roll back to.
fn rollback_rows(sim: &Simulation) -> String {
    let mut out = String::new();
    for state in &sim.steps {
        let marks: Vec<String> =
            state.rollbacks.iter().map(|r| format!("{}{}", r.to_step, if r.is_safe() { "ok" } else { "X" })).collect();
        out.push_str(format!("{}: {}", state.step, marks.join(" ")).trim_end());
        out.push('\n');
    }
    out
}

#[track_caller]
fn check(got: String, expected: &str) {
    let expected: String =
        expected.lines().map(str::trim).filter(|l| !l.is_empty()).map(|l| format!("{l}\n")).collect();
    assert_eq!(got, expected, "\ngot:\n{got}");
}

fn walkthrough() -> Plan {
    plan(
        &["apiserver-1", "apiserver-2", "apiserver-3"],
        "1.35",
        InitialPersisted::Migrated,
        vec![
            step("upgrade apiserver-1", &[(0, "1.36", "", "")], &[], &[]),
            step("upgrade apiserver-2", &[(1, "1.36", "", "")], &[], &[]),
            step("upgrade apiserver-3", &[(2, "1.36", "", "")], &[], &[]),
            step("migration starts", &[], &["stable.example.io/crontabs"], &[]),
            step("roll back apiserver-3", &[(2, "1.35", "", "")], &[], &[]),
            step("upgrade apiserver-3 again", &[(2, "1.36", "", "")], &[], &[]),
            step("migration restarts", &[], &["stable.example.io/crontabs"], &[]),
            step("migration completes", &[], &[], &["stable.example.io/crontabs"]),
        ],
    )
}

#[test]
fn storage_state_kep_case_walkthrough() {
    let sim = simulate(&walkthrough(), &apis(), None);
    check(
        resource_rows(&sim, "crontabs.stable.example.io"),
        "
        0 initial: v1 v1 v1 | v1 | v1 | v1 | up-to-date
        1 upgrade apiserver-1: v2 v1 v1 | - | v1,v2 | v1,v2 | blocked
        2 upgrade apiserver-2: v2 v2 v1 | - | v1,v2 | v1,v2 | blocked
        3 upgrade apiserver-3: v2 v2 v2 | v2 | v1,v2 | v1,v2 | may-start
        4 migration starts: v2 v2 v2 | v2 | v1,v2 | v1,v2 | started
        5 roll back apiserver-3: v2 v2 v1 | - | v1,v2 | v1,v2 | aborted
        6 upgrade apiserver-3 again: v2 v2 v2 | v2 | v1,v2 | v1,v2 | may-start
        7 migration restarts: v2 v2 v2 | v2 | v1,v2 | v1,v2 | started
        8 migration completes: v2 v2 v2 | v2 | v2 | v2 | completed
        ",
    );
    // Gizmo stays at v1 throughout.
    check(
        resource_rows(&sim, "gizmos.stable.example.io").lines().next().unwrap_or_default().to_owned() + "\n",
        "0 initial: v1 v1 v1 | v1 | v1 | v1 | up-to-date",
    );
    check(
        finding_rows(&sim),
        "
        1 emulation-above-peer-binary apiserver-1 emulates 1.36, newer than the binary version 1.35 of apiserver-2: clients see APIs and features that apiserver-2 does not have
        2 emulation-above-peer-binary apiserver-1 emulates 1.36, newer than the binary version 1.35 of apiserver-3: clients see APIs and features that apiserver-3 does not have
        2 emulation-above-peer-binary apiserver-2 emulates 1.36, newer than the binary version 1.35 of apiserver-3: clients see APIs and features that apiserver-3 does not have
        5 emulation-above-peer-binary apiserver-1 emulates 1.36, newer than the binary version 1.35 of apiserver-3: clients see APIs and features that apiserver-3 does not have
        5 emulation-above-peer-binary apiserver-2 emulates 1.36, newer than the binary version 1.35 of apiserver-3: clients see APIs and features that apiserver-3 does not have
        5 migration-aborted the storage migration of crontabs.stable.example.io to stable.example.io/v2 must be aborted: the API servers no longer agree on an encoding version (AllEncodingVersionsEqual=False)
        ",
    );
    // A 1.35 binary decodes v2 (introduced 1.35): every rollback is safe.
    assert!(sim.steps.iter().all(|s| s.rollbacks.iter().all(RollbackCheck::is_safe)));
}

#[test]
fn tracker_hashes_and_conditions() {
    let sim = simulate(&walkthrough(), &apis(), None);
    let at = |step: usize| {
        sim.steps[step].resources.iter().find(|r| r.name == "stable.example.io.crontabs").cloned().expect("crontabs")
    };
    let one = at(1);
    assert_eq!(one.condition.status.as_str(), "False");
    assert_eq!(one.condition.reason, "CommonEncodingVersionUnset");
    let current: Vec<&str> = one.storage_state.current.iter().map(|r| one.version_of_hash(&r.hash)).collect();
    assert_eq!(current, ["stable.example.io/v2", "stable.example.io/v1", "stable.example.io/v1"]);
    assert_eq!(
        one.servers[1].decodable_versions,
        ["stable.example.io/v2", "stable.example.io/v1"],
        "a 1.35 binary decodes both versions"
    );
    let three = at(3);
    assert_eq!(three.condition.reason, "CommonEncodingVersionSet");
    assert_eq!(
        three.storage_state.persisted,
        [
            crate::api::storage_version_hash("stable.example.io", "v1", "CronTab"),
            crate::api::storage_version_hash("stable.example.io", "v2", "CronTab")
        ]
    );
}

#[test]
fn unknown_initial_tracker() {
    let mut p = walkthrough();
    p.initial_persisted = InitialPersisted::Unknown;
    p.steps.truncate(4);
    p.steps.push(step("migration completes", &[], &[], &["stable.example.io/crontabs"]));
    let sim = simulate(&p, &apis(), None);
    check(
        resource_rows(&sim, "crontabs.stable.example.io"),
        "
        0 initial: v1 v1 v1 | v1 | v1 | Unknown | may-start
        1 upgrade apiserver-1: v2 v1 v1 | - | v1,v2 | Unknown,v2 | blocked
        2 upgrade apiserver-2: v2 v2 v1 | - | v1,v2 | Unknown,v2 | blocked
        3 upgrade apiserver-3: v2 v2 v2 | v2 | v1,v2 | Unknown,v2 | may-start
        4 migration starts: v2 v2 v2 | v2 | v1,v2 | Unknown,v2 | started
        5 migration completes: v2 v2 v2 | v2 | v2 | v2 | completed
        ",
    );
    assert!(sim.steps[3].resources[0].storage_state.has_unknown());
    assert!(!sim.steps[5].resources[0].storage_state.has_unknown());
}

#[test]
fn skip_level_upgrade_with_stepwise_emulation() {
    let p = plan(
        &["a", "b"],
        "1.33",
        InitialPersisted::Migrated,
        vec![
            step("binary a 1.36, emulating 1.33", &[(0, "1.36", "1.33", "")], &[], &[]),
            step("binary b 1.36, emulating 1.33", &[(1, "1.36", "1.33", "")], &[], &[]),
            step("emulate 1.34", &[(0, "", "1.34", ""), (1, "", "1.34", "")], &[], &[]),
            step("emulate 1.35", &[(0, "", "1.35", ""), (1, "", "1.35", "")], &[], &[]),
            step("emulate 1.36", &[(0, "", "-", ""), (1, "", "-", "")], &[], &[]),
        ],
    );
    let sim = simulate(&p, &apis(), None);
    let versions: String = sim
        .steps
        .iter()
        .map(|s| {
            let vs: Vec<String> = s
                .servers
                .iter()
                .map(|x| format!("{}/{}/{}", x.version.binary, x.version.emulation, x.version.min_compatibility))
                .collect();
            format!("{} {}\n", s.step, vs.join(" "))
        })
        .collect();
    check(
        versions,
        "
        0 1.33/1.33/1.32 1.33/1.33/1.32
        1 1.36/1.33/1.33 1.33/1.33/1.32
        2 1.36/1.33/1.33 1.36/1.33/1.33
        3 1.36/1.34/1.33 1.36/1.34/1.33
        4 1.36/1.35/1.34 1.36/1.35/1.34
        5 1.36/1.36/1.35 1.36/1.36/1.35
        ",
    );
    check(
        resource_rows(&sim, "crontabs.stable.example.io"),
        "
        0 initial: v1 v1 | v1 | v1 | v1 | up-to-date
        1 binary a 1.36, emulating 1.33: v1 v1 | v1 | v1 | v1 | up-to-date
        2 binary b 1.36, emulating 1.33: v1 v1 | v1 | v1 | v1 | up-to-date
        3 emulate 1.34: v1 v1 | v1 | v1 | v1 | up-to-date
        4 emulate 1.35: v1 v1 | v1 | v1 | v1 | up-to-date
        5 emulate 1.36: v2 v2 | v2 | v1,v2 | v1,v2 | may-start
        ",
    );
    check(finding_rows(&sim), "");
    // Once v2 is stored, the 1.33 binaries of steps 0 and 1 cannot come back;
    // a 1.36 binary emulating 1.33 (step 2) decodes v2.
    check(
        rollback_rows(&sim),
        "
        0:
        1: 0ok
        2: 0ok 1ok
        3: 0ok 1ok 2ok
        4: 0ok 1ok 2ok 3ok
        5: 0X 1X 2ok 3ok 4ok
        ",
    );
    let blockers: Vec<String> = sim.steps[5].rollbacks[1]
        .blockers
        .iter()
        .map(|b| format!("{} {} {}", b.resource, b.server, b.version))
        .collect();
    assert_eq!(blockers, ["crontabs.stable.example.io b stable.example.io/v2"]);
}

#[test]
fn unsafe_rollback_after_storage_moved() {
    let p = plan(
        &["a", "b"],
        "1.36",
        InitialPersisted::Migrated,
        vec![
            step("upgrade a", &[(0, "1.37", "", "")], &[], &[]),
            step("upgrade b", &[(1, "1.37", "", "")], &[], &[]),
            step("no rollback below 1.37", &[(0, "", "", "1.37"), (1, "", "", "1.37")], &[], &[]),
            step("migrate gizmos", &[], &["stable.example.io/gizmos"], &["stable.example.io/gizmos"]),
            step("roll back b", &[(1, "1.36", "", "-")], &[], &[]),
        ],
    );
    let sim = simulate(&p, &apis(), None);
    check(
        resource_rows(&sim, "gizmos.stable.example.io"),
        "
        0 initial: v1 v1 | v1 | v1 | v1 | up-to-date
        1 upgrade a: v1 v1 | v1 | v1 | v1 | up-to-date
        2 upgrade b: v1 v1 | v1 | v1 | v1 | up-to-date
        3 no rollback below 1.37: v2 v2 | v2 | v1,v2 | v1,v2 | may-start
        4 migrate gizmos: v2 v2 | v2 | v2 | v2 | completed
        5 roll back b: v2 v1 | - | v2,v1 | v2,v1 | blocked
        ",
    );
    check(
        rollback_rows(&sim),
        "
        0:
        1: 0ok
        2: 0ok 1ok
        3: 0X 1X 2ok
        4: 0X 1X 2ok 3ok
        5: 0X 1X 2ok 3ok 4ok
        ",
    );
    check(
        finding_rows(&sim),
        "
        1 emulation-above-peer-binary a emulates 1.37, newer than the binary version 1.36 of b: clients see APIs and features that b does not have
        5 data-loss b cannot decode gizmos.stable.example.io in stable.example.io/v2 (objects may already be stored in it); it decodes stable.example.io/v1
        5 emulation-above-peer-binary a emulates 1.37, newer than the binary version 1.36 of b: clients see APIs and features that b does not have
        5 min-compat-above-peer-emulation min-compatibility version 1.37 of a is above the emulation version 1.36 of b: a may store data that b is not guaranteed to read
        ",
    );
    let lost = &sim.steps[5].resources.iter().find(|r| r.resource.resource == "gizmos").expect("gizmos").undecodable;
    assert_eq!(
        lost,
        &[Undecodable {
            server: "b".into(),
            version: "stable.example.io/v2".into(),
            source: UndecodableSource::Persisted
        }]
    );
}

#[test]
fn version_rules() {
    let run = |binary: &str, steps: Vec<PlanStep>| {
        finding_rows(&simulate(&plan(&["a", "b"], binary, InitialPersisted::Migrated, steps), &apis(), None))
    };
    // Skip-level binary without pinning the emulation version to the window.
    check(
        run("1.33", vec![step("a to 1.37", &[(0, "1.37", "1.33", "")], &[], &[])]),
        "
        1 invalid-versions a: emulation version 1.33 is not between [1.34, 1.37.0]
        1 invalid-versions a: minCompatibilityVersion version 1.34 is not between [1.34, 1.33]
        1 min-compat-above-peer-emulation min-compatibility version 1.34 of a is above the emulation version 1.33 of b: a may store data that b is not guaranteed to read
        ",
    );
    check(
        run("1.36", vec![step("a emulates 1.37", &[(0, "", "1.37", "")], &[], &[])]),
        "
        1 emulation-above-peer-binary a emulates 1.37, newer than the binary version 1.36 of b: clients see APIs and features that b does not have
        1 invalid-versions a: emulation version 1.37 is not between [1.33, 1.36.0]
        ",
    );
    check(
        run("1.36", vec![step("a min-compat 1.36, b emulates 1.35", &[(0, "", "", "1.36"), (1, "", "1.35", "")], &[], &[])]),
        "1 min-compat-above-peer-emulation min-compatibility version 1.36 of a is above the emulation version 1.35 of b: a may store data that b is not guaranteed to read",
    );
    // A min-compatibility version equal to a peer's emulation version is fine.
    check(run("1.36", vec![step("a emulates 1.35", &[(0, "", "1.35", "1.35")], &[], &[])]), "");
    check(
        run("1.36", vec![step("a emulates 1.33", &[(0, "", "1.33", "1.33")], &[], &[])]),
        "
        1 emulation-skew emulation versions span 1.33 (a) to 1.36 (b): API servers of one control plane must be within one minor version of each other
        1 min-compat-above-peer-emulation min-compatibility version 1.35 of b is above the emulation version 1.33 of a: b may store data that a is not guaranteed to read
        ",
    );
}

#[test]
fn migration_rules() {
    let run = |steps: Vec<PlanStep>| {
        let sim = simulate(&plan(&["a", "b"], "1.35", InitialPersisted::Migrated, steps), &apis(), None);
        format!("{}{}", resource_rows(&sim, "crontabs.stable.example.io"), finding_rows(&sim))
    };
    check(
        run(vec![
            step("upgrade a", &[(0, "1.36", "", "")], &["stable.example.io/crontabs"], &[]),
            step("complete", &[], &[], &["stable.example.io/crontabs"]),
        ]),
        "
        0 initial: v1 v1 | v1 | v1 | v1 | up-to-date
        1 upgrade a: v2 v1 | - | v1,v2 | v1,v2 | blocked
        2 complete: v2 v1 | - | v1,v2 | v1,v2 | blocked
        1 emulation-above-peer-binary a emulates 1.36, newer than the binary version 1.35 of b: clients see APIs and features that b does not have
        1 migration-without-agreement a storage migration of crontabs.stable.example.io is started while the API servers disagree on its encoding version (AllEncodingVersionsEqual=False): objects written by the other servers would pollute the migration
        2 emulation-above-peer-binary a emulates 1.36, newer than the binary version 1.35 of b: clients see APIs and features that b does not have
        2 migration-not-running the storage migration of crontabs.stable.example.io cannot complete: no migration of it is running
        ",
    );
    // The common version changes mid-migration (both servers move together).
    check(
        run(vec![
            step("migrate", &[], &["stable.example.io/crontabs"], &[]),
            step("both to 1.36", &[(0, "1.36", "", ""), (1, "1.36", "", "")], &[], &[]),
        ]),
        "
        0 initial: v1 v1 | v1 | v1 | v1 | up-to-date
        1 migrate: v1 v1 | v1 | v1 | v1 | started
        2 both to 1.36: v2 v2 | v2 | v1,v2 | v1,v2 | aborted
        2 migration-aborted the storage migration of crontabs.stable.example.io to stable.example.io/v1 must be aborted: the common encoding version changed to stable.example.io/v2
        ",
    );
}

#[test]
fn resources_appear_when_introduced() {
    let config =
        ApiConfig { apis: vec![api("new.example.io", "v1beta1", "Thing", "things", "1.36")], ..ApiConfig::default() };
    let set = ApiSet::build(&config).expect("valid");
    let sim = simulate(
        &plan(
            &["a", "b"],
            "1.35",
            InitialPersisted::Migrated,
            vec![step("upgrade a", &[(0, "1.36", "", "")], &[], &[])],
        ),
        &set,
        None,
    );
    // Only a serves things at step 1; the tracker is created with Unknown.
    check(
        resource_rows(&sim, "things.new.example.io"),
        "
        0 initial:  | - |  |  | not-served
        1 upgrade a: v1beta1 | v1beta1 | v1beta1 | Unknown | may-start
    ",
    );
}

fn feature(name: &str, specs: &[(&str, Stage, bool, bool)]) -> Feature {
    Feature {
        name: name.to_owned(),
        specs: specs
            .iter()
            .map(|(version, stage, default, lock)| FeatureSpec {
                version: v(version),
                default: *default,
                lock_to_default: *lock,
                stage: *stage,
                min_compatibility_version: None,
            })
            .collect(),
        dependencies: Vec::new(),
        description: None,
        ratchet: None,
    }
}

#[test]
fn feature_changes_per_server() {
    let set = FeatureSet::from_features(vec![
        feature("Gadgets", &[("1.34", Stage::Alpha, false, false), ("1.36", Stage::Beta, true, false)]),
        feature("Stable", &[("1.20", Stage::GA, true, true)]),
    ])
    .unwrap_or_else(|err| panic!("{err}"));
    let p = plan(
        &["a", "b"],
        "1.35",
        InitialPersisted::Migrated,
        vec![
            step("upgrade a", &[(0, "1.36", "", "")], &[], &[]),
            step("upgrade b, emulating 1.35", &[(1, "1.36", "1.35", "")], &[], &[]),
        ],
    );
    let sim = simulate(&p, &apis(), Some(&set));
    let rows: String = sim
        .steps
        .iter()
        .flat_map(|s| {
            s.features.iter().map(move |c| {
                format!(
                    "{} {} {} {}/{} -> {}/{}\n",
                    s.step, c.server, c.name, c.before.stage, c.before.default, c.after.stage, c.after.default
                )
            })
        })
        .collect();
    check(rows, "1 a Gadgets Alpha/false -> Beta/true");
}
