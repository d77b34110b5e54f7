//! Reading files from disk: [`SourceFile`] (a file's text, held) and
//! [`ReleasedFile`] (a Rust file whose text was let go after its first
//! read), under the limits kompat reads with ([`MAX_FILE_BYTES`],
//! [`MAX_LINE_BYTES`], regular files only), and the walk of a directory.
//! The bottom of the loader: it knows nothing of what the files declare.
//! [`RustFiles`] hands the Rust files to the Rust reader (`kompat-rust`)
//! and reads a released one again when the reader searches it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use kompat_formats::ParseError;
use kompat_rust::{Keep, Names};
use kompat_span::LineIndex;

use crate::error::{Error, Result};
use kompat_diag::{Diagnostic, Location};

/// A file read from disk, its text held.
#[derive(Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: Arc<str>,
    /// Made the first time a location in the file is needed, and shared by
    /// every location in it; its lines are found only when a line or column
    /// is asked (most files of a linted tree have no finding).
    lines: OnceLock<LineIndex>,
    /// `path`, shared by every location in the file (a manifest of many
    /// objects has as many locations, and findings).
    shared_path: OnceLock<Arc<Path>>,
}

/// A Rust file found in a directory that cannot declare or reference
/// anything by itself (see `kompat_rust::first_read`), released after its
/// first read: it has no text. The first read also searched it for the
/// derived enums' names the reads of its directory had met by then
/// (`kompat_rust::EarlyNames`), and the file records those it was found not
/// to refer to; the Rust reader has it read again ([`RustFiles`]) only for a
/// derived enum's name (or an alias's) outside that set.
#[derive(Debug, Clone)]
pub struct ReleasedFile {
    pub path: PathBuf,
    /// The names its first read (and any later search) ruled out, shared by
    /// the files released while the walk knew the same names.
    ruled_out: Arc<Names>,
}

/// A file as its read left it: its text held, or released.
#[derive(Debug, Clone)]
pub enum Read {
    Held(SourceFile),
    Released(ReleasedFile),
}

impl Read {
    pub fn path(&self) -> &Path {
        match self {
            Read::Held(file) => &file.path,
            Read::Released(file) => &file.path,
        }
    }
}

impl std::fmt::Debug for SourceFile {
    /// The path and text; the line index follows from the text.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SourceFile").field("path", &self.path).field("text", &self.text).finish_non_exhaustive()
    }
}

/// The largest file kompat reads: 16 MiB. Real inputs are far smaller (the
/// largest CRD bundles are a few MB; Kubernetes itself refuses request bodies
/// over 3 MiB); the limit keeps a stray multi-gigabyte file from exhausting
/// memory.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The name standard input is shown under (`kompat lint -`).
pub const STDIN_NAME: &str = "<stdin>";

/// The longest line kompat reads: 1 MiB. Diagnostics show whole lines.
pub const MAX_LINE_BYTES: usize = 1 << 20;

impl SourceFile {
    /// Reads a UTF-8 text file of at most [`MAX_FILE_BYTES`] with no line
    /// longer than [`MAX_LINE_BYTES`]. Anything that is not a regular file
    /// (a FIFO, a device, a socket) is refused before it is opened, so
    /// reading never blocks.
    pub fn read(path: &Path) -> Result<SourceFile> {
        let size = regular_file_size(path)?;
        let file = std::fs::File::open(path).map_err(|err| Error::io(path, &err))?;
        let text = with_text(path, file, size, |text| Arc::from(text))?;
        Ok(SourceFile::held(path.to_owned(), text))
    }

    fn held(path: PathBuf, text: Arc<str>) -> SourceFile {
        SourceFile { path, text, lines: OnceLock::new(), shared_path: OnceLock::new() }
    }

    /// [`SourceFile::read`] for a file found by walking a directory: one
    /// removed since it was listed is reported as such.
    pub(crate) fn read_found(path: &Path) -> Result<SourceFile> {
        let (file, size) = open_found(path)?;
        let text = with_text(path, file, size, |text| Arc::from(text)).map_err(|err| gone_or(path, err))?;
        Ok(SourceFile::held(path.to_owned(), text))
    }

