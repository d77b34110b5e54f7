//! Rust files held in memory ([`Texts`]): the reader's [`Files`] without a
//! loader, for tests and fuzz targets. A file may be released as the loader
//! releases one ([`Texts::push_first_read`]); searching it again reads the
//! text kept here, as the loader would read the file again.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use kompat_diag::Location;
use kompat_span::{LineIndex, Span};

use crate::{first_read, EarlyNames, File, Files, Keep, Names, Result, Source};

/// A Rust file's path and text.
#[derive(Debug, Clone)]
pub struct Text {
    path: PathBuf,
    text: Arc<str>,
    lines: OnceLock<LineIndex>,
}

impl Text {
    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> Text {
        Text { path: path.into(), text: Arc::from(text.into()), lines: OnceLock::new() }
    }
}

impl Source for Text {
    fn path(&self) -> &Path {
        &self.path
    }

    fn text(&self) -> &str {
        &self.text
    }

    fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::shared(self.text.clone()))
    }

    fn locate(&self, start: usize, end: usize) -> Location {
        Location::indexed(Arc::from(self.path.as_path()), self.lines(), Span::new(start, end))
    }
}

/// Rust files in memory, in order; each held, or released with the names
/// ruled out for it.
#[derive(Debug, Default, Clone)]
pub struct Texts {
    files: Vec<(Text, Option<Names>)>,
}

impl Texts {
    /// Every text held, named `f0.rs`, `f1.rs`, ...
    pub fn numbered(texts: &[&str]) -> Texts {
        let mut files = Texts::default();
        for (i, text) in texts.iter().enumerate() {
            files.push(Text::new(format!("f{i}.rs"), *text));
        }
        files
    }

    /// Adds a held file.
    pub fn push(&mut self, text: Text) {
        self.files.push((text, None));
    }

    /// Adds a file as a walk's first read finds it, knowing the names
    /// `early` holds: held or released ([`first_read`]).
    pub fn push_first_read(&mut self, text: Text, early: &EarlyNames) {
        let keep = first_read(&text.text, early);
        self.push_read(text, keep);
    }

    /// Adds a file as its first read decided: held or released.
    pub fn push_read(&mut self, text: Text, keep: Keep) {
        let ruled_out = match keep {
            Keep::Text => None,
            Keep::Release(names) => Some(Names::clone(&names)),
        };
        self.files.push((text, ruled_out));
    }

    /// Every file's path, in order.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().map(|(text, _)| text.path.as_path())
    }
}

impl Files for Texts {
    type Source = Text;

    fn len(&self) -> usize {
        self.files.len()
    }

    fn get(&self, index: usize) -> File<'_, Text> {
        match &self.files[index] {
            (text, None) => File::Held(text),
            (_, Some(ruled_out)) => File::Released(ruled_out),
        }
    }

    fn search(
        &mut self,
        picked: &[usize],
        names: &Names,
        matches: &(dyn Fn(&[u8]) -> bool + Sync),
    ) -> Result<(Vec<usize>, usize)> {
        let mut found = Vec::new();
        let mut read = 0;
        for &i in picked {
            let (text, released) = &mut self.files[i];
            read += usize::from(released.is_some());
            if matches(text.text.as_bytes()) {
                *released = None;
                found.push(i);
            } else if let Some(ruled_out) = released {
                ruled_out.extend(names.iter().cloned());
            }
        }
        Ok((found, read))
    }
}
