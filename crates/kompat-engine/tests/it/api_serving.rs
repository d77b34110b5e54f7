//! Which group-versions and resources are served at an emulation version:
//! default enablement, `--runtime-config` parsing, validation and merge, the
//! removal and introduction rules, emulation forward compatibility, and every
//! error text.

use crate::api_common::{set, v};
use kompat_engine::api::{served_apis, RuntimeConfig, ServeOptions};

const DECLS: &str = "
    - v1 Pod pods 1.0
    - v1 ConfigMap configmaps 1.2
    apps v1 Deployment deployments 1.9
    apps v1beta1 Deployment deployments 1.6 dep=1.8 rem=1.16
    batch v1 CronJob cronjobs 1.21
    batch v1beta1 CronJob cronjobs 1.8 dep=1.21 rem=1.25 on
    w.io v1 Widget widgets 1.34
    w.io v1beta1 Widget widgets 1.32
    w.io v1alpha1 Widget widgets 1.30
    w.io v1beta1 Gadget gadgets 1.35
    w.io v1alpha1 Sprocket sprockets 1.33
";

/// `args`: `emu=X.Y` (required), `bin=X.Y`, `rc=...` (the flag value), `efc`
/// and `rcefc` for the two forward-compatibility flags. Prints the served
/// resources as `GROUP/VERSION/RESOURCE`, preceded by warnings, or the error.
#[track_caller]
fn check(args: &str, expected: &str) {
    let mut opts = ServeOptions::new(v("0.0"));
    for word in args.split_whitespace() {
        match word.split_once('=') {
            Some(("emu", x)) => opts.emulation = v(x),
            Some(("bin", x)) => opts.binary = Some(v(x)),
            Some(("rc", x)) => opts.runtime_config.set(x),
            None if word == "efc" => opts.emulation_forward_compatible = true,
            None if word == "rcefc" => opts.runtime_config_emulation_forward_compatible = true,
            _ => panic!("unknown argument {word}"),
        }
    }
    let got = match served_apis(&set(DECLS), &opts) {
        Err(err) => format!("error: {err}"),
        Ok(served) => {
            let mut lines: Vec<String> = served.warnings.iter().map(|w| format!("warning: {w}")).collect();
            lines.extend(served.resources.iter().map(|r| format!("{}/{}/{}", r.group, r.version, r.resource)));
            lines.join("\n")
        }
    };
    let expected: Vec<&str> = expected.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    assert_eq!(got, expected.join("\n"), "args {args:?}");
}

const GA_AT_135: &str = "
    /v1/configmaps
    /v1/pods
    apps/v1/deployments
    batch/v1/cronjobs
    w.io/v1/widgets
";

#[test]
fn default_enablement() {
    // GA on; beta and alpha off unless enabled by default.
    check("emu=1.35", GA_AT_135);
    check("emu=1.35 bin=1.35", GA_AT_135);
    // A legacy beta enabled by default is served until it is removed.
    check("emu=1.24", "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nbatch/v1beta1/cronjobs");
}

#[test]
fn removal_rule() {
    // removed=1.25: served through 1.24, gone at 1.25 (the binary is not an alpha).
    check(
        "emu=1.24 rc=batch/v1beta1=true",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nbatch/v1beta1/cronjobs",
    );
    check("emu=1.25 rc=batch/v1beta1=true", "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs");
    // Explicitly enabling a removed resource or version is not an error.
    check(
        "emu=1.25 rc=batch/v1beta1/cronjobs=true",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs",
    );
    // w.io/v1alpha1 widgets: introduced 1.30, removed 1.36 by default.
    check(
        "emu=1.35 rc=w.io/v1alpha1=true",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets\nw.io/v1alpha1/sprockets\nw.io/v1alpha1/widgets",
    );
    check(
        "emu=1.36 rc=w.io/v1alpha1=true",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets\nw.io/v1alpha1/sprockets",
    );
}

