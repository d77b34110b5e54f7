//! Deployment material where gate settings break real clusters:
//! `--feature-gates=...` and `--runtime-config=...` flags in YAML, shell
//! scripts, Dockerfiles and Markdown; `featureGates:` maps of kind, kubelet
//! and kube-proxy configuration files; kubeadm's `extraArgs` (v1beta3 maps,
//! v1beta4 `{name, value}` lists); the kubeadm documents inside kind's
//! `kubeadmConfigPatches` strings; kind's `runtimeConfig`; Helm values.
//!
//! Every setting is read as the Kubernetes component reads it, or reported:
//!
//! - Flag values are parsed as `featureGate.Set` parses them (Go's
//!   `strconv.ParseBool` spellings); an item it refuses is a
//!   [`SettingKind::Invalid`] with Kubernetes' message, located at the value.
//! - Component configuration files (kind's `Cluster`, `KubeletConfiguration`,
//!   `KubeProxyConfiguration`, and the kubeadm documents of kind's patches)
//!   go through `sigs.k8s.io/yaml`: YAML 1.1 scalars (goyaml.v2: `yes`, `on`,
//!   `n` are booleans) converted to JSON, then decoded into a
//!   `map[string]bool`, so a quoted `"true"` is a decoding error and a null
//!   is `false`.
//! - Helm values are read by Helm through `sigs.k8s.io/yaml` too (YAML 1.1
//!   booleans); their strings and numbers end up in a `--feature-gates` flag
//!   and are parsed as such.
//! - Whatever kompat cannot read (a templated value, YAML that does not
//!   parse, a JSON 6902 patch, kubeadm's own gates) is a
//!   [`SettingKind::Unread`], located, never skipped in silence.
//!
//! Text in a comment (YAML's, the shell's, a Dockerfile's `#`; Markdown's
//! `<!-- -->`) is not a setting.
//!
//! Text in, settings with spans out; which files are deployment material is
//! `kompat-project`'s to decide.

use kompat_runtime::gate::{parse_feature_gates, parse_go_bool};

use crate::span::ParseError;
use crate::yaml::{is_limit_error, parse_documents, Node, Scalar, ScalarKind};
use kompat_span::Span;
use memchr::memmem::Finder;
use std::sync::LazyLock;

/// One setting found in deployment material, with where it is written: a
/// [`Span`] here, a located place in a file once a reader of files has
/// mapped it ([`GateSetting::map_location`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateSetting<L = Span> {
    pub kind: SettingKind,
    pub location: L,
    /// The component the setting configures, and so whose gates judge it.
    pub component: Component,
    /// The image of the container the setting is given to, when it is in
    /// one (`image: REF`, or Helm's `image: {registry, repository}`), as
    /// written without tag or digest: a reader that knows the project's
    /// images tells its own containers from sidecars by it.
    pub image: Option<String>,
}

/// Whose setting it is: Kubernetes' gates judge a Kubernetes component's,
/// the project's its own binaries', and nobody's another program's.
///
/// Inferred from where the setting is written:
///
/// - [`Component::Kubernetes`]: the documents of kind's `Cluster`, kubeadm,
///   `KubeletConfiguration`, `KubeProxyConfiguration` and
///   `KubeSchedulerConfiguration`; a container whose image's name (the last
///   path segment, tag and digest dropped) or whose command is one of
///   [`KUBERNETES_COMPONENTS`]; a flag in a text whose command (its line,
///   with the lines it continues with `\`) runs one of them.
/// - [`Component::Other`]: a container whose image is under
///   `registry.k8s.io/sig-storage/` or `quay.io/k8scsi/`, or whose name
///   starts with `csi-` (a CSI sidecar such as `csi-provisioner`); it names
///   the image's name.
/// - [`Component::Project`]: everything else (the project's Helm values,
///   start scripts and own containers).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Component {
    #[default]
    Project,
    Kubernetes,
    Other(String),
}

/// The Kubernetes components whose `--feature-gates` are Kubernetes' gates.
pub const KUBERNETES_COMPONENTS: [&str; 5] =
    ["kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubelet", "kube-proxy"];

/// Configuration documents of Kubernetes components (their `kind`s).
const KUBERNETES_KINDS: [&str; 8] = [
    "KubeletConfiguration",
    "KubeProxyConfiguration",
    "KubeSchedulerConfiguration",
    "ClusterConfiguration",
    "InitConfiguration",
    "JoinConfiguration",
    "UpgradeConfiguration",
    "ResetConfiguration",
];

/// The component a container image runs, by its reference.
fn image_component(image: &str) -> Component {
    let path = image.split('@').next().unwrap_or_default();
    let name = path.rsplit('/').next().unwrap_or_default();
    let name = name.split(':').next().unwrap_or_default();
    if KUBERNETES_COMPONENTS.contains(&name) {
        Component::Kubernetes
    } else if path.starts_with("registry.k8s.io/sig-storage/")
        || path.starts_with("quay.io/k8scsi/")
        || name.starts_with("csi-")
    {
        Component::Other(name.to_owned())
    } else {
        Component::Project
    }
}

/// Whether `word` (a path, perhaps quoted) names a Kubernetes component.
fn is_kubernetes_command(word: &str) -> bool {
    let word = word.trim_matches(['"', '\'', '[', ']', ',']);
    KUBERNETES_COMPONENTS.contains(&word.rsplit('/').next().unwrap_or_default())
}

/// The components of the containers in `node` (maps with an `image`), with
/// their spans and images.
fn containers(node: &Node, out: &mut Vec<(Span, Component, Option<String>)>) {
    match node {
        Node::Map(entries, span) => {
            if let Some(image) = node.get("image").and_then(image_reference) {
                let mut component = image_component(&image);
                let command = node.get("command").and_then(|c| c.as_seq()).and_then(|c| c.first());
                if command.and_then(Node::as_str).is_some_and(is_kubernetes_command) {
                    component = Component::Kubernetes;
                }
                out.push((*span, component, Some(image_name(&image).to_owned())));
                return;
            }
            for (_, value) in entries {
                containers(value, out);
            }
        }
        Node::Seq(items, _) => items.iter().for_each(|item| containers(item, out)),
        Node::Scalar(_) => (),
    }
}

/// An `image` value: a reference, or Helm's map of `registry` and
/// `repository` (and `tag`).
fn image_reference(node: &Node) -> Option<String> {
    if let Some(image) = node.as_str() {
        return Some(image.to_owned());
    }
    let repository = node.get("repository").and_then(Node::as_str)?;
    Some(match node.get("registry").and_then(Node::as_str) {
        Some(registry) if !registry.is_empty() => format!("{}/{repository}", registry.trim_end_matches('/')),
        _ => repository.to_owned(),
    })
}

/// An image reference without its tag and digest: `registry/path/name`.
pub fn image_name(image: &str) -> &str {
    let path = image.split('@').next().unwrap_or_default();
    match path.rfind(':') {
        // A colon after the last slash starts the tag (one before it ends
        // a registry's host name and port).
        Some(colon) if !path[colon..].contains('/') => &path[..colon],
        _ => path,
    }
}

