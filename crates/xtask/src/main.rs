//! `cargo xtask`: kompat's maintainer commands, kept out of the `kompat`
//! binary users install; `scripts/gen-k8s-*` call them with the usual
//! arguments. The command modules walk the sources; the readers are this
//! package's library.

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
