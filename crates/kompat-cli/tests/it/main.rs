//! The integration tests of `kompat-cli`, one test binary (each module was
//! its own binary; one links once). Run one module with
//! `cargo test -p kompat-cli --test it MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod cli_adoption;
mod cli_apis;
mod cli_ci;
mod cli_cluster;
mod cli_components;
mod cli_config;
mod cli_crd_plan;
mod cli_diff;
mod cli_diff_inputs;
mod cli_features;
mod cli_first_run;
mod cli_gen;
mod cli_go;
mod cli_hostile;
mod cli_k8s;
mod cli_lint;
mod cli_manifests;
mod cli_plan;
mod cli_ranges;
mod cli_rbac;
mod cli_render;
mod cli_reports;
mod cli_versions;
mod fast_path;
mod fuzz_inline_allow;
mod fuzz_rendered;
mod lint_fixtures;
mod readme;
mod registry;
mod shared_data;
mod shared_data_features;
mod shared_data_k8s;