/// Sets the component of each setting in YAML documents: a Kubernetes
/// configuration document's, else its container's.
fn attribute_yaml(docs: &[Node], out: &mut [GateSetting]) {
    let mut parts: Vec<(Span, Component, Option<String>)> = Vec::new();
    for doc in docs {
        let kind = doc.get("kind").and_then(Node::as_str).unwrap_or_default();
        let api_version = doc.get("apiVersion").and_then(Node::as_str).unwrap_or_default();
        if KUBERNETES_KINDS.contains(&kind) || (kind == "Cluster" && api_version.starts_with("kind.x-k8s.io/")) {
            parts.push((doc.span(), Component::Kubernetes, None));
        } else if let Node::Map(entries, _) = doc {
            // A document is never a container itself: the `image` at the
            // top of Helm values is the chart's own, its settings the
            // project's.
            entries.iter().for_each(|(_, value)| containers(value, &mut parts));
        } else {
            containers(doc, &mut parts);
        }
    }
    for setting in out {
        let at = setting.location.start;
        if let Some((_, component, image)) = parts.iter().find(|(span, _, _)| span.start <= at && at < span.end) {
            setting.component = component.clone();
            setting.image = image.clone();
        }
    }
}

/// Sets the component of each flag in a text: Kubernetes' when its command
/// (its line and the lines before it ending in `\`) runs a Kubernetes
/// component.
fn attribute_text(text: &str, out: &mut [GateSetting]) {
    for setting in out {
        let at = setting.location.start.min(text.len());
        let mut start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        while start > 0 && text[..start - 1].trim_end_matches('\r').ends_with('\\') {
            start = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
        }
        if text.get(start..at).is_some_and(|command| command.split_whitespace().any(is_kubernetes_command)) {
            setting.component = Component::Kubernetes;
        }
    }
}

/// What a setting is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingKind {
    /// `Gate=true`: located at the item (a flag's `Gate=value`, a map's key).
    Gate { gate: String, value: bool },
    /// A value the component refuses to start with, with Kubernetes' message
    /// (`invalid value of A=maybe, err: ...`): located at the value.
    /// `subject` is the gate (or the field) it is about.
    Invalid { subject: String, message: String },
    /// Something kompat does not read, and why; `subject` names the flag or
    /// field.
    Unread { subject: String, message: String },
    /// One `--runtime-config` entry (kind's `runtimeConfig`, kubeadm's
    /// `runtime-config` argument): `group` is the same for the entries of
    /// one flag or map (kube-apiserver validates them together).
    RuntimeConfig { key: String, value: String, group: usize },
}

impl<L> GateSetting<L> {
    /// The same setting with its location mapped (e.g. a span to a file
    /// location).
    pub fn map_location<M>(self, f: impl FnOnce(L) -> M) -> GateSetting<M> {
        GateSetting { kind: self.kind, location: f(self.location), component: self.component, image: self.image }
    }

    /// The gate and its value, when this sets a gate.
    pub fn gate(&self) -> Option<(&str, bool)> {
        match &self.kind {
            SettingKind::Gate { gate, value } => Some((gate, *value)),
            _ => None,
        }
    }
}

/// How a deployment text is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Material {
    /// YAML (or JSON): flags anywhere, and the structured settings when the
    /// text parses.
    Yaml,
    /// A Helm chart's values file (`values.yaml`, `values-*.yaml`,
    /// `*.values.yaml`): YAML read by Helm (YAML 1.1 scalars).
    HelmValues,
    /// Shell, Dockerfiles, unit files: flags only, outside `#` comments.
    Text,
    /// Markdown: flags only, outside HTML comments (`<!-- ... -->`); a line
    /// starting with `#` is a heading, and a flag in a code block or in
    /// prose is read as what a reader would run.
    Markdown,
}

/// Where a text's comments are, by how it is written: text in a comment is
/// not a setting.
///
/// - YAML, shell, Dockerfiles and unit files: a `#` at the start of a line
///   or after whitespace, outside a quoted string on that line, starts a
///   comment that runs to the line's end (YAML's rule, and the shell's for a
///   word starting with `#`; a Dockerfile's comment lines and the shell
///   comments of its `RUN` lines alike): [`line_comment`].
/// - Markdown: `<!-- ... -->`, this function.
fn comments(text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find("<!--") {
        let start = from + i;
        let end = text[start + 4..].find("-->").map_or(text.len(), |j| start + 4 + j + 3);
        out.push(Span::new(start, end));
        from = end;
    }
    out
}

/// Where the comment of `line` (a `#` starting a word outside quotes, as a
/// YAML, shell or Dockerfile line has) starts, if it has one.
fn line_comment(line: &[u8]) -> Option<usize> {
    let mut quote: Option<u8> = None;
    let mut prev: Option<u8> = None;
    for (i, &b) in line.iter().enumerate() {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => (),
            None if matches!(b, b'"' | b'\'')
                && prev.is_none_or(|p| p.is_ascii_whitespace() || b"[{(,:=".contains(&p)) =>
            {
                quote = Some(b)
            }
            None if b == b'#' && prev.is_none_or(|p| p.is_ascii_whitespace()) => return Some(i),
            None => (),
        }
        prev = Some(b);
    }
    None
}

/// Whether the text at `at` (not a line break) is inside the comment of its
/// line: only that line is looked at, since a comment ends with its line.
fn in_line_comment(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
    line_comment(&bytes[start..end]).is_some_and(|c| start + c < at)
}

/// Every setting in a deployment text: flags first, in text order, then the
/// structured settings of each YAML document. Templated YAML that does not
/// parse still has its flags read (and a note where it would have had
/// structured settings); YAML that would exceed the parser's limits (an
/// alias bomb, extreme nesting) is an error all the same.
pub fn gate_settings(text: &str, material: Material) -> Result<Vec<GateSetting>, ParseError> {
    if matches!(material, Material::Text | Material::Markdown) {
        let mut out = Vec::new();
        flags(text, material, &mut out);
        attribute_text(text, &mut out);
        return Ok(out);
    }
    gate_settings_in(text, material, parse_documents(text).as_deref())
}

/// [`gate_settings`] with `text`'s documents parsed already: `parsed` is
/// what [`parse_documents`] returned for it (not looked at for
/// [`Material::Text`] and [`Material::Markdown`]).
pub fn gate_settings_in(
    text: &str,
    material: Material,
    parsed: Result<&[Node], &ParseError>,
) -> Result<Vec<GateSetting>, ParseError> {
    let mut out = Vec::new();
    flags(text, material, &mut out);
    if matches!(material, Material::Text | Material::Markdown) {
        attribute_text(text, &mut out);
        return Ok(out);
    }
    match parsed {
        Ok(docs) => {
            let src = Source { text, lines: None, whole: Span::new(0, text.len()) };
            let reader = if material == Material::HelmValues { Reader::Helm } else { Reader::Unknown };
            for doc in docs {
                document(&src, doc, reader, &mut out);
            }
            attribute_yaml(docs, &mut out);
        }
        Err(err) if is_limit_error(err) => return Err(err.clone()),
        Err(err) => {
            if STRUCTURED_KEYS.iter().any(|k| text.contains(k)) {
                let at = err.span.unwrap_or_default();
                out.push(unread(
                    at,
                    "YAML",
                    format!("this YAML does not parse ({}): only its `--feature-gates` flags are read", err.message),
                ));
            }
        }
    }
    Ok(out)
}

/// Keys whose settings only a parsed YAML tree gives.
const STRUCTURED_KEYS: [&str; 4] = ["featureGates", "feature-gates:", "kubeadmConfigPatches", "runtimeConfig"];

