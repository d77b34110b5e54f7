//! `kompat lint`: every rule over the declarations, APIs and CRD manifests;
//! exit 1 when a finding is at error level.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use kompat_crd::{parse_conversions, parse_manifests, Crd};
use kompat_diag::{Diagnostic, Location};
use kompat_engine::api::{RuntimeConfig, ServeOptions};
use kompat_formats::deploy::GateSetting;
use kompat_formats::manifest::ManifestObject;
use kompat_formats::rbac::Role;
use kompat_formats::ParseError;
use kompat_project::inputs::Kind;
use kompat_project::{Config, Decls, Error, Result, SourceFile};
use kompat_runtime::{Version, VersionRange, WindowPolicy};
use kompat_rust::Rereads;

use super::{flag_range, flag_version};
use crate::cli::{LintArgs, WindowProfile};
use kompat_cli::rules::crd::CrdInput;
use kompat_cli::sources::rendered;

pub fn run(args: LintArgs) -> Result<ExitCode> {
    let outcome = collect(&args);
    super::findings::report(&args, outcome)
}

/// Reads every input and runs the linter: the findings after `[lint]` in
/// kompat.toml, before the command line's levels and suppressions.
///
/// The inputs are `decls` and `reference` of kompat.toml with the command
/// line's paths, `--decls` and `--reference` added (a file named twice is
/// read once, as a reference input if it is one anywhere).
fn collect(args: &LintArgs) -> Result<kompat_cli::Linted> {
    warm_tables();
    let config = if args.no_config { None } else { Config::discover(args.config.as_deref())? };
    // Positional paths and --decls are both inputs; CRD manifests are told
    // apart by their content.
    let configured = config.as_ref().map(|c| c.decls.as_slice()).unwrap_or_default();
    let configured_reference = config.as_ref().map(|c| c.reference.as_slice()).unwrap_or_default();
    let inputs: Vec<PathBuf> = args.paths.iter().chain(&args.decls).chain(configured).cloned().collect();
    let reference_paths: Vec<PathBuf> = args.reference.iter().chain(configured_reference).cloned().collect();
    if inputs.is_empty() && reference_paths.is_empty() {
        return Err(Error::msg("nothing to lint: pass PATH or --decls PATH, or set `decls` in kompat.toml"));
    }
    if let Some(config) = &config {
        let baseline = if args.baseline.is_some() { None } else { config.baseline.as_ref() };
        for path in config.outside_project(configured.iter().chain(configured_reference).chain(baseline)) {
            eprintln!("note: reading declarations from outside the project: {}", path.display());
        }
    }
    // Reference inputs first: a file they share with `decls` is theirs.
    let exclude = super::exclude(config.as_ref(), &args.exclude)?;
    let mut seen = Seen::of(&inputs, &reference_paths);
    let mut decl_inputs = Vec::new();
    let mut go_sources = Vec::new();
    let mut reference = Vec::new();
    let classified = kompat_project::classify_excluding(&reference_paths, &exclude)?;
    for input in classified.inputs {
        // Only the declarations of a reference input are read.
        if input.is_declarations() && seen.first(input.path(), !input.named) {
            reference.push(input.path().to_owned());
            decl_inputs.push(input);
        }
    }
    // A Go source that is not a path given was found by walking a
    // directory, which follows no symbolic link: no `lstat` to tell.
    let named: std::collections::HashSet<&Path> = reference_paths.iter().chain(&inputs).map(PathBuf::as_path).collect();
    for path in classified.go_sources {
        if seen.first(&path, !named.contains(path.as_path())) {
            reference.push(path.clone());
            go_sources.push(path);
        }
    }
    // One classification of every input, each file read once: declarations
    // (and Rust sources), CRD manifests and deployment material.
    let mut crd_sources = Vec::new();
    let mut settings = Vec::new();
    let mut roles = Vec::new();
    let mut inline_allows = Vec::new();
    let classified = kompat_project::classify_excluding(&inputs, &exclude)?;
    let mut unrendered = kompat_cli::Unrendered {
        charts: classified.charts.clone(),
        overlays: classified.overlays.clone(),
        ..kompat_cli::Unrendered::default()
    };
    // Kustomize trees render first: the files they consume are judged
    // through the render, not read again.
    let render_config = config.as_ref().and_then(|c| c.render.as_ref());
    let overlays = rendered::render_overlays(render_config, &classified.overlays, &mut unrendered);
    seen.files.reserve(classified.inputs.len() + classified.go_sources.len());
    let picked: Vec<_> = classified
        .inputs
        .into_iter()
        .filter(|input| seen.first(input.path(), !input.named) && !overlays.consumes(input.path()))
        .collect();
    // Read on every core, a batch at a time, each batch's results gathered
    // in the inputs' order (and dropped) before the next is read.
    let mut rest = picked;
    // A CRD that several files repeat (install bundles) is parsed once.
    let seen_crds = kompat_crd::SeenCrds::default();
    // Each file's objects, in the inputs' order.
    let mut objects_read = Vec::new();
    while !rest.is_empty() {
        let later = rest.split_off(rest.len().min(READ_BATCH));
        for read in read_manifests(std::mem::replace(&mut rest, later), &seen_crds) {
            inline_allows.extend(read.allows);
            // Deployment material and CRD manifests are Kubernetes manifests
            // too (joined once all are read).
            let objects = read.objects?;
            if !objects.is_empty() {
                objects_read.push(objects);
            }
            roles.extend(read.roles);
            match read.kind {
                Kind::CrdManifest => crd_sources.extend(read.crd_source),
                Kind::Deployment => settings.extend(read.settings?),
                _ => decl_inputs.extend(read.input),
            }
        }
    }
    let mut manifests = kompat_cli::concat_in_order(objects_read);
    go_sources.extend(classified.go_sources.into_iter().filter(|p| seen.first(p, !named.contains(p.as_path()))));
    project_images(config.as_ref(), &unrendered.charts).attribute(&mut settings);
    let decls = Decls::from_inputs(decl_inputs, &go_sources)?;
    debug_rereads(&decls);

    let baseline_path = args.baseline.clone().or_else(|| config.as_ref().and_then(|c| c.baseline.clone()));
    let (baseline_decls, baseline_files) = match &baseline_path {
        Some(path) => baseline(path)?,
        None => (None, Vec::new()),
    };
    let baseline_crds: Vec<Crd> = baseline_files.iter().flat_map(|(_, crds)| crds.iter().cloned()).collect();

    let mut crds = Vec::new();
    for (source, (partial_ok, parsed)) in crd_sources {
        let Some(parsed) = unrendered.crds_from(&source, partial_ok, parsed)? else { continue };
        let conversions = conversions_beside(&source.path)?;
        crds.push(CrdInput::manifest(source, parsed, baseline_crds.clone(), conversions));
    }
    check_baseline_crds(&crds, &baseline_files)?;
    crds.extend(orphan_conversions(&inputs, &crds)?);
    // A directory baseline is a whole release: a CRD it holds that no linted
    // manifest holds was removed.
    if baseline_path.as_deref().is_some_and(Path::is_dir) {
        for (source, old) in baseline_files {
            crds.push(CrdInput { removed_from: old, ..CrdInput::manifest(source, Vec::new(), Vec::new(), None) });
        }
    }

    // CRDs installed in the cluster: read for the judgement of custom
    // resources only.
    let configured_crds = config.as_ref().map(|c| c.crds.as_slice()).unwrap_or_default();
    let cluster_paths: Vec<PathBuf> = args.crds.iter().chain(configured_crds).cloned().collect();
    let cluster_crds = cluster_crds(&cluster_paths)?;

    let window = match args.profile {
        Some(WindowProfile::Kubernetes) => WindowPolicy::KUBERNETES,
        Some(WindowProfile::Default) => WindowPolicy::DEFAULT,
        None => config.as_ref().map_or(WindowPolicy::DEFAULT, |c| c.window),
    };
    // The project's version and the Kubernetes version of the cluster (one
    // release, or an upgrade path): neither stands in for the other, but
    // under the Kubernetes profile.
    let (binary, kube_path) = versions(args, config.as_ref())?;
    let path = kube_path.filter(|p| !p.is_single());
    if let (Some(path), Some(_)) = (path, &args.emulation_version) {
        return Err(Error::msg(format!(
            "--emulation-version names one release: it cannot be combined with the upgrade path {path} (each step emulates itself)"
        )));
    }
    // One release, or the newest of the path: the server of the last step.
    let kube_binary = kube_path.map(VersionRange::last);
    let serve = serve_options(args, kube_binary, window)?;
    // The rendered objects join the inputs: the kustomize trees', then the
    // charts', rendered for the target cluster (with the CRDs among the
    // inputs, the rendered ones too). On an upgrade path the charts render
    // for its last release here, and for each step again below.
    let mut rendered_from = std::collections::BTreeMap::new();
    let mut add = |docs: &[rendered::RenderedDoc],
                   objects: &mut Vec<kompat_formats::manifest::ManifestObject<kompat_diag::Location>>,
                   crds: &mut Vec<CrdInput>,
                   unrendered: &mut kompat_cli::Unrendered| {
        for doc in docs {
            let located = rendered::locate(doc, unrendered);
            objects.extend(located.objects);
            settings.extend(located.settings);
            if let Some((source, parsed)) = located.crd {
                crds.push(CrdInput::manifest(source, parsed, baseline_crds.clone(), None));
            }
            if let Some(origin) = located.origin {
                rendered_from.insert(origin, doc.how.clone());
            }
        }
    };
    add(&overlays.documents, &mut manifests, &mut crds, &mut unrendered);
    let at = serve.as_ref().map(|serve| serve.emulation);
    let api_versions_at = |serve: &kompat_engine::api::ServeOptions, crds: &[CrdInput]| {
        rendered::api_versions(serve, crds.iter().flat_map(|i| &i.crds).chain(&cluster_crds))
    };
    let api_versions = serve.as_ref().map(|serve| api_versions_at(serve, &crds)).unwrap_or_default();
    let charts = rendered::render_charts(render_config, &classified.charts, at, &api_versions, &mut unrendered);
    let mut last_charts = Vec::new();
    add(&charts, &mut last_charts, &mut crds, &mut unrendered);
    // On a path, the charts' objects are each step's own.
    if path.is_none() {
        manifests.append(&mut last_charts);
    }
    let inputs = kompat_cli::Inputs {
        config: config.as_ref(),
        decls: &decls,
        baseline: baseline_decls.as_ref(),
        binary,
        kubernetes: kube_binary,
        window,
        crds: &crds,
        cluster_crds: &cluster_crds,
        settings: &settings,
        manifests: &manifests,
        roles: &roles,
        serve: serve.as_ref(),
        reference: &reference,
        inline_allows: &inline_allows,
        unrendered: &unrendered,
    };
    let mut linted = match path {
        // Each step is a server of that release, with the charts rendered
        // for it (`--kube-version` and the API versions it serves).
        Some(path) => {
            let mut step_from = std::collections::BTreeMap::new();
            let linted = kompat_cli::lint_path(&inputs, path, &mut |version| {
                let serve = serve_options(args, Some(version), window)?;
                if Some(version) == kube_binary || classified.charts.is_empty() {
                    return Ok(kompat_cli::Step { serve, manifests: last_charts.clone() });
                }
                let api_versions = serve.as_ref().map(|serve| api_versions_at(serve, &crds)).unwrap_or_default();
                // A failure is reported once, from the render for the last
                // release.
                let mut scratch = kompat_cli::Unrendered::default();
                let docs = rendered::render_charts(
                    render_config,
                    &classified.charts,
                    Some(version),
                    &api_versions,
                    &mut scratch,
                );
                let mut objects = Vec::new();
                for doc in &docs {
                    let located = rendered::locate(doc, &mut scratch);
                    objects.extend(located.objects);
                    if let Some(origin) = located.origin {
                        step_from.insert(origin, doc.how.clone());
                    }
                }
                Ok(kompat_cli::Step { serve, manifests: objects })
            })?;
            for (origin, how) in step_from {
                rendered_from.entry(origin).or_insert(how);
            }
            linted
        }
        None => kompat_cli::lint_with_suppressed(&inputs)?,
    };
    rendered::annotate(&mut linted.findings, &rendered_from);
    // What was read is left to the end of the process ([`leave`]).
    leave((decls, crds, cluster_crds, manifests, roles, settings, last_charts, unrendered, seen_crds));
    Ok(linted)
}

