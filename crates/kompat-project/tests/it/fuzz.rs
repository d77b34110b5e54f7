//! Bounded, deterministic mutation fuzzing of what kompat-project loads: no
//! mutation of a Rust file with both derives may make loading it panic, a
//! file that is not Rust is a located error, and whatever loads builds its
//! API set and validates its gates without panicking (the reader's own
//! mutation tests are `kompat-rust`'s). And `kompat.toml`: every error
//! located, no panic.

use kompat_testkit::mutate;

use mutate::{mutate, Rng};

const SEED: &str = r#"use kompat::{ApiLifecycle, FeatureGates};

#[derive(Clone, Copy, FeatureGates)]
pub enum Feature {
    /// Docs.
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    #[kompat(spec(version = "1.32", stage = "Beta", default = true, min_compatibility = "1.31"))]
    WatchList,
    #[kompat(name = "KMSv1", depends_on(WatchList), ratchet(tolerated_since = "1.31"))]
    #[kompat(allow(code = "orphaned-gate", reason = "elsewhere"))]
    #[kompat(spec(version = "1.0", stage = "GA", default = true, locked = true))]
    KmsV1,
}

pub mod v1beta1 {
    #[derive(kompat::ApiLifecycle)]
    #[kube(group = "batch", version = "v1beta1", kind = "CronJob", namespaced)]
    #[kompat(api(resource = "cronjobs", introduced = "1.8", deprecated = "1.21", replacement = "batch/v1/CronJob"))]
    pub struct CronJobSpec;
}

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1", kind = "CronJob", resource = "cronjobs", introduced = "1.21"))]
pub struct CronJob;

pub fn uses(gate: &kompat::TypedGate<Feature>) -> bool {
    gate.enabled(Feature::WatchList) && gate.enabled_by_name("KMSv1")
}
"#;

#[test]
fn rust_reader_never_panics() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("lib.rs");
    let mut rng = Rng(0x6b6f_6d70_6174_0201);
    let (mut loaded, mut with_apis) = (0, 0);
    for _ in 0..mutate::iterations(2000) {
        let input = mutate(SEED, &mut rng);
        std::fs::write(&path, &input).expect("write");
        match kompat_project::load(std::slice::from_ref(&path)) {
            Ok(decls) => {
                loaded += 1;
                let _ = decls.validate_strict();
                if decls.has_apis() {
                    with_apis += 1;
                    let _ = decls.api_set();
                }
            }
            Err(err) => {
                for failure in &err.diagnostics {
                    assert!(failure.location.is_some(), "unlocated: {}\n{input}", failure.message);
                }
            }
        }
    }
    assert!(loaded > 0 && with_apis > 0, "loaded {loaded}, with APIs {with_apis}");
}

const CONFIG_SEED: &str = "binary_version = \"1.37\"\ndecls = [\"features.toml\", \"apis.toml\"]\nbaseline = \"old.toml\"\n\n[window]\nprofile = \"kubernetes\"\nskew = 3\n\n[lint.levels]\norphaned-gate = \"deny\"\n\n[[lint.allow]]\ncode = \"locked-gate-cleanup\"\nsubject = \"KMSv1\"\nreason = \"kept for the 1.36 rollback\"\n\n[[gen.output]]\nkind = \"rust\"\npath = \"generated/features.rs\"\n";

/// `kompat.toml`: no mutation may make reading it panic, and every error
/// is located.
#[test]
fn config_parser_never_panics() {
    let mut rng = Rng(0x6b6f_6d70_6174_0202);
    let mut accepted = 0;
    for _ in 0..mutate::iterations(3000) {
        let input = mutate(CONFIG_SEED, &mut rng);
        let source = kompat_project::SourceFile::new(std::path::PathBuf::from("kompat.toml"), input.clone());
        match kompat_project::Config::parse(source) {
            Ok(_) => accepted += 1,
            Err(err) => {
                for failure in &err.diagnostics {
                    assert!(failure.location.is_some(), "unlocated: {}\n{input}", failure.message);
                }
            }
        }
    }
    assert!(accepted > 0, "the mutations never produced a valid configuration");
}