    /// Reads standard input (`kompat lint -`) under the same limits as
    /// [`SourceFile::read`]; it is shown as [`STDIN_NAME`] in messages.
    pub fn read_stdin() -> Result<SourceFile> {
        let path = Path::new(STDIN_NAME);
        let text = with_text(path, std::io::stdin().lock(), 0, |text| Arc::from(text))?;
        Ok(SourceFile::held(path.to_owned(), text))
    }

    pub fn new(path: PathBuf, text: String) -> SourceFile {
        // One copy of the text, shared by the line index.
        SourceFile::held(path, Arc::from(text))
    }

    /// The file's line index (its lines are found on first use).
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::shared(self.text.clone()))
    }

    /// A location in this file for a byte span: it shares the file's path
    /// and line index, and finds no line.
    pub fn locate(&self, start: usize, end: usize) -> Location {
        let path = self.shared_path.get_or_init(|| Arc::from(self.path.as_path())).clone();
        Location::indexed(path, self.lines(), kompat_span::Span::new(start, end))
    }

    /// A location for the file as a whole.
    pub fn whole(&self) -> Location {
        Location::file(self.path.clone())
    }

    /// Parse errors of this file as one located error.
    pub fn parse_errors(&self, errors: Vec<ParseError>) -> Error {
        Error { diagnostics: errors.into_iter().map(|e| self.parse_failure(e)).collect() }
    }

    fn parse_failure(&self, err: ParseError) -> Diagnostic {
        let location = match err.span {
            Some(span) => self.locate(span.start, span.end),
            None => self.whole(),
        };
        Diagnostic::error(err.message).at(Some(location))
    }
}

/// [`SourceFile::read_found`], releasing the file unless `keep` says its
/// text is needed (its checks are done all the same).
pub(crate) fn read_found_keeping(path: &Path, keep: impl FnOnce(&str) -> Keep) -> Result<Read> {
    let (file, size) = open_found(path)?;
    let read = with_text(path, file, size, |text| match keep(text) {
        Keep::Text => Ok(Arc::from(text)),
        Keep::Release(names) => Err(names),
    })
    .map_err(|err| gone_or(path, err))?;
    Ok(match read {
        Ok(text) => Read::Held(SourceFile::held(path.to_owned(), text)),
        Err(ruled_out) => Read::Released(ReleasedFile { path: path.to_owned(), ruled_out }),
    })
}

/// `err`, or that `path` was removed if it is gone.
fn gone_or(path: &Path, err: Error) -> Error {
    match std::fs::symlink_metadata(path) {
        Err(gone) if gone.kind() == std::io::ErrorKind::NotFound => removed(path),
        _ => err,
    }
}

/// Reads at most [`MAX_FILE_BYTES`] (and one more, to tell) from `reader`
/// as the text of `path`, checks the size, UTF-8 and line limits, and
/// returns what `use_text` makes of the text. `size` is what the file is
/// expected to hold: it is read at once into a buffer each thread keeps for
/// its next file, so a text that is not kept costs no allocation.
fn with_text<R>(path: &Path, reader: impl std::io::Read, size: u64, use_text: impl FnOnce(&str) -> R) -> Result<R> {
    use std::io::Read;
    thread_local! {
        static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUFFER.with_borrow_mut(|bytes| {
        bytes.clear();
        bytes.reserve(size.min(MAX_FILE_BYTES + 1) as usize);
        let read = reader.take(MAX_FILE_BYTES + 1).read_to_end(bytes);
        let result = match read {
            Err(err) => Err(Error::io(path, &err)),
            Ok(_) if bytes.len() as u64 > MAX_FILE_BYTES => Err(Error::in_file(
                path,
                format!("{} is larger than {} MiB, the most kompat reads", path.display(), MAX_FILE_BYTES >> 20),
            )),
            Ok(_) => match decode(bytes) {
                None => Err(Error::in_file(path, format!("{} is not valid UTF-8", path.display()))),
                Some(text) => match long_line(text.as_bytes()) {
                    Some(start) => {
                        let message = format!("line longer than {} MiB, the most kompat reads", MAX_LINE_BYTES >> 20);
                        let source = SourceFile::new(path.to_owned(), text.into_owned());
                        Err(Error::at(source.locate(start, start), message))
                    }
                    None => Ok(use_text(&text)),
                },
            },
        };
        // A rare large file's buffer is not kept.
        if bytes.capacity() > KEPT_BUFFER_BYTES {
            *bytes = Vec::new();
        }
        result
    })
}

/// The text of `bytes`: UTF-8, or UTF-16 after its byte order mark (YAML
/// streams may be either, and YAML's readers take both); `None` if it is
/// neither.
pub fn decode(bytes: &[u8]) -> Option<std::borrow::Cow<'_, str>> {
    let utf16 = |unit: fn([u8; 2]) -> u16| {
        let body = bytes.get(2..)?;
        if body.len() % 2 != 0 {
            return None;
        }
        let units = body.chunks_exact(2).map(|pair| unit([pair[0], pair[1]]));
        char::decode_utf16(units).collect::<Result<String, _>>().ok().map(std::borrow::Cow::Owned)
    };
    match bytes {
        [0xFF, 0xFE, ..] => utf16(u16::from_le_bytes),
        [0xFE, 0xFF, ..] => utf16(u16::from_be_bytes),
        _ => std::str::from_utf8(bytes).ok().map(std::borrow::Cow::Borrowed),
    }
}