fn unread(span: Span, subject: &str, message: String) -> GateSetting {
    GateSetting {
        kind: SettingKind::Unread { subject: subject.to_owned(), message },
        location: span,
        component: Component::Project,
        image: None,
    }
}

fn invalid(span: Span, subject: &str, message: String) -> GateSetting {
    GateSetting {
        kind: SettingKind::Invalid { subject: subject.to_owned(), message },
        location: span,
        component: Component::Project,
        image: None,
    }
}

/// Which flag a value belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flag {
    FeatureGates,
    RuntimeConfig,
}

const FLAGS: [(&str, Flag); 2] = [("--feature-gates", Flag::FeatureGates), ("--runtime-config", Flag::RuntimeConfig)];

/// A searcher for each of [`FLAGS`], built once.
static FLAG_FINDERS: LazyLock<[(Finder<'static>, Flag); 2]> =
    LazyLock::new(|| FLAGS.map(|(name, flag)| (Finder::new(name), flag)));

/// `--feature-gates=A=true,B=false` and `--feature-gates A=true` (the
/// latter only when the next word has an `=`, so prose that names the flag
/// is not a setting), quoted or not; `--runtime-config` likewise. A flag
/// inside one of the text's comments (sorted, disjoint; only looked for
/// when the text names a flag) is not a setting.
fn flags(text: &str, material: Material, out: &mut Vec<GateSetting>) {
    let mut found: Vec<(usize, Flag)> = Vec::new();
    for (finder, flag) in FLAG_FINDERS.iter() {
        let len = finder.needle().len();
        found.extend(finder.find_iter(text.as_bytes()).map(|at| (at + len, *flag)));
    }
    if found.is_empty() {
        return;
    }
    // Markdown's comments may span lines: found once, in order. Another
    // text's comment ends with its line: only the lines of flags are looked
    // at.
    let comments = if material == Material::Markdown { comments(text) } else { Vec::new() };
    found.sort_unstable_by_key(|(at, _)| *at);
    // A flag inside the value of the one before it is part of that value:
    // skipping it also keeps the scan linear in the text.
    let mut scanned = 0;
    let mut comment = comments.iter().peekable();
    for (mut start, flag) in found {
        if start < scanned {
            continue;
        }
        while comment.next_if(|c| c.end < start).is_some() {}
        if comment.peek().is_some_and(|c| c.start < start)
            || (material != Material::Markdown && in_line_comment(text, start))
        {
            continue; // text in a comment is not a setting
        }
        let rest = &text[start..];
        let separator = if rest.starts_with('=') { 1 } else { rest.len() - rest.trim_start_matches([' ', '\t']).len() };
        if separator == 0 {
            continue; // e.g. --feature-gates-file, or the flag named in prose
        }
        let equals = rest.starts_with('=');
        start += separator;
        let quoted = text[start..].starts_with(['"', '\'']);
        if quoted {
            start += 1;
        }
        // A quoted value ends at its quote (or the line's end), another at
        // the end of the word.
        let end = match quoted.then(|| text.as_bytes()[start - 1]) {
            Some(quote) => text[start..].find([quote as char, '\n']).map_or(text.len(), |i| start + i),
            None => text[start..]
                .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '\\' | ']' | '`'))
                .map_or(text.len(), |i| start + i),
        };
        scanned = end;
        let value = &text[start..end];
        if !equals && !value.contains('=') {
            continue;
        }
        let span = Span::new(start, end);
        if !is_literal(value) {
            out.push(unread(
                span,
                flag_name(flag),
                format!("the value of `{}` is not literal (`{value}`)", flag_name(flag)),
            ));
            continue;
        }
        flag_items(value, start, flag, out);
    }
}

/// Whether a flag's value is written out: not a variable (`$GATES`,
/// `${GATES}`) or a template (`{{ .Values.gates }}`).
fn is_literal(value: &str) -> bool {
    !value.contains('$') && !value.contains("{{")
}

fn flag_name(flag: Flag) -> &'static str {
    match flag {
        Flag::FeatureGates => "--feature-gates",
        Flag::RuntimeConfig => "--runtime-config",
    }
}

/// The items of a flag value written at `start`, as the component parses
/// them: `featureGate.Set` for gates (empty items skipped, every item
/// reported rather than the first), `ConfigurationMap.Set` for runtime-config.
fn flag_items(value: &str, start: usize, flag: Flag, out: &mut Vec<GateSetting>) {
    let mut offset = 0;
    for item in value.split(',') {
        let at = start + offset;
        offset += item.len() + 1;
        if item.is_empty() {
            continue;
        }
        let span = Span::new(at, at + item.len());
        if is_placeholder(item) {
            out.push(unread(span, flag_name(flag), format!("`{item}` is a placeholder, not a setting")));
            continue;
        }
        match flag {
            Flag::FeatureGates => out.push(gate_item(item, span)),
            Flag::RuntimeConfig => {
                let (key, value) = item.split_once('=').unwrap_or((item, ""));
                out.push(GateSetting {
                    kind: SettingKind::RuntimeConfig {
                        key: key.trim().to_owned(),
                        value: value.trim().to_owned(),
                        group: start,
                    },
                    location: span,
                    component: Component::Project,
                    image: None,
                });
            }
        }
    }
}

/// Documentation's placeholders (`<Gate>=true`, `Gate=true|false`,
/// `A=true,...`): no component is started with them.
fn is_placeholder(item: &str) -> bool {
    item.contains(['<', '>', '|', '{', '}']) || item.contains("...")
}

/// One `Gate=value` item written at `span`, through the runtime's parser of
/// `--feature-gates` (so the messages are Kubernetes' own).
fn gate_item(item: &str, span: Span) -> GateSetting {
    match parse_feature_gates(item) {
        Ok(map) => match map.into_iter().next() {
            Some((gate, value)) => GateSetting {
                kind: SettingKind::Gate { gate, value },
                location: span,
                component: Component::Project,
                image: None,
            },
            None => unread(span, item, format!("`{item}` sets nothing")),
        },
        Err(err) => {
            // An invalid value is located at the value, a missing one at the item.
            let location = match item.split_once('=') {
                Some((key, raw)) if !raw.trim().is_empty() => {
                    let lead = raw.len() - raw.trim_start().len();
                    let start = span.start + key.len() + 1 + lead;
                    Span::new(start, start + raw.trim().len())
                }
                _ => span,
            };
            let key = item.split_once('=').map_or(item, |(k, _)| k).trim();
            invalid(location, key, err.to_string())
        }
    }
}

/// The text being walked: the file itself, or a YAML document inside a
/// string of it (a kind `kubeadmConfigPatches` item), whose offsets are
/// mapped back into the file line by line.
struct Source<'a> {
    text: &'a str,
    /// For an embedded text: (offset of a line in `text`, offset of the same
    /// line in the file), in order; `None` for the file itself.
    lines: Option<Vec<(usize, usize)>>,
    /// Where everything goes when no line maps (the embedding scalar).
    whole: Span,
}

impl Source<'_> {
    /// A span of `self.text` as a span of the file.
    fn span(&self, span: Span) -> Span {
        let Some(lines) = &self.lines else { return span };
        let map = |at: usize| {
            let idx = lines.partition_point(|(sub, _)| *sub <= at).checked_sub(1)?;
            let (sub, file) = lines[idx];
            Some((file + (at - sub)).min(self.whole.end))
        };
        match (map(span.start), map(span.end)) {
            (Some(start), Some(end)) if start <= end => Span::new(start, end),
            _ => self.whole,
        }
    }
}

