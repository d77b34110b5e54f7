//! The upgrade plan file (TOML; see `docs/plan.md`), parsed with spans into a
//! `kompat_core::plan::Plan`. Every problem is located in the file.
//!
//! ```toml
//! initial_persisted = "migrated"     # or "unknown" (default)
//!
//! [window]                           # optional, as in kompat.toml
//! profile = "kubernetes"
//!
//! [[server]]
//! id = "apiserver-1"
//! binary = "1.35"
//! emulation = "1.35"                 # optional
//! min_compatibility = "1.34"         # optional
//!
//! [[step]]
//! name = "upgrade apiserver-1"
//! set = [{ server = "apiserver-1", binary = "1.36" }]   # "*" is every server
//! start_migration = ["stable.example.io/crontabs"]
//! complete_migration = ["stable.example.io/crontabs"]
//! ```

use std::collections::HashMap;
use std::ops::Range;

use kompat_core::api::GroupResource;
use kompat_core::plan::{FlagChange, InitialPersisted, Plan, PlanServer, PlanStep, ServerChange, ServerFlags};
use kompat_core::{Version, WindowPolicy};
use kompat_project::config::toml_message;
use kompat_project::{Error, Failure, Result, SourceFile};
use serde::Deserialize;
use toml::Spanned;

/// A parsed plan, with where its parts are written.
#[derive(Debug)]
pub struct PlanFile {
    pub plan: Plan,
    /// The span of each `[[step]]` entry's name (or the entry), by step index.
    pub step_spans: Vec<Range<usize>>,
    /// Every resource a step names, with its span, in file order.
    pub resources: Vec<(GroupResource, Range<usize>)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlan {
    initial_persisted: Option<Spanned<String>>,
    window: Option<RawWindow>,
    #[serde(default)]
    server: Vec<Spanned<RawServer>>,
    #[serde(default)]
    step: Vec<Spanned<RawStep>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWindow {
    profile: Option<Spanned<String>>,
    skew: Option<u32>,
    floor: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawServer {
    id: Spanned<String>,
    binary: Spanned<String>,
    emulation: Option<Spanned<String>>,
    min_compatibility: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    name: Option<Spanned<String>>,
    #[serde(default)]
    set: Vec<Spanned<RawSet>>,
    #[serde(default)]
    start_migration: Vec<Spanned<String>>,
    #[serde(default)]
    complete_migration: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    server: Spanned<String>,
    binary: Option<Spanned<String>>,
    emulation: Option<Spanned<String>>,
    min_compatibility: Option<Spanned<String>>,
}

/// Collects located failures while the plan is checked.
struct Checker<'a> {
    source: &'a SourceFile,
    failures: Vec<Failure>,
}

impl Checker<'_> {
    fn fail(&mut self, span: Range<usize>, message: String) {
        self.failures.push(Failure { message, location: Some(self.source.locate(span.start, span.end)) });
    }

    fn version(&mut self, value: &Spanned<String>) -> Option<Version> {
        match Version::parse(value.get_ref()) {
            Ok(v) => Some(v),
            Err(err) => {
                self.fail(value.span(), err.to_string());
                None
            }
        }
    }

    /// A flag in a `set` entry: absent keeps it, `"default"` unsets it.
    fn flag(&mut self, value: &Option<Spanned<String>>) -> FlagChange {
        match value {
            None => FlagChange::Keep,
            Some(v) if v.get_ref() == "default" => FlagChange::Unset,
            Some(v) => self.version(v).map_or(FlagChange::Keep, FlagChange::Set),
        }
    }
}

/// Parses and checks a plan file.
pub fn parse_plan(source: &SourceFile) -> Result<PlanFile> {
    let raw: RawPlan = toml::from_str(&source.text).map_err(|err| {
        let location = match err.span() {
            Some(span) => source.locate(span.start, span.end),
            None => source.whole(),
        };
        Error { failures: vec![Failure { message: toml_message(&err), location: Some(location) }] }
    })?;
    let mut c = Checker { source, failures: Vec::new() };

    let initial_persisted = match &raw.initial_persisted {
        None => InitialPersisted::Unknown,
        Some(value) => match value.get_ref().as_str() {
            "unknown" => InitialPersisted::Unknown,
            "migrated" => InitialPersisted::Migrated,
            other => {
                c.fail(value.span(), format!("unknown initial_persisted `{other}`, expected `unknown` or `migrated`"));
                InitialPersisted::Unknown
            }
        },
    };

    let mut window = WindowPolicy::DEFAULT;
    if let Some(w) = &raw.window {
        if let Some(profile) = &w.profile {
            match profile.get_ref().as_str() {
                "kubernetes" => window = WindowPolicy::KUBERNETES,
                "default" => window = WindowPolicy::DEFAULT,
                other => c.fail(
                    profile.span(),
                    format!("unknown window profile `{other}`, expected `kubernetes` or `default`"),
                ),
            }
        }
        if let Some(skew) = w.skew {
            window.skew = skew;
        }
        if let Some(floor) = &w.floor {
            window.floor = c.version(floor).or(window.floor);
        }
    }

    if raw.server.is_empty() {
        c.failures.push(Failure {
            message: "the plan has no API servers: add a [[server]] with an id and a binary version".to_owned(),
            location: Some(source.whole()),
        });
    }
    let mut servers = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    for entry in &raw.server {
        let server = entry.get_ref();
        let id = server.id.get_ref();
        if id.is_empty() || id == "*" {
            c.fail(server.id.span(), format!("invalid server id `{id}`: ids are non-empty and `*` means every server"));
        } else if ids.insert(id.clone(), servers.len()).is_some() {
            c.fail(server.id.span(), format!("duplicate server id `{id}`"));
        }
        let binary = c.version(&server.binary).unwrap_or(Version::new(0, 0));
        let emulation = server.emulation.as_ref().and_then(|v| c.version(v));
        let min_compatibility = server.min_compatibility.as_ref().and_then(|v| c.version(v));
        servers.push(PlanServer { id: id.clone(), flags: ServerFlags { binary, emulation, min_compatibility } });
    }

    if raw.step.is_empty() {
        c.failures.push(Failure {
            message: "the plan has no steps: add a [[step]] with `set`, `start_migration` or `complete_migration`"
                .to_owned(),
            location: Some(source.whole()),
        });
    }
    let mut steps = Vec::new();
    let mut step_spans = Vec::new();
    let mut resources = Vec::new();
    for (idx, entry) in raw.step.iter().enumerate() {
        let step = entry.get_ref();
        let number = idx + 1;
        if step.set.is_empty() && step.start_migration.is_empty() && step.complete_migration.is_empty() {
            c.fail(
                entry.span(),
                format!("step {number} does nothing: give `set`, `start_migration` or `complete_migration`"),
            );
        }
        let mut changes: Vec<ServerChange> = Vec::new();
        for set in &step.set {
            let set = set.get_ref();
            let target = set.server.get_ref();
            let targets: Vec<usize> = if target == "*" {
                (0..servers.len()).collect()
            } else if let Some(&server) = ids.get(target) {
                vec![server]
            } else {
                let known: Vec<String> = raw.server.iter().map(|s| format!("`{}`", s.get_ref().id.get_ref())).collect();
                c.fail(
                    set.server.span(),
                    format!("unknown server `{target}`; the plan's servers are {}", known.join(", ")),
                );
                continue;
            };
            let binary = set.binary.as_ref().and_then(|v| c.version(v));
            let emulation = c.flag(&set.emulation);
            let min_compatibility = c.flag(&set.min_compatibility);
            for server in targets {
                if changes.iter().any(|ch| ch.server == server) {
                    c.fail(
                        set.server.span(),
                        format!("step {number} sets server `{}` more than once", servers[server].id),
                    );
                    continue;
                }
                changes.push(ServerChange { server, binary, emulation, min_compatibility });
            }
        }
        let mut refs = |list: &[Spanned<String>], c: &mut Checker<'_>| -> Vec<GroupResource> {
            let mut out: Vec<GroupResource> = Vec::new();
            for key in list {
                match GroupResource::parse_key(key.get_ref()) {
                    Some(gr) if out.contains(&gr) => c.fail(key.span(), format!("`{}` is listed twice", key.get_ref())),
                    Some(gr) => {
                        resources.push((gr.clone(), key.span()));
                        out.push(gr);
                    }
                    None => c.fail(
                        key.span(),
                        format!(
                            "invalid resource `{}`: expected \"GROUP/RESOURCE\" (\"/RESOURCE\" for the core group)",
                            key.get_ref()
                        ),
                    ),
                }
            }
            out
        };
        let start_migration = refs(&step.start_migration, &mut c);
        let complete_migration = refs(&step.complete_migration, &mut c);
        let name = step.name.as_ref().map_or_else(|| format!("step {number}"), |n| n.get_ref().clone());
        step_spans.push(step.name.as_ref().map_or_else(|| entry.span(), Spanned::span));
        steps.push(PlanStep { name, changes, start_migration, complete_migration });
    }