/// The Rust files of the inputs, in input order, as the Rust reader reads
/// them ([`kompat_rust::Files`]): a held file is searched in memory; a
/// released one is read again, and held from then on if it matches.
pub struct RustFiles(pub Vec<Read>);

impl kompat_rust::Source for SourceFile {
    fn path(&self) -> &Path {
        &self.path
    }

    fn text(&self) -> &str {
        &self.text
    }

    fn lines(&self) -> &LineIndex {
        SourceFile::lines(self)
    }

    fn locate(&self, start: usize, end: usize) -> Location {
        SourceFile::locate(self, start, end)
    }
}

impl kompat_rust::Files for RustFiles {
    type Source = SourceFile;

    fn len(&self) -> usize {
        self.0.len()
    }

    fn get(&self, index: usize) -> kompat_rust::File<'_, SourceFile> {
        match &self.0[index] {
            Read::Held(file) => kompat_rust::File::Held(file),
            Read::Released(file) => kompat_rust::File::Released(&file.ruled_out),
        }
    }

    /// Searched on every core. A file that cannot be read again (removed,
    /// changed into invalid UTF-8) is an error of its own; all are reported
    /// together.
    fn search(
        &mut self,
        picked: &[usize],
        names: &Names,
        matches: &(dyn Fn(&[u8]) -> bool + Sync),
    ) -> std::result::Result<(Vec<usize>, usize), Vec<Diagnostic>> {
        enum Found {
            No,
            Yes,
            Read(SourceFile),
            Failed(Error),
        }
        let shared: &[Read] = &self.0;
        let rereads = picked.iter().filter(|&&i| matches!(shared[i], Read::Released(_))).count();
        let found = kompat_rust::parallel::map(
            picked,
            SEARCH_STACK_BYTES,
            |&i| match &shared[i] {
                Read::Held(file) => match matches(file.text.as_bytes()) {
                    true => Found::Yes,
                    false => Found::No,
                },
                Read::Released(file) => {
                    let keep = |text: &str| match matches(text.as_bytes()) {
                        true => Keep::Text,
                        false => Keep::Release(Arc::default()),
                    };
                    match read_found_keeping(&file.path, keep) {
                        Ok(Read::Released(_)) => Found::No,
                        Ok(Read::Held(read)) => Found::Read(read),
                        Err(err) => Found::Failed(err),
                    }
                }
            },
            |&i, why| Found::Failed(Error { diagnostics: vec![why.diagnostic(shared[i].path())] }),
        );
        let mut out = Vec::new();
        let mut failures = Vec::new();
        for (&i, found) in picked.iter().zip(found) {
            match found {
                Found::No => {
                    // Searched for `names` in vain: ruled out from now on too.
                    if let Read::Released(file) = &mut self.0[i] {
                        if !names.is_subset(&file.ruled_out) {
                            Arc::make_mut(&mut file.ruled_out).extend(names.iter().cloned());
                        }
                    }
                }
                Found::Yes => out.push(i),
                Found::Read(read) => {
                    self.0[i] = Read::Held(read);
                    out.push(i);
                }
                Found::Failed(err) => failures.extend(err.diagnostics),
            }
        }
        if failures.is_empty() {
            Ok((out, rereads))
        } else {
            Err(failures)
        }
    }
}

