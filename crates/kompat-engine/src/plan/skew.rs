//! Version rules of one step: each server's window (`WindowPolicy::resolve`,
//! Kubernetes' flag messages) and the skew between peers in terms of
//! emulation and min-compatibility versions (KEP-4330, "Skew" and
//! "StorageVersion Compatibility Versioning").

use kompat_runtime::effective::{EffectiveVersion, WindowPolicy};

use super::{FindingKind, PlanFinding, ServerFlags};

/// The effective versions of a server, and the window errors (empty when the
/// flags are valid). Invalid flags still give versions, so that the rest of
/// the step can be simulated: emulation is the flag or the binary version,
/// min-compatibility the flag or emulation - 1 (floored).
pub(super) fn resolve(window: &WindowPolicy, flags: ServerFlags) -> (EffectiveVersion, Vec<String>) {
    match window.resolve(flags.binary, flags.emulation, flags.min_compatibility) {
        Ok(effective) => (effective, Vec::new()),
        Err(errors) => {
            let emulation = flags.emulation.unwrap_or(flags.binary);
            let floor = window.floor_for(flags.binary);
            let min_compatibility = flags.min_compatibility.unwrap_or_else(|| emulation.subtract_minor(1).max(floor));
            (EffectiveVersion { binary: flags.binary, emulation, min_compatibility }, errors)
        }
    }
}

/// The skew rules between the servers of one step, in server order:
///
/// 1. every server's min-compatibility version is at most every peer's
///    emulation version (a server only promises that data stays readable by
///    versions from its min-compatibility version on);
/// 2. the newest and the oldest emulation versions are at most one minor
///    apart (Kubernetes' HA kube-apiserver skew, stated in emulation versions);
/// 3. (warning) no server emulates a version newer than a peer's binary.
pub(super) fn skew_findings(step: usize, servers: &[(&str, EffectiveVersion)]) -> Vec<PlanFinding> {
    let mut findings = Vec::new();
    for (id, version) in servers {
        let peers = || servers.iter().filter(move |(peer, _)| peer != id);
        if let Some((peer, oldest)) = peers().min_by_key(|(_, v)| v.emulation) {
            if oldest.emulation < version.min_compatibility {
                findings.push(PlanFinding {
                    step,
                    kind: FindingKind::MinCompatAbovePeerEmulation,
                    server: Some((*id).to_owned()),
                    resource: None,
                    message: format!(
                        "min-compatibility version {} of {id} is above the emulation version {} of {peer}: \
                         {id} may store data that {peer} is not guaranteed to read",
                        version.min_compatibility, oldest.emulation
                    ),
                });
            }
        }
        if let Some((peer, lowest)) = peers().min_by_key(|(_, v)| v.binary) {
            if lowest.binary < version.emulation {
                findings.push(PlanFinding {
                    step,
                    kind: FindingKind::EmulationAbovePeerBinary,
                    server: Some((*id).to_owned()),
                    resource: None,
                    message: format!(
                        "{id} emulates {}, newer than the binary version {} of {peer}: clients see APIs and \
                         features that {peer} does not have",
                        version.emulation, lowest.binary
                    ),
                });
            }
        }
    }
    let oldest = servers.iter().min_by_key(|(_, v)| v.emulation);
    let newest = servers.iter().max_by_key(|(_, v)| v.emulation);
    if let (Some((old_id, old)), Some((new_id, new))) = (oldest, newest) {
        if new.emulation > old.emulation.add_minor(1) || new.emulation.major != old.emulation.major {
            findings.push(PlanFinding {
                step,
                kind: FindingKind::EmulationSkew,
                server: None,
                resource: None,
                message: format!(
                    "emulation versions span {} ({old_id}) to {} ({new_id}): API servers of one control plane \
                     must be within one minor version of each other",
                    old.emulation, new.emulation
                ),
            });
        }
    }
    findings
}
