//! The finding codes: one [`Rule`] per code, in clippy's documentation
//! template, and the constructor that gives every finding its code's
//! default severity.

use kompat_diag::{Rule, Severity};

use crate::Finding;
use kompat_span::Span;

/// Every code this crate reports, sorted by code.
pub const fn rules() -> &'static [&'static Rule] {
    RULES
}

/// A finding with its code's default severity.
pub(crate) fn finding(
    code: &'static str,
    message: String,
    span: Option<Span>,
    subject: String,
    notes: Vec<String>,
) -> Finding {
    let severity = RULES.iter().find(|r| r.code == code).map_or(Severity::Error, |r| r.severity);
    Finding { code, severity, message, span, subject: Some(subject), notes }
}

pub static RULES: &[&Rule] = &[
    &BOUNDS_TIGHTENED,
    &CONVERSION_MISMATCH,
    &CONVERSION_WEBHOOK,
    &DEFAULT_CHANGED,
    &DEPRECATED_WITHOUT_WARNING,
    &DUPLICATE_VERSION_NAME,
    &ENUM_VALUE_REMOVED,
    &FIELD_REMOVED,
    &GROUP_CHANGED,
    &KIND_CHANGED,
    &MISSING_PRESERVE_UNKNOWN_FIELDS,
    &MISSING_REVERSE_CONVERSION,
    &MISSING_SCHEMA,
    &NEW_REQUIRED_FIELD,
    &PATTERN_CHANGED,
    &PLURAL_CHANGED,
    &PRESERVE_UNKNOWN_FIELDS_TRUE,
    &REMOVED_CRD_API_VERSION,
    &SCOPE_CHANGED,
    &SERVED_VERSION_REMOVED,
    &STORAGE_VERSION_COUNT,
    &STORED_VERSION_REMOVED,
    &TYPE_CHANGED,
    &UNDECLARED_CONVERSION,
    &UNHANDLED_CHANGE,
    &UNSERVED_STORAGE_VERSION,
    &VALIDATION_TIGHTENED,
];

pub static BOUNDS_TIGHTENED: Rule = Rule {
    code: "bounds-tightened",
    severity: Severity::Error,
    summary: "a minimum, maximum, length, item, property or multipleOf bound was added or tightened",
    doc: "### What it does
Compares a version kept from the old manifest to the new one and reports a
`minimum`, `maxLength`, `minItems`, `maxProperties` (and the other bounds),
`exclusiveMinimum`/`exclusiveMaximum` or `multipleOf` that was added or moved
inward.

### Why is this bad?
Objects already stored may violate the new bound. The API server then rejects
their next update (unless validation ratcheting lets the unchanged value
through), and clients that wrote valid objects yesterday get errors today.

### Example
```yaml
# old
name: {type: string, maxLength: 253}
# new
name: {type: string, maxLength: 63}
```

### Use instead
Keep the old bound in this version; tighten it only in a new version, with a
declared conversion for values that do not fit.
",
};

pub static CONVERSION_MISMATCH: Rule = Rule {
    code: "conversion-mismatch",
    severity: Severity::Warning,
    summary: "the conversions file names a CRD, version or field that does not exist where it says",
    doc: "### What it does
Checks the conversions file against its CRD: the `crd` it names, the `from`
and `to` versions of every `[[conversion]]`, and every declared field (in the
source version, or in the target version for `added` and the `to` of
`renamed`/`moved`). Findings point into the conversions file.

### Why is this bad?
A declaration that names nothing covers nothing: it is usually a typo or a
leftover, and the change it was meant to describe is undeclared.

### Example
```toml
[[conversion]]
from = \"v1alpha1\"
to = \"v1\"
renamed = [{ field = \"spec.tsl\", to = \"spec.validation\" }]
```

### Use instead
```toml
renamed = [{ field = \"spec.tls\", to = \"spec.validation\" }]
```
",
};

pub static CONVERSION_WEBHOOK: Rule = Rule {
    code: "conversion-webhook",
    severity: Severity::Error,
    summary: "the CRD converts between versions with a webhook",
    doc: "### What it does
Reports `spec.conversion.strategy: Webhook`.

### Why is this bad?
Every read and write of every version then depends on a webhook being up,
reachable and correct, for as long as the API exists. The Gateway API
versioning guidance: API designers must not use conversion webhooks.

### Example
```yaml
conversion:
  strategy: Webhook
  webhook: {clientConfig: {service: {name: conv, namespace: system}}, conversionReviewVersions: [v1]}
```

### Use instead
```yaml
conversion:
  strategy: None
```
with `x-kubernetes-preserve-unknown-fields` where versions differ and the
conversions declared in the conversions file, applied by controllers and a
conversion tool.
",
};

