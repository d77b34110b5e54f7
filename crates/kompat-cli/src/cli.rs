//! Command-line arguments (the contract in `shared/spec/CONTRACT.md`).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(name = "kompat", version = env!("KOMPAT_VERSION"), about = "Versioned feature gates and API lifecycles, checked the Kubernetes way")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// When to colour diagnostics on stderr: `auto` follows NO_COLOR,
    /// CLICOLOR, CLICOLOR_FORCE and whether stderr is a terminal.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto)]
    pub color: ColorArg,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Resolve every declared feature at an emulation / min-compatibility version.
    Features(FeaturesArgs),
    /// Print the declarations in one rendering.
    Export(ExportArgs),
    /// Write the outputs configured in kompat.toml ([[gen.output]]).
    Gen(GenArgs),
    /// The group-versions and resources served at an emulation version.
    Apis(ApisArgs),
    /// The storage version (and its discovery hash) of every resource.
    Storage(StorageArgs),
    /// The storage-version hash of GROUP/VERSION/KIND (core group: /v1/Pod).
    Hash(HashArgs),
    /// How to remove CRD versions safely, from an old and a new manifest.
    CrdPlan(CrdPlanArgs),
    /// Simulate an upgrade plan of HA API servers; exit 1 if it is unsafe.
    Plan(PlanArgs),
    /// Check declarations, APIs and CRD manifests; exit 1 on an error-level finding.
    Lint(LintArgs),
    /// Print a lint rule's documentation.
    Explain(ExplainArgs),
    /// The gate and API changes between two versions, as release notes list them.
    Diff(DiffArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(CompletionsArgs),
    /// Print kompat's man page (roff), or write one page per subcommand.
    Manpage(ManpageArgs),
    /// Write a commented kompat.toml for the project in the working directory.
    Init(InitArgs),
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Print the kompat.toml that would be written, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManpageArgs {
    /// Write `kompat.1` and one `kompat-SUBCOMMAND.1` per subcommand into DIR
    /// (created if missing) instead of printing `kompat.1` to stdout.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct LintArgs {
    /// Declaration files or directories, CRD and Kubernetes manifests, deployment material;
    /// `-` reads manifests from standard input. Added to `decls` in kompat.toml.
    pub paths: Vec<PathBuf>,
    /// More declaration inputs; repeatable.
    #[arg(long = "decls", value_name = "PATH")]
    pub decls: Vec<PathBuf>,
    /// Declarations the project does not own (another component's gates, Kubernetes' list):
    /// they resolve gate names, and nothing located in them is reported; repeatable.
    /// Added to `reference` in kompat.toml.
    #[arg(long, value_name = "PATH")]
    pub reference: Vec<PathBuf>,
    /// Leave out what this glob matches (`.gitignore` syntax, relative to the working
    /// directory) when walking directories; repeatable. Added to `exclude` in kompat.toml.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// The project configuration (default: the first kompat.toml in the working directory
    /// or one of its parents).
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Read no kompat.toml: lint only the paths given.
    #[arg(long)]
    pub no_config: bool,
    /// The previously released declarations, or the deployed CRD manifest.
    #[arg(long, value_name = "PATH")]
    pub baseline: Option<PathBuf>,
    /// CRDs installed in the cluster (a file, a directory or `kubectl get crd
    /// -o yaml` output; repeatable): custom resources are judged against
    /// them, they are not linted.
    #[arg(long, value_name = "PATH")]
    pub crds: Vec<PathBuf>,
    /// The project's own version: its window, its gates, its removal rules
    /// (default: `binary_version` in kompat.toml).
    #[arg(long, value_name = "X.Y")]
    pub binary_version: Option<String>,
    /// The version window profile (default: from kompat.toml, else `default`);
    /// under `kubernetes` the project's versions are Kubernetes' and one sets both.
    #[arg(long, value_enum)]
    pub profile: Option<WindowProfile>,
    /// The Kubernetes version of the cluster: manifests, Kubernetes components'
    /// settings and Kubernetes' own gates are judged at it (default: `[kubernetes]
    /// version` in kompat.toml; never the binary version, but under the Kubernetes profile);
    /// `A..B` checks every minor of the upgrade path from A to B.
    #[arg(long, value_name = "X.Y|A..B")]
    pub kubernetes_version: Option<String>,
    /// The version the API server emulates when Kubernetes manifests are
    /// checked (default: the Kubernetes version).
    #[arg(long, value_name = "X.Y")]
    pub emulation_version: Option<String>,
    /// kube-apiserver's --runtime-config for manifest checks
    /// (`api/beta=true,batch/v1beta1=false`); repeatable.
    #[arg(long, value_name = "K=V,...")]
    pub runtime_config: Vec<String>,
    /// Manifest checks: the server serves future, higher-priority versions of
    /// beta+ APIs enabled at the emulation version.
    #[arg(long)]
    pub emulation_forward_compatible: bool,
    /// Manifest checks: --runtime-config may enable APIs introduced after
    /// the emulation version.
    #[arg(long)]
    pub runtime_config_emulation_forward_compatible: bool,
    /// `human` and `short` print to standard error (as rustc does), the
    /// machine formats to standard output.
    #[arg(long, value_enum, default_value_t = LintFormat::Human)]
    pub format: LintFormat,
    /// Write the report to FILE (any format; replaced whole, never left
    /// half-written) instead of printing it.
    #[arg(long, short, value_name = "FILE", conflicts_with = "write_suppressions")]
    pub output: Option<PathBuf>,
    /// Allow CODE: drop its findings (repeatable; `warnings` drops every
    /// warning).
    #[arg(short = 'A', long = "allow", value_name = "CODE")]
    pub allow: Vec<String>,
    /// Report CODE as a warning (repeatable).
    #[arg(short = 'W', long = "warn", value_name = "CODE")]
    pub warn: Vec<String>,
    /// Report CODE as an error (repeatable; `-D warnings` makes every
    /// warning an error). `-D` beats `-W` beats `-A`, and all of them beat
    /// `[lint.levels]`.
    #[arg(short = 'D', long = "deny", value_name = "CODE")]
    pub deny: Vec<String>,
    /// Findings recorded earlier (by `--write-suppressions`) are not reported,
    /// so an existing repository can adopt kompat and see only new findings.
    /// SARIF lists them as suppressed.
    #[arg(long, value_name = "FILE")]
    pub suppressions: Option<PathBuf>,
    /// Record every current finding in the `--suppressions` file (created or
    /// replaced) instead of reporting them; exit 0.
    #[arg(long, requires = "suppressions")]
    pub write_suppressions: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum WindowProfile {
    /// N-3, floored at 1.31.
    Kubernetes,
    /// N-3.
    Default,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LintFormat {
    Human,
    Short,
    Json,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// One rustc JSON diagnostic per line, for rust-analyzer's
    /// `check.overrideCommand`.
    RustcJson,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The rule's code, e.g. `removed-gate`.
    #[arg(required_unless_present = "list", default_value = "")]
    pub code: String,
    /// List every rule.
    #[arg(long)]
    pub list: bool,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The older version (`1.24`).
    #[arg(value_name = "FROM")]
    pub from: String,
    /// The newer version (`1.25`).
    #[arg(value_name = "TO")]
    pub to: String,
    /// Kubernetes manifests and deployment material (files or directories):
    /// only the changes that touch them are listed, the APIs their objects use
    /// and the gates their settings set.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// A kompat.toml whose inputs (`decls`) filter the changes as PATH does.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// The project's declarations (repeatable): compare them at the project's
    /// own versions instead of Kubernetes' gates and built-in APIs.
    #[arg(long = "decls", value_name = "PATH")]
    pub decls: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = DiffFormat::Human)]
    pub format: DiffFormat,
    /// Write the output to FILE (replaced whole, never left half-written) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum DiffFormat {
    Human,
    Json,
    /// A release-notes-like list.
    Markdown,
    /// A lifecycle timeline of the gates that changed, as one SVG document.
    Svg,
}

#[derive(Debug, Args)]
pub struct CrdPlanArgs {
    /// The CRD manifests as deployed now (multi-document YAML, or a directory of manifests).
    pub old: PathBuf,
    /// The CRD manifests to move to (a manifest or a directory).
    pub new: PathBuf,
    #[arg(long, value_enum, default_value_t = PlanFormat::Text)]
    pub format: PlanFormat,
    /// Write the output to FILE (replaced whole, never left half-written) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    /// The upgrade plan (TOML; see docs/plan.md).
    pub plan: PathBuf,
    /// API declarations, and optionally feature declarations; repeatable.
    #[arg(long = "decls", value_name = "PATH")]
    pub decls: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = UpgradePlanFormat::Human)]
    pub format: UpgradePlanFormat,
    /// Write the output to FILE (replaced whole, never left half-written) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum UpgradePlanFormat {
    Human,
    Json,
    Markdown,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum PlanFormat {
    Text,
    Markdown,
}