/// Builds Kubernetes' built-in tables (APIs, gates, removed gates) on a
/// thread of their own while the inputs are walked and read: the rules need
/// them after the reads, when nothing else runs. A rule that comes first
/// waits for the build under way (or builds them itself when no thread
/// can be started).
fn warm_tables() {
    let _ = std::thread::Builder::new().spawn(|| {
        kompat_k8s::apis();
        kompat_k8s::features();
        kompat_k8s::removed_features();
    });
}

/// Leaves `value` unfreed, to the system, which takes a process's memory
/// back whole when it ends: `kompat lint` ends once the report is written,
/// and freeing a run's inputs (large trees of small allocations) would
/// take CPU time from the report's threads (a twelfth of the run's on a tree
/// of thousands of manifests). What is left holds memory only: no file, no
/// process, no temporary directory is closed or removed by a drop in it.
fn leave<T>(value: T) {
    std::mem::forget(value);
}

/// What the readers of manifests make of one input, on every core, before
/// the findings are gathered in the inputs' order ([`read_manifests`]).
struct ReadInput {
    kind: Kind,
    /// Its inline allowances (CRD manifests and deployment material).
    allows: Vec<kompat_cli::rules::inline_allow::InlineAllow>,
    objects: Result<Vec<ManifestObject<Location>>>,
    roles: Vec<Role<Location>>,
    /// Deployment material's gate settings.
    settings: Result<Vec<GateSetting<Location>>>,
    /// A CRD manifest, whether a partial CRD is no error in it (a kustomize
    /// patch: well-formed YAML in a kustomize directory), and its CRDs.
    crd_source: Option<(SourceFile, CrdsRead)>,
    /// Any other input, kept (deployment material is read whole here, and
    /// its text dropped).
    input: Option<kompat_project::Input>,
}

