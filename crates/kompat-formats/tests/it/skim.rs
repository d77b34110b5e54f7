//! The manifests' fast path against the full parse: for every input,
//! [`read_stream`] (each document skimmed, parsed only when its tree is
//! needed) and [`parse_documents`] give the same objects, the same gate
//! settings and the same error: on small cases, on every YAML and JSON
//! fixture of the repository, on mutations of manifests (where the skim
//! must agree or leave the document to the parser), and on the synthetic
//! manifest tree of `scripts/gen-manifest-tree`.

use std::path::{Path, PathBuf};

use kompat_formats::deploy::{gate_settings_in, Material};
use kompat_formats::manifest::{documents_of_kinds, objects_in, read_stream};
use kompat_formats::yaml::parse_documents;
use kompat_testkit::mutate::{self, mutate, Rng};

/// What both paths say of `text`; returns whether the fast path skimmed a
/// document (left its tree out).
#[track_caller]
fn agree(name: &str, text: &str) -> bool {
    let full = parse_documents(text);
    let stream = read_stream(text);
    match (&full, &stream) {
        (Ok(docs), Ok(stream)) => {
            assert_eq!(stream.objects(), objects_in(docs), "objects of {name}:\n{text}");
            assert_eq!(
                stream.has_objects(),
                kompat_formats::manifest::has_objects_in(docs),
                "has_objects of {name}:\n{text}"
            );
            let fast = gate_settings_in(text, Material::Yaml, Ok(stream.trees()));
            let slow = gate_settings_in(text, Material::Yaml, Ok(docs));
            assert_eq!(fast, slow, "settings of {name}:\n{text}");
            if stream.is_whole() {
                assert_eq!(stream.trees(), &docs[..], "trees of {name}");
            }
            // The documents by kind the stream kept are those a second scan
            // finds, for any choice of kinds.
            let choices: [fn(&str) -> bool; 4] =
                [|k| k == "List" || k == "CustomResourceDefinition", |k| k == "Service", |_| true, |_| false];
            for wanted in choices {
                let kept = stream.documents_of_kinds(wanted);
                assert_eq!(kept.is_some(), !stream.is_whole(), "kinds kept of {name}");
                if kept.is_some() {
                    assert_eq!(kept, documents_of_kinds(text, wanted), "documents by kind of {name}:\n{text}");
                }
            }
            stream.trees().len() < docs.len()
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "errors of {name}:\n{text}");
            false
        }
        _ => panic!("{name}: the full parse says {:?}, the fast path {:?}:\n{text}", full.err(), stream.err()),
    }
}

