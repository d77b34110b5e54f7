//! `kompat apis`, `kompat storage` and `kompat hash`: what a Kubernetes-style
//! API server serves at an emulation version, where it stores each resource,
//! and the storage-version hash discovery shows.

use std::process::ExitCode;

use kompat_diag::Diagnostic;
use kompat_engine::api::ApiSet;
use kompat_engine::api::{served_apis, storage_version_hash, storage_versions, RuntimeConfig, ServeOptions};
use kompat_project::{Config, Decls, Error, Result, SourceFile};
use kompat_runtime::GroupVersionKind;
use serde::Serialize;

use super::{load_project, print_stdout, render_table, resolve_versions, to_json, write_or_print};
use crate::cli::{ApiFormat, ApisArgs, DeclArgs, HashArgs, StorageArgs};

#[derive(Serialize)]
struct ServedRow<'a> {
    group: &'a str,
    version: &'a str,
    resource: &'a str,
}

#[derive(Serialize)]
struct StorageRow<'a> {
    group: &'a str,
    resource: &'a str,
    kind: &'a str,
    storage_version: String,
    hash: &'a str,
}

/// The kinds among the declarations that are CRDs' ([`Decls::is_crd`]):
/// (group, kind, resource). A CRD's served versions and storage version are
/// its manifest's, not kube-apiserver's choice, so `apis` and `storage`
/// leave them out and say so.
type CrdKinds = Vec<(String, String, String)>;

fn crd_kinds(decls: &Decls) -> CrdKinds {
    let mut kinds: CrdKinds = decls
        .api_config()
        .apis
        .into_iter()
        .filter(|a| decls.is_crd(&a.group, &a.kind))
        .map(|a| (a.group, a.kind, a.resource))
        .collect();
    kinds.sort();
    kinds.dedup();
    kinds
}

/// One line on stderr naming the CRD kinds a table leaves out.
fn note_crds_left_out(kinds: &CrdKinds) {
    if kinds.is_empty() {
        return;
    }
    let names: Vec<String> = kinds.iter().map(|(g, k, _)| format!("{k}.{g}")).collect();
    eprintln!(
        "note: left out {} (custom resources: their served and storage versions are their CustomResourceDefinition's; see `kompat lint` and `kompat crd-plan`)",
        names.join(", ")
    );
}

/// The configuration and the API set a command works on: the declared
/// APIs, or with `--kubernetes` Kubernetes' built-in ones (and the APIs of
/// `--decls`, when given, besides them); and the declared kinds that are
/// CRDs'.
fn load_apis(decls: &DeclArgs, kubernetes: bool) -> Result<(Option<Config>, ApiSet, CrdKinds)> {
    if !kubernetes {
        let project = load_project(decls)?;
        let set = project.decls.api_set()?;
        let crds = crd_kinds(&project.decls);
        return Ok((project.config, set, crds));
    }
    // Kubernetes' own APIs are served at the Kubernetes version: kompat.toml's
    // `[kubernetes] version`, never the project's `binary_version` (but
    // under the Kubernetes profile, where they are one).
    let config = Config::discover(decls.config.as_deref())?.map(|mut config| {
        config.binary_version = config.versions().1;
        config
    });
    let exclude = super::exclude(config.as_ref(), &decls.exclude)?;
    let mut loaded =
        if decls.decls.is_empty() { Decls::default() } else { kompat_project::load_excluding(&decls.decls, &exclude)? };
    let builtin = SourceFile::new(kompat_k8s::APIS_FILE_NAME.into(), kompat_k8s::APIS_TOML.to_owned());
    let file = kompat_k8s::api_file().map_err(|errors| builtin.parse_errors(errors))?;
    let crds = crd_kinds(&loaded);
    loaded.add_parsed(builtin, Default::default(), file);
    Ok((config, loaded.api_set()?, crds))
}