#[test]
fn introduction_rule() {
    // w.io/v1 widgets is introduced at 1.34: not served when emulating 1.33,
    // and its emptied version goes silently.
    check("emu=1.33 bin=1.35", "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs");
    check("emu=1.34 bin=1.35", "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets");
    // Enabling the beta serves what it had at 1.33; gadgets (1.35) is dropped.
    check(
        "emu=1.33 bin=1.35 rc=w.io/v1beta1=true",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1beta1/widgets",
    );
    // An explicitly enabled future resource is an error...
    check(
        "emu=1.33 bin=1.35 rc=w.io/v1beta1/gadgets=true",
        "error: cannot enable resource w.io/v1beta1, Resource=gadgets in runtime-config because it is introduced at 1.35 after the current version 1.33. Consider setting --runtime-config-emulation-forward-compatible=true",
    );
    // ...unless runtime-config forward compatibility is on.
    check(
        "emu=1.33 bin=1.35 rc=w.io/v1beta1/gadgets=true rcefc",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1beta1/gadgets",
    );
    // A version enabled explicitly keeps its future resources under rcefc.
    check(
        "emu=1.33 bin=1.35 rc=w.io/v1beta1=true rcefc",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1beta1/gadgets\nw.io/v1beta1/widgets",
    );
    // An explicitly enabled version left with no resource is an error.
    check(
        "emu=1.33 bin=1.35 rc=w.io/v1=true",
        "error: cannot enable version w.io/v1 in runtime-config because all the resources have been introduced after the current version 1.33. Consider setting --runtime-config-emulation-forward-compatible=true",
    );
    check(
        "emu=1.33 bin=1.35 rc=w.io/v1=true rcefc",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets",
    );
    // Explicitly disabled is not explicitly enabled: no error.
    check("emu=1.33 bin=1.35 rc=w.io/v1=false", "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs");
}

#[test]
fn emulation_forward_compatibility() {
    // An enabled beta carries its resources to the higher version introduced later.
    check(
        "emu=1.33 bin=1.35 rc=w.io/v1beta1=true efc",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets\nw.io/v1beta1/widgets",
    );
    // Per resource too.
    check(
        "emu=1.33 bin=1.35 rc=w.io/v1beta1/widgets=true efc",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets\nw.io/v1beta1/widgets",
    );
    // Without a lower enabled version nothing is carried.
    check("emu=1.33 bin=1.35 efc", "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs");
    // Alpha versions never carry: not via the resource config...
    check(
        "emu=1.33 bin=1.35 rc=w.io/v1alpha1=true efc",
        "
        warning: alpha api enabled with emulated version 1.33 instead of the binary's version 1.35.0, this is unsupported, proceed at your own risk: api=w.io/v1alpha1
        /v1/configmaps
        /v1/pods
        apps/v1/deployments
        batch/v1/cronjobs
        w.io/v1alpha1/sprockets
        w.io/v1alpha1/widgets
        ",
    );
    // ...nor via the introduction rule (the beta, enabled by efc, is kept
    // because it is introduced; v1 only through the beta).
    check(
        "emu=1.33 bin=1.35 rc=w.io/v1alpha1=true,w.io/v1beta1=true efc",
        "
        warning: alpha api enabled with emulated version 1.33 instead of the binary's version 1.35.0, this is unsupported, proceed at your own risk: api=w.io/v1alpha1
        /v1/configmaps
        /v1/pods
        apps/v1/deployments
        batch/v1/cronjobs
        w.io/v1/widgets
        w.io/v1alpha1/sprockets
        w.io/v1alpha1/widgets
        w.io/v1beta1/widgets
        ",
    );
    // A runtime-config disable of the higher version is applied again.
    check(
        "emu=1.33 bin=1.35 rc=w.io/v1beta1=true,w.io/v1=false efc",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1beta1/widgets",
    );
    // Explicit future resources still need rcefc under efc.
    check(
        "emu=1.33 bin=1.35 rc=w.io/v1beta1/gadgets=true efc",
        "error: cannot enable resource w.io/v1beta1, Resource=gadgets in runtime-config because it is introduced at 1.35 after the current version 1.33. Consider setting --runtime-config-emulation-forward-compatible=true",
    );
}

