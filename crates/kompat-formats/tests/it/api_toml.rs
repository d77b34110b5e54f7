//! The kompat TOML API declaration parser: values, defaults left to the core
//! model, spans per entry and field, every error with its span, and the demo
//! fixture.

use kompat_engine::api::{served_apis, storage_versions, ApiSet, ServeOptions};
use kompat_formats::api_toml::ApiFile;
use kompat_formats::parse_toml;
use kompat_runtime::Version;

fn parse_api_toml(text: &str) -> Result<ApiFile, Vec<kompat_formats::ParseError>> {
    parse_toml(text).map(|file| file.apis)
}

fn v(s: &str) -> Version {
    Version::parse(s).expect("version")
}

/// Parses `text` and prints each error as `LINE:COL-LINE:COL message` (or
/// `- message` without a span), or `ok`.
#[track_caller]
fn check_errors(text: &str, expected: &str) {
    let got = match parse_api_toml(text) {
        Ok(_) => "ok".to_owned(),
        Err(errors) => errors
            .iter()
            .map(|e| match e.span {
                Some(span) => format!("{} {}", show_span(text, span.start, span.end), e.message),
                None => format!("- {}", e.message),
            })
            .collect::<Vec<_>>()
            .join("\n"),
    };
    let expected: Vec<&str> = expected.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    assert_eq!(got, expected.join("\n"), "input:\n{text}");
}

/// `line:col` of both ends, 1-based.
fn show_span(text: &str, start: usize, end: usize) -> String {
    let at = |offset: usize| {
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{line}:{col}")
    };
    format!("{}-{}", at(start), at(end))
}

fn parse(text: &str) -> ApiFile {
    match parse_api_toml(text) {
        Ok(file) => file,
        Err(errors) => panic!("parse errors: {errors:?}"),
    }
}

/// The text a span covers.
fn text_of(text: &str, span: Option<kompat_span::Span>) -> &str {
    span.map_or("<none>", |s| &text[s.start..s.end])
}

const CRONJOB: &str = r#"
[[api]]
group = "batch"
version = "v1beta1"
kind = "CronJob"
resource = "cronjobs"
introduced = "1.8"
deprecated = "1.21"
removed = "1.25"
replacement = "batch/v1/CronJob"
enabled_by_default = true

[[api]]
group = ""
version = "v1"
kind = "Pod"
resource = "pods"
introduced = "1.0"

[groups."batch"]
priority = ["v1", "v1beta1"]

[storage_overrides]
"batch/cronjobs" = "v1beta1"
"#;

#[test]
fn parses_every_field() {
    let file = parse(CRONJOB);
    let apis = &file.config().apis;
    assert_eq!(apis.len(), 2);
    let c = &apis[0];
    assert_eq!(
        (c.group.as_str(), c.version.as_str(), c.kind.as_str(), c.resource.as_str()),
        ("batch", "v1beta1", "CronJob", "cronjobs")
    );
    assert_eq!((c.introduced, c.deprecated, c.removed), (Some(v("1.8")), Some(v("1.21")), Some(v("1.25"))));
    assert_eq!(c.replacement.as_deref(), Some("batch/v1/CronJob"));
    assert_eq!(c.enabled_by_default, Some(true));
    let p = &apis[1];
    assert_eq!(
        (p.group.as_str(), p.deprecated, p.removed, p.replacement.as_deref(), p.enabled_by_default),
        ("", None, None, None, None)
    );
    assert_eq!(file.config().priorities["batch"], ["v1", "v1beta1"]);
    assert_eq!(file.config().storage_overrides["batch/cronjobs"], "v1beta1");
    assert!(!file.is_empty());
}