pub static DEFAULT_CHANGED: Rule = Rule {
    code: "default-changed",
    severity: Severity::Error,
    summary: "a default was added, removed or changed in a kept version",
    doc: "### What it does
Reports a `default` added, removed or changed in a version kept from the old
manifest to the new one.

### Why is this bad?
Defaults are applied when objects are read from storage as well as when they
are written, so a changed default silently changes the meaning of every
stored object that omits the field.

### Example
```yaml
# old
mode: {type: string, default: Managed}
# new
mode: {type: string, default: Unmanaged}
```

### Use instead
Keep the default of a released version; introduce a new default only with a
new version and a declared conversion.
",
};

pub static DEPRECATED_WITHOUT_WARNING: Rule = Rule {
    code: "deprecated-without-warning",
    severity: Severity::Warning,
    summary: "a deprecated version has no deprecationWarning",
    doc: "### What it does
Reports a version with `deprecated: true` and no `deprecationWarning`.

### Why is this bad?
Clients then get the generic `<group>/<version> <kind> is deprecated`, which
says neither what to use instead nor when the version goes away.

### Example
```yaml
- name: v1beta1
  served: true
  storage: false
  deprecated: true
```

### Use instead
```yaml
- name: v1beta1
  served: true
  storage: false
  deprecated: true
  deprecationWarning: \"example.io/v1beta1 Widget is deprecated; use example.io/v1 Widget\"
```
",
};

pub static DUPLICATE_VERSION_NAME: Rule = Rule {
    code: "duplicate-version-name",
    severity: Severity::Error,
    summary: "two entries of spec.versions have the same name",
    doc: "### What it does
Reports a version name listed more than once in `spec.versions`.

### Why is this bad?
The API server rejects the CRD: `spec.versions` must contain unique version
names.

### Example
```yaml
versions:
- {name: v1, served: true, storage: true, schema: ...}
- {name: v1, served: true, storage: false, schema: ...}
```

### Use instead
One entry per version.
",
};

pub static ENUM_VALUE_REMOVED: Rule = Rule {
    code: "enum-value-removed",
    severity: Severity::Error,
    summary: "an enum value was removed, or an enum constraint added, in a kept version",
    doc: "### What it does
Reports an `enum` value that a kept version no longer accepts, and an `enum`
constraint added where there was none.

### Why is this bad?
Stored objects and clients that use the value are rejected on their next
write.

### Example
```yaml
# old
mode: {type: string, enum: [Managed, Unmanaged]}
# new
mode: {type: string, enum: [Managed]}
```

### Use instead
Keep accepting the value (a controller may treat it as deprecated); drop it
only in a new version with a declared conversion.
",
};

pub static FIELD_REMOVED: Rule = Rule {
    code: "field-removed",
    severity: Severity::Error,
    summary: "a field, or the preservation of unknown fields, was removed from a kept version",
    doc: "### What it does
Reports a property present in the old schema of a version and absent from its
new schema, and a node that stops preserving unknown fields.

### Why is this bad?
Clients that set the field break, and unless its parent preserves unknown
fields the API server prunes the stored values on the next read or write.

### Example
```yaml
# old
spec: {type: object, properties: {tls: {type: object}, port: {type: integer}}}
# new
spec: {type: object, properties: {port: {type: integer}}}
```

### Use instead
Keep the field in the released version; remove or rename it in a new version
with a declared conversion.
",
};

pub static GROUP_CHANGED: Rule = Rule {
    code: "group-changed",
    severity: Severity::Error,
    summary: "spec.group changed between the old and new manifest",
    doc: "### What it does
Reports a changed `spec.group`.

### Why is this bad?
The CRD's name is `<plural>.<group>`: a new group is a different CRD. The
existing objects stay with the old one and every client of the old group
breaks.

### Example
```yaml
# old
group: example.io
# new
group: widgets.example.io
```

### Use instead
Keep the group; a new group is a new API with its own migration.
",
};