/// How the file's reader turns scalars into values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reader {
    /// A Kubernetes component's configuration (`sigs.k8s.io/yaml`, then
    /// JSON into the Go type named here).
    Component(&'static str),
    /// Helm's values (`sigs.k8s.io/yaml`), rendered into flags by a chart.
    Helm,
    /// A Kubernetes object (a document with `apiVersion` and `kind`) of a
    /// kind kompat does not know: applied through `sigs.k8s.io/yaml` (YAML
    /// 1.1 booleans), then decoded by its own type, so booleans and
    /// `strconv.ParseBool` strings are read and anything else is unread.
    Object,
    /// Some other program: YAML 1.2 booleans and `strconv.ParseBool`
    /// strings are read, anything else is reported as unread.
    Unknown,
}

/// One YAML document: a known kind by its own fields, anything else by the
/// generic walk.
fn document(src: &Source<'_>, doc: &Node, reader: Reader, out: &mut Vec<GateSetting>) {
    let kind = doc.get("kind").and_then(Node::as_str).unwrap_or_default();
    let api_version = doc.get("apiVersion").and_then(Node::as_str).unwrap_or_default();
    let group = api_version.split_once('/').map_or("", |(g, _)| g);
    // A patch is a kubeadm document: a kind `Cluster` in one is not kind's
    // (and not read for patches again, so nesting costs nothing).
    let in_patch = src.lines.is_some();
    match (kind, group) {
        ("Cluster", "kind.x-k8s.io") if !in_patch => kind_cluster(src, doc, out),
        ("KubeletConfiguration", "kubelet.config.k8s.io" | "") => {
            component_gates(src, doc, "KubeletConfiguration", out)
        }
        ("KubeProxyConfiguration", "kubeproxy.config.k8s.io" | "") => {
            component_gates(src, doc, "KubeProxyConfiguration", out)
        }
        ("KubeSchedulerConfiguration", "kubescheduler.config.k8s.io" | "") => {
            // The type has no featureGates field: strict decoding refuses it.
            if let Some((key, _)) = doc.entry("featureGates") {
                out.push(invalid(
                    src.span(key.span),
                    "featureGates",
                    "strict decoding error: unknown field \"featureGates\" (kube-scheduler takes its gates from \
                     `--feature-gates` only)"
                        .to_owned(),
                ));
            }
        }
        (
            "ClusterConfiguration" | "InitConfiguration" | "JoinConfiguration" | "UpgradeConfiguration",
            "kubeadm.k8s.io" | "",
        ) => kubeadm(src, doc, out),
        _ if reader == Reader::Unknown && !kind.is_empty() && !api_version.is_empty() => {
            walk(src, doc, Reader::Object, out)
        }
        _ => walk(src, doc, reader, out),
    }
}

/// kind's `Cluster`: `featureGates` (every component), `runtimeConfig`
/// (kube-apiserver) and the kubeadm documents of `kubeadmConfigPatches`, at
/// the cluster and on each node.
fn kind_cluster(src: &Source<'_>, doc: &Node, out: &mut Vec<GateSetting>) {
    if let Some(gates) = doc.get("featureGates") {
        gate_map(src, gates, Reader::Component("Cluster"), out);
    }
    if let Some(config) = doc.get("runtimeConfig") {
        runtime_config_map(src, config, out);
    }
    patches(src, doc, out);
    for node in doc.get("nodes").and_then(Node::as_seq).unwrap_or_default() {
        patches(src, node, out);
    }
}

/// `kubeadmConfigPatches` (strings of kubeadm YAML, merged into the
/// configuration kind generates and read through `sigs.k8s.io/yaml`) and
/// `kubeadmConfigPatchesJSON6902` (not read, reported when it touches gates).
fn patches(src: &Source<'_>, node: &Node, out: &mut Vec<GateSetting>) {
    for item in node.get("kubeadmConfigPatches").and_then(Node::as_seq).unwrap_or_default() {
        let Node::Scalar(scalar) = item else {
            out.push(unread(
                src.span(item.span()),
                "kubeadmConfigPatches",
                "a kubeadmConfigPatches item that is not a string".to_owned(),
            ));
            continue;
        };
        let sub = embedded(src, scalar);
        match parse_documents(&scalar.value) {
            Ok(docs) => {
                for doc in &docs {
                    document(&sub, doc, Reader::Object, out);
                }
            }
            Err(err) => {
                let at = err.span.map_or(sub.whole, |s| sub.span(s));
                out.push(unread(
                    at,
                    "kubeadmConfigPatches",
                    format!("this kubeadm patch does not parse: {}", err.message),
                ));
            }
        }
    }
    if let Some((key, json)) = node.entry("kubeadmConfigPatchesJSON6902") {
        let text = src.text.get(json.span().start..json.span().end).unwrap_or_default();
        if text.contains("feature-gates") || text.contains("featureGates") || text.contains("runtime-config") {
            out.push(unread(
                src.span(key.span),
                "kubeadmConfigPatchesJSON6902",
                "JSON 6902 patches are not read: gate settings in them are not checked".to_owned(),
            ));
        }
    }
}

/// The text of a string scalar as a source of its own, with its lines
/// mapped into the file where they are written as is (a literal block, a
/// plain or quoted one-liner without escapes); otherwise everything in it is
/// located at the whole scalar.
fn embedded<'a>(src: &Source<'_>, scalar: &'a Scalar) -> Source<'a> {
    let whole = src.span(scalar.span);
    let raw = src.text.get(scalar.span.start..scalar.span.end).unwrap_or_default();
    let mut lines = Vec::new();
    let mut cursor = 0;
    let mut sub = 0;
    for line in scalar.value.split('\n') {
        if !line.trim().is_empty() {
            match raw[cursor..].find(line) {
                Some(at) => {
                    lines.push((sub, scalar.span.start + cursor + at));
                    cursor += at + line.len();
                }
                None => {
                    lines.clear();
                    break;
                }
            }
        }
        sub += line.len() + 1;
    }
    // File offsets mapped through the outer source, when it is itself
    // embedded; no lines at all means everything is at the whole scalar.
    let lines = lines.into_iter().map(|(s, f)| (s, src.span(Span::new(f, f)).start)).collect();
    Source { text: &scalar.value, lines: Some(lines), whole }
}

/// A component configuration file's `featureGates` map.
fn component_gates(src: &Source<'_>, doc: &Node, object: &'static str, out: &mut Vec<GateSetting>) {
    if let Some(gates) = doc.get("featureGates") {
        gate_map(src, gates, Reader::Component(object), out);
    }
}

/// kubeadm's configuration: the control plane's `extraArgs` and the
/// kubelet's `kubeletExtraArgs` (maps in v1beta3, `{name, value}` lists in
/// v1beta4), and its own `featureGates` (kubeadm's gates, not checked).
fn kubeadm(src: &Source<'_>, doc: &Node, out: &mut Vec<GateSetting>) {
    for component in ["apiServer", "controllerManager", "scheduler"] {
        if let Some(args) = doc.get(component).and_then(|c| c.get("extraArgs")) {
            extra_args(src, args, out);
        }
    }
    if let Some(args) = doc.get("nodeRegistration").and_then(|n| n.get("kubeletExtraArgs")) {
        extra_args(src, args, out);
    }
    if let Some((key, gates)) = doc.entry("featureGates") {
        if gates.as_map().is_some_and(|m| !m.is_empty()) {
            out.push(unread(
                src.span(key.span),
                "featureGates",
                "kubeadm's own feature gates are not checked (they are not Kubernetes component gates)".to_owned(),
            ));
        }
    }
}