/// Whether a partial CRD is no error in a CRD manifest, and its CRDs.
type CrdsRead = (bool, std::result::Result<Vec<Crd>, Vec<ParseError>>);

/// How many inputs [`read_manifests`] reads at once: what is gathered of a
/// batch is dropped before the next is read, so the results wait for the
/// main thread a batch at most. Each batch ends with its threads' last
/// files, some threads idle: a tree of a few hundred files is one batch.
const READ_BATCH: usize = 1024;

/// Reads the manifests of `inputs` ([`ReadInput`]) on every core, in the
/// inputs' order; what is not kept of an input (its documents, deployment
/// material's text) is dropped as soon as it is read.
fn read_manifests(inputs: Vec<kompat_project::Input>, seen: &kompat_crd::SeenCrds) -> Vec<ReadInput> {
    type Cell = (PathBuf, std::sync::Mutex<Option<kompat_project::Input>>);
    let cells: Vec<Cell> =
        inputs.into_iter().map(|input| (input.path().to_owned(), std::sync::Mutex::new(Some(input)))).collect();
    let read = |(path, cell): &Cell| {
        let taken = cell.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        match taken {
            Some(input) => read_input(input, seen),
            None => failed(path, "internal error reading this file"),
        }
    };
    // One input (a file linted by itself) is read on this thread: no thread
    // to start, and the memory it frees is reused by what follows (a
    // thread's is kept for that thread).
    if cells.len() == 1 {
        return cells.iter().map(read).collect();
    }
    // The largest first: a large file met last would be left to one thread
    // while the others wait.
    let size = |(_, cell): &Cell| {
        let input = cell.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        input.as_ref().and_then(kompat_project::Input::source).map_or(0, |source| source.text.len())
    };
    let mut order: Vec<usize> = (0..cells.len()).collect();
    order.sort_by_cached_key(|&i| std::cmp::Reverse(size(&cells[i])));
    let results = kompat_rust::parallel::map(
        &order,
        READ_STACK_BYTES,
        |&i| read(&cells[i]),
        |&i, why| {
            let path = &cells[i].0;
            failed(path, &why.diagnostic(path).message)
        },
    );
    // Back in the inputs' order.
    let mut read: Vec<(usize, ReadInput)> = order.into_iter().zip(results).collect();
    read.sort_unstable_by_key(|&(i, _)| i);
    read.into_iter().map(|(_, result)| result).collect()
}