/// The stack of each thread of [`RustFiles`]' searches: a byte search needs little.
const SEARCH_STACK_BYTES: usize = 1 << 20;

/// The largest read buffer a thread keeps for its next file: install
/// bundles of a few MB are common, and a buffer given back to the system is
/// faulted in again, page by page, for the next (a thread's buffer lives as
/// long as its thread, one phase of reads).
const KEPT_BUFFER_BYTES: usize = 8 << 20;

/// The start of the first line longer than [`MAX_LINE_BYTES`] (not counting
/// its `\n` or `\r\n`), if any. A text no longer than the limit has none, so
/// almost every file costs nothing here.
fn long_line(text: &[u8]) -> Option<usize> {
    first_line_longer(text, MAX_LINE_BYTES)
}

/// The start of the first line of `text` longer than `max` bytes (not
/// counting its `\n` or the `\r`s before it). A step looks at the `max + 1`
/// bytes from a line's start: a line break among them ends every line that
/// starts there, and the last one starts the next step; without one, the
/// line is measured. So a text costs a step per `max` bytes, not a search
/// per line.
fn first_line_longer(text: &[u8], max: usize) -> Option<usize> {
    let mut start = 0;
    while text.len() - start > max {
        match memchr::memrchr(b'\n', &text[start..=start + max]) {
            Some(i) => start += i + 1,
            None => {
                let end = memchr::memchr(b'\n', &text[start..]).map_or(text.len(), |i| start + i);
                let mut line = &text[start..end];
                while let [rest @ .., b'\r'] = line {
                    line = rest;
                }
                if line.len() > max {
                    return Some(start);
                }
                if end == text.len() {
                    return None;
                }
                start = end + 1;
            }
        }
    }
    None
}

/// Refuses anything but a regular file (following symbolic links), without
/// opening it: opening a FIFO blocks until a writer comes.
pub fn ensure_regular_file(path: &Path) -> Result<()> {
    regular_file_size(path).map(|_| ())
}

/// Opens a file a walk found to be a regular file, and returns it with its
/// size, refusing anything else it may have become since (one removed is
/// reported as such). Opened without blocking and then checked, which saves
/// looking its path up twice: nothing blocks on a FIFO put in its place.
fn open_found(path: &Path) -> Result<(std::fs::File, u64)> {
    let failed = |err: std::io::Error| {
        if err.kind() == std::io::ErrorKind::NotFound {
            removed(path)
        } else {
            Error::io(path, &err)
        }
    };
    #[cfg(unix)]
    let file = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path).map_err(failed)?
    };
    #[cfg(not(unix))]
    let file = {
        regular_file_size(path)?;
        std::fs::File::open(path).map_err(failed)?
    };
    let meta = file.metadata().map_err(failed)?;
    if meta.is_file() {
        return Ok((file, meta.len()));
    }
    let what = file_kind(&meta.file_type());
    Err(Error::in_file(path, format!("cannot read {}: it is {what}, not a regular file", path.display())))
}

/// [`ensure_regular_file`], returning the file's size.
fn regular_file_size(path: &Path) -> Result<u64> {
    let meta = std::fs::metadata(path).map_err(|err| Error::io(path, &err))?;
    if meta.is_file() {
        return Ok(meta.len());
    }
    let what = file_kind(&meta.file_type());
    Err(Error::in_file(path, format!("cannot read {}: it is {what}, not a regular file", path.display())))
}