#[test]
fn forward_compatibility_flags_need_emulation() {
    let efc = "ServerRunOptions.EmulationForwardCompatible cannot be set to true if the emulation version is the same as the binary version";
    let rcefc = "ServerRunOptions.RuntimeConfigEmulationForwardCompatible cannot be set to true if the emulation version is the same as the binary version";
    check("emu=1.35 bin=1.35 efc", &format!("error: {efc}"));
    check("emu=1.35 bin=1.35 rcefc", &format!("error: {rcefc}"));
    check("emu=1.35 efc rcefc", &format!("error: [{efc}, {rcefc}]"));
    // Aggregated with the runtime-config validation.
    check("emu=1.35 efc rc=foo.io/v1=true", &format!("error: [{efc}, unknown api groups foo.io]"));
    check(
        "emu=1.34 bin=1.35 efc rcefc",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets",
    );
}

#[test]
fn runtime_config_keywords() {
    // api/beta enables every beta version in the map; removed ones stay gone.
    check(
        "emu=1.35 rc=api/beta=true",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets\nw.io/v1beta1/gadgets\nw.io/v1beta1/widgets",
    );
    check(
        "emu=1.35 rc=api/alpha=true",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets\nw.io/v1alpha1/sprockets\nw.io/v1alpha1/widgets",
    );
    check("emu=1.35 rc=api/ga=false,apps/v1=true", "apps/v1/deployments");
    // Keywords apply in the order all, ga, beta, alpha, whatever the flag order.
    check("emu=1.35 rc=api/ga=true,api/all=false", GA_AT_135);
    check("emu=1.35 rc=api/all=false,w.io/v1=true", "w.io/v1/widgets");
    // A keyword drops resource preferences: the legacy beta follows api/beta.
    check("emu=1.24 rc=api/beta=false", "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs");
    check(
        "emu=1.24 rc=api/all=true",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nbatch/v1beta1/cronjobs",
    );
    check("emu=1.35 rc=api/all=maybe", "error: invalid value api/all=maybe");
    check("emu=1.35 rc=api/beta=1", "error: invalid value api/beta=1");
    check("emu=1.35 rc=api/all", "error: invalid value api/all=");
}

#[test]
fn runtime_config_keys() {
    // Resource preferences win over version preferences.
    check("emu=1.35 rc=apps/v1=false,apps/v1/deployments=true", GA_AT_135);
    check("emu=1.35 rc=apps/v1/deployments=false", "/v1/configmaps\n/v1/pods\nbatch/v1/cronjobs\nw.io/v1/widgets");
    // A key without a value means true; ParseBool spellings are accepted.
    check("emu=1.35 rc=w.io/v1beta1", "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets\nw.io/v1beta1/gadgets\nw.io/v1beta1/widgets");
    check(
        "emu=1.35 rc=w.io/v1beta1=T,w.io/v1=0",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1beta1/gadgets\nw.io/v1beta1/widgets",
    );
    // Items are trimmed; a later key replaces an earlier one.
    check("emu=1.35 rc=,apps/v1=false,,apps/v1=true", GA_AT_135);
    // Errors.
    check(
        "emu=1.35 rc=apps/v1=maybe",
        "error: invalid value of apps/v1: maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax",
    );
    check("emu=1.35 rc=apps/v2=true", "error: group version apps/v2 that has not been registered");
    check("emu=1.35 rc=/v2=true", "error: group version v2 that has not been registered");
    check(
        "emu=1.35 rc=apps/v1/Deployments=false",
        "error: invalid key apps/v1/Deployments: group/version/resource and resource is always lowercase plural, not \"Deployments\"",
    );
    // An unknown resource of a registered version is accepted and changes nothing.
    check("emu=1.35 rc=apps/v1/replicasets=true", GA_AT_135);
}

