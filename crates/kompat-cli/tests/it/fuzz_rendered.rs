//! Bounded, deterministic mutation fuzzing of how a renderer's output is
//! checked: `helm template`'s text, mutated, is split, traced through its
//! `# Source:` lines and located (`kompat_cli::sources::rendered::locate`);
//! no input may panic, and every location is in a file of the chart or in
//! the rendered text itself, inside that text.

use kompat_testkit::mutate;

use std::path::Path;

use kompat_cli::sources::rendered::{locate, RenderedDoc};
use kompat_cli::Unrendered;
use kompat_diag::Location;
use mutate::{mutate, Rng};

const SEED: &str = "---\n# Source: app/templates/pdb.yaml\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\n---\n# Source: app/templates/deploy.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: api\n        command: [kube-apiserver, --feature-gates=WatchList=true]\n---\n# Source: app/templates/link.yaml\napiVersion: extensions/v1beta1\nkind: Ingress\n---\n# Source: app/../../outside.yaml\napiVersion: batch/v1beta1\nkind: CronJob\n";

const SECRET: &str = "apiVersion: batch/v1beta1";

#[track_caller]
fn check_location(location: &Location, chart: &Path, output: &str) {
    let path = location.path();
    let rendered = path.to_str().is_some_and(|p| p.ends_with(" (rendered)") || p.ends_with(" (rendered).yaml"));
    assert!(rendered || path.starts_with(chart), "{} from\n{output}", path.display());
    if let (Some(text), Some(span)) = (location.text(), location.range()) {
        assert!(span.start <= span.end && span.end <= text.len(), "{span:?} in {}", path.display());
        assert!(rendered || !text.contains(SECRET), "{} read outside the chart", path.display());
    }
    let _ = (location.line_col(), location.snippet(), location.display());
}

#[test]
fn rendered_output_is_located_without_panics() {
    let dir = tempfile::tempdir().expect("tempdir");
    let chart = dir.path().join("app");
    std::fs::create_dir_all(chart.join("templates")).expect("mkdir");
    let pdb = "apiVersion: {{ ternary \"policy/v1\" \"policy/v1beta1\" .Values.v1 }}\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\n";
    std::fs::write(chart.join("templates/pdb.yaml"), pdb).expect("write");
    let deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n        command: [kube-apiserver, --feature-gates=WatchList=true]\n";
    std::fs::write(chart.join("templates/deploy.yaml"), deploy).expect("write");
    std::fs::write(dir.path().join("outside.yaml"), format!("{SECRET}\nkind: CronJob\n")).expect("write");
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("outside.yaml"), chart.join("templates/link.yaml")).expect("link");
    let mut rng = Rng(0x6b6f_6d70_6174_0301);
    let (mut objects, mut traced) = (0, 0);
    for _ in 0..mutate::iterations(1500) {
        let output = mutate(SEED, &mut rng);
        for document in kompat_project::render::helm_documents(&chart, &output) {
            traced += usize::from(document.origin.is_some());
            let doc = RenderedDoc { document, dir: chart.clone(), how: "rendered by `helm template`".to_owned() };
            let located = locate(&doc, &mut Unrendered::default());
            objects += located.objects.len();
            for object in &located.objects {
                check_location(&object.location, &chart, &output);
            }
            for setting in &located.settings {
                check_location(&setting.location, &chart, &output);
            }
            if let Some(origin) = &located.origin {
                assert!(origin.starts_with(&chart), "{}", origin.display());
            }
        }
    }
    assert!(objects > 0 && traced > 0, "objects {objects}, traced {traced}");
}