#[test]
fn spans_per_entry_and_field() {
    let file = parse(CRONJOB);
    let s = file.spans(0).expect("spans of entry 0");
    assert_eq!(text_of(CRONJOB, s.group), "\"batch\"");
    assert_eq!(text_of(CRONJOB, s.version), "\"v1beta1\"");
    assert_eq!(text_of(CRONJOB, s.kind), "\"CronJob\"");
    assert_eq!(text_of(CRONJOB, s.resource), "\"cronjobs\"");
    assert_eq!(text_of(CRONJOB, s.introduced), "\"1.8\"");
    assert_eq!(text_of(CRONJOB, s.deprecated), "\"1.21\"");
    assert_eq!(text_of(CRONJOB, s.removed), "\"1.25\"");
    assert_eq!(text_of(CRONJOB, s.replacement), "\"batch/v1/CronJob\"");
    assert_eq!(text_of(CRONJOB, s.enabled_by_default), "true");
    // The entry span covers the entry's keys.
    let entry = text_of(CRONJOB, Some(s.entry));
    assert!(entry.contains("group = \"batch\"") && entry.contains("enabled_by_default = true"), "{entry:?}");
    assert!(!entry.contains("\"Pod\""), "{entry:?}");
    let pod = file.spans(1).expect("spans of entry 1");
    assert_eq!(text_of(CRONJOB, pod.group), "\"\"");
    assert_eq!(text_of(CRONJOB, pod.deprecated), "<none>");
    assert_eq!(text_of(CRONJOB, file.priority_span("batch")), "[\"v1\", \"v1beta1\"]");
    assert_eq!(text_of(CRONJOB, file.priority_entry_span("batch", 1)), "\"v1beta1\"");
    assert_eq!(text_of(CRONJOB, file.override_span("batch/cronjobs")), "\"batch/cronjobs\"");
}

/// Features are the other half of the same file: they declare no API.
#[test]
fn features_declare_no_apis() {
    let text = r#"
[[feature]]
name = "Whatever"
specs = [{ version = "1.31", stage = "Alpha", default = false }]
"#;
    let file = parse(text);
    assert!(file.is_empty());
    assert!(parse("").is_empty());
}

#[test]
fn field_errors() {
    check_errors(
        r#"
[[api]]
group = "batch"
vesion = "v1"
kind = "CronJob"
resource = "cronjobs"
introduced = "1.21"
"#,
        "
        4:1-4:7 unknown key `vesion`, expected one of `group`, `version`, `kind`, `resource`, `introduced`, `deprecated`, `removed`, `replacement`, `enabled_by_default` (did you mean `version`?)
        2:1-7:20 missing key `version` in [[api]]
        ",
    );
    check_errors(
        r#"
[[api]]
group = "batch"
version = "v1"
kind = "CronJob"
resource = "cronjobs"
introduced = "1.21.3"
removed = 1.25
enabled_by_default = "yes"
colour = "blue"
"#,
        r#"
        10:1-10:7 unknown key `colour`, expected one of `group`, `version`, `kind`, `resource`, `introduced`, `deprecated`, `removed`, `replacement`, `enabled_by_default`
        9:22-9:27 `enabled_by_default` must be a boolean, not string
        7:14-7:22 invalid version "1.21.3": expected MAJOR.MINOR
        8:11-8:15 `removed` must be a string, not float
        "#,
    );
    check_errors(
        "[[api]]\ngroup = 1\n",
        "
        2:9-2:10 `group` must be a string, not integer
        1:1-2:10 missing key `version` in [[api]]
        1:1-2:10 missing key `kind` in [[api]]
        1:1-2:10 missing key `resource` in [[api]]
        ",
    );
    // A missing `introduced` is left to ApiSet::build, which reports it per entry.
    check_errors("[[api]]\ngroup = \"\"\nversion = \"v1\"\nkind = \"Pod\"\nresource = \"pods\"\n", "ok");
}

#[test]
fn table_errors() {
    check_errors("api = 3", "1:7-1:8 `api` must be an array of tables (`[[api]]`)");
    check_errors("api = [1]", "1:8-1:9 `api` must be a table, not integer");
    check_errors(
        "[groups.\"batch\"]\npriorty = [\"v1\"]\n",
        "2:1-2:8 unknown key `priorty`, expected `priority` (did you mean `priority`?)",
    );
    check_errors(
        "[groups.\"batch\"]\npriority = \"v1\"\n",
        "2:12-2:16 `priority` must be an array of strings, not string",
    );
    check_errors(
        "[groups.\"batch\"]\npriority = [\"v1\", 2]\n",
        "2:19-2:20 `priority` must be an array of strings, not integer",
    );
    check_errors("groups = 1", "1:10-1:11 `groups` must be a table, not integer");
    check_errors("[groups]\nbatch = 1\n", "2:9-2:10 `groups.\"batch\"` must be a table, not integer");
    check_errors("storage_overrides = []", "1:21-1:23 `storage_overrides` must be a table, not array");
    check_errors(
        "[storage_overrides]\n\"batch/cronjobs\" = true\n",
        "2:20-2:24 `storage_overrides.\"batch/cronjobs\"` must be a string (the pinned version) or { version, until }, not boolean",
    );
    // TOML syntax errors come with their span.
    let errors = parse_api_toml("[[api]\n").unwrap_err();
    assert_eq!(errors.len(), 1);
    assert!(errors[0].span.is_some());
}

