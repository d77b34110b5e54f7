//! API declaration problems: every problem `ApiSet::build` finds in the
//! `[[api]]` entries, `[groups]` priorities and `[storage_overrides]`, at the
//! span of the offending value. Other commands refuse such declarations
//! (exit 2); the linter reports them as findings, levelable like any other,
//! and checks everything that is well declared.

use kompat_diag::declare_rules;
use kompat_engine::api::ApiProblemKind;

use super::Pass;
use crate::Context;
use kompat_diag::Diagnostic;

declare_rules! {
    for ApiProblemKind {
        /// ### What it does
        ///
        /// Checks that the `version`, `kind` and `resource` of every `[[api]]` entry are not empty.
        ///
        /// ### Why is this bad?
        ///
        /// An API version without a name, kind or resource cannot be served or stored; kube-apiserver's registry would have nothing to register.
        ///
        /// ### Example
        ///
        /// ```toml
        /// [[api]]
        /// group = "widgets.example.io"
        /// version = "v1"
        /// kind = "Widget"
        /// resource = ""
        /// introduced = "1.32"
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// resource = "widgets"
        /// ```
        ApiEmptyValue: Error, "an API declaration has an empty version, kind or resource",

        /// ### What it does
        ///
        /// Checks that every `[[api]]` entry names the release that introduced it.
        ///
        /// ### Why is this bad?
        ///
        /// Serving at an emulation version, the default deprecation and removal of non-GA versions, and every lifecycle rule start from `introduced`; prerelease-lifecycle-gen requires it too (`+k8s:prerelease-lifecycle-gen:introduced`).
        ///
        /// ### Example
        ///
        /// ```toml
        /// [[api]]
        /// group = "batch"
        /// version = "v1beta1"
        /// kind = "CronJob"
        /// resource = "cronjobs"
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// introduced = "1.8"
        /// ```
        ApiMissingIntroduced: Error, "an API declaration names no introduced version",

        /// ### What it does
        ///
        /// Checks that a `replacement` is written `GROUP/VERSION/KIND` (`/v1/Pod` for the core group), with prerelease-lifecycle-gen's rules for each part.
        ///
        /// ### Why is this bad?
        ///
        /// kube-apiserver's deprecation warning names the replacement (`...; use batch/v1 CronJob`); one that cannot be read points clients nowhere.
        ///
        /// ### Example
        ///
        /// ```toml
        /// replacement = "batch.v1.CronJob"
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// replacement = "batch/v1/CronJob"
        /// ```
        ApiInvalidReplacement: Error, "an API replacement is not GROUP/VERSION/KIND",

        /// ### What it does
        ///
        /// Checks that no group, version and kind is declared twice, in one file or across files.
        ///
        /// ### Why is this bad?
        ///
        /// Two declarations of one API version can disagree on its lifecycle; which one a server follows would depend on input order.
        ///
        /// ### Example
        ///
        /// ```toml
        /// [[api]]
        /// group = "batch"
        /// version = "v1"
        /// kind = "CronJob"
        /// resource = "cronjobs"
        /// introduced = "1.21"
        ///
        /// [[api]]
        /// group = "batch"
        /// version = "v1"
        /// kind = "CronJob"
        /// resource = "cronjobs"
        /// introduced = "1.22"
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// # declare each API version once
        /// ```
        ApiDuplicateKind: Error, "an API version of a kind is declared twice",

        /// ### What it does
        ///
        /// Checks that a resource is declared once per group-version, whatever the kind.
        ///
        /// ### Why is this bad?
        ///
        /// A REST path (`/apis/GROUP/VERSION/RESOURCE`) serves one kind; two kinds behind one resource cannot both be served or stored.
        ///
        /// ### Example
        ///
        /// ```toml
        /// [[api]]
        /// group = "widgets.example.io"
        /// version = "v1"
        /// kind = "Widget"
        /// resource = "widgets"
        /// introduced = "1.30"
        ///
        /// [[api]]
        /// group = "widgets.example.io"
        /// version = "v1"
        /// kind = "Gadget"
        /// resource = "widgets"
        /// introduced = "1.30"
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// resource = "gadgets"
        /// ```
        ApiDuplicateResource: Error, "a resource is declared twice in one group-version",

        /// ### What it does
        ///
        /// Checks a group's `priority`: every version it lists is declared in that group, and none is listed twice.
        ///
        /// ### Why is this bad?
        ///
        /// The priority decides the preferred version and, with it, the storage version; a version nothing declares, or one listed twice, is a typo that silently changes that choice.
        ///
        /// ### Example
        ///
        /// ```toml
        /// [groups."widgets.example.io"]
        /// priority = ["v2", "v1"]   # no v2 is declared
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// [groups."widgets.example.io"]
        /// priority = ["v1", "v1beta1"]
        /// ```
        ApiInvalidPriority: Error, "a group's version priority lists an undeclared or repeated version",

        /// ### What it does
        ///
        /// Reports a `priority` for a group that no `[[api]]` entry declares, and a priority for one group given in two files.
        ///
        /// ### Why is this bad?
        ///
        /// A priority for nothing is a leftover or a misspelt group; two priorities for one group make the choice depend on input order.
        ///
        /// ### Example
        ///
        /// ```toml
        /// [groups."widget.example.io"]   # the group is widgets.example.io
        /// priority = ["v1"]
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// [groups."widgets.example.io"]
        /// priority = ["v1"]
        /// ```
        ApiUnusedPriority: Error, "a version priority is given for an undeclared group or twice",

        /// ### What it does
        ///
        /// Checks every `[storage_overrides]` entry: its key is `GROUP/RESOURCE`, the version it pins declares that resource, and no key is pinned in two files.
        ///
        /// ### Why is this bad?
        ///
        /// Like kube-apiserver's storage factory overrides, a pin decides the version objects are written in; a pin to a version that does not have the resource cannot be honoured.
        ///
        /// ### Example
        ///
        /// ```toml
        /// [storage_overrides]
        /// "widgets.example.io/widgets" = "v3"   # no v3 declares widgets
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// [storage_overrides]
        /// "widgets.example.io/widgets" = "v1"
        /// ```
        StorageOverrideInvalid: Error, "a storage override is malformed, pins an undeclared version or is given twice",
    }
}