const RENDER_SEED: &str = "[kubernetes]\nversion = \"1.30..1.34\"\n\n[render]\nhelm = [\"helm\", \"--debug\"]\nkustomize = [\"kubectl\", \"kustomize\"]\ntimeout_seconds = 60\nmax_output_mib = 32\n\n[[render.chart]]\npath = \"charts/app\"\nvalues = [\"charts/app/values-prod.yaml\"]\nrelease = \"app\"\nnamespace = \"apps\"\nskip = false\n\n[[render.kustomize_dir]]\npath = \"config/samples\"\nskip = true\n";

/// `[render]` and `[kubernetes]` of `kompat.toml`: no panic, every error
/// located, and an accepted upgrade path is short (its steps are lint runs).
#[test]
fn render_and_kubernetes_config_never_panic() {
    let mut rng = Rng(0x6b6f_6d70_6174_0203);
    let (mut accepted, mut paths) = (0, 0);
    for _ in 0..mutate::iterations(3000) {
        let input = mutate(RENDER_SEED, &mut rng);
        let source = kompat_project::SourceFile::new(std::path::PathBuf::from("kompat.toml"), input.clone());
        match kompat_project::Config::parse(source) {
            Ok(config) => {
                accepted += 1;
                if let Some(path) = config.kubernetes_path {
                    paths += 1;
                    assert!(path.steps().count() <= 100, "{path}\n{input}");
                }
                if let Some(render) = &config.render {
                    let limits = kompat_project::render::Limits::of(render);
                    assert!(limits.max_output <= 1024 << 20 && limits.timeout.as_secs() <= 3600, "{input}");
                }
            }
            Err(err) => {
                for failure in &err.diagnostics {
                    assert!(failure.location.is_some(), "unlocated: {}\n{input}", failure.message);
                }
            }
        }
    }
    assert!(accepted > 0 && paths > 0, "accepted {accepted}, with a path {paths}");
}

/// Regression cases: paths that would be billions of lint runs (and a
/// vector of billions of versions) are located errors.
#[test]
fn long_upgrade_paths_are_located_errors() {
    for version in ["1.0..1.4294967295", "1.0..1.100", "0.0..0.999999"] {
        let input = format!("[kubernetes]\nversion = \"{version}\"\n");
        let source = kompat_project::SourceFile::new(std::path::PathBuf::from("kompat.toml"), input.clone());
        let err = kompat_project::Config::parse(source).expect_err(&input);
        let failure = err.diagnostics.first().expect("one error");
        assert!(failure.message.contains("at most 100 minor releases"), "{}", failure.message);
        assert!(failure.location.is_some(), "{input}");
    }
}

/// `A..B` and single versions, as files and command lines write them: no
/// panic, and every accepted path is short and within one major.
#[test]
fn version_ranges_never_panic() {
    use kompat_runtime::{Version, VersionRange};
    let seeds = ["1.30..1.34", "v1.30..v1.31.0", "1.33", "1.0..1.99", " 1.2 .. 1.3 "];
    let mut rng = Rng(0x6b6f_6d70_6174_0204);
    let mut accepted = 0;
    for i in 0..mutate::iterations(20000) {
        let input = mutate(seeds[i % seeds.len()], &mut rng);
        for parse in [Version::parse, Version::parse_flag] {
            if let Ok(range) = VersionRange::parse_with(&input, parse) {
                accepted += 1;
                assert_eq!(range.first().major, range.last().major, "{input}");
                assert!(range.steps().count() <= VersionRange::MAX_STEPS as usize, "{input}");
                assert!(range.to_string().len() <= input.len() + 4, "{input} -> {range}");
            }
        }
    }
    assert!(accepted > 0);
}