/// What an input whose read failed (`message`) gives: that error.
fn failed(path: &Path, message: &str) -> ReadInput {
    ReadInput {
        kind: Kind::Other,
        allows: Vec::new(),
        objects: Err(Error::in_file(path, message)),
        roles: Vec::new(),
        settings: Ok(Vec::new()),
        crd_source: None,
        input: None,
    }
}

/// The stack of each thread reading manifests: the YAML parser bounds its
/// own nesting.
const READ_STACK_BYTES: usize = 8 << 20;

/// [`ReadInput`] of one input.
fn read_input(input: kompat_project::Input, seen: &kompat_crd::SeenCrds) -> ReadInput {
    let kind = input.kind;
    let allows = match (kind, input.source()) {
        (Kind::CrdManifest | Kind::Deployment, Some(source)) => kompat_cli::rules::inline_allow::scan(source),
        _ => Vec::new(),
    };
    let objects = input.manifest_objects();
    let roles = input.rbac_roles();
    let settings = if kind == Kind::Deployment { input.gate_settings() } else { Ok(Vec::new()) };
    let mut read = ReadInput { kind, allows, objects, roles, settings, crd_source: None, input: None };
    match kind {
        Kind::CrdManifest => {
            let partial_ok = input.in_overlay && input.is_well_formed();
            // The documents parsed for the objects are not parsed again.
            let crds = input
                .source()
                .map(|source| kompat_crd::parse_manifests_read_shared(&source.text, input.stream(), seen));
            read.crd_source = input.into_source().zip(crds).map(|(source, crds)| (source, (partial_ok, crds)));
        }
        Kind::Deployment => {}
        // Only declarations are kept: any other input is dropped on this
        // thread, not on the thread that gathers the reads.
        _ => read.input = Some(input).filter(kompat_project::Input::is_declarations),
    }
    read
}