/// `extraArgs`: `{feature-gates: "A=true"}` (v1beta3) or
/// `[{name: feature-gates, value: "A=true"}]` (v1beta4); values are strings.
fn extra_args(src: &Source<'_>, args: &Node, out: &mut Vec<GateSetting>) {
    match args {
        Node::Map(entries, _) => {
            for (key, value) in entries {
                arg(src, &key.value, value, out);
            }
        }
        Node::Seq(items, _) => {
            for item in items {
                if let Some(name) = item.get("name").and_then(Node::text) {
                    if let Some(value) = item.get("value") {
                        arg(src, name, value, out);
                    }
                }
            }
        }
        _ => (),
    }
}

/// One command-line argument given as a YAML value.
fn arg(src: &Source<'_>, name: &str, value: &Node, out: &mut Vec<GateSetting>) {
    let flag = match name {
        "feature-gates" => Flag::FeatureGates,
        "runtime-config" => Flag::RuntimeConfig,
        _ => return,
    };
    match value {
        Node::Scalar(scalar) if scalar.kind != ScalarKind::Null => scalar_flag(src, scalar, flag, out),
        _ => out.push(unread(src.span(value.span()), name, format!("`{name}` is {}, not a string", value.describe()))),
    }
}

/// A flag value written as a YAML scalar: its items, located inside the
/// scalar when it is written as is, else at the whole scalar (escapes,
/// folding).
fn scalar_flag(src: &Source<'_>, scalar: &Scalar, flag: Flag, out: &mut Vec<GateSetting>) {
    let value = scalar.value.as_str();
    if !is_literal(value) {
        let message = format!("the value of `{}` is not literal (`{value}`)", flag_name(flag));
        out.push(unread(src.span(scalar.span), flag_name(flag), message));
        return;
    }
    let raw = src.text.get(scalar.span.start..scalar.span.end).unwrap_or_default();
    let mut items = Vec::new();
    match raw.find(value) {
        Some(at) if !value.is_empty() => {
            flag_items(value, scalar.span.start + at, flag, &mut items);
            out.extend(items.into_iter().map(|s| s.map_location(|span| src.span(span))));
        }
        _ => {
            flag_items(value, 0, flag, &mut items);
            let group = scalar.span.start;
            out.extend(items.into_iter().map(|mut s| {
                if let SettingKind::RuntimeConfig { group: g, .. } = &mut s.kind {
                    *g = group;
                }
                s.map_location(|_| src.span(scalar.span))
            }));
        }
    }
}

/// kind's `runtimeConfig`: a `map[string]string`, each entry a
/// `--runtime-config` item of kube-apiserver. `sigs.k8s.io/yaml` turns a
/// YAML 1.1 boolean or a number decoded into a string field back into text.
fn runtime_config_map(src: &Source<'_>, node: &Node, out: &mut Vec<GateSetting>) {
    let Node::Map(entries, span) = node else {
        out.push(unread(
            src.span(node.span()),
            "runtimeConfig",
            format!("runtimeConfig is {}, not a mapping", node.describe()),
        ));
        return;
    };
    for (key, value) in entries {
        let text = match value {
            Node::Scalar(s) => match yaml11(src, s) {
                Yaml11::Bool(b) => b.to_string(),
                Yaml11::Null => String::new(),
                Yaml11::Number | Yaml11::String => s.value.to_string(),
            },
            _ => {
                out.push(unread(
                    src.span(value.span()),
                    &key.value,
                    format!("`{}` is {}, not a string", key.value, value.describe()),
                ));
                continue;
            }
        };
        out.push(GateSetting {
            kind: SettingKind::RuntimeConfig { key: key.value.to_string(), value: text, group: span.start },
            location: src.span(key.span.cover(value.span())),
            component: Component::Project,
            image: None,
        });
    }
}

/// A scalar as goyaml.v2 resolves it (YAML 1.1): plain `y`, `yes`, `on`
/// and their kin are booleans; quoted and block scalars are strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Yaml11 {
    Bool(bool),
    Null,
    Number,
    String,
}

fn yaml11(src: &Source<'_>, scalar: &Scalar) -> Yaml11 {
    let raw = src.text.get(scalar.span.start..scalar.span.end).unwrap_or_default();
    let plain = !raw.starts_with(['"', '\'', '|', '>']);
    if !plain {
        return Yaml11::String;
    }
    match scalar.value.as_str() {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => Yaml11::Bool(true),
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => Yaml11::Bool(false),
        _ => match scalar.kind {
            ScalarKind::Null => Yaml11::Null,
            ScalarKind::Number(_) => Yaml11::Number,
            // goyaml.v2 also reads `1_000` and `0b1` as integers.
            ScalarKind::String
                if scalar.value.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+')
                    && scalar.value.replace('_', "").parse::<f64>().is_ok() =>
            {
                Yaml11::Number
            }
            _ => Yaml11::String,
        },
    }
}

/// A `featureGates` map, its values read as `reader` reads them.
fn gate_map(src: &Source<'_>, node: &Node, reader: Reader, out: &mut Vec<GateSetting>) {
    let Node::Map(gates, _) = node else {
        if !node.is_null() {
            out.push(unread(
                src.span(node.span()),
                "featureGates",
                format!("featureGates is {}, not a mapping", node.describe()),
            ));
        }
        return;
    };
    for (gate, value) in gates {
        let name = gate.value.clone();
        let at = src.span(gate.span);
        let Node::Scalar(scalar) = value else {
            let message = match reader {
                Reader::Component(object) => {
                    json_mismatch(object, if value.as_seq().is_some() { "array" } else { "object" })
                }
                _ => format!("`{name}` is {}, not a boolean", value.describe()),
            };
            out.push(match reader {
                Reader::Component(_) => invalid(src.span(value.span()), &name, message),
                _ => unread(src.span(value.span()), &name, message),
            });
            continue;
        };
        let resolved = yaml11(src, scalar);
        let value_at = src.span(scalar.span);
        let setting = match (reader, resolved) {
            (Reader::Unknown, _) | (Reader::Object, Yaml11::Null | Yaml11::Number | Yaml11::String) => {
                match parse_go_bool(&scalar.value) {
                    Some(value) => Some(value),
                    None => {
                        let message = format!(
                            "`{name}: {}` is not a boolean, and how this file's reader takes it is unknown",
                            scalar.render()
                        );
                        out.push(unread(value_at, &name, message));
                        None
                    }
                }
            }
            (_, Yaml11::Bool(value)) => Some(value),
            // JSON null leaves a map's bool element at false.
            (Reader::Component(_), Yaml11::Null) => Some(false),
            (Reader::Component(object), Yaml11::Number) => {
                out.push(invalid(value_at, &name, json_mismatch(object, "number")));
                None
            }
            (Reader::Component(object), Yaml11::String) => {
                out.push(invalid(value_at, &name, json_mismatch(object, "string")));
                None
            }
            // Helm renders the value into `--feature-gates=Name=value`.
            (Reader::Helm, Yaml11::Number | Yaml11::String) => {
                let text = format!("{name}={}", scalar.value);
                match gate_item(&text, value_at) {
                    GateSetting { kind: SettingKind::Gate { value, .. }, .. } => Some(value),
                    other => {
                        out.push(other.map_location(|_| value_at));
                        None
                    }
                }
            }
            (Reader::Helm, Yaml11::Null) => {
                out.push(unread(
                    value_at,
                    &name,
                    format!("`{name}` has no value: how the chart renders it is unknown"),
                ));
                None
            }
        };
        if let Some(value) = setting {
            out.push(GateSetting {
                kind: SettingKind::Gate { gate: name.into(), value },
                location: at,
                component: Component::Project,
                image: None,
            });
        }
    }
}