pub static KIND_CHANGED: Rule = Rule {
    code: "kind-changed",
    severity: Severity::Error,
    summary: "spec.names.kind changed between the old and new manifest",
    doc: "### What it does
Reports a changed `spec.names.kind`.

### Why is this bad?
Clients, owner references and typed code that name the old kind break, and
the objects' `kind` no longer matches what clients expect.

### Example
```yaml
# old
names: {kind: Widget, plural: widgets}
# new
names: {kind: Gadget, plural: widgets}
```

### Use instead
Keep the kind.
",
};

pub static MISSING_PRESERVE_UNKNOWN_FIELDS: Rule = Rule {
    code: "missing-preserve-unknown-fields",
    severity: Severity::Error,
    summary: "a version prunes fields that another version of the CRD describes",
    doc: "### What it does
For CRDs with more than one version and no conversion webhook, finds the
fields that one version describes and another does not, and reports the node
of the other version that would hold them if it does not set
`x-kubernetes-preserve-unknown-fields: true` (or `additionalProperties`).

### Why is this bad?
With conversion strategy `None` the API server stores one set of fields and
prunes, on every read and write, whatever the version in use does not
describe. Writing an object through that version silently deletes the other
version's fields. The Gateway API guidance requires
`x-kubernetes-preserve-unknown-fields` so that conversion tools can see every
stored field.

### Example
```yaml
- name: v1alpha1
  schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {tls: {type: object}}}}}}
- name: v1
  schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {validation: {type: object}}}}}}
```

### Use instead
```yaml
spec:
  type: object
  x-kubernetes-preserve-unknown-fields: true
  properties: {validation: {type: object}}
```
",
};

pub static MISSING_REVERSE_CONVERSION: Rule = Rule {
    code: "missing-reverse-conversion",
    severity: Severity::Error,
    summary: "an experimental-channel breaking change has no conversion back",
    doc: "### What it does
In the experimental channel (`channel = \"experimental\"` in the conversions
file, or the `gateway.networking.k8s.io/channel: experimental` annotation),
requires every semantic breaking change to be declared in both directions:
from the older version to the newer and back.

### Why is this bad?
Experimental changes may turn out to be mistakes. Without the reverse
conversion the change cannot be rolled back without losing data.

### Example
```toml
channel = \"experimental\"
[[conversion]]
from = \"v1alpha1\"
to = \"v1alpha2\"
renamed = [{ field = \"spec.tls\", to = \"spec.validation\" }]
```

### Use instead
```toml
[[conversion]]
from = \"v1alpha2\"
to = \"v1alpha1\"
renamed = [{ field = \"spec.validation\", to = \"spec.tls\" }]
```
",
};

pub static MISSING_SCHEMA: Rule = Rule {
    code: "missing-schema",
    severity: Severity::Error,
    summary: "a version has no schema.openAPIV3Schema",
    doc: "### What it does
Reports a version of an `apiextensions.k8s.io/v1` CRD without
`schema.openAPIV3Schema` (kube-rs: `schema = \"disabled\"`).

### Why is this bad?
The API server requires a structural schema for every version; the CRD
cannot be applied.

### Example
```yaml
- {name: v1, served: true, storage: true}
```

### Use instead
```yaml
- name: v1
  served: true
  storage: true
  schema:
openAPIV3Schema: {type: object, properties: {spec: {type: object}}}
```
",
};

pub static NEW_REQUIRED_FIELD: Rule = Rule {
    code: "new-required-field",
    severity: Severity::Error,
    summary: "a kept version requires a field it did not require before",
    doc: "### What it does
Reports a name added to a `required` list of a kept version: a new required
field, or an optional field that became required.

### Why is this bad?
Stored objects without the field are rejected on their next update, and
clients that never set it break.

### Example
```yaml
# old
spec: {type: object, properties: {replicas: {type: integer}}}
# new
spec: {type: object, required: [replicas], properties: {replicas: {type: integer}}}
```

### Use instead
Keep the field optional (with a default if it needs one); make it required
only in a new version, declared as `added` with a `default` in the
conversions file.
",
};

pub static PATTERN_CHANGED: Rule = Rule {
    code: "pattern-changed",
    severity: Severity::Error,
    summary: "a pattern was added or changed in a kept version",
    doc: "### What it does
Reports a `pattern` added to, or changed in, a kept version. Removing a
pattern loosens validation and is not reported.

### Why is this bad?
Values valid under the old pattern may be rejected, so stored objects fail
their next update.

### Example
```yaml
# old
host: {type: string}
# new
host: {type: string, pattern: '^[a-z0-9.-]+$'}
```

### Use instead
Validate the stricter form in a new version, or in a controller that reports
a condition.
",
};

