//! The upgrade plan file (TOML; see `docs/plan.md`), parsed with spans into a
//! `kompat_engine::plan::Plan`. Every problem is reported, each with the span
//! it is about (or none when it is about the whole file).
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

use kompat_engine::api::GroupResource;
use kompat_engine::plan::{FlagChange, InitialPersisted, Plan, PlanServer, PlanStep, ServerChange, ServerFlags};
use kompat_runtime::{Version, WindowPolicy};
use serde::Deserialize;
use toml::Spanned;

use crate::span::{toml_syntax_error, ParseError};
use crate::window::WindowTable;
use kompat_span::Span;

/// A parsed plan, with where its parts are written.
#[derive(Debug)]
pub struct PlanFile {
    plan: Plan,
    /// The span of each `[[step]]` entry's name (or the entry), parallel to
    /// `plan.steps`.
    step_spans: Vec<Span>,
    /// Every resource a step names, with its span, in file order.
    resources: Vec<(GroupResource, Span)>,
}

impl PlanFile {
    /// The plan, ready to simulate.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Where step `step` (0-based, as in `plan().steps`) is written: its
    /// name, or the whole `[[step]]` entry.
    pub fn step_span(&self, step: usize) -> Option<Span> {
        self.step_spans.get(step).copied()
    }

    /// Every resource a step names, with its span, in file order.
    pub fn resources(&self) -> &[(GroupResource, Span)] {
        &self.resources
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlan {
    initial_persisted: Option<Spanned<String>>,
    window: Option<WindowTable>,
    #[serde(default)]
    server: Vec<Spanned<RawServer>>,
    #[serde(default)]
    step: Vec<Spanned<RawStep>>,
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

/// Collects located errors while the plan is checked.
struct Checker {
    errors: Vec<ParseError>,
}

impl Checker {
    fn fail(&mut self, span: std::ops::Range<usize>, message: String) {
        self.errors.push(ParseError::at(span.into(), message));
    }

    /// An error about the file as a whole.
    fn fail_whole(&mut self, message: &str) {
        self.errors.push(ParseError { span: None, message: message.to_owned() });
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

/// Parses and checks a plan file; every problem is reported.
pub fn parse_plan(text: &str) -> Result<PlanFile, Vec<ParseError>> {
    let raw: RawPlan = toml::from_str(text).map_err(|err| vec![toml_syntax_error(text, &err)])?;
    let mut c = Checker { errors: Vec::new() };

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

    let window = match raw.window.as_ref().map(WindowTable::policy).transpose() {
        Ok(window) => window.unwrap_or(WindowPolicy::DEFAULT),
        Err(errors) => {
            c.errors.extend(errors);
            WindowPolicy::DEFAULT
        }
    };

    if raw.server.is_empty() {
        c.fail_whole("the plan has no API servers: add a [[server]] with an id and a binary version");
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
        c.fail_whole("the plan has no steps: add a [[step]] with `set`, `start_migration` or `complete_migration`");
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
        let mut refs = |list: &[Spanned<String>], c: &mut Checker| -> Vec<GroupResource> {
            let mut out: Vec<GroupResource> = Vec::new();
            for key in list {
                match GroupResource::parse_key(key.get_ref()) {
                    Some(gr) if out.contains(&gr) => c.fail(key.span(), format!("`{}` is listed twice", key.get_ref())),
                    Some(gr) => {
                        resources.push((gr.clone(), key.span().into()));
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
        step_spans.push(step.name.as_ref().map_or_else(|| entry.span(), Spanned::span).into());
        steps.push(PlanStep { name, changes, start_migration, complete_migration });
    }

    if !c.errors.is_empty() {
        return Err(c.errors);
    }
    Ok(PlanFile { plan: Plan { window, servers, initial_persisted, steps }, step_spans, resources })
}