#[test]
fn small_cases() {
    let cases = [
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n",
        // A marker line's comment with a character YAML does not allow
        // (found by fuzzing): the parser's error, not an empty document.
        "a: 1\n--- #x\u{1}\n",
        "!t &x&\n--- #x.\u{2}-\u{1}\0X-- #x.",
        "--- # c\u{7f}\nb: 2\n",
        "a: 1\n--- # \u{85}\n",
        // A carriage return alone is a line break, which the scan (reading
        // lines by `\n`) does not see a directive or marker after (found
        // by fuzzing): the parser's error, not two documents.
        "a\r\r\r\r\n---\n \r%w`\r---\n \r\r:\r",
        "a: 1\n---\nb: 2\r%YAML 1.2\n---\nc: 3\n",
        "a: 1\n---\nb: 2\r---\rc: 3\n",
        "a: 1\r\n---\r\nb: 2\r\n",
        // A block scalar at the root, then a `---` line: the parser does
        // not always end the scalar there (found by fuzzing).
        ">3 #\u{1a}x\n---\naq\n---\n-q\n",
        ">3\n---\na: 1\n",
        "!t >3\n---\na: 1\n",
        "&x >1\n---\n",
        "# c\n\n>-2\n---\n",
        "|+1 # c\n---\n",
        ">9\n\n---\n",
        ">3\n   x\n---\nb: 1\n",
        "|\n x\n---\n",
        "- >1\n---\n",
        "a: |2\n---\nb: 1\n",
        "!t\n---\n",
        // Node properties alone on their line, the block scalar on the next
        // (found by fuzzing).
        "# A \n                      &&\n>3   \n---\n/ |                 gc@:\u{8}>3   \n\n",
        "&a\n>3\n---\nb: 1\n",
        "!t # c\n\n|2\n---\n",
        "&a\t|1\n---\n",
        "apiVersion: \"v1\"\nkind: 'Service'\n",
        "kind: ConfigMap\napiVersion: v1   # core\ndata:\n  a: \"1\"\n  b: 'it''s'\n",
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  script: |\n    #!/bin/sh\n    echo: hi # not a comment\n\n    done\n  other: >-\n    folded\nmetadata: {}\n",
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: |\n\n     x\n  b: 1\n",
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: |\n     x\n   y\n",
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: |\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  ports:\n  - name: http\n    port: 80\n  - port: 81\n  selector:\n    app: x\n",
        "apiVersion: v1\nkind: Service\nspec:\n  ports:\n    - name: http\n      port: 80\n    -\n      port: 81\n",
        "apiVersion: v1\nkind: Service\nspec:\n  ports:\n  - name: http\n   port: 80\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  name: b\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  \"name\": b\n",
        "apiVersion: v1\nkind: Service\napiVersion: v2\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: a: b\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n    continued\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n continued\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n\tname: a\n",
        "apiVersion: v1\nkind: Service\nmetadata: &m\n  name: a\nspec: *m\n",
        "apiVersion: v1\nkind: Service\nmetadata: !!map\n  name: a\n",
        "apiVersion: v1\nkind: [Service]\n",
        "apiVersion: 1\nkind: Service\n",
        "apiVersion: ''\nkind: Service\n",
        "apiVersion:\nkind: Service\n",
        "apiVersion:\n  v1\nkind: Service\n",
        "apiVersion: v1\nkind: |\n  Service\n",
        "apiVersion: v1\nkind: Service\n---\napiVersion: v1\nkind: ConfigMap\n---\n---\n# only a comment\n---\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\n",
        "---\napiVersion: v1\nkind: Service\n...\n",
        "%YAML 1.2\n---\napiVersion: v1\nkind: Service\n",
        "--- # first\napiVersion: v1\nkind: Service\n",
        "--- apiVersion: v1\n",
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: batch/v1beta1\n  kind: CronJob\n",
        "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n        image: registry.k8s.io/kube-apiserver:v1.30.0\n        args: [\"--feature-gates=A=true\"]\n",
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  flags: --feature-gates=A=true\n",
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  f: \"--feature\\x2dgates=A=true\"\n",
        "apiVersion: v1\nkind: ConfigMap\nspec:\n  featureGates:\n    A: true\n",
        "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n  <<: {name: a}\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  labels: {}\n  finalizers: []\n  annotations: {a: b}\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: é\n  x: \u{85}\n",
        "apiVersion: v1\r\nkind: Service\r\n",
        "\u{feff}apiVersion: v1\nkind: Service\n",
        "  apiVersion: v1\n  kind: Service\n",
        "- apiVersion: v1\n  kind: Service\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a:\n  - - x\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a:\n  - ? x\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: -\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\"y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\" # c\n  b: 'y'#c\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x#y\n  b: http://a:b/c\n  c: 'a: b'\n  -d: 1\n  1: 2\n  \"1\": 3\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: %x\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: @x\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: `x\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: |2\n    x\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: |-  # c\n    x\n  b: >+\n    y\n\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: |x\n    x\n",
        "apiVersion: v1\nkind: Service\nspec:\n- a\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 1\n- b\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - a\n  -  b\n  - \"c\"\n  -\n  - d: 1\n    e: 2\n  other: x\n",
        "apiVersion: v1\nkind: Service\n---x\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n  annotations:\n    kompat.dev/allow: x\n",
        "",
        "# nothing\n",
        "---\n",
        "apiVersion: v1\nkind: Service\n\n\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  # comment\n    # comment\n# comment\n  labels:\n    a: b\n",
        "{\"apiVersion\": \"v1\", \"kind\": \"Service\"}\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n   y'\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n   y'\n  - a: 'x\n   y'\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n   y' # c\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n   y' # c\n  - a: 'x\n   y' # c\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n   y'#c\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n   y'#c\n  - a: 'x\n   y'#c\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n   y' z\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n   y' z\n  - a: 'x\n   y' z\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n   y': z\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n   y': z\n  - a: 'x\n   y': z\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n\n   y'\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n\n   y'\n  - a: 'x\n\n   y'\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n  y'\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n  y'\n  - a: 'x\n  y'\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n y'\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n y'\n  - a: 'x\n y'\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n   # y\n   - z'\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n   # y\n   - z'\n  - a: 'x\n   # y\n   - z'\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x''\n   y'\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x''\n   y'\n  - a: 'x''\n   y'\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n   y''\n   z'\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n   y''\n   z'\n  - a: 'x\n   y''\n   z'\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n   y\\n'\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n   y\\n'\n  - a: 'x\n   y\\n'\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\\n\n   y'\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\\n\n   y'\n  - a: 'x\\n\n   y'\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n   y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n   y\n  - a: 'x\n   y\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n   ---\n   ...'\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n   ---\n   ...'\n  - a: 'x\n   ---\n   ...'\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n   y\n  b: 1'\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n   y\n  b: 1'\n  - a: 'x\n   y\n  b: 1'\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n   y'\n   z\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - 'x\n   y'\n   z\n  - a: 'x\n   y'\n   z\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n---\n   y'\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x\n   y\n",
        "apiVersion: v1\nkind: 'Ser\n vice'\n",
        "apiVersion: 'v1\n  '\nkind: Service\n",
        "apiVersion: v1\nkind: Service\nspec:\n  'a\n   b': 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n   y\"\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n   y\"\n  - a: \"x\n   y\"\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n   y\" # c\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n   y\" # c\n  - a: \"x\n   y\" # c\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n   y\"#c\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n   y\"#c\n  - a: \"x\n   y\"#c\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n   y\" z\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n   y\" z\n  - a: \"x\n   y\" z\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n   y\": z\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n   y\": z\n  - a: \"x\n   y\": z\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n\n   y\"\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n\n   y\"\n  - a: \"x\n\n   y\"\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n  y\"\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n  y\"\n  - a: \"x\n  y\"\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n y\"\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n y\"\n  - a: \"x\n y\"\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n   # y\n   - z\"\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n   # y\n   - z\"\n  - a: \"x\n   # y\n   - z\"\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\"\"\n   y\"\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\"\"\n   y\"\n  - a: \"x\"\"\n   y\"\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n   y\"\"\n   z\"\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n   y\"\"\n   z\"\n  - a: \"x\n   y\"\"\n   z\"\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n   y\\n\"\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n   y\\n\"\n  - a: \"x\n   y\\n\"\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\\n\n   y\"\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\\n\n   y\"\n  - a: \"x\\n\n   y\"\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n   y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n   y\n  - a: \"x\n   y\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n   ---\n   ...\"\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n   ---\n   ...\"\n  - a: \"x\n   ---\n   ...\"\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n   y\n  b: 1\"\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n   y\n  b: 1\"\n  - a: \"x\n   y\n  b: 1\"\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n   y\"\n   z\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - \"x\n   y\"\n   z\n  - a: \"x\n   y\"\n   z\n  - 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n---\n   y\"\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\n   y\n",
        "apiVersion: v1\nkind: \"Ser\n vice\"\n",
        "apiVersion: \"v1\n  \"\nkind: Service\n",
        "apiVersion: v1\nkind: Service\nspec:\n  \"a\n   b\": 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   x\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    x\n  - a: x\n     x\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   `y`\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    `y`\n  - a: x\n     `y`\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   [y]\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    [y]\n  - a: x\n     [y]\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   {y}\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    {y}\n  - a: x\n     {y}\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   'y'\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    'y'\n  - a: x\n     'y'\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   \"y\"\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    \"y\"\n  - a: x\n     \"y\"\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   *y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    *y\n  - a: x\n     *y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   &y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    &y\n  - a: x\n     &y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   !y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    !y\n  - a: x\n     !y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   |y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    |y\n  - a: x\n     |y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   >y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    >y\n  - a: x\n     >y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   %y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    %y\n  - a: x\n     %y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   @y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    @y\n  - a: x\n     @y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   - y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    - y\n  - a: x\n     - y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   -y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    -y\n  - a: x\n     -y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   ? y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    ? y\n  - a: x\n     ? y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   ?y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    ?y\n  - a: x\n     ?y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   : y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    : y\n  - a: x\n     : y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   :y\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    :y\n  - a: x\n     :y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y: z\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    y: z\n  - a: x\n     y: z\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y:\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    y:\n  - a: x\n     y:\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y:z\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    y:z\n  - a: x\n     y:z\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y #c\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    y #c\n  - a: x\n     y #c\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y#c\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    y#c\n  - a: x\n     y#c\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   # c\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    # c\n  - a: x\n     # c\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y\n  z\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    y\n  z\n  - a: x\n     y\n  z\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y\n\n  z\n\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    y\n\n  z\n\n  - a: x\n     y\n\n  z\n\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y #c\n  z\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    y #c\n  z\n  - a: x\n     y #c\n  z\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y\n  # c\n  z\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    y\n  # c\n  z\n  - a: x\n     y\n  # c\n  z\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y, z\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    y, z\n  - a: x\n     y, z\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y ]\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    y ]\n  - a: x\n     y ]\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y }\n  b: 1\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n    y }\n  - a: x\n     y }\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n  b\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n   y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - x\n  y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  list:\n  - a: x\n    y\n",
        "apiVersion: v1\nkind: Service\ndescription: x\n y\n z\n",
        "apiVersion: v1\nkind: Service\n x\n",
        "apiVersion: v1\n x\nkind: Service\n",
        "apiVersion: v1\nkind: Ser\n vice\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: \"x\"\n   y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: 'x'\n   y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x # c\n   y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: |\n   y\n   z\n  b: x\n   y\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y\n---\napiVersion: v1\nkind: Pod\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y\n   ---\n   ...\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a: x\n   y\n  b:\n   c: d\n",
        "apiVersion: v1\nkind: Service\nspec:\n  a:\n   x\n   y\n",
    ];
    let mut skimmed = 0;
    for (i, text) in cases.iter().enumerate() {
        skimmed += usize::from(agree(&format!("case {i}"), text));
    }
    assert!(skimmed >= 10, "the fast path skimmed {skimmed} cases");
}

pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn every_fixture() {
    let mut files = Vec::new();
    kompat_testkit::files::yaml_files_below(&workspace().join("fixtures"), &mut files);
    assert!(files.len() > 50, "{} fixtures", files.len());
    let mut skimmed = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        skimmed += usize::from(agree(&path.display().to_string(), &text));
    }
    assert!(skimmed > 0, "no fixture was skimmed");
}

pub(crate) const MANIFEST_SEED: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: quay.io/x/web:v1\n        args:\n        - --feature-gates=A=true\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c # comment\ndata:\n  a: \"1\"\n  b: 'x'\n  script: |\n    echo hi\n\n    done\n  list: []\n---\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: p\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels:\n      app: web\n  ports:\n  - name: a\n    port: 1\n  -  port: 2\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        description: A long description\n          that goes on, with [brackets]\n\n          and a blank line\n        properties:\n          refresh:\n            description: 'Refresh indicates if it''s\n              to be refreshed'\n            type: string\n          other:\n            description: \"Other goes on\n              over two lines\" # c\n            enum:\n            - a long\n              item\n";

/// Mutated manifests: the skim agrees with the parser, or leaves the
/// document to it.
#[test]
fn mutations_agree() {
    let mut rng = Rng(0x6b6f_6d70_6174_0029);
    let (mut skimmed, mut parsed_ok) = (0, 0);
    for i in 0..mutate::iterations(4000) {
        let input = mutate(MANIFEST_SEED, &mut rng);
        skimmed += usize::from(agree(&format!("mutation {i}"), &input));
        parsed_ok += usize::from(parse_documents(&input).is_ok());
    }
    eprintln!("skimmed {skimmed}, parsed {parsed_ok}");
    assert!(skimmed > 100 && parsed_ok > 100, "skimmed {skimmed}, parsed {parsed_ok}");
}