/// What a file that is not a regular file is, for messages.
fn file_kind(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// Every regular file below `dir`, in sorted order, respecting `.gitignore`
/// (inside a git repository, as ripgrep does)
/// and skipping hidden entries. `dir` may be a single regular file.
///
/// File types come from the directory entries, so FIFOs, devices and sockets
/// are skipped without being opened (nothing blocks); symbolic links are not
/// followed. Every regular file is opened once to check that it can be read:
/// an unreadable file or directory, or one removed during the walk, is a
/// located error, never silently skipped. All such failures are reported
/// together.
pub fn walk_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let root = std::fs::metadata(dir).map_err(|err| Error::io(dir, &err))?;
    if !root.is_dir() {
        ensure_regular_file(dir)?;
    }
    let mut files = Vec::new();
    let mut failures = Vec::new();
    let walker = ignore::WalkBuilder::new(dir).sort_by_file_name(|a, b| a.cmp(b)).build();
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                failures.extend(walk_failure(dir, &err).diagnostics);
                continue;
            }
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        match readable(entry.path()) {
            Ok(()) => files.push(entry.path().to_owned()),
            Err(err) => failures.extend(err.diagnostics),
        }
    }
    if failures.is_empty() {
        Ok(files)
    } else {
        Err(Error { diagnostics: failures })
    }
}

/// Opens a regular file found by a walk, to report it now if it cannot be
/// read or has been removed since it was listed.
pub(crate) fn readable(path: &Path) -> Result<()> {
    match std::fs::File::open(path) {
        Ok(_) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Err(removed(path)),
        Err(err) => Err(Error::io(path, &err)),
    }
}

/// A file listed by a walk and gone since.
fn removed(path: &Path) -> Error {
    Error::in_file(path, format!("{} was removed while its directory was read", path.display()))
}

/// A walk error, located at the path it is about.
pub(crate) fn walk_failure(dir: &Path, err: &ignore::Error) -> Error {
    fn parts(err: &ignore::Error) -> (Option<&Path>, Option<&std::io::Error>) {
        match err {
            ignore::Error::WithPath { path, err } => (Some(path), parts(err).1),
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => parts(err),
            ignore::Error::Io(io) => (None, Some(io)),
            _ => (None, None),
        }
    }
    let (path, io) = parts(err);
    let path = path.unwrap_or(dir);
    match io {
        Some(io) if io.kind() == std::io::ErrorKind::NotFound => {
            Error::in_file(path, format!("{} was removed while its directory was read", path.display()))
        }
        // The walker wraps the OS error in its own text; report the OS's.
        Some(io) => match os_error(io) {
            Some(code) => Error::io(path, &std::io::Error::from_raw_os_error(code)),
            None => Error::io(path, io),
        },
        None => Error::in_file(path, format!("cannot walk {}: {err}", path.display())),
    }
}

