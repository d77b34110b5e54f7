//! The upgrade plan file parser: what parses, every error with its line and
//! column, and bounded mutation fuzzing of the walkthrough plan.

use kompat_engine::plan::{FlagChange, InitialPersisted};
use kompat_formats::plan::{parse_plan, PlanFile};
use kompat_formats::ParseError;
use kompat_runtime::{Version, WindowPolicy};
use kompat_span::LineIndex;

use kompat_testkit::mutate;

fn parse(text: &str) -> Result<PlanFile, Vec<ParseError>> {
    parse_plan(text)
}

/// Parses `text` and renders the errors as `line:col: message` (just the
/// message when it is about the whole file), one per line.
#[track_caller]
fn check_err(text: &str, expected: &[&str]) {
    let errors = match parse(text) {
        Ok(_) => panic!("expected errors for:\n{text}"),
        Err(errors) => errors,
    };
    let lines = LineIndex::new(text);
    let got: Vec<String> = errors.iter().map(|e| e.located(&lines)).collect();
    assert_eq!(got, expected);
}

const SERVERS: &str = "[[server]]\nid = \"a\"\nbinary = \"1.35\"\n[[server]]\nid = \"b\"\nbinary = \"1.35\"\n";

/// No mutation of the walkthrough plan may make parsing panic, and every
/// error is located or about the whole file (no servers, no steps).
#[test]
fn parser_never_panics() {
    const SEED: &str = include_str!("../../../../fixtures/plans/walkthrough.toml");
    const WHOLE_FILE: [&str; 2] = ["the plan has no API servers", "the plan has no steps"];
    let mut rng = mutate::Rng(0x6b6f_6d70_6174_0301);
    let mut accepted = 0;
    for _ in 0..mutate::iterations(3000) {
        let input = mutate::mutate(SEED, &mut rng);
        match parse(&input) {
            Ok(_) => accepted += 1,
            Err(errors) => {
                assert!(!errors.is_empty(), "an error without a message\n{input}");
                for error in &errors {
                    let whole = WHOLE_FILE.iter().any(|w| error.message.starts_with(w));
                    assert!(error.span.is_some() || whole, "unlocated: {}\n{input}", error.message);
                    if let Some(span) = error.span {
                        assert!(span.start <= span.end && span.end <= input.len(), "span out of the text\n{input}");
                    }
                }
            }
        }
    }
    assert!(accepted > 0, "the mutations never produced a valid plan");
}

#[test]
fn parses_a_plan() {
    let text = format!(
        "initial_persisted = \"migrated\"\n[window]\nprofile = \"kubernetes\"\n{SERVERS}\
         [[step]]\nname = \"up\"\nset = [{{ server = \"*\", binary = \"1.36\", emulation = \"1.35\" }}]\n\
         [[step]]\nset = [{{ server = \"a\", emulation = \"default\" }}]\nstart_migration = [\"g/rs\", \"/pods\"]\n"
    );
    let file = match parse(&text) {
        Ok(file) => file,
        Err(errors) => panic!("{errors:?}"),
    };
    let plan = file.plan();
    assert_eq!(plan.window, WindowPolicy::KUBERNETES);
    assert_eq!(plan.initial_persisted, InitialPersisted::Migrated);
    assert_eq!(plan.steps.len(), 2);
    assert_eq!(plan.steps[0].name, "up");
    assert_eq!(plan.steps[1].name, "step 2");
    assert_eq!(plan.steps[0].changes.len(), 2);
    assert_eq!(plan.steps[0].changes[1].emulation, FlagChange::Set(Version::new(1, 35)));
    assert_eq!(plan.steps[1].changes[0].emulation, FlagChange::Unset);
    assert_eq!(plan.steps[1].changes[0].binary, None);
    // Each step's span is its name, or its `[[step]]` header when it has none.
    let spans: Vec<&str> =
        (0..plan.steps.len()).filter_map(|step| file.step_span(step)).map(|span| &text[span.start..span.end]).collect();
    assert_eq!(spans.len(), 2);
    assert_eq!(spans[0], "\"up\"");
    assert_eq!(spans[1], "[[step]]");
    assert_eq!(file.step_span(2), None);
    let refs: Vec<String> = file.resources().iter().map(|(gr, _)| gr.storage_version_name()).collect();
    assert_eq!(refs, ["g.rs", "core.pods"]);
}

#[test]
fn malformed_plans_are_located() {
    check_err("[[server]\n", &["1:10: unclosed array table, expected `]`"]);
    check_err(
        &format!("{SERVERS}[[step]]\nset = [{{ server = \"c\" }}]\n"),
        &["8:19: unknown server `c`; the plan's servers are `a`, `b`"],
    );
    check_err(
        &format!("{SERVERS}[[step]]\nset = [{{ server = \"a\", binary = \"1.36.1\" }}]\n"),
        &["8:33: invalid version \"1.36.1\": expected MAJOR.MINOR"],
    );
    check_err(
        &format!("{SERVERS}[[step]]\nname = \"x\"\n"),
        &["7:1: step 1 does nothing: give `set`, `start_migration` or `complete_migration`"],
    );
    check_err(
        &format!("{SERVERS}[[step]]\nstart_migration = [\"a/b/c\"]\n"),
        &["8:20: invalid resource `a/b/c`: expected \"GROUP/RESOURCE\" (\"/RESOURCE\" for the core group)"],
    );
    check_err(
        &format!("{SERVERS}[[step]]\nset = [{{ server = \"*\" }}, {{ server = \"b\" }}]\n"),
        &["8:37: step 1 sets server `b` more than once"],
    );
    check_err("[[server]]\nid = \"a\"\nbinary = \"1.35\"\n[[server]]\nid = \"a\"\nbinary = \"1.35\"\n[[step]]\nset = [{ server = \"a\" }]\n", &[
        "5:6: duplicate server id `a`",
    ]);
    check_err(
        &format!("{SERVERS}[[step]]\nset = [{{ server = \"a\", emulaton = \"1.34\" }}]\n"),
        &["8:24: unknown field `emulaton`, expected one of `server`, `binary`, `emulation`, `min_compatibility` (did you mean `emulation`?)"],
    );
    check_err(
        "initial_persisted = \"maybe\"\n",
        &[
            "1:21: unknown initial_persisted `maybe`, expected `unknown` or `migrated`",
            "the plan has no API servers: add a [[server]] with an id and a binary version",
            "the plan has no steps: add a [[step]] with `set`, `start_migration` or `complete_migration`",
        ],
    );
}