pub static PLURAL_CHANGED: Rule = Rule {
    code: "plural-changed",
    severity: Severity::Error,
    summary: "spec.names.plural changed between the old and new manifest",
    doc: "### What it does
Reports a changed `spec.names.plural`.

### Why is this bad?
The plural is part of the CRD's name and of every REST path: a new plural is
a different CRD, and the existing objects stay with the old one.

### Example
```yaml
# old
names: {kind: Widget, plural: widgets}
# new
names: {kind: Widget, plural: widgetz}
```

### Use instead
Keep the plural.
",
};

pub static PRESERVE_UNKNOWN_FIELDS_TRUE: Rule = Rule {
    code: "preserve-unknown-fields-true",
    severity: Severity::Error,
    summary: "spec.preserveUnknownFields is true",
    doc: "### What it does
Reports the CRD-wide `spec.preserveUnknownFields: true`.

### Why is this bad?
It is deprecated in `apiextensions.k8s.io/v1`, turns off pruning for every
version, and cannot be combined with webhook conversion or defaults.

### Example
```yaml
spec:
  preserveUnknownFields: true
```

### Use instead
```yaml
spec:
  preserveUnknownFields: false
  # and on the subtrees that hold arbitrary data:
  #   x-kubernetes-preserve-unknown-fields: true
```
",
};

pub static REMOVED_CRD_API_VERSION: Rule = Rule {
    code: "removed-crd-api-version",
    severity: Severity::Error,
    summary: "the CRD uses apiextensions.k8s.io/v1beta1",
    doc: "### What it does
Reports `apiextensions.k8s.io/v1beta1` CustomResourceDefinitions. kompat
checks nothing else about them.

### Why is this bad?
`apiextensions.k8s.io/v1beta1` is not served since Kubernetes 1.22: the
manifest cannot be applied.

### Example
```yaml
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
spec:
  version: v1
  validation: {openAPIV3Schema: {type: object}}
```

### Use instead
```yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  versions:
  - name: v1
served: true
storage: true
schema: {openAPIV3Schema: {type: object}}
```
",
};

pub static SCOPE_CHANGED: Rule = Rule {
    code: "scope-changed",
    severity: Severity::Error,
    summary: "spec.scope changed between the old and new manifest",
    doc: "### What it does
Reports a change between `Namespaced` and `Cluster` scope.

### Why is this bad?
The API server rejects it: existing objects cannot change scope.

### Example
```yaml
# old
scope: Namespaced
# new
scope: Cluster
```

### Use instead
Keep the scope; a different scope needs a new CRD and a migration of the
objects.
",
};

pub static SERVED_VERSION_REMOVED: Rule = Rule {
    code: "served-version-removed",
    severity: Severity::Error,
    summary: "a version was removed from spec.versions while it was still served",
    doc: "### What it does
Reports a version served in the old manifest and absent from the new one.

### Why is this bad?
Clients that use it fail at once with `404 Not Found`, with no time to move
to another version.

### Example
```yaml
# old
- {name: v1beta1, served: true, storage: false, ...}
# new: the entry is gone
```

### Use instead
Set `served: false` in one release, watch for clients that still use it,
and remove it in a later release (`kompat crd-plan` prints the steps).
",
};

pub static STORAGE_VERSION_COUNT: Rule = Rule {
    code: "storage-version-count",
    severity: Severity::Error,
    summary: "not exactly one version is marked storage: true",
    doc: "### What it does
Counts the versions with `storage: true`.

### Why is this bad?
The API server rejects the CRD: `spec.versions` must have exactly one version
marked as storage version. kube-rs' `merge_crds` forces this, but hand-edited
and generated manifests may not.

### Example
```yaml
- {name: v1beta1, served: true, storage: true, ...}
- {name: v1, served: true, storage: true, ...}
```

### Use instead
```yaml
- {name: v1beta1, served: true, storage: false, ...}
- {name: v1, served: true, storage: true, ...}
```
",
};

pub static STORED_VERSION_REMOVED: Rule = Rule {
    code: "stored-version-removed",
    severity: Severity::Error,
    summary: "a version listed in status.storedVersions was removed from spec.versions",
    doc: "### What it does
Reports a version of the old CRD's `status.storedVersions` (or, when the old
manifest has no status, its storage version, which the API server records
there) that is missing from the new `spec.versions`. The message is the API
server's own (1.33 and later).