    if !c.failures.is_empty() {
        return Err(Error { failures: c.failures });
    }
    Ok(PlanFile { plan: Plan { window, servers, initial_persisted, steps }, step_spans, resources })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn parse(text: &str) -> Result<PlanFile> {
        parse_plan(&SourceFile::new(PathBuf::from("plan.toml"), text.to_owned()))
    }

    /// Parses `text` and renders the errors as `line:col: message`, one per line.
    #[track_caller]
    fn check_err(text: &str, expected: &[&str]) {
        let err = match parse(text) {
            Ok(_) => panic!("expected errors for:\n{text}"),
            Err(err) => err,
        };
        let got: Vec<String> = err
            .failures
            .iter()
            .map(|f| match f.location.as_ref().and_then(|l| l.line_col) {
                Some((line, col)) => format!("{line}:{col}: {}", f.message),
                None => f.message.clone(),
            })
            .collect();
        assert_eq!(got, expected);
    }

    const SERVERS: &str = "[[server]]\nid = \"a\"\nbinary = \"1.35\"\n[[server]]\nid = \"b\"\nbinary = \"1.35\"\n";

    use crate::mutate;

    /// Plan files: no mutation of the walkthrough plan may make parsing
    /// panic, and every error is located.
    #[test]
    fn parser_never_panics() {
        const SEED: &str = include_str!("../../../../fixtures/plans/walkthrough.toml");
        let mut rng = mutate::Rng(0x6b6f_6d70_6174_0301);
        let mut accepted = 0;
        for _ in 0..mutate::iterations(3000) {
            let input = mutate::mutate(SEED, &mut rng);
            match parse(&input) {
                Ok(_) => accepted += 1,
                Err(err) => {
                    for failure in &err.failures {
                        assert!(failure.location.is_some(), "unlocated: {}\n{input}", failure.message);
                    }
                }
            }
        }
        assert!(accepted > 0, "the mutations never produced a valid plan");
    }