pub static PASS: Pass = Pass {
    rules: RULES,
    check: Some(check),
};

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (kind, problem) in cx.api_problems {
        let mut diag = rule_of(*kind).diag(problem.message.clone(), problem.location.clone());
        diag.labels.clone_from(&problem.labels);
        diag.notes.clone_from(&problem.notes);
        diag.subject.clone_from(&problem.subject);
        out.push(diag);
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn api_empty_value() {
        check(
            r##"
//- apis.toml
[[api]]
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = ""
#          ^^ error[api-empty-value]: resource must not be empty
introduced = "1.32"
"##,
        );
    }

    #[test]
    fn api_missing_introduced() {
        check(
            r##"
//- apis.toml
[[api]]
#@0 ^^^^^^^ error[api-missing-introduced]: widgets.example.io/v1/Widget missing introduced version
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
"##,
        );
    }

    #[test]
    fn api_invalid_replacement() {
        check(
            r##"
//- apis.toml
[[api]]
group = "widgets.example.io"
version = "v1beta1"
kind = "Widget"
resource = "widgets"
introduced = "1.32"
deprecated = "1.35"
removed = "1.38"
replacement = "widgets.example.io.v1.Widget"
#             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[api-invalid-replacement]: replacement value must be "<group>/<version>/<kind>", got "widgets.example.io.v1.Widget"
"##,
        );
    }

    #[test]
    fn api_duplicate_kind() {
        check(
            r##"
//- apis.toml
[[api]]
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.32"

[[api]]
#@0 ^^^^^^^ error[api-duplicate-kind]: duplicate declaration of widgets.example.io/v1/Widget (first declared at apis.toml:1:1)
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.33"
"##,
        );
    }

    #[test]
    fn api_duplicate_resource() {
        check(
            r##"
//- apis.toml
[[api]]
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.32"

[[api]]
group = "widgets.example.io"
version = "v1"
kind = "Gadget"
resource = "widgets"
#          ^^^^^^^^^ error[api-duplicate-resource]: duplicate declaration of resource "widgets" in widgets.example.io/v1 (first declared at apis.toml:1:1)
introduced = "1.32"
"##,
        );
    }

    #[test]
    fn api_invalid_priority() {
        check(
            r##"
//- apis.toml
[[api]]
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.32"

[groups."widgets.example.io"]
priority = ["v2", "v1"]
#           ^^^^ error[api-invalid-priority]: priority of group "widgets.example.io" lists version "v2", which has no declaration in that group
"##,
        );
    }

    #[test]
    fn api_unused_priority() {
        check(
            r##"
//- apis.toml
[[api]]
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.32"

[groups."widget.example.io"]
priority = ["v1"]
#          ^^^^^^ error[api-unused-priority]: priority given for group "widget.example.io", which has no declaration
"##,
        );
    }

    #[test]
    fn storage_override_invalid() {
        check(
            r##"
//- apis.toml
[[api]]
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.32"

[storage_overrides]
"widgets.example.io/widgets" = "v3"
#@0 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[storage-override-invalid]: storage override "widgets.example.io/widgets" pins version "v3", which does not declare resource "widgets" in group "widgets.example.io"
"##,
        );
    }
}