#[test]
fn model_problems_are_located() {
    let text = r#"
[[api]]
group = "batch"
version = "v1beta1"
kind = "CronJob"
resource = "cronjobs"
replacement = "batch/v1/cronJob"

[[api]]
group = "batch"
version = "v1"
kind = "CronJob"
resource = "cronjobs"

[groups."batch"]
priority = ["v1", "v2"]

[storage_overrides]
"batch/jobs" = "v1"
"#;
    let errors = parse(text).build().unwrap_err();
    let got: Vec<String> = errors
        .iter()
        .map(|e| {
            let span = e.span.expect("located");
            format!("{} {}", &text[span.start..span.end].lines().next().unwrap_or(""), e.message)
        })
        .collect();
    assert_eq!(
        got,
        [
            "[[api]] batch/v1beta1/CronJob missing introduced version",
            "\"batch/v1/cronJob\" replacement kind must start with uppercase-letter, got \"cronJob\"",
            "[[api]] batch/v1/CronJob missing introduced version",
            "\"v2\" priority of group \"batch\" lists version \"v2\", which has no declaration in that group",
            "\"batch/jobs\" storage override \"batch/jobs\" pins version \"v1\", which does not declare resource \"jobs\" in group \"batch\"",
        ]
    );
}

#[test]
fn fixture_parses_and_builds() {
    let text = include_str!("../../../../fixtures/apis.toml");
    let file = parse(text);
    let set: ApiSet = match file.build() {
        Ok(set) => set,
        Err(errors) => panic!("fixture problems: {errors:?}"),
    };
    assert_eq!(set.prioritized_versions("scheduling.example.io"), ["v1", "v2"]);
    assert_eq!(set.prioritized_versions("widgets.example.io"), ["v1", "v1beta1", "v1alpha1"]);

    let storage: Vec<String> = storage_versions(&set, v("1.37"), v("1.36"), Some(v("1.37")))
        .iter()
        .map(|r| format!("{} {} {} {}", r.group_resource(), r.encoding_version(), r.source.as_str(), r.hash))
        .collect();
    assert_eq!(
        storage,
        [
            "configmaps v1 rollback-safe qFsyl6wFWjQ=",
            "events v1 rollback-safe r2yiGXH7wu8=",
            format!(
                "gadgets.gadgets.example.io gadgets.example.io/v1 rollback-safe {}",
                kompat_engine::api::storage_version_hash("gadgets.example.io", "v1", "Gadget")
            )
            .as_str(),
            format!(
                "queues.scheduling.example.io scheduling.example.io/v1 rollback-safe {}",
                kompat_engine::api::storage_version_hash("scheduling.example.io", "v1", "Queue")
            )
            .as_str(),
            format!(
                "widgetclasses.widgets.example.io widgets.example.io/v1alpha1 emulation {}",
                kompat_engine::api::storage_version_hash("widgets.example.io", "v1alpha1", "WidgetClass")
            )
            .as_str(),
            format!(
                "widgetpolicies.widgets.example.io widgets.example.io/v1beta1 override {}",
                kompat_engine::api::storage_version_hash("widgets.example.io", "v1beta1", "WidgetPolicy")
            )
            .as_str(),
            format!(
                "widgetpools.widgets.example.io widgets.example.io/v1beta1 emulation {}",
                kompat_engine::api::storage_version_hash("widgets.example.io", "v1beta1", "WidgetPool")
            )
            .as_str(),
            format!(
                "widgets.widgets.example.io widgets.example.io/v1 rollback-safe {}",
                kompat_engine::api::storage_version_hash("widgets.example.io", "v1", "Widget")
            )
            .as_str(),
        ]
    );

    let served = served_apis(&set, &ServeOptions::new(v("1.37"))).expect("serves");
    let served: Vec<String> =
        served.resources.iter().map(|r| format!("{}/{}/{}", r.group, r.version, r.resource)).collect();
    assert_eq!(
        served,
        [
            "/v1/configmaps",
            "/v1/events",
            "gadgets.example.io/v1/gadgets",
            "scheduling.example.io/v1/queues",
            "scheduling.example.io/v2/queues",
            "widgets.example.io/v1/widgets",
        ]
    );
}