/// The UTF-16 (and UTF-8) decoder of YAML files: no panic, and what it
/// decodes is at most the input's size once the byte order mark is gone,
/// times 1.5 (a UTF-16 unit of the BMP is at most three UTF-8 bytes).
#[test]
fn utf16_decoder_never_panics() {
    let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: é-ü\ndata:\n  k: \"😀\"\n";
    let le: Vec<u8> = [0xFF, 0xFE].into_iter().chain(text.encode_utf16().flat_map(u16::to_le_bytes)).collect();
    let be: Vec<u8> = [0xFE, 0xFF].into_iter().chain(text.encode_utf16().flat_map(u16::to_be_bytes)).collect();
    let seeds = [le, be, text.as_bytes().to_vec()];
    let mut rng = Rng(0x6b6f_6d70_6174_0205);
    let mut decoded = 0;
    for i in 0..mutate::iterations(20000) {
        let seed = &seeds[i % seeds.len()];
        let mut bytes = seed.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len() + 1);
            match rng.below(3) {
                0 if at < bytes.len() => {
                    bytes.remove(at);
                }
                1 => bytes.insert(at, (rng.next() & 0xff) as u8),
                _ if at < bytes.len() => bytes[at] = (rng.next() & 0xff) as u8,
                _ => {}
            }
        }
        if let Some(text) = kompat_project::source::decode(&bytes) {
            decoded += 1;
            assert!(text.len() <= bytes.len() * 3 / 2, "{bytes:?}");
        }
    }
    assert!(decoded > 0);
    // Regression cases: a lone mark, an odd tail, lone surrogates.
    for bytes in [&[0xFF, 0xFE][..], &[0xFE, 0xFF, 0xD8], &[0xFF, 0xFE, 0x00, 0xDC], &[0xFE, 0xFF, 0xDB, 0xFF, 0x00]] {
        let _ = kompat_project::source::decode(bytes);
    }
}

const HELM_OUTPUT_SEED: &str = "---\n# Source: app/templates/deploy.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n---\n# Source: app/templates/service.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n--- # comment\n# Source: app/templates/link.yaml\nkind: ConfigMap\n---\n# Source: app/../../outside.txt\nkind: Secret\n---\n# Source: /outside.txt\n---\n# Source: app//etc/passwd\nx: 1\n";

const SECRET: &str = "TOP-SECRET-OUTSIDE-THE-CHART";

/// A project with a chart (`app/`) and a file beside it that a `# Source:`
/// path must never reach; on Unix the chart also links to it.
fn chart_beside_a_secret() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let chart = dir.path().join("app");
    std::fs::create_dir_all(chart.join("templates")).expect("mkdir");
    std::fs::write(chart.join("Chart.yaml"), "apiVersion: v2\nname: app\nversion: 0.1.0\n").expect("write");
    let deploy =
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: 2\n";
    std::fs::write(chart.join("templates/deploy.yaml"), deploy).expect("write");
    std::fs::write(chart.join("templates/service.yaml"), "apiVersion: v1\nkind: Service\n").expect("write");
    std::fs::write(dir.path().join("outside.txt"), format!("kind: Secret\n{SECRET}\n")).expect("write");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.path().join("outside.txt"), chart.join("templates/link.yaml")).expect("link");
        std::os::unix::fs::symlink(dir.path(), chart.join("templates/up")).expect("link");
        std::os::unix::fs::symlink("deploy.yaml", chart.join("templates/inside.yaml")).expect("link");
    }
    (dir, chart)
}

/// Every origin is a file of the chart, and none holds what is outside it.
#[track_caller]
fn assert_inside(chart: &std::path::Path, docs: &[kompat_project::render::Document], output: &str) {
    for doc in docs {
        if let Some(origin) = &doc.origin {
            assert!(origin.path.starts_with(chart), "{} from\n{output}", origin.path.display());
            assert!(!origin.text.contains(SECRET), "{} from\n{output}", origin.path.display());
        }
    }
}