/// The project's version (`--binary-version`, else `binary_version`) and
/// the Kubernetes version of the cluster, one release or an upgrade path
/// (`--kubernetes-version`, else `[kubernetes] version`): two inputs,
/// neither standing in for the other, but under the Kubernetes profile
/// (`--profile kubernetes`, or `profile = "kubernetes"` in kompat.toml),
/// where the project's versions are Kubernetes' and one sets both (a flag
/// before kompat.toml).
fn versions(args: &LintArgs, config: Option<&Config>) -> Result<(Option<Version>, Option<VersionRange>)> {
    let binary_flag = args.binary_version.as_deref().map(|v| flag_version("binary-version", v)).transpose()?;
    let kubernetes_flag =
        args.kubernetes_version.as_deref().map(|v| flag_range("kubernetes-version", v)).transpose()?;
    let binary_config = config.and_then(|c| c.binary_version);
    let kubernetes_config = config.and_then(|c| c.kubernetes_path);
    let kubernetes_profile = match args.profile {
        Some(profile) => matches!(profile, WindowProfile::Kubernetes),
        None => config.is_some_and(|c| c.kubernetes_profile),
    };
    if kubernetes_profile {
        let binary = binary_flag
            .or(kubernetes_flag.map(VersionRange::last))
            .or(binary_config)
            .or(kubernetes_config.map(VersionRange::last));
        let kubernetes = kubernetes_flag
            .or(binary_flag.map(VersionRange::single))
            .or(kubernetes_config)
            .or(binary_config.map(VersionRange::single));
        return Ok((binary, kubernetes));
    }
    Ok((binary_flag.or(binary_config), kubernetes_flag.or(kubernetes_config)))
}