/// The synthetic tree of the manifests' benchmark, at a small scale (when
/// Python is there to write it).
#[test]
fn synthetic_tree() {
    let Some((dir, files)) = synthetic_tree_files("skim") else { return };
    let mut skimmed = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        skimmed += usize::from(agree(&path.display().to_string(), &text));
    }
    assert!(skimmed * 2 > files.len(), "{skimmed} of {} files skimmed", files.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The files of the manifests' synthetic tree at a small scale, written to
/// a fresh directory of the temporary directory named after `name` (the
/// caller removes it); `None` when Python is not there to write it.
pub(crate) fn synthetic_tree_files(name: &str) -> Option<(PathBuf, Vec<PathBuf>)> {
    let dir = std::env::temp_dir().join(format!("kompat-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let script = workspace().join("scripts/gen-manifest-tree");
    let status = std::process::Command::new("python3").arg(&script).arg(&dir).arg("0.05").status();
    let Ok(status) = status else {
        eprintln!("python3 is not installed: the synthetic tree is not checked");
        return None;
    };
    assert!(status.success(), "{} failed", script.display());
    let mut files = Vec::new();
    kompat_testkit::files::yaml_files_below(&dir, &mut files);
    assert!(files.len() > 50, "{} files", files.len());
    Some((dir, files))
}

/// The parser's limits hold on the fast path: an alias bomb and extreme
/// nesting in a manifest are the same errors (the skim leaves them to the
/// parser).
#[test]
fn hostile_inputs_are_the_parsers_errors() {
    let mut laughs = String::from(
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n",
    );
    for level in 1..=9 {
        let items = [format!("*a{}", level - 1).as_str(); 9].join(", ");
        laughs.push_str(&format!("  a{level}: &a{level} [{items}]\n"));
    }
    let block: String = (0..3000).map(|i| format!("{}a:\n", " ".repeat(i))).collect();
    let cases = [
        format!("apiVersion: v1\nkind: Service\n---\n{laughs}"),
        format!("apiVersion: v1\nkind: Service\n---\n{block}"),
        format!("apiVersion: v1\nkind: Service\nspec: {}\n", "[".repeat(5000)),
        format!("apiVersion: v1\nkind: Service\nspec:\n{}x\n", "- ".repeat(2000)),
    ];
    for (i, text) in cases.iter().enumerate() {
        let err = read_stream(text).err();
        assert!(err.is_some(), "case {i} parsed");
        if i != 1 {
            assert!(err.as_ref().is_some_and(kompat_formats::yaml::is_limit_error), "case {i}: {err:?}");
        }
        agree(&format!("hostile {i}"), text);
    }
}

/// Large documents met again (an install bundle repeating a CRD of its
/// project's own files) take the reading of their first copies: read in
/// streams at other offsets, after other documents, twice in one stream,
/// and changed in one byte, each stream reads as the parser reads it.
#[test]
fn repeated_large_documents() {
    let properties: String = (0..600)
        .map(|i| format!("          p{i}:\n            type: string\n            description: field {i}\n"))
        .collect();
    let crd = format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: big.example.com\n\
         spec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        properties:\n{properties}"
    );
    assert!(crd.len() > 32 * 1024, "{} bytes", crd.len());
    let small = "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n";
    let changed = [
        crd.replacen("kind: CustomResourceDefinition", "kind: Deployment", 1),
        crd.replacen("field 300", "field 300: x", 1),
        crd.replacen("p599", "p599\t", 1),
        crd.replacen("apiextensions.k8s.io/v1", "\"apiextensions.k8s.io/v1\"", 1),
    ];
    let mut streams = vec![crd.clone(), format!("{small}---\n{crd}"), format!("{crd}---\n{crd}---\n{small}")];
    for text in &changed {
        streams.push(format!("{small}---\n{text}"));
        streams.push(format!("{text}---\n{crd}"));
    }
    // Each stream three times: the later readings are the kept ones.
    for round in 0..3 {
        for (i, text) in streams.iter().enumerate() {
            agree(&format!("stream {i}, round {round}"), text);
        }
    }
}

/// A large document beyond the skim (a double-quoted scalar with escapes
/// over many lines, as in argo-cd's HA bundles), met again: parsed once, its
/// trees taken, at other offsets, by its copies; each stream's trees are
/// the parser's.
#[test]
fn repeated_large_documents_the_skim_cannot_read() {
    let lines: String = (0..400).map(|i| format!("    line {i} with \\\"quotes\\\" and \\t tabs\\n\n")).collect();
    let unsure = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  script: \"start\n{lines}    end\"\n"
    );
    assert!(unsure.len() > 16 * 1024, "{} bytes", unsure.len());
    let list = "apiVersion: v1\nkind: List\nitems: []\n";
    let changed = unsure.replacen("line 200", "line 200 changed", 1);
    let streams = [
        unsure.clone(),
        format!("{list}---\n{unsure}"),
        format!("{unsure}---\n{unsure}---\n{list}"),
        format!("{changed}---\n{unsure}"),
        format!("{list}---\n{changed}"),
    ];
    for round in 0..3 {
        for (i, text) in streams.iter().enumerate() {
            let name = format!("stream {i}, round {round}");
            assert!(!agree(&name, text), "{name}: every document has its tree");
            let stream = read_stream(text).unwrap_or_else(|err| panic!("{name}: {err:?}"));
            let docs = parse_documents(text).unwrap_or_else(|err| panic!("{name}: {err:?}"));
            assert_eq!(stream.trees(), &docs[..], "trees of {name}");
        }
    }
}
