//! Expansion snapshots: the generated tokens for a few inputs of each derive, formatted with
//! `prettyplease` and compared with `insta` snapshots in `src/snapshots/`
//! (regenerate with `INSTA_UPDATE=always cargo test -p kompat-macros --lib`), plus
//! every compile-fail UI input expanded, in `src/snapshots/ui/`.

use syn::DeriveInput;

/// Expanded tokens as formatted Rust, or the tokens with the reason they
/// are not a file.
fn pretty(tokens: proc_macro2::TokenStream) -> String {
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        Err(err) => format!("unparsable expansion ({err}):\n{tokens}\n"),
    }
}

#[track_caller]
fn check(name: &str, input: DeriveInput) {
    insta::assert_snapshot!(name, pretty(kompat_derive_internals::expand::derive(&input)));
}

#[test]
fn readme_example() {
    check(
        "readme_example",
        syn::parse_quote! {
            #[kompat(crate = "kompat")]
            pub enum Feature {
                /// Doc comments become the description.
                #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
                #[kompat(spec(version = "1.32", stage = "Beta", default = true))]
                WatchList,
                #[kompat(name = "KMSv1")]
                #[kompat(spec(version = "1.0", stage = "GA", default = true))]
                #[kompat(spec(version = "1.28", stage = "Deprecated", default = true))]
                #[kompat(spec(version = "1.29", stage = "Deprecated", default = false, locked = true))]
                KmsV1,
                #[kompat(depends_on(WatchList))]
                #[kompat(ratchet(tolerated_since = "1.31"))]
                #[kompat(allow(code = "orphaned-gate", reason = "read elsewhere"))]
                #[kompat(spec(version = "1.37", stage = "Beta", default = false))]
                #[kompat(spec(version = "1.37", stage = "Beta", default = true, min_compatibility = "1.37"))]
                Dra,
            }
        },
    );
}

#[test]
fn default_crate_path_and_inherited_min_compat() {
    check(
        "inherited_min_compat",
        syn::parse_quote! {
            enum Gates {
                #[kompat(spec(version = "0.4", stage = "Beta", default = false))]
                #[kompat(spec(version = "0.4", stage = "Beta", default = true, min_compatibility = "0.4"))]
                #[kompat(spec(version = "0.6", stage = "GA", default = true, locked = true))]
                Widgets,
            }
        },
    );
}

#[test]
fn errors_with_fallback_impl() {
    check(
        "errors_with_fallback",
        syn::parse_quote! {
            #[kompat(crate = "kompat_runtime")]
            enum Gates {
                #[kompat(spec(verison = "0.4", stage = "Beta", default = false))]
                Widgets,
                #[kompat(spec(version = "0.4", stage = "Alpha", default = true))]
                Gadgets,
            }
        },
    );
}

#[test]
fn no_output_but_errors_for_a_struct() {
    check("struct_input", syn::parse_quote! { struct Gates; });
}

#[track_caller]
fn check_api(name: &str, input: DeriveInput) {
    insta::assert_snapshot!(name, pretty(kompat_derive_internals::expand::derive_api(&input)));
}

#[test]
fn api_written_lifecycle() {
    check_api(
        "api_cronjob_v1beta1",
        syn::parse_quote! {
            #[kompat(api(
                group = "batch",
                version = "v1beta1",
                kind = "CronJob",
                resource = "cronjobs",
                introduced = "1.8",
                deprecated = "1.21",
                removed = "1.25",
                replacement = "batch/v1/CronJob",
            ))]
            pub struct CronJobV1beta1 {
                pub spec: CronJobSpec,
            }
        },
    );
}

#[test]
fn api_defaults_generics_and_crate_path() {
    check_api(
        "api_defaults",
        syn::parse_quote! {
            #[kompat(crate = "kompat_runtime")]
            #[kompat(api(group = "widgets.example.io", version = "v1alpha1", resource = "widgets", introduced = "0.4"))]
            pub struct Widget<T: Clone> where T: Default {
                pub spec: T,
            }
        },
    );
}

#[test]
fn api_errors_with_fallback_impl() {
    check_api(
        "api_errors_with_fallback",
        syn::parse_quote! {
            #[kompat(api(group = "", versoin = "v1", resource = "pods", introduced = "1.0", replacement = "/v1/pod"))]
            pub struct Pod;
        },
    );
}

/// Every compile-fail UI input (`tests/ui/*.rs`), expanded: each derive item
/// of each file, formatted, in one snapshot per file under
/// `src/snapshots/ui/`. Together with the `.stderr` files this pins both what
/// users see and what the macro emits next to it (the fallback impl).
#[test]
fn ui_inputs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/ui")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    assert!(files.len() >= 25, "{} UI inputs", files.len());
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots/ui");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for path in &files {
            let text = std::fs::read_to_string(path).expect("read UI input");
            let file = syn::parse_file(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
            let mut expanded = String::new();
            for item in &file.items {
                let input: DeriveInput = match item {
                    syn::Item::Enum(item) => item.clone().into(),
                    syn::Item::Struct(item) => item.clone().into(),
                    syn::Item::Union(item) => item.clone().into(),
                    _ => continue,
                };
                let tokens = if kompat_derive_internals::attr::derives(&input.attrs, "FeatureGates") {
                    kompat_derive_internals::expand::derive(&input)
                } else if kompat_derive_internals::attr::derives(&input.attrs, "ApiLifecycle") {
                    kompat_derive_internals::expand::derive_api(&input)
                } else {
                    continue;
                };
                expanded.push_str(&format!("// {}\n", input.ident));
                expanded.push_str(&pretty(tokens));
            }
            assert!(!expanded.is_empty(), "{}: no derive input", path.display());
            let name = path.file_stem().and_then(|s| s.to_str()).expect("file name");
            insta::assert_snapshot!(name, expanded);
        }
    });
}