#[derive(Debug, Args)]
pub struct ApisArgs {
    #[command(flatten)]
    pub decls: DeclArgs,
    /// Kubernetes' built-in APIs (generated from its prerelease-lifecycle-gen output), besides any
    /// given with --decls.
    #[arg(long)]
    pub kubernetes: bool,
    #[command(flatten)]
    pub versions: VersionArgs,
    /// kube-apiserver's --runtime-config (`api/beta=true,batch/v1beta1=false`); repeatable.
    #[arg(long, value_name = "K=V,...")]
    pub runtime_config: Vec<String>,
    /// Serve future, higher-priority versions of beta+ APIs enabled at the emulation version.
    #[arg(long)]
    pub emulation_forward_compatible: bool,
    /// Allow --runtime-config to enable APIs introduced after the emulation version.
    #[arg(long)]
    pub runtime_config_emulation_forward_compatible: bool,
    #[arg(long, value_enum, default_value_t = ApiFormat::Table)]
    pub format: ApiFormat,
    /// Write the output to FILE (replaced whole, never left half-written) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct StorageArgs {
    #[command(flatten)]
    pub decls: DeclArgs,
    /// Kubernetes' built-in APIs (generated from its prerelease-lifecycle-gen output), besides any
    /// given with --decls.
    #[arg(long)]
    pub kubernetes: bool,
    #[command(flatten)]
    pub versions: VersionArgs,
    #[arg(long, value_enum, default_value_t = ApiFormat::Table)]
    pub format: ApiFormat,
    /// Write the output to FILE (replaced whole, never left half-written) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ApiFormat {
    Json,
    Table,
}

