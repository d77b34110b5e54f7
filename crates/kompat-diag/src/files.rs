//! The file table a renderer needs: every file the diagnostics point into,
//! once, as codespan-reporting's [`Files`](codespan_reporting::files::Files).

use std::sync::Arc;

use codespan_reporting::files::{Files, SimpleFile, SimpleFiles};

use crate::{Diagnostic, Location};

/// The files that a set of diagnostics points into, each added once (by
/// path), with codespan ids for their locations.
#[derive(Default)]
pub struct FileTable {
    files: SimpleFiles<String, Arc<str>>,
    paths: Vec<String>,
}

impl FileTable {
    /// Every file with a text that `diags` point into.
    pub fn of(diags: &[Diagnostic]) -> FileTable {
        let mut table = FileTable::default();
        for d in diags {
            for loc in d.location.iter().chain(d.labels.iter().map(|l| &l.location)) {
                table.id(loc);
            }
        }
        table
    }

    /// The id of `location`'s file, adding it when it has a text.
    pub fn id(&mut self, location: &Location) -> Option<usize> {
        let text = location.text()?;
        let name = location.path().display().to_string();
        if let Some(id) = self.paths.iter().position(|p| *p == name) {
            return Some(id);
        }
        self.paths.push(name.clone());
        Some(self.files.add(name, text.clone()))
    }

    /// The id of `location`'s file, when it was added.
    pub fn get(&self, location: &Location) -> Option<usize> {
        location.text()?;
        let name = location.path().display().to_string();
        self.paths.iter().position(|p| *p == name)
    }
}

impl<'a> Files<'a> for FileTable {
    type FileId = usize;
    type Name = String;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<String, codespan_reporting::files::Error> {
        self.files.name(id)
    }

    fn source(&'a self, id: usize) -> Result<&'a str, codespan_reporting::files::Error> {
        self.files.get(id).map(|f: &SimpleFile<String, Arc<str>>| f.source().as_ref())
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, codespan_reporting::files::Error> {
        self.files.line_index(id, byte_index)
    }

    fn line_range(
        &'a self,
        id: usize,
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        self.files.line_range(id, line_index)
    }
}