/// A hostile `# Source:` line (`..`, absolute, a link out of the chart, NUL,
/// a directory) names no file, so nothing outside the chart is read.
#[test]
fn hostile_helm_sources_read_nothing_outside_the_chart() {
    let (_dir, chart) = chart_beside_a_secret();
    let sources = [
        "app/../../outside.txt",
        "app/../outside.txt",
        "../outside.txt",
        "/outside.txt",
        "app//outside.txt",
        "app/templates/../../outside.txt",
        "app/templates/link.yaml",
        "app/templates/up/outside.txt",
        "app/templates/deploy.yaml\0/../../../outside.txt",
        "app/templates",
        "app/./templates/deploy.yaml",
        "../../../../../../etc/passwd",
        "app/../../../../../../etc/passwd",
        "/etc/passwd",
        "app//etc/passwd",
        "app/\\..\\..\\outside.txt",
        "",
    ];
    for source in sources {
        let output = format!("# Source: {source}\nkind: ConfigMap\n");
        let docs = kompat_project::render::helm_documents(&chart, &output);
        assert_eq!(docs.len(), 1, "{output}");
        assert!(docs[0].origin.is_none(), "{source:?} read {:?}", docs[0].origin.as_ref().map(|o| &o.path));
    }
    // What the chart has is read, under the chart's own path, through a
    // link that stays inside it too.
    let sources =
        ["app/templates/deploy.yaml", "other/templates/inside.yaml", "app/templates/up/app/templates/deploy.yaml"];
    for source in sources {
        let docs = kompat_project::render::helm_documents(&chart, &format!("# Source: {source}\nkind: Deployment\n"));
        let origin = docs[0].origin.as_ref().map(|o| o.path.clone());
        #[cfg(not(unix))]
        if source != "app/templates/deploy.yaml" {
            continue;
        }
        assert!(origin.as_ref().is_some_and(|p| p.starts_with(&chart)), "{source}: {origin:?}");
    }
}

/// `helm template`'s output, mutated: no panic, as many documents as
/// separators at most, no more text than was output, every origin inside
/// the chart, and every span of a document maps into its origin.
#[test]
fn helm_output_splitter_never_panics() {
    let (_dir, chart) = chart_beside_a_secret();
    let mut rng = Rng(0x6b6f_6d70_6174_0206);
    let mut traced = 0;
    for _ in 0..mutate::iterations(3000) {
        let output = mutate(HELM_OUTPUT_SEED, &mut rng);
        let docs = kompat_project::render::helm_documents(&chart, &output);
        assert!(docs.len() <= output.matches('\n').count() + 1, "{output}");
        assert!(docs.iter().map(|d| d.text.len()).sum::<usize>() <= output.len(), "{output}");
        assert_inside(&chart, &docs, &output);
        for doc in &docs {
            let Some(origin) = &doc.origin else { continue };
            traced += 1;
            let boundaries: Vec<usize> = doc.text.char_indices().map(|(i, _)| i).chain([doc.text.len()]).collect();
            for _ in 0..8 {
                let a = boundaries[rng.below(boundaries.len())];
                let b = boundaries[rng.below(boundaries.len())];
                let (start, end) = (a.min(b), a.max(b));
                if let Some(range) = kompat_project::render::map_span(&doc.text, start..end, &origin.text) {
                    assert!(
                        range.start <= range.end && range.end <= origin.text.len(),
                        "{range:?} in {}",
                        origin.path.display()
                    );
                    let location = origin.locate(range.start, range.end);
                    let _ = (location.line_col(), location.snippet(), location.display());
                }
            }
        }
    }
    assert!(traced > 0, "no document was traced to its template");
}

/// Regression cases of sizes: a huge number of tiny documents, a very long
/// line, separators only; the split stays linear and bounded.
#[test]
fn helm_output_of_extreme_shapes_is_bounded() {
    let (_dir, chart) = chart_beside_a_secret();
    let tiny = "---\n# Source: app/templates/service.yaml\na: 1\n".repeat(20_000);
    let docs = kompat_project::render::helm_documents(&chart, &tiny);
    assert_eq!(docs.len(), 20_000);
    assert_inside(&chart, &docs, "tiny documents");
    let separators = "---\n".repeat(200_000);
    assert!(kompat_project::render::helm_documents(&chart, &separators).is_empty());
    let long = format!("# Source: app/templates/{}\nk: {}\n", "a/".repeat(50_000), "x".repeat(1 << 20));
    let docs = kompat_project::render::helm_documents(&chart, &long);
    assert_eq!(docs.len(), 1);
    assert!(docs[0].origin.is_none());
    let nul = "# Source: app/templates/deploy.yaml\0\n\0---\0\n---\n\0\n";
    let docs = kompat_project::render::helm_documents(&chart, nul);
    assert_inside(&chart, &docs, nul);
}