    #[test]
    fn parses_a_plan() {
        let text = format!(
            "initial_persisted = \"migrated\"\n[window]\nprofile = \"kubernetes\"\n{SERVERS}\
             [[step]]\nname = \"up\"\nset = [{{ server = \"*\", binary = \"1.36\", emulation = \"1.35\" }}]\n\
             [[step]]\nset = [{{ server = \"a\", emulation = \"default\" }}]\nstart_migration = [\"g/rs\", \"/pods\"]\n"
        );
        let file = match parse(&text) {
            Ok(file) => file,
            Err(err) => panic!("{err}"),
        };
        let plan = &file.plan;
        assert_eq!(plan.window, WindowPolicy::KUBERNETES);
        assert_eq!(plan.initial_persisted, InitialPersisted::Migrated);
        assert_eq!(plan.steps.len(), 2);
        assert_eq!(plan.steps[0].name, "up");
        assert_eq!(plan.steps[1].name, "step 2");
        assert_eq!(plan.steps[0].changes.len(), 2);
        assert_eq!(plan.steps[0].changes[1].emulation, FlagChange::Set(Version::new(1, 35)));
        assert_eq!(plan.steps[1].changes[0].emulation, FlagChange::Unset);
        assert_eq!(plan.steps[1].changes[0].binary, None);
        let refs: Vec<String> = file.resources.iter().map(|(gr, _)| gr.storage_version_name()).collect();
        assert_eq!(refs, ["g.rs", "core.pods"]);
    }

    #[test]
    fn malformed_plans_are_located() {
        check_err("[[server]\n", &["1:10: unclosed array table, expected `]`"]);
        check_err(
            &format!("{SERVERS}[[step]]\nset = [{{ server = \"c\" }}]\n"),
            &["8:19: unknown server `c`; the plan's servers are `a`, `b`"],
        );
        check_err(
            &format!("{SERVERS}[[step]]\nset = [{{ server = \"a\", binary = \"1.36.1\" }}]\n"),
            &["8:33: invalid version \"1.36.1\": expected MAJOR.MINOR"],
        );
        check_err(
            &format!("{SERVERS}[[step]]\nname = \"x\"\n"),
            &["7:1: step 1 does nothing: give `set`, `start_migration` or `complete_migration`"],
        );
        check_err(
            &format!("{SERVERS}[[step]]\nstart_migration = [\"a/b/c\"]\n"),
            &["8:20: invalid resource `a/b/c`: expected \"GROUP/RESOURCE\" (\"/RESOURCE\" for the core group)"],
        );
        check_err(
            &format!("{SERVERS}[[step]]\nset = [{{ server = \"*\" }}, {{ server = \"b\" }}]\n"),
            &["8:37: step 1 sets server `b` more than once"],
        );
        check_err("[[server]]\nid = \"a\"\nbinary = \"1.35\"\n[[server]]\nid = \"a\"\nbinary = \"1.35\"\n[[step]]\nset = [{ server = \"a\" }]\n", &[
            "5:6: duplicate server id `a`",
        ]);
        check_err(
            &format!("{SERVERS}[[step]]\nset = [{{ server = \"a\", emulaton = \"1.34\" }}]\n"),
            &["8:24: unknown field `emulaton`, expected one of `server`, `binary`, `emulation`, `min_compatibility`"],
        );
        check_err(
            "initial_persisted = \"maybe\"\n",
            &[
                "1:21: unknown initial_persisted `maybe`, expected `unknown` or `migrated`",
                "the plan has no API servers: add a [[server]] with an id and a binary version",
                "the plan has no steps: add a [[step]] with `set`, `start_migration` or `complete_migration`",
            ],
        );
    }
}
