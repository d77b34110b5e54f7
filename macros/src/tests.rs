//! Expansion snapshots: the generated tokens for a few inputs of each derive, formatted with
//! `prettyplease` and compared with `insta` snapshots in `src/snapshots/`
//! (regenerate with `INSTA_UPDATE=always cargo test -p kompat-macros --lib`).

use syn::DeriveInput;

#[track_caller]
fn check(name: &str, input: DeriveInput) {
    let tokens = crate::expand::derive(&input);
    let formatted = match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        Err(err) => format!("unparsable expansion ({err}):\n{tokens}"),
    };
    insta::assert_snapshot!(name, formatted);
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
            #[kompat(crate = "kompat_core")]
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
    let tokens = crate::expand::derive_api(&input);
    let formatted = match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        Err(err) => format!("unparsable expansion ({err}):\n{tokens}"),
    };
    insta::assert_snapshot!(name, formatted);
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
            #[kompat(crate = "kompat_core")]
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
