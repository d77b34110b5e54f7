//! The CRD rules, each declared once with [`kompat_diag::declare_rules!`]:
//! the variant of [`CrdRule`] (its code in UpperCamelCase), default
//! severity, summary and doc in clippy's template. Every finding carries its
//! [`CrdRule`], so a finding's code and default severity are its rule's.

use kompat_diag::declare_rules;

use crate::Finding;
use kompat_span::Span;

pub(crate) fn finding(
    rule: CrdRule,
    message: String,
    span: Option<Span>,
    subject: String,
    notes: Vec<String>,
) -> Finding {
    Finding { rule, message, span, subject: Some(subject), notes }
}

declare_rules! {
    /// The rule of a CRD finding: its code is the variant in kebab-case,
    /// [`CrdRule::rule`] its severity and documentation. Declared in code
    /// order.
    pub enum CrdRule {
        /// ### What it does
        /// Compares a version kept from the old manifest to the new one and reports a
        /// `minimum`, `maxLength`, `minItems`, `maxProperties` (and the other bounds),
        /// `exclusiveMinimum`/`exclusiveMaximum` or `multipleOf` that was added or moved
        /// inward.
        ///
        /// ### Why is this bad?
        /// Objects already stored may violate the new bound. The API server then rejects
        /// their next update (unless validation ratcheting lets the unchanged value
        /// through), and clients that wrote valid objects yesterday get errors today.
        ///
        /// ### Example
        /// ```yaml
        /// # old
        /// name: {type: string, maxLength: 253}
        /// # new
        /// name: {type: string, maxLength: 63}
        /// ```
        ///
        /// ### Use instead
        /// Keep the old bound in this version; tighten it only in a new version, with a
        /// declared conversion for values that do not fit.
        BoundsTightened: Error, "a minimum, maximum, length, item, property or multipleOf bound was added or tightened",

        /// ### What it does
        /// A note on a CRD converted by a webhook (`strategy: Webhook`): names the checks
        /// that need declared conversions and did not run (`missing-preserve-unknown-fields`
        /// and `undeclared-conversion`, `missing-reverse-conversion` in the experimental
        /// channel), because the webhook, not the conversions file, converts.
        ///
        /// ### Why is this bad?
        /// It is not: it says what kompat did not judge, so that a clean run is not read as
        /// "the conversions were checked".
        ///
        /// ### Example
        /// ```yaml
        /// conversion:
        ///   strategy: Webhook
        /// ```
        ///
        /// ### Use instead
        /// Test the webhook's round trips; or use `strategy: None` with a conversions file.
        ConversionChecksSkipped: Note, "checks that need declared conversions did not run because a webhook converts",

        /// ### What it does
        /// Checks the conversions file against its CRD: the `crd` it names, the `from`
        /// and `to` versions of every `[[conversion]]`, and every declared field (in the
        /// source version, or in the target version for `added` and the `to` of
        /// `renamed`/`moved`). Findings point into the conversions file.
        ///
        /// ### Why is this bad?
        /// A declaration that names nothing covers nothing: it is usually a typo or a
        /// leftover, and the change it was meant to describe is undeclared.
        ///
        /// ### Example
        /// ```toml
        /// [[conversion]]
        /// from = "v1alpha1"
        /// to = "v1"
        /// renamed = [{ field = "spec.tsl", to = "spec.validation" }]
        /// ```
        ///
        /// ### Use instead
        /// ```toml
        /// renamed = [{ field = "spec.tls", to = "spec.validation" }]
        /// ```
        ConversionMismatch: Warning, "the conversions file names a CRD, version or field that does not exist where it says",

        /// ### What it does
        /// Reports `spec.conversion.strategy: Webhook`, the kubebuilder, cluster-api and
        /// Stackable pattern: a normal configuration, a warning by default (levelable like
        /// every rule). The checks that need declared conversions
        /// (`missing-preserve-unknown-fields`, `undeclared-conversion`,
        /// `missing-reverse-conversion`) do not run under a webhook, and
        /// `conversion-checks-skipped` says which did not.
        ///
        /// ### Why is this bad?
        /// Every read and write of every version then depends on a webhook being up,
        /// reachable and correct, for as long as the API exists, and kompat cannot see
        /// what the webhook does with each field. The Gateway API versioning guidance:
        /// API designers must not use conversion webhooks.
        ///
        /// ### Example
        /// ```yaml
        /// conversion:
        ///   strategy: Webhook
        ///   webhook: {clientConfig: {service: {name: conv, namespace: system}}, conversionReviewVersions: [v1]}
        /// ```
        ///
        /// ### Use instead
        /// ```yaml
        /// conversion:
        ///   strategy: None
        /// ```
        /// with `x-kubernetes-preserve-unknown-fields` where versions differ and the
        /// conversions declared in the conversions file, applied by controllers and a
        /// conversion tool; or keep the webhook and set the rule to `allow`.
        ConversionWebhook: Warning, "the CRD converts between versions with a webhook",

        /// ### What it does
        /// Reports a CRD of the baseline (`--baseline DIR` or a baseline manifest) that none
        /// of the new manifests holds. Findings point at the CRD's name in the baseline.
        ///
        /// ### Why is this bad?
        /// Deleting a CustomResourceDefinition deletes every object of it in the cluster;
        /// leaving it out of a release leaves it unmanaged. Either is rarely meant.
        ///
        /// ### Example
        /// ```text
        /// old/gadgets.yaml   (gadgets.example.io)
        /// new/               (no gadgets.example.io)
        /// ```
        ///
        /// ### Use instead
        /// Keep shipping the CRD (with `served: false` versions if it is retired), or allow
        /// the finding with the reason when the removal is intended.
        CrdRemoved: Error, "a CRD of the baseline is missing from the new manifests",

        /// ### What it does
        /// Reports a `default` added, removed or changed in a version kept from the old
        /// manifest to the new one.
        ///
        /// ### Why is this bad?
        /// Defaults are applied when objects are read from storage as well as when they
        /// are written, so a changed default silently changes the meaning of every
        /// stored object that omits the field.
        ///
        /// ### Example
        /// ```yaml
        /// # old
        /// mode: {type: string, default: Managed}
        /// # new
        /// mode: {type: string, default: Unmanaged}
        /// ```
        ///
        /// ### Use instead
        /// Keep the default of a released version; introduce a new default only with a
        /// new version and a declared conversion.
        DefaultChanged: Error, "a default was added, removed or changed in a kept version",

        /// ### What it does
        /// Reports a version with `deprecated: true` and no `deprecationWarning`.
        ///
        /// ### Why is this bad?
        /// Clients then get the generic `<group>/<version> <kind> is deprecated`, which
        /// says neither what to use instead nor when the version goes away.
        ///
        /// ### Example
        /// ```yaml
        /// - name: v1beta1
        ///   served: true
        ///   storage: false
        ///   deprecated: true
        /// ```
        ///
        /// ### Use instead
        /// ```yaml
        /// - name: v1beta1
        ///   served: true
        ///   storage: false
        ///   deprecated: true
        ///   deprecationWarning: "example.io/v1beta1 Widget is deprecated; use example.io/v1 Widget"
        /// ```
        DeprecatedWithoutWarning: Warning, "a deprecated version has no deprecationWarning",

        /// ### What it does
        /// Reports a version name listed more than once in `spec.versions`.
        ///
        /// ### Why is this bad?
        /// The API server rejects the CRD: `spec.versions` must contain unique version
        /// names.
        ///
        /// ### Example
        /// ```yaml
        /// versions:
        /// - {name: v1, served: true, storage: true, schema: ...}
        /// - {name: v1, served: true, storage: false, schema: ...}
        /// ```
        ///
        /// ### Use instead
        /// One entry per version.
        DuplicateVersionName: Error, "two entries of spec.versions have the same name",

        /// ### What it does
        /// Reports an `enum` value that a kept version no longer accepts, and an `enum`
        /// constraint added where there was none.
        ///
        /// ### Why is this bad?
        /// Stored objects and clients that use the value are rejected on their next
        /// write.
        ///
        /// ### Example
        /// ```yaml
        /// # old
        /// mode: {type: string, enum: [Managed, Unmanaged]}
        /// # new
        /// mode: {type: string, enum: [Managed]}
        /// ```
        ///
        /// ### Use instead
        /// Keep accepting the value (a controller may treat it as deprecated); drop it
        /// only in a new version with a declared conversion.
        EnumValueRemoved: Error, "an enum value was removed, or an enum constraint added, in a kept version",

        /// ### What it does
        /// Reports a property present in the old schema of a version and absent from its
        /// new schema, and a node that stops preserving unknown fields.
        ///
        /// ### Why is this bad?
        /// Clients that set the field break, and unless its parent preserves unknown
        /// fields the API server prunes the stored values on the next read or write.
        ///
        /// ### Example
        /// ```yaml
        /// # old
        /// spec: {type: object, properties: {tls: {type: object}, port: {type: integer}}}
        /// # new
        /// spec: {type: object, properties: {port: {type: integer}}}
        /// ```
        ///
        /// ### Use instead
        /// Keep the field in the released version; remove or rename it in a new version
        /// with a declared conversion.
        FieldRemoved: Error, "a field, or the preservation of unknown fields, was removed from a kept version",

        /// ### What it does
        /// Reports a changed `spec.group`.
        ///
        /// ### Why is this bad?
        /// The CRD's name is `<plural>.<group>`: a new group is a different CRD. The
        /// existing objects stay with the old one and every client of the old group
        /// breaks.
        ///
        /// ### Example
        /// ```yaml
        /// # old
        /// group: example.io
        /// # new
        /// group: widgets.example.io
        /// ```
        ///
        /// ### Use instead
        /// Keep the group; a new group is a new API with its own migration.
        GroupChanged: Error, "spec.group changed between the old and new manifest",

        /// ### What it does
        /// Reports a changed `spec.names.kind`.
        ///
        /// ### Why is this bad?
        /// Clients, owner references and typed code that name the old kind break, and
        /// the objects' `kind` no longer matches what clients expect.
        ///
        /// ### Example
        /// ```yaml
        /// # old
        /// names: {kind: Widget, plural: widgets}
        /// # new
        /// names: {kind: Gadget, plural: widgets}
        /// ```
        ///
        /// ### Use instead
        /// Keep the kind.
        KindChanged: Error, "spec.names.kind changed between the old and new manifest",

        /// ### What it does
        /// For CRDs with more than one version and no conversion webhook, finds the
        /// fields that one version describes and another does not, and reports the node
        /// of the other version that would hold them if it does not set
        /// `x-kubernetes-preserve-unknown-fields: true` (or `additionalProperties`).
        ///
        /// ### Why is this bad?
        /// With conversion strategy `None` the API server stores one set of fields and
        /// prunes, on every read and write, whatever the version in use does not
        /// describe. Writing an object through that version silently deletes the other
        /// version's fields. The Gateway API guidance requires
        /// `x-kubernetes-preserve-unknown-fields` so that conversion tools can see every
        /// stored field.
        ///
        /// ### Example
        /// ```yaml
        /// - name: v1alpha1
        ///   schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {tls: {type: object}}}}}}
        /// - name: v1
        ///   schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {validation: {type: object}}}}}}
        /// ```
        ///
        /// ### Use instead
        /// ```yaml
        /// spec:
        ///   type: object
        ///   x-kubernetes-preserve-unknown-fields: true
        ///   properties: {validation: {type: object}}
        /// ```
        MissingPreserveUnknownFields: Error, "a version prunes fields that another version of the CRD describes",

        /// ### What it does
        /// In the experimental channel (`channel = "experimental"` in the conversions
        /// file, or the `gateway.networking.k8s.io/channel: experimental` annotation),
        /// requires every semantic breaking change to be declared in both directions:
        /// from the older version to the newer and back.
        ///
        /// ### Why is this bad?
        /// Experimental changes may turn out to be mistakes. Without the reverse
        /// conversion the change cannot be rolled back without losing data.
        ///
        /// ### Example
        /// ```toml
        /// channel = "experimental"
        /// [[conversion]]
        /// from = "v1alpha1"
        /// to = "v1alpha2"
        /// renamed = [{ field = "spec.tls", to = "spec.validation" }]
        /// ```
        ///
        /// ### Use instead
        /// ```toml
        /// [[conversion]]
        /// from = "v1alpha2"
        /// to = "v1alpha1"
        /// renamed = [{ field = "spec.validation", to = "spec.tls" }]
        /// ```
        MissingReverseConversion: Error, "an experimental-channel breaking change has no conversion back",

        /// ### What it does
        /// Reports a version of an `apiextensions.k8s.io/v1` CRD without
        /// `schema.openAPIV3Schema` (kube-rs: `schema = "disabled"`).
        ///
        /// ### Why is this bad?
        /// The API server requires a structural schema for every version; the CRD
        /// cannot be applied.
        ///
        /// ### Example
        /// ```yaml
        /// - {name: v1, served: true, storage: true}
        /// ```
        ///
        /// ### Use instead
        /// ```yaml
        /// - name: v1
        ///   served: true
        ///   storage: true
        ///   schema:
        /// openAPIV3Schema: {type: object, properties: {spec: {type: object}}}
        /// ```
        MissingSchema: Error, "a version has no schema.openAPIV3Schema",

        /// ### What it does
        /// Reports a name added to a `required` list of a kept version: a new required
        /// field, or an optional field that became required.
        ///
        /// ### Why is this bad?
        /// Stored objects without the field are rejected on their next update, and
        /// clients that never set it break.
        ///
        /// ### Example
        /// ```yaml
        /// # old
        /// spec: {type: object, properties: {replicas: {type: integer}}}
        /// # new
        /// spec: {type: object, required: [replicas], properties: {replicas: {type: integer}}}
        /// ```
        ///
        /// ### Use instead
        /// Keep the field optional (with a default if it needs one); make it required
        /// only in a new version, declared as `added` with a `default` in the
        /// conversions file.
        NewRequiredField: Error, "a kept version requires a field it did not require before",

        /// ### What it does
        /// Reports a `*.conversions.toml` file that belongs to no CRD manifest among the
        /// inputs. A conversions file belongs to the manifest with its name less
        /// `.conversions.toml` plus `.yaml`, `.yml` or `.json`, in the same directory
        /// (`widgets.conversions.toml` belongs to `widgets.yaml`). The finding names the
        /// manifest it was expected to belong to.
        ///
        /// ### Why is this bad?
        /// A conversions file that nothing reads declares nothing: every conversion it was
        /// written for is still reported as undeclared, and the cause is hard to see.
        ///
        /// ### Example
        /// ```text
        /// widgets.yaml
        /// widgets.yaml.conversions.toml
        /// ```
        ///
        /// ### Use instead
        /// ```text
        /// widgets.yaml
        /// widgets.conversions.toml
        /// ```
        OrphanConversionsFile: Warning, "a conversions file belongs to no CRD manifest among the inputs",

        /// ### What it does
        /// Reports a `pattern` added to, or changed in, a kept version. Removing a
        /// pattern loosens validation and is not reported. Patterns are compared as
        /// languages where their structure is the same and only character classes
        /// differ: the same sets (`[-a-zSA-Z0-9]` and `[-a-zA-Z0-9]`) or wider classes
        /// are not reported; any other change is, with both patterns.
        ///
        /// ### Why is this bad?
        /// Values valid under the old pattern may be rejected, so stored objects fail
        /// their next update.
        ///
        /// ### Example
        /// ```yaml
        /// # old
        /// host: {type: string}
        /// # new
        /// host: {type: string, pattern: '^[a-z0-9.-]+$'}
        /// ```
        ///
        /// ### Use instead
        /// Validate the stricter form in a new version, or in a controller that reports
        /// a condition.
        PatternChanged: Error, "a pattern was added or changed in a kept version",

        /// ### What it does
        /// Reports a changed `spec.names.plural`.
        ///
        /// ### Why is this bad?
        /// The plural is part of the CRD's name and of every REST path: a new plural is
        /// a different CRD, and the existing objects stay with the old one.
        ///
        /// ### Example
        /// ```yaml
        /// # old
        /// names: {kind: Widget, plural: widgets}
        /// # new
        /// names: {kind: Widget, plural: widgetz}
        /// ```
        ///
        /// ### Use instead
        /// Keep the plural.
        PluralChanged: Error, "spec.names.plural changed between the old and new manifest",

        /// ### What it does
        /// Reports the CRD-wide `spec.preserveUnknownFields: true`.
        ///
        /// ### Why is this bad?
        /// It is deprecated in `apiextensions.k8s.io/v1`, turns off pruning for every
        /// version, and cannot be combined with webhook conversion or defaults.
        ///
        /// ### Example
        /// ```yaml
        /// spec:
        ///   preserveUnknownFields: true
        /// ```
        ///
        /// ### Use instead
        /// ```yaml
        /// spec:
        ///   preserveUnknownFields: false
        ///   # and on the subtrees that hold arbitrary data:
        ///   #   x-kubernetes-preserve-unknown-fields: true
        /// ```
        PreserveUnknownFieldsTrue: Error, "spec.preserveUnknownFields is true",

        /// ### What it does
        /// Reports a change between `Namespaced` and `Cluster` scope.
        ///
        /// ### Why is this bad?
        /// The API server rejects it: existing objects cannot change scope.
        ///
        /// ### Example
        /// ```yaml
        /// # old
        /// scope: Namespaced
        /// # new
        /// scope: Cluster
        /// ```
        ///
        /// ### Use instead
        /// Keep the scope; a different scope needs a new CRD and a migration of the
        /// objects.
        ScopeChanged: Error, "spec.scope changed between the old and new manifest",

        /// ### What it does
        /// Reports a version served in the old manifest and absent from the new one.
        ///
        /// ### Why is this bad?
        /// Clients that use it fail at once with `404 Not Found`, with no time to move
        /// to another version.
        ///
        /// ### Example
        /// ```yaml
        /// # old
        /// - {name: v1beta1, served: true, storage: false, ...}
        /// # new: the entry is gone
        /// ```
        ///
        /// ### Use instead
        /// Set `served: false` in one release, watch for clients that still use it,
        /// and remove it in a later release (`kompat crd-plan` prints the steps).
        ServedVersionRemoved: Error, "a version was removed from spec.versions while it was still served",

        /// ### What it does
        /// Counts the versions with `storage: true`.
        ///
        /// ### Why is this bad?
        /// The API server rejects the CRD: `spec.versions` must have exactly one version
        /// marked as storage version. kube-rs' `merge_crds` forces this, but hand-edited
        /// and generated manifests may not.
        ///
        /// ### Example
        /// ```yaml
        /// - {name: v1beta1, served: true, storage: true, ...}
        /// - {name: v1, served: true, storage: true, ...}
        /// ```
        ///
        /// ### Use instead
        /// ```yaml
        /// - {name: v1beta1, served: true, storage: false, ...}
        /// - {name: v1, served: true, storage: true, ...}
        /// ```
        StorageVersionCount: Error, "not exactly one version is marked storage: true",

        /// ### What it does
        /// Reports a version of the old CRD's `status.storedVersions` (or, when the old
        /// manifest has no status, its storage version, which the API server records
        /// there) that is missing from the new `spec.versions`. The message is the API
        /// server's own (1.33 and later).
        ///
        /// ### Why is this bad?
        /// The API server rejects the update: objects may still be persisted in that
        /// version until a storage migration rewrites them and removes the version from
        /// `status.storedVersions`.
        ///
        /// ### Example
        /// ```yaml
        /// # old: v1alpha1 is the storage version
        /// # new
        /// versions:
        /// - {name: v1, served: true, storage: true, ...}
        /// ```
        ///
        /// ### Use instead
        /// Keep the version with `served: false, storage: false`, migrate the objects
        /// (StorageVersionMigration), prune `status.storedVersions`, then remove it.
        /// `kompat crd-plan old.yaml new.yaml` prints the steps.
        StoredVersionRemoved: Error, "a version listed in status.storedVersions was removed from spec.versions",

        /// ### What it does
        /// A note on an upgrade whose baseline has no `status.storedVersions`: kompat
        /// assumes the API server recorded only the baseline's storage version, and says
        /// which version that is and how to get the cluster's record.
        ///
        /// ### Why is this bad?
        /// A cluster that has run older releases may still store objects in versions the
        /// baseline no longer marks as storage; removing them then fails or loses data.
        /// Only the cluster's `status.storedVersions` says.
        ///
        /// ### Example
        /// ```sh
        /// kompat lint --baseline old/crds.yaml new/crds.yaml
        /// ```
        ///
        /// ### Use instead
        /// ```sh
        /// kubectl get crd widgets.example.io -o yaml > cluster.yaml
        /// kompat lint --baseline cluster.yaml new/crds.yaml
        /// ```
        StoredVersionsAssumed: Note, "the baseline has no status.storedVersions, so its storage version is assumed",

        /// ### What it does
        /// Reports a changed, added or removed `type` in a kept version.
        ///
        /// ### Why is this bad?
        /// Stored values of the old type fail validation and break every reader and
        /// writer of the field.
        ///
        /// ### Example
        /// ```yaml
        /// # old
        /// port: {type: integer}
        /// # new
        /// port: {type: string}
        /// ```
        ///
        /// ### Use instead
        /// Add a field with the new type (or a new version with a declared `changed`
        /// conversion) and keep the old one.
        TypeChanged: Error, "the type of a field changed in a kept version",

        /// ### What it does
        /// Compares each served version with the next newer served version (and, in an
        /// upgrade, each version that stops being served with the new storage version)
        /// and reports every semantic breaking change that the conversions file does not
        /// declare: a field of the older version with no counterpart in the newer one, a
        /// changed type, a field the newer version requires.
        ///
        /// ### Why is this bad?
        /// The API server does not convert CRD objects between versions (strategy
        /// `None`): it stores one set of fields. Controllers and conversion tools can
        /// only canonicalize old objects if the designer has said how. The Gateway API
        /// guidance: designers must define the conversion for every semantic breaking
        /// change.
        ///
        /// ### Example
        /// ```yaml
        /// # v1alpha1: spec.tls      v1: spec.validation
        /// ```
        ///
        /// ### Use instead
        /// ```toml
        /// [[conversion]]
        /// from = "v1alpha1"
        /// to = "v1"
        /// renamed = [{ field = "spec.tls", to = "spec.validation" }]
        /// ```
        UndeclaredConversion: Error, "a semantic breaking change between versions has no declared conversion",

        /// ### What it does
        /// Reports every difference between the old and new manifest that no other rule
        /// judged: unknown schema keywords (`x-kubernetes-list-type`, `format`,
        /// `oneOf`, ...), changed subresources, changed `singular`/`listKind`. The
        /// comparison fails closed: an unknown change is never assumed compatible.
        ///
        /// ### Why is this bad?
        /// It may be harmless, or it may break clients or stored objects; a person has
        /// to decide.
        ///
        /// ### Example
        /// ```yaml
        /// # old
        /// items: {type: array, x-kubernetes-list-type: atomic}
        /// # new
        /// items: {type: array, x-kubernetes-list-type: set}
        /// ```
        ///
        /// ### Use instead
        /// Review the change; allow it in the linter's configuration or baseline when it
        /// is safe.
        UnhandledChange: Error, "a change kompat does not know how to judge",

        /// ### What it does
        /// Reports a version with `storage: true` and `served: false`.
        ///
        /// ### Why is this bad?
        /// The API server computes the CRD's storageVersionHash only over served
        /// versions, so discovery shows an empty hash and storage-version migrators skip
        /// the resource; objects cannot be read back in the version they are written.
        ///
        /// ### Example
        /// ```yaml
        /// - {name: v1alpha1, served: false, storage: true, ...}
        /// - {name: v1, served: true, storage: false, ...}
        /// ```
        ///
        /// ### Use instead
        /// ```yaml
        /// - {name: v1alpha1, served: false, storage: false, ...}
        /// - {name: v1, served: true, storage: true, ...}
        /// ```
        UnservedStorageVersion: Error, "the storage version is not served",

        /// ### What it does
        /// Reports an `x-kubernetes-validations` rule added (or with a changed
        /// expression), `nullable` removed, or `uniqueItems` set in a kept version.
        /// A rule whose every `self.<field>` is a field new in this release is not
        /// reported: no stored object has those fields.
        ///
        /// ### Why is this bad?
        /// Stored objects that do not satisfy the new rule are rejected on their next
        /// update. Validation ratcheting (Kubernetes 1.30 and later) lets unchanged
        /// values through, but not for every construct.
        ///
        /// ### Example
        /// ```yaml
        /// # new
        /// spec:
        ///   x-kubernetes-validations:
        ///   - rule: self.replicas <= 10
        /// ```
        ///
        /// ### Use instead
        /// Add strict validation in a new version, or report the problem from a
        /// controller.
        ValidationTightened: Error, "a kept version validates more strictly (CEL rule, nullable, uniqueItems)",
    }
}