/// The project's images: `[project] images`, else the names it goes by
/// (the binaries under `cmd/`, the Go module's last segment, the Cargo
/// package, the charts among the inputs), read in kompat.toml's directory
/// (the working directory without one).
fn project_images(config: Option<&Config>, charts: &[PathBuf]) -> kompat_cli::images::ProjectImages {
    use kompat_cli::facts;
    let configured = config.map(|c| c.project_images.clone()).unwrap_or_default();
    if !configured.is_empty() {
        return kompat_cli::images::ProjectImages { configured, inferred: Vec::new() };
    }
    let dir = config.map_or_else(|| PathBuf::from("."), Config::dir);
    let dir = if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir };
    let read = |path: PathBuf| std::fs::read_to_string(path).ok();
    let mut names: Vec<String> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir.join("cmd")) {
        names.extend(entries.flatten().filter(|e| e.path().is_dir()).filter_map(|e| e.file_name().into_string().ok()));
    }
    if let Some(module) = read(dir.join("go.mod")).as_deref().and_then(kompat_project::go::module_directive) {
        let last = module.rsplit('/').find(|s| !(s.starts_with('v') && s[1..].bytes().all(|b| b.is_ascii_digit())));
        names.extend(last.map(str::to_owned));
    }
    names.extend(read(dir.join("Cargo.toml")).as_deref().and_then(facts::cargo_package_name));
    for chart in charts {
        let name = read(chart.join("Chart.yaml")).as_deref().and_then(facts::chart_name).map(str::to_owned);
        names.extend(name.or_else(|| chart.file_name().and_then(|n| n.to_str()).map(str::to_owned)));
    }
    names.retain(|n| !n.is_empty() && n != "OWNERS");
    names.sort();
    names.dedup();
    kompat_cli::images::ProjectImages { configured, inferred: names }
}

/// The files already read, by identity (the same file named through two
/// paths is one). Hashed with foldhash, seeded per process: the keys are
/// paths of the inputs, one insert per file on the main thread, before the
/// reads start (SipHash's cost there was serial).
#[derive(Default)]
struct Seen {
    files: foldhash::HashSet<PathBuf>,
    /// The canonical path of each directory files were seen in: the files
    /// of a tree share few directories.
    dirs: foldhash::HashMap<PathBuf, PathBuf>,
    /// Every file is named once or found by one walk of one path: a walk
    /// yields each file once and follows no symbolic link, so no path needs
    /// resolving (a tree of a directory per file would cost an `lstat` per
    /// file otherwise).
    one_path: bool,
}

impl Seen {
    /// What is seen of `inputs` and `references`, the paths given.
    fn of(inputs: &[PathBuf], references: &[PathBuf]) -> Seen {
        Seen { one_path: inputs.len() + references.len() == 1, ..Seen::default() }
    }

    /// True the first time `path`'s file is seen. Standard input is always
    /// new. `found` says the path was found by walking a directory, which
    /// follows no symbolic link: it is not one.
    fn first(&mut self, path: &Path, found: bool) -> bool {
        if path.as_os_str() == kompat_project::STDIN_NAME {
            return true;
        }
        if self.one_path && found {
            return self.files.insert(path.to_owned());
        }
        let key = self.canonical(path, found).unwrap_or_else(|| path.to_owned());
        self.files.insert(key)
    }

    /// `path` with every symbolic link resolved, as `std::fs::canonicalize`
    /// returns it: a file that is not a symbolic link is its directory's
    /// canonical path (resolved once per directory) joined with its name.
    fn canonical(&mut self, path: &Path, found: bool) -> Option<PathBuf> {
        let name = path.file_name()?;
        let is_link = || std::fs::symlink_metadata(path).map_or(true, |m| m.file_type().is_symlink());
        if !found && is_link() {
            return std::fs::canonicalize(path).ok();
        }
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        Some(self.canonical_dir(dir)?.join(name))
    }

    /// A directory's canonical path: its parent's joined with its name if it
    /// is not a symbolic link (one `lstat` per directory instead of resolving
    /// every component of every one again); cached.
    fn canonical_dir(&mut self, dir: &Path) -> Option<PathBuf> {
        if let Some(canonical) = self.dirs.get(dir) {
            return Some(canonical.clone());
        }
        let mut canonical = None;
        if let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) {
            let is_link = std::fs::symlink_metadata(dir).map_or(true, |m| m.file_type().is_symlink());
            if !parent.as_os_str().is_empty() && !is_link {
                canonical = self.canonical_dir(parent).map(|parent| parent.join(name));
            }
        }
        let canonical = match canonical {
            Some(canonical) => canonical,
            None => std::fs::canonicalize(dir).ok()?,
        };
        self.dirs.insert(dir.to_owned(), canonical.clone());
        Some(canonical)
    }
}

