//! The file table a renderer needs: every file the diagnostics point into,
//! once, as codespan-reporting's [`Files`](codespan_reporting::files::Files).

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use codespan_reporting::files::{Error, Files};
use kompat_span::LineIndex;

use crate::{Diagnostic, Location};

/// The files that a set of diagnostics points into, each added once (by
/// path), with codespan ids for their locations.
#[derive(Default)]
pub struct FileTable {
    /// By id: each file's name and its text's line index (the locations'
    /// own, shared with them: the lines of a file are found once).
    files: Vec<(String, LineIndex)>,
    /// Each added file's name → its codespan id: one hash lookup per file
    /// path met, not a scan of every file added before.
    ids: HashMap<String, usize>,
    /// The address of each path met (as the locations in one file share
    /// it) → the path, held so that the address stays its own, and its
    /// file's id: a file's name is written once, not once per location.
    paths: HashMap<usize, (Arc<Path>, usize)>,
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
        let lines = location.lines()?;
        let path = location.shared_path();
        if let Some(id) = self.by_address(path) {
            return Some(id);
        }
        let name = path.display().to_string();
        let id = match self.ids.get(&name) {
            Some(&id) => id,
            None => {
                let id = self.files.len();
                self.files.push((name.clone(), lines.clone()));
                self.ids.insert(name, id);
                id
            }
        };
        self.paths.insert(address(path), (path.clone(), id));
        Some(id)
    }

    /// The id of `location`'s file, when it was added.
    pub fn get(&self, location: &Location) -> Option<usize> {
        location.text()?;
        let path = location.shared_path();
        self.by_address(path).or_else(|| self.ids.get(&path.display().to_string()).copied())
    }

    /// The id of the file of a path met before (the same `Arc`).
    fn by_address(&self, path: &Arc<Path>) -> Option<usize> {
        self.paths.get(&address(path)).map(|&(_, id)| id)
    }

    /// The line index of file `id`.
    pub fn lines(&self, id: usize) -> Option<&LineIndex> {
        self.files.get(id).map(|(_, lines)| lines)
    }

    fn file(&self, id: usize) -> Result<&(String, LineIndex), Error> {
        self.files.get(id).ok_or(Error::FileMissing)
    }

    /// The start of line `line` of file `id`: the text's end for the line
    /// after the last (codespan-reporting's `SimpleFile::line_start`).
    fn line_start(&self, id: usize, line: usize) -> Result<usize, Error> {
        let (_, index) = self.file(id)?;
        let starts = index.line_starts();
        match starts.get(line) {
            Some(&start) => Ok(start),
            None if line == starts.len() => Ok(index.text().len()),
            None => Err(Error::LineTooLarge { given: line, max: starts.len() - 1 }),
        }
    }
}

/// Where a shared path is held: the same for its clones only (a path met
/// in the table is held by it, so no other is ever at that address).
fn address(path: &Arc<Path>) -> usize {
    Arc::as_ptr(path).cast::<u8>().addr()
}

impl<'a> Files<'a> for FileTable {
    type FileId = usize;
    type Name = String;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<String, Error> {
        Ok(self.file(id)?.0.clone())
    }

    fn source(&'a self, id: usize) -> Result<&'a str, Error> {
        Ok(self.file(id)?.1.text())
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, Error> {
        Ok(self.file(id)?.1.line_of(byte_index))
    }

    fn line_range(&'a self, id: usize, line_index: usize) -> Result<Range<usize>, Error> {
        Ok(self.line_start(id, line_index)?..self.line_start(id, line_index + 1)?)
    }
}