### Why is this bad?
The API server rejects the update: objects may still be persisted in that
version until a storage migration rewrites them and removes the version from
`status.storedVersions`.

### Example
```yaml
# old: v1alpha1 is the storage version
# new
versions:
- {name: v1, served: true, storage: true, ...}
```

### Use instead
Keep the version with `served: false, storage: false`, migrate the objects
(StorageVersionMigration), prune `status.storedVersions`, then remove it.
`kompat crd-plan old.yaml new.yaml` prints the steps.
",
};

pub static TYPE_CHANGED: Rule = Rule {
    code: "type-changed",
    severity: Severity::Error,
    summary: "the type of a field changed in a kept version",
    doc: "### What it does
Reports a changed, added or removed `type` in a kept version.

### Why is this bad?
Stored values of the old type fail validation and break every reader and
writer of the field.

### Example
```yaml
# old
port: {type: integer}
# new
port: {type: string}
```

### Use instead
Add a field with the new type (or a new version with a declared `changed`
conversion) and keep the old one.
",
};

pub static UNDECLARED_CONVERSION: Rule = Rule {
    code: "undeclared-conversion",
    severity: Severity::Error,
    summary: "a semantic breaking change between versions has no declared conversion",
    doc: "### What it does
Compares each served version with the next newer served version (and, in an
upgrade, each version that stops being served with the new storage version)
and reports every semantic breaking change that the conversions file does not
declare: a field of the older version with no counterpart in the newer one, a
changed type, a field the newer version requires.

### Why is this bad?
The API server does not convert CRD objects between versions (strategy
`None`): it stores one set of fields. Controllers and conversion tools can
only canonicalize old objects if the designer has said how. The Gateway API
guidance: designers must define the conversion for every semantic breaking
change.

### Example
```yaml
# v1alpha1: spec.tls      v1: spec.validation
```

### Use instead
```toml
[[conversion]]
from = \"v1alpha1\"
to = \"v1\"
renamed = [{ field = \"spec.tls\", to = \"spec.validation\" }]
```
",
};

pub static UNHANDLED_CHANGE: Rule = Rule {
    code: "unhandled-change",
    severity: Severity::Error,
    summary: "a change kompat does not know how to judge",
    doc: "### What it does
Reports every difference between the old and new manifest that no other rule
judged: unknown schema keywords (`x-kubernetes-list-type`, `format`,
`oneOf`, ...), changed subresources, changed `singular`/`listKind`. The
comparison fails closed: an unknown change is never assumed compatible.

### Why is this bad?
It may be harmless, or it may break clients or stored objects; a person has
to decide.

### Example
```yaml
# old
items: {type: array, x-kubernetes-list-type: atomic}
# new
items: {type: array, x-kubernetes-list-type: set}
```

### Use instead
Review the change; allow it in the linter's configuration or baseline when it
is safe.
",
};

pub static UNSERVED_STORAGE_VERSION: Rule = Rule {
    code: "unserved-storage-version",
    severity: Severity::Error,
    summary: "the storage version is not served",
    doc: "### What it does
Reports a version with `storage: true` and `served: false`.

### Why is this bad?
The API server computes the CRD's storageVersionHash only over served
versions, so discovery shows an empty hash and storage-version migrators skip
the resource; objects cannot be read back in the version they are written.

### Example
```yaml
- {name: v1alpha1, served: false, storage: true, ...}
- {name: v1, served: true, storage: false, ...}
```

### Use instead
```yaml
- {name: v1alpha1, served: false, storage: false, ...}
- {name: v1, served: true, storage: true, ...}
```
",
};

pub static VALIDATION_TIGHTENED: Rule = Rule {
    code: "validation-tightened",
    severity: Severity::Error,
    summary: "a kept version validates more strictly (CEL rule, nullable, uniqueItems)",
    doc: "### What it does
Reports an `x-kubernetes-validations` rule added (or with a changed
expression), `nullable` removed, or `uniqueItems` set in a kept version.

### Why is this bad?
Stored objects that do not satisfy the new rule are rejected on their next
update. Validation ratcheting (Kubernetes 1.30 and later) lets unchanged
values through, but not for every construct.

### Example
```yaml
# new
spec:
  x-kubernetes-validations:
  - rule: self.replicas <= 10
```

### Use instead
Add strict validation in a new version, or report the problem from a
controller.
",
};