#[derive(Debug, Args)]
pub struct HashArgs {
    /// GROUP/VERSION/KIND of the storage version, e.g. `apps/v1/Deployment` or `/v1/Pod`.
    pub gvk: String,
    /// Require GROUP/VERSION/KIND to be one of Kubernetes' built-in API types.
    #[arg(long)]
    pub kubernetes: bool,
}

/// Where declarations come from.
#[derive(Debug, Args)]
pub struct DeclArgs {
    /// A declaration file (.yaml, .yml, .toml) or directory; repeatable.
    /// Defaults to `decls` in kompat.toml.
    #[arg(long = "decls", value_name = "PATH")]
    pub decls: Vec<PathBuf>,
    /// Leave out what this glob matches (`.gitignore` syntax, relative to the working
    /// directory) when walking directories; repeatable. Added to `exclude` in kompat.toml.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// The project configuration (default: the first kompat.toml in the working directory
    /// or one of its parents).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct VersionArgs {
    /// The version whose behaviour to emulate (default: the binary version).
    #[arg(long, value_name = "X.Y")]
    pub emulation_version: Option<String>,
    /// The oldest version peers may run (default: emulation version - 1).
    #[arg(long, value_name = "X.Y")]
    pub min_compatibility_version: Option<String>,
    /// The binary version; enables the version window (default: from kompat.toml).
    #[arg(long, value_name = "X.Y")]
    pub binary_version: Option<String>,
}

#[derive(Debug, Args)]
pub struct FeaturesArgs {
    #[command(flatten)]
    pub decls: DeclArgs,
    #[command(flatten)]
    pub versions: VersionArgs,
    /// Feature gate settings, `Name=true,Other=false`; repeatable.
    #[arg(long, value_name = "K=V,...")]
    pub feature_gates: Vec<String>,
    #[arg(long, value_enum, default_value_t = FeaturesFormat::Table)]
    pub format: FeaturesFormat,
    /// Write the output to FILE (replaced whole, never left half-written) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FeaturesFormat {
    Json,
    Table,
    /// A lifecycle timeline of the gates across releases, as one SVG document.
    Svg,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub decls: DeclArgs,
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// Write the output to FILE (replaced whole, never left half-written) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    /// Byte-identical to Kubernetes' versioned_feature_list.yaml.
    #[value(name = "k8s-yaml")]
    K8sYaml,
    Json,
    /// A feature table in the layout of Kubernetes' feature_list.md.
    Markdown,
    /// Emulation tables as Rust statics (as `kompat gen` writes them).
    Rust,
    /// Canonical kompat TOML, sorted by name, with an `@generated` header.
    Toml,
}

#[derive(Debug, Args)]
pub struct GenArgs {
    /// The project configuration (default: the first kompat.toml in the working directory or one of its parents).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Write nothing; exit 1 if a generated file is stale, showing its diff.
    #[arg(long)]
    pub check: bool,
}