/// `encoding/json`'s message for a value of the wrong JSON type in the
/// `featureGates` map of the Go type `object`.
fn json_mismatch(object: &str, found: &str) -> String {
    format!("json: cannot unmarshal {found} into Go struct field {object}.featureGates of type bool")
}

/// The generic walk of a document no kind names: `featureGates:` maps
/// anywhere, `feature-gates` / `runtime-config` keys and `{name, value}`
/// pairs (kubeadm-style arguments in charts and operators), and a sequence
/// item `--feature-gates` followed by its value.
fn walk(src: &Source<'_>, node: &Node, reader: Reader, out: &mut Vec<GateSetting>) {
    match node {
        Node::Map(entries, _) => {
            for (key, value) in entries {
                match key.value.as_str() {
                    "feature-gates" | "runtime-config" => arg(src, &key.value, value, out),
                    "featureGates" => gate_map(src, value, reader, out),
                    // Some charts capitalise their values (gardener's).
                    "FeatureGates" if reader == Reader::Helm => gate_map(src, value, reader, out),
                    "name" => {
                        if let Some(name @ ("feature-gates" | "runtime-config")) = value.text() {
                            if let Some(v) = node.get("value") {
                                arg(src, name, v, out);
                            }
                        }
                    }
                    _ => (),
                }
                walk(src, value, reader, out);
            }
        }
        Node::Seq(items, _) => {
            for (idx, item) in items.iter().enumerate() {
                let flag = match item.text() {
                    Some("--feature-gates") => Some(Flag::FeatureGates),
                    Some("--runtime-config") => Some(Flag::RuntimeConfig),
                    _ => None,
                };
                if let (Some(flag), Some(Node::Scalar(next))) = (flag, items.get(idx + 1)) {
                    scalar_flag(src, next, flag, out);
                }
                walk(src, item, reader, out);
            }
        }
        Node::Scalar(_) => (),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use kompat_span::LineIndex;

    /// Scans `text` as the file `name` (YAML by its extension, Helm values by
    /// its name) and lists each setting as `line:col what`.
    #[track_caller]
    fn check(name: &str, text: &str, expected: &[&str]) {
        let material = if name.starts_with("values") {
            Material::HelmValues
        } else if name.ends_with(".yaml") {
            Material::Yaml
        } else if name.ends_with(".md") {
            Material::Markdown
        } else {
            Material::Text
        };
        let lines = LineIndex::new(text);
        let got: Vec<String> = match gate_settings(text, material) {
            Ok(settings) => settings
                .iter()
                .map(|s| {
                    let (line, col) = lines.line_col(s.location.start);
                    let what = match &s.kind {
                        SettingKind::Gate { gate, value } => format!("{gate}={value}"),
                        SettingKind::Invalid { subject, message } => format!("invalid {subject}: {message}"),
                        SettingKind::Unread { subject, message } => format!("unread {subject}: {message}"),
                        SettingKind::RuntimeConfig { key, value, .. } => format!("runtime-config {key}={value}"),
                    };
                    format!("{line}:{col} {what}")
                })
                .collect(),
            Err(err) => vec![format!("error: {}", err.message)],
        };
        assert_eq!(got, expected, "{name}");
    }

    #[test]
    fn flags_in_scripts_dockerfiles_and_markdown() {
        check("run.sh", "exec widgetd --feature-gates=A=true,B=false \"$@\"\n", &["1:30 A=true", "1:37 B=false"]);
        check("run.sh", "widgetd --feature-gates A=1 --v=2\n", &["1:25 A=true"]);
        check("run.sh", "widgetd --feature-gates-file=gates.txt\n", &[]);
        check("Dockerfile", "CMD [\"widgetd\", \"--feature-gates=A=true\"]\n", &["1:34 A=true"]);
        check("README.md", "Run `widgetd --feature-gates=Later=true`.\n", &["1:30 Later=true"]);
        // Prose naming the flag sets nothing.
        check("README.md", "Use the --feature-gates flag, or `--feature-gates`.\n", &[]);
        check("run.sh", "widgetd --feature-gates=,A=true,,\n", &["1:26 A=true"]);
        // Placeholders in documentation are reported, not judged.
        check(
            "README.md",
            "Run `kubelet --feature-gates=<Gate>=true,A=true|false`.\n",
            &[
                "1:30 unread --feature-gates: `<Gate>=true` is a placeholder, not a setting",
                "1:42 unread --feature-gates: `A=true|false` is a placeholder, not a setting",
            ],
        );
    }

    #[test]
    fn text_in_comments_is_not_a_setting() {
        // YAML comments, whole-line and trailing.
        check("deployment.yaml", "args:\n# - --feature-gates=A=true\n- --v=2\n", &[]);
        check("deployment.yaml", "args: [--v=2] # --feature-gates=A=true\n", &[]);
        check("deployment.yaml", "  # --feature-gates=A=true\nargs: [--feature-gates=B=true]\n", &["2:24 B=true"]);
        // A `#` inside a quoted string or a word is not a comment.
        check("deployment.yaml", "args: [\"x #y --feature-gates=A=true\"]\n", &["1:30 A=true"]);
        check("deployment.yaml", "url: a#b --feature-gates=A=true\n", &["1:26 A=true"]);
        // Shell and Dockerfile comments.
        check("run.sh", "# widgetd --feature-gates=A=true\nwidgetd\n", &[]);
        check("run.sh", "widgetd --v=2 # --feature-gates=A=true\n", &[]);
        check("run.sh", "echo '#' --feature-gates=A=true\n", &["1:26 A=true"]);
        check("Dockerfile", "# CMD [\"widgetd\", \"--feature-gates=A=true\"]\nCMD [\"widgetd\"]\n", &[]);
        // A comment ends with its line (a quote too), with or without `\r`;
        // a comment on the lines around a flag does not hide it.
        check("run.sh", "echo \"a\n# --feature-gates=A=true\n", &[]);
        check("run.sh", "# a\nwidgetd --feature-gates=A=true # b\n# c\n", &["2:25 A=true"]);
        check("run.sh", "widgetd # --feature-gates=A=true\r\nwidgetd --feature-gates=B=true\r\n", &["2:25 B=true"]);
        check("run.sh", "widgetd --feature-gates A=true #\n--feature-gates=B=true", &["1:25 A=true", "2:17 B=true"]);
        check("run.sh", "x #--feature-gates", &[]);
        // Markdown: HTML comments hide, headings do not.
        check("README.md", "<!-- `widgetd --feature-gates=A=true` -->\n", &[]);
        check("README.md", "<!--\nwidgetd --feature-gates=A=true\n", &[]);
        check(
            "README.md",
            "# Run --feature-gates=A=true\n<!-- x --> --feature-gates=B=true\n",
            &["1:23 A=true", "2:28 B=true"],
        );
    }

    /// The component of each setting in `text` read as `material`.
    #[track_caller]
    fn components(text: &str, material: Material, expected: &[Component]) {
        let got: Vec<Component> = match gate_settings(text, material) {
            Ok(settings) => settings.into_iter().map(|s| s.component).collect(),
            Err(err) => panic!("{}", err.message),
        };
        assert_eq!(got, expected, "{text}");
    }

    #[test]
    fn each_setting_has_its_component() {
        use Component::{Kubernetes, Other, Project};
        let kind = "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nfeatureGates:\n  A: true\n";
        components(kind, Material::Yaml, &[Kubernetes]);
        components("kind: KubeletConfiguration\nfeatureGates:\n  A: true\n", Material::Yaml, &[Kubernetes]);
        let pod = "spec:\n  containers:\n  - image: {IMAGE}\n    args: [--feature-gates=A=true]\n";
        for (image, component) in [
            ("registry.k8s.io/kube-apiserver:v1.33.0", Kubernetes),
            ("registry.k8s.io/kube-scheduler@sha256:00", Kubernetes),
            ("registry.k8s.io/sig-storage/csi-provisioner:v5.0.1", Other("csi-provisioner".to_owned())),
            ("quay.io/k8scsi/livenessprobe:v1", Other("livenessprobe".to_owned())),
            ("example.com/csi-widget:1", Other("csi-widget".to_owned())),
            ("example.com/widgets/widgetd:1.2", Project),
        ] {
            components(&pod.replace("{IMAGE}", image), Material::Yaml, &[component]);
        }
        // A static pod's command names its binary.
        let static_pod = "spec:\n  containers:\n  - image: example.com/k8s:1\n    command: [/usr/local/bin/kubelet, --feature-gates=A=true]\n";
        components(static_pod, Material::Yaml, &[Kubernetes]);
        // Outside any container: the project's (its Helm values).
        components("featureGates:\n  A: true\n", Material::HelmValues, &[Project]);
        // Scripts: the command the flag is given to, continued lines too.
        components("exec kube-apiserver \\\n  --v=2 \\\n  --feature-gates=A=true\n", Material::Text, &[Kubernetes]);
        components("kubelet --v=2\nwidgetd --feature-gates=A=true\n", Material::Text, &[Project]);
    }

    /// The image of each setting's container in `text` (Helm values when
    /// `helm`), or `-`.
    #[track_caller]
    fn images(text: &str, helm: bool, expected: &[&str]) {
        let material = if helm { Material::HelmValues } else { Material::Yaml };
        let got: Vec<String> = match gate_settings(text, material) {
            Ok(settings) => settings.into_iter().map(|s| s.image.unwrap_or_else(|| "-".to_owned())).collect(),
            Err(err) => panic!("{}", err.message),
        };
        assert_eq!(got, expected, "{text}");
    }

    #[test]
    fn each_container_setting_has_its_image() {
        let pod = "spec:\n  containers:\n  - image: {IMAGE}\n    args: [--feature-gates=A=true]\n";
        for (image, expected) in [
            ("registry.k8s.io/jobset/jobset:v0.9.1", "registry.k8s.io/jobset/jobset"),
            ("localhost:5000/widgetd@sha256:00", "localhost:5000/widgetd"),
            ("controller:latest", "controller"),
            ("widgetd", "widgetd"),
        ] {
            images(&pod.replace("{IMAGE}", image), false, &[expected]);
        }
        // Helm's image maps, nested; the top of a values file is no
        // container (its `image` is the chart's own).
        let values = "image:\n  repository: example.com/widget\nfeatureGates:\n  A: true\nsidecar:\n  image:\n    registry: quay.io\n    repository: k8scsi/csi-attacher\n  args: [--feature-gates=B=true]\n";
        images(values, true, &["quay.io/k8scsi/csi-attacher", "-"]);
        assert_eq!(image_name("example.com:5000/a/b:v1"), "example.com:5000/a/b");
        assert_eq!(image_name("example.com:5000/a/b"), "example.com:5000/a/b");
    }

    #[test]
    fn invalid_flag_values_have_kubernetes_messages_at_the_value() {
        check(
            "start.sh",
            "kube-apiserver --feature-gates=NodeSwap=maybe,KMSv1=ture\n",
            &[
                "1:41 invalid NodeSwap: invalid value of NodeSwap=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax",
                "1:53 invalid KMSv1: invalid value of KMSv1=ture, err: strconv.ParseBool: parsing \"ture\": invalid syntax",
            ],
        );
        check("start.sh", "kubelet --feature-gates=A, B=yes\n", &["1:25 invalid A: missing bool value for A"]);
        check(
            "start.sh",
            "kubelet --feature-gates=A=yes\n",
            &["1:27 invalid A: invalid value of A=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax"],
        );
        check(
            "start.sh",
            "kubelet --feature-gates=A= T\n",
            &["1:25 invalid A: invalid value of A=, err: strconv.ParseBool: parsing \"\": invalid syntax"],
        );
        check("start.sh", "kubelet --feature-gates=\"A= T ,B=0\"\n", &["1:26 A=true", "1:32 B=false"]);
        check("start.sh", "kubelet --feature-gates==true\n", &["1:25 =true"]);
    }

    #[test]
    fn templated_flag_values_are_reported_unread() {
        check(
            "start.sh",
            "kubelet --feature-gates=\"$GATES\"\n",
            &["1:26 unread --feature-gates: the value of `--feature-gates` is not literal (`$GATES`)"],
        );
        check(
            "deployment.yaml",
            "args: [{{ .Values.x }}, --feature-gates={{ .Values.gates }}]\n",
            &["1:41 unread --feature-gates: the value of `--feature-gates` is not literal (`{{`)"],
        );
        // A placeholder of documentation (the Cluster Autoscaler's FAQ).
        check(
            "FAQ.md",
            "--feature-gates=CSIMigration=true,CSIMigration{Provider}=true\n",
            &[
                "1:17 CSIMigration=true",
                "1:35 unread --feature-gates: `CSIMigration{Provider}=true` is a placeholder, not a setting",
            ],
        );
    }

    #[test]
    fn yaml_flags_and_feature_gate_maps() {
        let pod = "kind: Pod\nspec:\n  containers:\n  - command:\n    - kube-apiserver\n    - --feature-gates=A=true\n";
        check("pod.yaml", pod, &["6:23 A=true"]);
        // The flag and its value as two items.
        let pod = "kind: Pod\nspec:\n  containers:\n  - args:\n    - --feature-gates\n    - A=true,B=nope\n";
        check(
            "pod.yaml",
            pod,
            &[
                "6:7 A=true",
                "6:16 invalid B: invalid value of B=nope, err: strconv.ParseBool: parsing \"nope\": invalid syntax",
            ],
        );
        // Templated YAML: the flags are still found, and what is lost is said.
        check("chart.yaml", "args: [{{ .Values.x }}, --feature-gates=A=true\n", &["1:41 A=true"]);
        check(
            "chart.yaml",
            "featureGates:\n  {{ .Values.gates }}\n",
            &["2:4 unread YAML: this YAML does not parse (complex mapping keys are not supported): only its `--feature-gates` flags are read"],
        );
    }

    /// `line:col` of each setting of a kubelet configuration with `gates`.
    #[test]
    fn component_configuration_reads_yaml_11_and_decodes_json() {
        let kubelet = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  A: yes\n  B: off\n  C: \"true\"\n  D: 1\n  E:\n  F: True\n  G: n\n";
        check(
            "kubelet.yaml",
            kubelet,
            &[
                "4:3 A=true",
                "5:3 B=false",
                "6:6 invalid C: json: cannot unmarshal string into Go struct field KubeletConfiguration.featureGates of type bool",
                "7:6 invalid D: json: cannot unmarshal number into Go struct field KubeletConfiguration.featureGates of type bool",
                "8:3 E=false",
                "9:3 F=true",
                "10:3 G=false",
            ],
        );
        let proxy = "kind: KubeProxyConfiguration\napiVersion: kubeproxy.config.k8s.io/v1alpha1\nfeatureGates: {A: on, B: [x]}\n";
        check(
            "proxy.yaml",
            proxy,
            &[
                "3:16 A=true",
                "3:26 invalid B: json: cannot unmarshal array into Go struct field KubeProxyConfiguration.featureGates of type bool",
            ],
        );
        let scheduler =
            "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nfeatureGates:\n  A: true\n";
        check(
            "scheduler.yaml",
            scheduler,
            &["3:1 invalid featureGates: strict decoding error: unknown field \"featureGates\" (kube-scheduler takes its gates from `--feature-gates` only)"],
        );
    }

    #[test]
    fn unknown_documents_and_helm_values() {
        // Another program's map: booleans and ParseBool strings are read.
        let cr = "kind: Widget\nspec:\n  featureGates:\n    A: true\n    B: \"false\"\n    C: sometimes\n    D: yes\n";
        check(
            "widget.yaml",
            cr,
            &[
                "4:5 A=true",
                "5:5 B=false",
                "6:8 unread C: `C: sometimes` is not a boolean, and how this file's reader takes it is unknown",
                "7:8 unread D: `D: yes` is not a boolean, and how this file's reader takes it is unknown",
            ],
        );
        // A Kubernetes object goes through kubectl's YAML 1.1.
        check(
            "widget.yaml",
            &format!("apiVersion: example.com/v1\n{cr}"),
            &[
                "5:5 A=true",
                "6:5 B=false",
                "7:8 unread C: `C: sometimes` is not a boolean, and how this file's reader takes it is unknown",
                "8:5 D=true",
            ],
        );
        // Helm: YAML 1.1 booleans; strings and numbers go into a flag.
        check("values.yaml", "kcm:\n  FeatureGates:\n    A: on\n", &["3:5 A=true"]);
        let values = "controller:\n  featureGates:\n    A: yes\n    B: \"1\"\n    C: maybe\n  extraArgs:\n    feature-gates: D=true\n    runtime-config: api/alpha=false\n";
        check(
            "values.yaml",
            values,
            &[
                "3:5 A=true",
                "4:5 B=true",
                "5:8 invalid C: invalid value of C=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax",
                "7:20 D=true",
                "8:21 runtime-config api/alpha=false",
            ],
        );
    }

    #[test]
    fn kubeadm_extra_args() {
        let v1beta3 = "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n    feature-gates: \"A=true,B=false\"\n    runtime-config: \"api/beta=true\"\n";
        check("kubeadm.yaml", v1beta3, &["5:21 A=true", "5:28 B=false", "6:22 runtime-config api/beta=true"]);
        let v1beta4 = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\ncontrollerManager:\n  extraArgs:\n  - name: feature-gates\n    value: A=maybe\nfeatureGates:\n  EtcdLearnerMode: true\n";
        check(
            "kubeadm.yaml",
            v1beta4,
            &[
                "6:14 invalid A: invalid value of A=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax",
                "7:1 unread featureGates: kubeadm's own feature gates are not checked (they are not Kubernetes component gates)",
            ],
        );
        let init = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n  - name: feature-gates\n    value: A=true\n";
        check("kubeadm.yaml", init, &["6:12 A=true"]);
        // An escaped value: each item at the whole scalar.
        let escaped = "kind: ClusterConfiguration\napiServer:\n  extraArgs:\n    feature-gates: \"A=tr\\u0075e\"\n";
        check("kubeadm.yaml", escaped, &["4:20 A=true"]);
        let number = "kind: ClusterConfiguration\nscheduler:\n  extraArgs:\n    feature-gates: {A: true}\n";
        check("kubeadm.yaml", number, &["4:20 unread feature-gates: `feature-gates` is a mapping, not a string"]);
    }

    #[test]
    fn kind_cluster_with_patches_and_runtime_config() {
        let kind = "\
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
featureGates:
  A: true
  B: \"yes\"
runtimeConfig:
  api/alpha: \"false\"
  batch/v2: yes
kubeadmConfigPatches:
- |
  kind: ClusterConfiguration
  apiServer:
    extraArgs:
      feature-gates: C=true,D=maybe
- |
  kind: KubeletConfiguration
  featureGates:
    E: on
nodes:
- role: control-plane
  kubeadmConfigPatches:
  - \"kind: InitConfiguration\\nnodeRegistration:\\n  kubeletExtraArgs:\\n    feature-gates: F=true\\n\"
  kubeadmConfigPatchesJSON6902:
  - {op: add, path: /apiServer/extraArgs/feature-gates, value: G=true}
";
        check(
            "kind.yaml",
            kind,
            &[
                "4:3 A=true",
                "5:6 invalid B: json: cannot unmarshal string into Go struct field Cluster.featureGates of type bool",
                "7:3 runtime-config api/alpha=false",
                "8:3 runtime-config batch/v2=true",
                "14:22 C=true",
                "14:31 invalid D: invalid value of D=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax",
                "18:5 E=true",
                // Lines of a quoted string written as is: located inside it.
                "22:90 F=true",
                "23:3 unread kubeadmConfigPatchesJSON6902: JSON 6902 patches are not read: gate settings in them are not checked",
            ],
        );
        let broken = "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nkubeadmConfigPatches:\n- |\n  kind: [\n";
        check("kind.yaml", broken, &["6:1 unread kubeadmConfigPatches: this kubeadm patch does not parse: invalid YAML: while parsing a node, did not find expected node content"]);
    }

    #[test]
    fn patches_are_read_at_the_top_level_only() {
        let nested = "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nkubeadmConfigPatches:\n- |\n  kind: Cluster\n  apiVersion: kind.x-k8s.io/v1alpha4\n  featureGates: {A: true}\n  kubeadmConfigPatches:\n  - |\n    kind: KubeletConfiguration\n    featureGates: {B: true}\n";
        // The inner Cluster is walked as an unknown document: its map is
        // read, its patches are not.
        check("kind.yaml", nested, &["7:18 A=true"]);
    }

    #[test]
    fn a_flag_inside_a_flag_value_is_part_of_the_value() {
        check(
            "run.sh",
            "x --feature-gates=A=--feature-gates=B=true\n",
            &["1:21 invalid A: invalid value of A=--feature-gates=B=true, err: strconv.ParseBool: parsing \"--feature-gates=B=true\": invalid syntax"],
        );
        // A word of 65536 flags is one flag, read once.
        let word = "--feature-gates=".repeat(1 << 16);
        let settings = gate_settings(&word, Material::Text).unwrap_or_default();
        assert_eq!(settings.len(), 1);
    }

    #[test]
    fn limits_are_errors() {
        let deep = format!("a: {}{}\n", "[".repeat(2000), "]".repeat(2000));
        check("deep.yaml", &deep, &["error: invalid YAML: recursion limit exceeded"]);
    }
}
