//! The demo's pictures (`fixtures/generated/*.svg`) rendered in headless
//! Chromium: each screenshot must not be blank, and the page's text (an HTML
//! page with the pictures inline, as Chromium's DOM dumps it) must name every
//! gate and every API resource.
//!
//! Needs Debian's `chromium` package (`.ci/run` installs it). Without a
//! `chromium` on `PATH` the test says so and passes: the pictures are still
//! parsed and checked by `tests/svg.rs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TIME_LIMIT: Duration = Duration::from_secs(90);

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// Runs Chromium headless with `args` in a fresh profile, within
/// [`TIME_LIMIT`]; returns its stdout.
fn run_chromium(chromium: &Path, args: &[String]) -> String {
    let profile = tempfile::tempdir().expect("tempdir");
    let mut command = Command::new(chromium);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = command.spawn().unwrap_or_else(|err| panic!("cannot run {}: {err}", chromium.display()));
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut out);
        out
    });
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > TIME_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("chromium took longer than {TIME_LIMIT:?} for {args:?}");
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(err) => panic!("waiting for chromium: {err}"),
        }
    }
    reader.join().unwrap_or_default()
}

fn demo_pictures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/generated");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/generated")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    paths.sort();
    paths
}

/// The picture's `width` and `height` attributes.
fn size(svg: &str) -> (u32, u32) {
    let doc = roxmltree::Document::parse(svg).expect("xml");
    let root = doc.root_element();
    let get = |name| root.attribute(name).and_then(|v| v.parse().ok()).expect("size attribute");
    (get("width"), get("height"))
}

/// Pixels that are not (near) white, and the number of distinct colours.
fn ink(png_path: &Path) -> (usize, usize, usize) {
    let file = std::fs::File::open(png_path).expect("screenshot");
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("png frame");
    let channels = info.color_type.samples();
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(channels).collect();
    let inked = pixels.iter().filter(|p| p.iter().take(3).any(|&c| c < 240)).count();
    let mut colours: Vec<&[u8]> = pixels.clone();
    colours.sort();
    colours.dedup();
    (inked, pixels.len(), colours.len())
}

/// What every demo picture must name: each gate and each API resource.
fn expected_labels() -> Vec<String> {
    let config_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kompat.toml");
    let config = kompat_project::Config::load(&config_path).unwrap_or_else(|err| panic!("{err}"));
    let decls = kompat_project::load(&config.decls).unwrap_or_else(|err| panic!("{err}"));
    let mut labels: Vec<String> = decls.features().iter().map(|f| f.name.clone()).collect();
    let set = decls.api_set().unwrap_or_else(|err| panic!("{err}"));
    labels.extend(set.resources().iter().map(|gr| match gr.group.as_str() {
        "" => format!("{} (core)", gr.resource),
        group => format!("{}.{group}", gr.resource),
    }));
    labels.sort();
    labels.dedup();
    labels
}

#[test]
fn demo_pictures_render_in_chromium() {
    let Some(chromium) = chromium() else {
        eprintln!(
            "note: chromium is not installed, so the demo's pictures were not rendered in a browser \
             (install Debian's `chromium` package; .ci/run does). Passing without this check."
        );
        return;
    };
    let pictures = demo_pictures();
    assert_eq!(pictures.len(), 2, "the demo's gate and API timelines: {pictures:?}");
    let out = tempfile::tempdir().expect("tempdir");

    // Each picture alone, at its own size: not blank.
    let mut page = String::from(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>kompat pictures</title></head><body>\n",
    );
    for path in &pictures {
        let svg = std::fs::read_to_string(path).expect("svg");
        let (width, height) = size(&svg);
        let shot = out.path().join("shot.png");
        let _ = std::fs::remove_file(&shot);
        let url = format!("file://{}", path.canonicalize().expect("path").display());
        run_chromium(
            &chromium,
            &[format!("--window-size={width},{height}"), format!("--screenshot={}", shot.display()), url],
        );
        assert!(shot.is_file(), "chromium wrote no screenshot of {}", path.display());
        let (inked, total, colours) = ink(&shot);
        eprintln!("{}: {inked} of {total} pixels inked, {colours} colours", path.display());
        assert!(total >= (width * height) as usize / 2, "{}: screenshot of {total} pixels", path.display());
        assert!(inked * 50 > total, "{}: blank screenshot ({inked} of {total} pixels inked)", path.display());
        assert!(colours >= 8, "{}: only {colours} colours", path.display());
        page.push_str(&svg);
        page.push('\n');
    }
    page.push_str("</body></html>\n");

    // All of them inline in one page: the DOM names every gate and resource.
    let html = out.path().join("pictures.html");
    std::fs::write(&html, page).expect("page");
    let dom = run_chromium(&chromium, &["--dump-dom".to_owned(), format!("file://{}", html.display())]);
    assert!(dom.contains("<svg"), "chromium's DOM has no picture: {dom:.200}");
    let texts: Vec<String> = {
        // Chromium serialises the DOM as HTML; the SVG part is well-formed
        // XML, so the text elements are read from each <svg>...</svg>.
        let mut texts = Vec::new();
        let mut rest = dom.as_str();
        while let Some(start) = rest.find("<svg") {
            let Some(end) = rest[start..].find("</svg>") else { break };
            let svg = &rest[start..start + end + "</svg>".len()];
            let doc = roxmltree::Document::parse(svg).unwrap_or_else(|err| panic!("DOM's svg is not XML: {err}"));
            texts.extend(
                doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).map(str::to_owned),
            );
            rest = &rest[start + end..];
        }
        texts
    };
    for label in expected_labels() {
        assert!(texts.contains(&label), "no text {label:?} in the rendered page");
    }
}