pub fn run_apis(args: ApisArgs) -> Result<ExitCode> {
    let (config, set, crds) = load_apis(&args.decls, args.kubernetes)?;
    if args.versions.min_compatibility_version.is_some() {
        return Err(Error::msg(
            "--min-compatibility-version does not change which APIs are served; use `kompat storage`",
        ));
    }
    let versions = resolve_versions(config.as_ref(), &args.versions)?;
    let mut runtime_config = RuntimeConfig::new();
    for value in &args.runtime_config {
        runtime_config.set(value);
    }
    let opts = ServeOptions {
        binary: versions.binary,
        emulation: versions.emulation,
        runtime_config,
        emulation_forward_compatible: args.emulation_forward_compatible,
        runtime_config_emulation_forward_compatible: args.runtime_config_emulation_forward_compatible,
    };
    let served = served_apis(&set, &opts)
        .map_err(|err| Error { diagnostics: err.messages.into_iter().map(failure).collect() })?;
    for warning in &served.warnings {
        eprintln!("warning: {warning}");
    }
    let rows: Vec<ServedRow<'_>> = served
        .resources
        .iter()
        .filter(|gvr| !crds.iter().any(|(g, _, r)| *g == gvr.group && *r == gvr.resource))
        .map(|gvr| ServedRow { group: &gvr.group, version: &gvr.version, resource: &gvr.resource })
        .collect();
    note_crds_left_out(&crds);
    let text = match args.format {
        ApiFormat::Json => to_json(&rows)?,
        ApiFormat::Table => {
            let cells: Vec<Vec<String>> =
                rows.iter().map(|r| vec![group_name(r.group), r.version.to_owned(), r.resource.to_owned()]).collect();
            render_table(&["GROUP", "VERSION", "RESOURCE"], &cells)
        }
    };
    write_or_print(args.output.as_deref(), text)?;
    Ok(ExitCode::SUCCESS)
}

pub fn run_storage(args: StorageArgs) -> Result<ExitCode> {
    let (config, set, crds) = load_apis(&args.decls, args.kubernetes)?;
    let versions = resolve_versions(config.as_ref(), &args.versions)?;
    let mut storage = storage_versions(&set, versions.emulation, versions.min_compatibility, versions.binary);
    storage.retain(|s| !crds.iter().any(|(g, k, _)| *g == s.group && *k == s.kind));
    note_crds_left_out(&crds);
    let text = match args.format {
        ApiFormat::Json => {
            let rows: Vec<StorageRow<'_>> = storage
                .iter()
                .map(|s| StorageRow {
                    group: &s.group,
                    resource: &s.resource,
                    kind: &s.kind,
                    storage_version: s.encoding_version(),
                    hash: &s.hash,
                })
                .collect();
            to_json(&rows)?
        }
        ApiFormat::Table => {
            let cells: Vec<Vec<String>> = storage
                .iter()
                .map(|s| {
                    vec![
                        group_name(&s.group),
                        s.resource.clone(),
                        s.kind.clone(),
                        s.encoding_version(),
                        s.hash.clone(),
                        s.source.as_str().to_owned(),
                        s.decodable_versions.join(","),
                    ]
                })
                .collect();
            render_table(&["GROUP", "RESOURCE", "KIND", "STORAGE VERSION", "HASH", "CHOSEN BY", "DECODABLE"], &cells)
        }
    };
    write_or_print(args.output.as_deref(), text)?;
    Ok(ExitCode::SUCCESS)
}

pub fn run_hash(args: HashArgs) -> Result<ExitCode> {
    let gvk = GroupVersionKind::split(&args.gvk)
        .filter(|g| !g.version.is_empty() && !g.kind.is_empty())
        .ok_or_else(|| {
            Error::msg(format!(
                "invalid GROUP/VERSION/KIND {:?}: expected three parts like `apps/v1/Deployment`, or `/v1/Pod` for the core group",
                args.gvk
            ))
        })?;
    if args.kubernetes && kompat_k8s::apis().find_kind(&gvk.group, &gvk.version, &gvk.kind).is_none() {
        return Err(Error::msg(format!("{gvk} is not one of Kubernetes' built-in API types")));
    }
    print_stdout(&format!("{}\n", storage_version_hash(&gvk.group, &gvk.version, &gvk.kind)))?;
    Ok(ExitCode::SUCCESS)
}

fn failure(message: String) -> Diagnostic {
    Diagnostic::error(message)
}

/// The core group shows as `""` in tables.
fn group_name(group: &str) -> String {
    if group.is_empty() {
        "\"\"".to_owned()
    } else {
        group.to_owned()
    }
}