/// The OS error code of an I/O error, looking through errors it wraps.
fn os_error(io: &std::io::Error) -> Option<i32> {
    if let Some(code) = io.raw_os_error() {
        return Some(code);
    }
    let mut inner: Option<&(dyn std::error::Error + 'static)> = io.get_ref().map(|e| e as _);
    while let Some(err) = inner {
        if let Some(code) = err.downcast_ref::<std::io::Error>().and_then(std::io::Error::raw_os_error) {
            return Some(code);
        }
        inner = err.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(err: Error) -> Vec<String> {
        err.to_string().lines().map(str::to_owned).collect()
    }

    /// Every text of up to nine bytes of `a`, `\r` and `\n`, and every
    /// limit up to four: the first long line is the first line (split at
    /// `\n`, its trailing `\r`s not counted) longer than the limit.
    #[test]
    fn first_line_longer_is_the_first_long_line() {
        fn by_lines(text: &[u8], max: usize) -> Option<usize> {
            let mut start = 0;
            for line in text.split(|&b| b == b'\n') {
                let kept = line.len() - line.iter().rev().take_while(|&&b| b == b'\r').count();
                if kept > max {
                    return Some(start);
                }
                start += line.len() + 1;
            }
            None
        }
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        for len in 1..=9 {
            let shorter: Vec<Vec<u8>> = texts.iter().filter(|t| t.len() == len - 1).cloned().collect();
            for text in shorter {
                for b in [b'a', b'\r', b'\n'] {
                    let mut longer = text.clone();
                    longer.push(b);
                    texts.push(longer);
                }
            }
        }
        assert_eq!(texts.len(), (0..=9).map(|n| 3usize.pow(n)).sum::<usize>());
        for text in &texts {
            for max in 0..=4 {
                assert_eq!(
                    first_line_longer(text, max),
                    by_lines(text, max),
                    "{:?} max {max}",
                    String::from_utf8_lossy(text)
                );
            }
        }
    }

    #[test]
    fn files_removed_during_a_walk_are_reported() {
        let gone = Path::new("/nonexistent-kompat-dir/gone.toml");
        let expected = ["/nonexistent-kompat-dir/gone.toml: /nonexistent-kompat-dir/gone.toml was removed while its directory was read"];
        assert_eq!(readable(gone).map_err(messages), Err(expected.map(str::to_owned).to_vec()));
        // As the walker reports an entry that vanished between listing and
        // reading its type.
        let err = ignore::Error::WithPath {
            path: gone.to_owned(),
            err: Box::new(ignore::Error::Io(std::io::Error::from(std::io::ErrorKind::NotFound))),
        };
        assert_eq!(messages(walk_failure(Path::new("/nonexistent-kompat-dir"), &err)), expected);
        let denied = ignore::Error::WithDepth {
            depth: 1,
            err: Box::new(ignore::Error::WithPath {
                path: gone.to_owned(),
                err: Box::new(ignore::Error::Io(std::io::Error::from(std::io::ErrorKind::PermissionDenied))),
            }),
        };
        assert_eq!(
            messages(walk_failure(Path::new("/"), &denied)),
            ["/nonexistent-kompat-dir/gone.toml: cannot read /nonexistent-kompat-dir/gone.toml: permission denied"]
        );
    }

    const GATES: &str = "#[derive(Clone, Copy, kompat::FeatureGates)]\npub enum Feature {\n    \
        #[kompat(spec(version = \"1.30\", stage = \"Alpha\", default = false))]\n    A,\n    \
        #[kompat(spec(version = \"1.30\", stage = \"Alpha\", default = false))]\n    B,\n}\n";
    const USES: &str = "fn f() -> bool {\n    matches!(x(), Feature::B)\n}\n";
    const PLAIN: &str = "fn main() { std::io::stdout(); }\n";

    /// Files written to `dir`, first read in the order `order` names them
    /// as a walk would (one thread: each first read sees the names of those
    /// before), and returned in path order.
    fn read_in_order(dir: &Path, files: &[(&str, &str)], order: &[usize]) -> Vec<Read> {
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap_or_else(|err| panic!("{err}"));
        }
        let early = kompat_rust::EarlyNames::new();
        let mut read: Vec<Read> = order
            .iter()
            .map(|&i| {
                let keep = |text: &str| kompat_rust::first_read(text, &early);
                read_found_keeping(&dir.join(files[i].0), keep).unwrap_or_else(|err| panic!("{err}"))
            })
            .collect();
        read.sort_by(|a, b| a.path().cmp(b.path()));
        read
    }

    /// The declared gates and the references found, rendered, and how many
    /// released files were read again.
    fn findings(files: &[Read]) -> (String, usize) {
        match kompat_rust::scan(&mut RustFiles(files.to_vec())) {
            Ok(found) => {
                let refs: Vec<String> = found
                    .scan
                    .refs
                    .iter()
                    .map(|r| {
                        let (line, col) = r.location.line_col().unwrap_or_default();
                        let name = r.location.path().file_name().unwrap_or_default().display().to_string();
                        format!("{} {name}:{line}:{col}", r.gate)
                    })
                    .collect();
                let declared: Vec<&str> =
                    found.declared.iter().flat_map(|d| d.features.features()).map(|f| f.name.as_str()).collect();
                (format!("{declared:?} {refs:?}"), found.scan.rereads.read_again)
            }
            Err(err) => (format!("error: {}", Error { diagnostics: err }), 0),
        }
    }

    /// Locating in a file finds no line; the first line asked finds them
    /// once, for every location in the file.
    #[test]
    fn a_file_is_indexed_once_and_only_when_asked() {
        let text = "kind: Pod\nmetadata:\n  name: é\n---\n".repeat(100);
        let file = SourceFile::new(PathBuf::from("m.yaml"), text.clone());
        let at = (0..text.len()).step_by(3).filter(|&o| text.is_char_boundary(o));
        let locs: Vec<Location> = at.map(|o| file.locate(o, o + 2)).collect();
        assert!(!file.lines().is_built());
        let mut starts = None;
        for loc in &locs {
            let Some(lines) = loc.lines() else { panic!("no text at {}", loc.display()) };
            assert!(lines.shares(file.lines()), "{}", loc.display());
            let (line, col) = loc.line_col().unwrap_or_default();
            assert_eq!(file.lines().offset(line, col), loc.range().map_or(0, |r| r.start));
            let at = lines.line_starts().as_ptr();
            assert_eq!(*starts.get_or_insert(at), at, "built again at {}", loc.display());
        }
        assert_eq!(locs[1].line_col(), Some((1, 4)));
        assert_eq!(locs.last().and_then(Location::line_col).map(|(line, _)| line), Some(400));
    }

    /// UTF-8 as it is, UTF-16 after either byte order mark, nothing else.
    #[test]
    fn decodes_utf8_and_utf16_with_a_byte_order_mark() {
        fn check(bytes: &[u8], expected: Option<&str>) {
            assert_eq!(super::decode(bytes).as_deref(), expected, "{bytes:?}");
        }
        let le: Vec<u8> =
            [0xFF, 0xFE].into_iter().chain("kind: Namespace\n".encode_utf16().flat_map(u16::to_le_bytes)).collect();
        let be: Vec<u8> =
            [0xFE, 0xFF].into_iter().chain("kind: Ü\n".encode_utf16().flat_map(u16::to_be_bytes)).collect();
        check(b"kind: Pod\n", Some("kind: Pod\n"));
        check(&le, Some("kind: Namespace\n"));
        check(&be, Some("kind: Ü\n"));
        check(&[0xFF, 0xFE], Some(""));
        // An odd number of bytes after the mark, a lone surrogate, bad UTF-8.
        check(&[0xFF, 0xFE, 0x6B], None);
        check(&[0xFF, 0xFE, 0x00, 0xD8], None);
        check(&[0x6B, 0xFF, 0x6B], None);
    }

    /// A released file is read again as it is then: removed or changed, it
    /// is reported so; a file whose first read ruled the names out is not
    /// read again at all.
    #[test]
    fn files_changed_between_reads() {
        let dir = tempfile::tempdir().unwrap_or_else(|err| panic!("{err}"));
        let files = [("gates.rs", GATES), ("uses.rs", USES), ("plain.rs", PLAIN)];
        let read = read_in_order(dir.path(), &files, &[0, 1, 2]);
        // A file ruled out is not read again: its removal goes unnoticed.
        std::fs::remove_file(dir.path().join("plain.rs")).unwrap_or_else(|err| panic!("{err}"));
        let (fast, rereads) = findings(&read);
        assert_eq!((fast.as_str(), rereads), ("[\"A\", \"B\"] [\"B uses.rs:2:28\"]", 1));
        // One read again is read as it is now.
        std::fs::write(dir.path().join("uses.rs"), b"fn f() { Feature::A; } \xff")
            .unwrap_or_else(|err| panic!("{err}"));
        let uses = dir.path().join("uses.rs");
        assert_eq!(findings(&read).0, format!("error: {0}: {0} is not valid UTF-8", uses.display()));
        std::fs::write(&uses, "fn f() { Feature::A; }").unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(findings(&read).0, "[\"A\", \"B\"] [\"A uses.rs:1:19\"]");
        // A file read before the names were known is read again: its
        // removal is an error.
        let read = read_in_order(dir.path(), &[("gates.rs", GATES), ("plain.rs", PLAIN)], &[1, 0]);
        std::fs::remove_file(dir.path().join("plain.rs")).unwrap_or_else(|err| panic!("{err}"));
        let plain = dir.path().join("plain.rs");
        let expected = format!("error: {0}: {0} was removed while its directory was read", plain.display());
        assert_eq!(findings(&read).0, expected);
    }
}
