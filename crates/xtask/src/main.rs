//! `cargo xtask`: kompat's maintainer commands, kept out of the `kompat`
//! binary users install: the generators of the Kubernetes tables
//! (`scripts/gen-k8s-*` call them with the usual arguments; the command
//! modules walk the sources, the readers are this package's library), and
//! the benchmark, fuzzing and synthetic-tree drivers, which stay scripts
//! (they run cargo, ripgrep, hyperfine and libFuzzer) started from here.

mod k8s_apis;
mod k8s_removed_features;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// kompat's maintainer commands.
#[derive(Debug, Parser)]
#[command(name = "xtask", about, disable_version_flag = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Generate the kompat API table of Kubernetes' built-in APIs from Kubernetes' API repositories at their release tags.
    #[command(name = "k8s-apis")]
    K8sApis(K8sApisArgs),
    /// Generate the table of Kubernetes' removed feature gates from its feature gates release by release.
    #[command(name = "k8s-removed-features")]
    K8sRemovedFeatures(K8sRemovedFeaturesArgs),
    /// Run a benchmark against its baseline measured in the same run (`scripts/bench-NAME`).
    Bench(ScriptArgs<Bench>),
    /// Run the libFuzzer campaign of every fuzz target, or of those named (`scripts/fuzz`).
    Fuzz(PassArgs),
    /// Write a deterministic synthetic tree to benchmark on (`scripts/gen-LANG-tree`).
    #[command(name = "gen-tree")]
    GenTree(ScriptArgs<GenTree>),
}

/// A driver kept as a script (it runs cargo, ripgrep, hyperfine and the
/// fuzzer), and the arguments passed on to it.
#[derive(Debug, Args)]
struct ScriptArgs<W: clap::ValueEnum + Clone + Send + Sync + 'static> {
    #[arg(value_enum)]
    which: W,
    /// Passed on to the script (see its header for what it takes).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Bench {
    /// `kompat lint` on Rust trees and files against ripgrep.
    Lint,
    /// `kompat lint` on Go trees against ripgrep.
    Go,
    /// `kompat lint` on Kubernetes manifests against ripgrep.
    Manifests,
    /// `kompat gen` and `export --format rust` against a bare process start.
    Gen,
    /// The typed gate against a bare array and a HashMap.
    Gate,
    /// What `#[derive(FeatureGates)]` adds to a clean build, and its floors.
    Derive,
    /// What kompat's derives add to a clean build of a kube-rs operator.
    Operator,
}

/// Arguments passed on to a script as they are.
#[derive(Debug, Args)]
struct PassArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum GenTree {
    Rust,
    Go,
    /// Kubernetes manifests (`gen-tree manifests` too).
    #[value(alias = "manifests")]
    Manifest,
}

/// The name clap gives a value (`lint` for `Bench::Lint`).
fn value_name<V: clap::ValueEnum>(value: &V) -> String {
    value.to_possible_value().map(|p| p.get_name().to_owned()).unwrap_or_default()
}

/// Runs `scripts/NAME` from the workspace root with `args`, as the exit code.
fn run_script(name: &str, args: &[String]) -> ExitCode {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join("scripts").join(name);
    match std::process::Command::new("bash").arg(&path).args(args).current_dir(&root).status() {
        Ok(status) => ExitCode::from(status.code().and_then(|c| u8::try_from(c).ok()).unwrap_or(1)),
        Err(err) => {
            eprintln!("error: cannot run {}: {err}", path.display());
            ExitCode::from(2)
        }
    }
}

#[derive(Debug, Args)]
struct K8sApisArgs {
    /// A Go module (a checkout of kubernetes/api, …; `NAME@vX.Y.Z` directories are that release)
    /// or a Go module cache holding k8s.io/api, apiextensions-apiserver and kube-aggregator
    /// versions; repeatable. The newest version that has a group/version/kind wins.
    #[arg(long, value_name = "PATH", required_unless_present = "git")]
    source: Vec<PathBuf>,
    /// A Git directory of one of Kubernetes' published API repositories (kubernetes/api,
    /// apiextensions-apiserver, kube-aggregator; a bare mirror will do), read at the newest
    /// patch tag `kubernetes-1.N.P` of each release from `--since` on; repeatable. Kinds no
    /// prerelease-lifecycle file states get their lifecycle from the releases that define them.
    #[arg(long, value_name = "GIT_DIR")]
    git: Vec<PathBuf>,
    /// The first release read from `--git` directories (default 1.16).
    #[arg(long, value_name = "VERSION")]
    since: Option<String>,
    /// Declared facts no generated file states (resource names, enablement), each with its source.
    #[arg(long, value_name = "FILE")]
    supplement: Option<PathBuf>,
    /// Write the table here (atomically) instead of to stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct K8sRemovedFeaturesArgs {
    /// One release's feature gates: `1.34=DIR` (Go feature files, read as `--decls` reads them),
    /// Kubernetes' `versioned_feature_list.yaml` of that release, or any other declaration input;
    /// repeatable, consecutive minors. The newest is the reference list.
    #[arg(long, value_name = "VERSION=PATH", required = true)]
    release: Vec<String>,
    /// Write the table here (atomically) instead of to stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::K8sApis(args) => k8s_apis::run(args),
        Command::K8sRemovedFeatures(args) => k8s_removed_features::run(args),
        Command::Bench(a) => return run_script(&format!("bench-{}", value_name(&a.which)), &a.args),
        Command::Fuzz(a) => return run_script("fuzz", &a.args),
        Command::GenTree(a) => return run_script(&format!("gen-{}-tree", value_name(&a.which)), &a.args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            let color = !matches!(anstream::AutoStream::choice(&std::io::stderr()), anstream::ColorChoice::Never);
            eprint!("{}", kompat_diag::render(&err.diagnostics, color));
            ExitCode::from(2)
        }
    }
}