/// The API server manifests are checked against: the Kubernetes version (or
/// `--emulation-version` alone), emulating `--emulation-version` within the
/// window, with `--runtime-config` and the forward-compatibility flags.
fn serve_options(args: &LintArgs, binary: Option<Version>, window: WindowPolicy) -> Result<Option<ServeOptions>> {
    let emulation = args.emulation_version.as_deref().map(|v| flag_version("emulation-version", v)).transpose()?;
    let emulation = match (binary, emulation) {
        (Some(binary), emulation) => {
            window
                .resolve(binary, emulation, None)
                .map_err(|errors| Error { diagnostics: errors.into_iter().map(Diagnostic::error).collect() })?
                .emulation
        }
        (None, Some(emulation)) => emulation,
        (None, None) => return Ok(None),
    };
    let mut runtime_config = RuntimeConfig::new();
    for value in &args.runtime_config {
        runtime_config.set(value);
    }
    Ok(Some(ServeOptions {
        binary,
        emulation,
        runtime_config,
        emulation_forward_compatible: args.emulation_forward_compatible,
        runtime_config_emulation_forward_compatible: args.runtime_config_emulation_forward_compatible,
    }))
}

/// A baseline with CRDs must be a previous release of (some of) the CRDs
/// linted: when none of its CRDs pairs with a linted one (by
/// `<plural>.<group>`, or by kind, whose identity changes the upgrade checks
/// report), it is another CRD, and comparing nothing would pass silently.
/// The error points at the first linted CRD's name, with the baseline's.
fn check_baseline_crds(crds: &[CrdInput], baseline: &[BaselineCrds]) -> Result<()> {
    let old: Vec<&Crd> = baseline.iter().flat_map(|(_, crds)| crds).collect();
    let Some((input, first)) = crds.iter().find_map(|input| Some((input, input.crds.first()?))) else {
        return Ok(());
    };
    if old.is_empty() || crds.iter().flat_map(|i| &i.crds).any(|new| kompat_cli::rules::crd::pair(&old, new).is_some())
    {
        return Ok(());
    }
    let names = |crds: &mut dyn Iterator<Item = &Crd>| {
        let mut ids: Vec<String> = crds.map(|c| format!("`{}` (kind `{}`)", c.id(), c.kind.value)).collect();
        ids.dedup();
        ids.join(", ")
    };
    let new_names = names(&mut crds.iter().flat_map(|i| &i.crds));
    let old_names = names(&mut old.iter().copied());
    let mut diag = Diagnostic::error(format!(
        "the baseline is not a previous release of these CRDs: it holds {old_names}, the manifests hold {new_names}"
    ))
    .at(input.source.locate(first.name.span.start, first.name.span.end))
    .with_note("a CRD baseline is paired with the linted CRDs by `<plural>.<group>` (or by kind); pass the released manifest of the same CRD");
    for (source, crds) in baseline {
        for crd in crds {
            diag = diag.with_label(source.locate(crd.name.span.start, crd.name.span.end), "the baseline's CRD");
        }
    }
    Err(Error { diagnostics: vec![diag] })
}

/// The baseline: a named CRD manifest is CRDs only; otherwise its
/// declarations (a directory's or the named file's) and a directory's CRDs,
/// each file's CRDs with the file.
/// One CRD manifest of the baseline: the file and its CRDs.
type BaselineCrds = (SourceFile, Vec<Crd>);

fn baseline(path: &Path) -> Result<(Option<Decls>, Vec<BaselineCrds>)> {
    let classified = kompat_project::inputs::classify(std::slice::from_ref(&path.to_owned()))?;
    let mut crds = Vec::new();
    let mut decl_inputs = Vec::new();
    let mut named_crd = false;
    for input in classified.inputs {
        if input.kind == Kind::CrdManifest {
            named_crd |= input.named;
            let Some(source) = input.into_source() else { continue };
            let parsed = parse_crds(&source)?;
            crds.push((source, parsed));
        } else if input.is_loaded() {
            decl_inputs.push(input);
        }
    }
    let decls = if named_crd { None } else { Some(Decls::from_inputs(decl_inputs, &classified.go_sources)?) };
    Ok((decls, crds))
}

