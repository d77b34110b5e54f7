//! Manifests made to size, for tests of what kompat does with large
//! documents.

/// A CRD named `{name}s.example.com` of about `bytes` bytes: one version
/// whose schema has many properties.
pub fn large_crd(name: &str, bytes: usize) -> String {
    let mut text = format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {name}s.example.com\nspec:\n  group: example.com\n  names:\n    kind: {name}\n    plural: {name}s\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n"
    );
    let mut i = 0;
    while text.len() < bytes {
        text.push_str(&format!(
            "          field{i}:\n            type: string\n            description: The field number {i} of the widget.\n"
        ));
        i += 1;
    }
    text
}
