//! Expansion snapshots: the generated tokens for a few inputs, formatted with
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