/// A debugging aid for the lint's benchmark: with `KOMPAT_DEBUG_REREADS` set
/// in the environment, how many released Rust files the reference search had
/// to read again goes to standard error (BENCHMARKS.md).
fn debug_rereads(decls: &Decls) {
    if let Some(scan) = decls.rust().filter(|_| std::env::var_os("KOMPAT_DEBUG_REREADS").is_some()) {
        let Rereads { read_again, released } = scan.rereads;
        eprintln!("kompat: {read_again} of {released} released Rust files read again");
    }
}

/// The CRDs of `paths` (files, directories, `kubectl get crd -o yaml`
/// output).
fn cluster_crds(paths: &[PathBuf]) -> Result<Vec<Crd>> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let classified = kompat_project::inputs::classify(paths)?;
    let mut crds = Vec::new();
    for input in classified.inputs {
        if input.kind == Kind::CrdManifest {
            if let Some(source) = input.into_source() {
                crds.extend(parse_crds(&source)?);
            }
        }
    }
    Ok(crds)
}

fn parse_crds(source: &SourceFile) -> Result<Vec<Crd>> {
    parse_manifests(&source.text).map_err(|errors| source.parse_errors(errors))
}

/// The conversions files, in the directories of the CRD manifests and in
/// the directories named as inputs, that belong to no CRD manifest among
/// the inputs: each an input with its `orphan-conversions-file` finding.
fn orphan_conversions(inputs: &[PathBuf], crds: &[CrdInput]) -> Result<Vec<CrdInput>> {
    let manifests: Vec<&Path> = crds.iter().map(|i| i.source.path.as_path()).collect();
    let mut dirs: Vec<PathBuf> = manifests.iter().filter_map(|p| p.parent()).map(Path::to_owned).collect();
    dirs.extend(inputs.iter().filter(|p| p.is_dir()).cloned());
    for dir in &mut dirs {
        if dir.as_os_str().is_empty() {
            *dir = PathBuf::from(".");
        }
    }
    dirs.sort();
    dirs.dedup();
    let owned: std::collections::HashSet<PathBuf> =
        manifests.iter().map(|m| m.with_extension("conversions.toml")).collect();
    let mut out = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut files: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".conversions.toml")))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for path in files {
            let known = |p: &Path| owned.contains(p) || owned.contains(&p.strip_prefix("./").unwrap_or(p).to_owned());
            if known(&path) {
                continue;
            }
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else { continue };
            let stem = name.trim_end_matches(".conversions.toml");
            let expected = format!("{stem}.yaml");
            // A manifest of the directory that the file looks meant for: its
            // name or its stem begins the file's.
            let meant = manifests.iter().find_map(|m| {
                let same_dir = m.parent().map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d })
                    == path.parent().map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d });
                let file = m.file_name()?.to_str()?;
                let m_stem = m.file_stem()?.to_str()?;
                (same_dir && stem.starts_with(m_stem)).then(|| {
                    let want = m.with_extension("conversions.toml");
                    (file.to_owned(), want.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
                })
            });
            let finding = kompat_crd::orphan_conversions(
                name,
                &expected,
                meant.as_ref().map(|(m, want)| (m.as_str(), want.as_str())),
            );
            let source = SourceFile::read(&path)?;
            out.push(CrdInput { orphan: Some(finding), ..CrdInput::manifest(source, Vec::new(), Vec::new(), None) });
        }
    }
    Ok(out)
}

/// `<name>.conversions.toml` next to `<name>.yaml` (the manifest's name with
/// its extension replaced), when it exists: the one lookup rule.
fn conversions_beside(manifest: &Path) -> Result<Option<(SourceFile, kompat_crd::Conversions)>> {
    let path = manifest.with_extension("conversions.toml");
    if !path.is_file() {
        return Ok(None);
    }
    let source = SourceFile::read(&path)?;
    let conversions = parse_conversions(&source.text).map_err(|errors| source.parse_errors(errors))?;
    Ok(Some((source, conversions)))
}