#[test]
fn runtime_config_validation() {
    check("emu=1.35 rc=api/all=false", "error: invalid key with only api/all=false");
    // api/legacy is deleted before validation.
    check("emu=1.35 rc=api/all=false,api/legacy=true", "error: invalid key with only api/all=false");
    check(
        "emu=1.35 rc=api/all=true",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets\nw.io/v1alpha1/sprockets\nw.io/v1alpha1/widgets\nw.io/v1beta1/gadgets\nw.io/v1beta1/widgets",
    );
    check("emu=1.35 rc=foo.io/v1=true", "error: unknown api groups foo.io");
    check(
        "emu=1.35 rc=foo.io/v1=true,bar.io/v1/things=false,foo.io/v2",
        "error: unknown api groups bar.io,foo.io,foo.io",
    );
    check("emu=1.35 rc=apps", "error: runtime-config invalid key apps");
    check("emu=1.35 rc=a/b/c/d=true", "error: runtime-config invalid key a/b/c/d");
    check("emu=1.35 rc=api/legacy=false", GA_AT_135);
}

#[test]
fn core_group_keys() {
    // `v1`, `api/v1` and `/v1` all address the core group...
    check("emu=1.35 rc=api/all=false,v1=true", "/v1/configmaps\n/v1/pods");
    check("emu=1.35 rc=api/all=false,api/v1=true", "/v1/configmaps\n/v1/pods");
    check("emu=1.35 rc=api/all=false,/v1=true", "/v1/configmaps\n/v1/pods");
    // ...and only `/v1/RESOURCE` addresses one core resource: kube-apiserver
    // rewrites `v1/RESOURCE` and `api/v1/RESOURCE` to the whole `/v1`.
    check("emu=1.35 rc=api/all=false,/v1/pods=true", "/v1/pods");
    check("emu=1.35 rc=api/all=false,v1/pods=true", "/v1/configmaps\n/v1/pods");
    check("emu=1.35 rc=api/all=false,api/v1/pods=true", "/v1/configmaps\n/v1/pods");
    check("emu=1.35 rc=v1=false", "apps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets");
    check("emu=1.35 rc=api/v2=true", "error: unknown api groups api");
}

#[test]
fn alpha_warnings_only_while_emulating() {
    // Not emulating: no warning.
    check(
        "emu=1.35 rc=w.io/v1alpha1/sprockets=true",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets\nw.io/v1alpha1/sprockets",
    );
    // Emulating, per-resource enablement warns too.
    check(
        "emu=1.34 bin=1.35 rc=w.io/v1alpha1/sprockets=true",
        "
        warning: alpha api enabled with emulated version 1.34 instead of the binary's version 1.35.0, this is unsupported, proceed at your own risk: api=w.io/v1alpha1
        /v1/configmaps
        /v1/pods
        apps/v1/deployments
        batch/v1/cronjobs
        w.io/v1/widgets
        w.io/v1alpha1/sprockets
        ",
    );
    // Enabled by keyword only: not explicit, no warning.
    check(
        "emu=1.34 bin=1.35 rc=api/alpha=true",
        "/v1/configmaps\n/v1/pods\napps/v1/deployments\nbatch/v1/cronjobs\nw.io/v1/widgets\nw.io/v1alpha1/sprockets\nw.io/v1alpha1/widgets",
    );
}

#[test]
fn runtime_config_flag_parsing() {
    let rc = RuntimeConfig::parse(" api/all = false ,v1,apps/v1=true=x,,");
    let entries: Vec<(&str, &str)> = rc.entries().collect();
    assert_eq!(entries, [("api/all", "false"), ("apps/v1", "true=x"), ("v1", "")]);
    let completed = rc.completed();
    let entries: Vec<(&str, &str)> = completed.entries().collect();
    assert_eq!(entries, [("/v1", ""), ("api/all", "false"), ("apps/v1", "true=x")]);
    let mut rc = RuntimeConfig::new();
    rc.set("a/v1=true");
    rc.set("a/v1=false,b/v1");
    assert_eq!(rc.get("a/v1"), Some("false"));
    assert_eq!(rc.get("b/v1"), Some(""));
    assert_eq!(rc.len(), 2);
}
