//! The generators' readers against mutated inputs: the Go reader of
//! prerelease-lifecycle-gen output and package files, and the supplement,
//! never panic, locate every error, and bound their recursion.

use kompat_testkit::mutate;

use kompat_formats::ParseError;
use mutate::{mutate, Rng};
use xtask::k8s::lifecycle::parse_lifecycle;
use xtask::k8s::package::{parse_doc_group, parse_register, parse_type_tags};
use xtask::k8s::supplement::parse_supplement;

const LIFECYCLE_SEED: &str = "package v1beta1\n\nimport (\n\tschema \"k8s.io/apimachinery/pkg/runtime/schema\"\n)\n\n\
func (in *CronJob) APILifecycleIntroduced() (major, minor int) {\n\treturn 1, 8\n}\n\n\
func (in *CronJob) APILifecycleDeprecated() (major, minor int) {\n\treturn 1, 21\n}\n\n\
func (in *CronJob) APILifecycleReplacement() schema.GroupVersionKind {\n\treturn schema.GroupVersionKind{Group: \"batch\", Version: \"v1\", Kind: \"CronJob\"}\n}\n\n\
func (in *CronJob) APILifecycleRemoved() (major, minor int) {\n\treturn 1, 25\n}\n";

const REGISTER_SEED: &str = "package v1\n\nconst GroupName = \"batch\"\n\nvar (\n\tSchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: \"v1\"}\n)\n";

const TYPES_SEED: &str = "// +groupName=batch\npackage v1\n\n// +genclient\n// +resourceName=cronjobs\n\n// CronJob is a resource.\ntype CronJob struct {\n\tSpec string `json:\"spec\"`\n}\n\n/* +genclient\n+genclient:noVerbs */\ntype (\n\tA struct{}\n)\n";

const SUPPLEMENT_SEED: &str = "[[resource]]\ngroup = \"\"\nkind = \"Endpoints\"\nresource = \"endpoints\"\nsource = \"s\"\n\n[[enabled_by_default]]\ngroup = \"g\"\nversion = \"v1beta1\"\nkind = \"K\"\nsource = \"s\"\n\n[[resource_type]]\ngroup = \"\"\nversion = \"v1\"\nkind = \"Binding\"\nsource = \"s\"\n";

#[track_caller]
fn all_located(input: &str, result: Result<(), Vec<ParseError>>) -> bool {
    match result {
        Ok(()) => true,
        Err(errors) => {
            assert!(!errors.is_empty(), "an error without a problem, input:\n{input}");
            for error in errors {
                let span = error.span.unwrap_or_else(|| panic!("unlocated {:?}, input:\n{input}", error.message));
                assert!(span.start <= span.end && span.end <= input.len(), "span out of range, input:\n{input}");
            }
            false
        }
    }
}

#[test]
fn go_reader_never_panics_and_locates_every_error() {
    let mut rng = Rng(0x6b38_735f_676f_0001);
    let mut accepted = 0;
    for round in 0..1500 {
        let seed = [LIFECYCLE_SEED, REGISTER_SEED, TYPES_SEED][round % 3];
        let input = mutate(seed, &mut rng);
        let results = [
            parse_lifecycle(&input).map(drop),
            parse_register(&input).map(drop),
            parse_doc_group(&input).map(drop),
            parse_type_tags(&input).map(drop),
        ];
        for result in results {
            accepted += usize::from(all_located(&input, result));
        }
    }
    assert!(accepted > 0, "the mutations never produced a valid file");
}

#[test]
fn supplement_parser_never_panics() {
    let mut rng = Rng(0x6b38_735f_676f_0002);
    let mut accepted = 0;
    for _ in 0..1500 {
        let input = mutate(SUPPLEMENT_SEED, &mut rng);
        accepted += usize::from(all_located(&input, parse_supplement(&input).map(drop)));
    }
    assert!(accepted > 0, "the mutations never produced a valid file");
}

#[test]
fn deep_nesting_is_bounded() {
    // Deeply nested Go: parsed by tree-sitter without recursion, and
    // rejected or read without exhausting the stack.
    let depth = 100_000;
    let input = format!("package v1\n\nvar x = {}1{}\n", "(".repeat(depth), ")".repeat(depth));
    let _ = parse_register(&input);
    let _ = parse_type_tags(&input);
    let input = format!(
        "package v1\n\nfunc (in *A) APILifecycleIntroduced() (major, minor int) {{ return {}1{}, 2 }}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    assert!(parse_lifecycle(&input).is_err());
}
