//! What `kompat lint` does with its findings: the command line's levels
//! (`-A`/`-W`/`-D CODE`, `-D warnings`), recorded findings (`--suppressions`),
//! and one rendering per `--format`. Machine formats print one valid document
//! even when the input is broken: its errors become `input-error` entries.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

use kompat_cli::{rules, Linted, Suppressed, SuppressionKind};
use kompat_diag::{Diagnostic, Severity};
use kompat_project::{Error, Result};
use serde::{Deserialize, Serialize};

use super::{count, print_stdout};
use crate::cli::{LintArgs, LintFormat};
use crate::output;
use crate::report;

/// Renders the outcome of a lint run in `args.format` and picks the exit
/// code: 0 clean, 1 with an error-level finding, 2 on input errors. The
/// findings allowances suppressed are shown in SARIF and JSON only.
pub fn report(args: &LintArgs, outcome: Result<Linted>) -> Result<ExitCode> {
    let (diags, allowed) = match outcome.and_then(|l| Ok((apply_levels(args, l.findings)?, l.suppressed))) {
        Ok(linted) => linted,
        Err(err) => return input_error(args, &err),
    };
    let Some(path) = &args.suppressions else { return emit(args, &diags, &allowed, 0) };
    if args.write_suppressions {
        let text = Suppressions::of(&diags).to_json()?;
        super::write_file(path, text)?;
        eprintln!("kompat lint: recorded {} in {}", count(diags.len(), "finding"), path.display());
        return Ok(ExitCode::SUCCESS);
    }
    let recorded = match Suppressions::read(path) {
        Ok(recorded) => recorded,
        Err(err) => return input_error(args, &err),
    };
    let (kept, mut suppressed) = recorded.split(diags, path);
    let recorded_count = suppressed.len();
    suppressed.extend(allowed);
    emit(args, &kept, &suppressed, recorded_count)
}

/// `-A`, `-W` and `-D` over the findings; unknown codes are usage errors.
fn apply_levels(args: &LintArgs, diags: Vec<Diagnostic>) -> Result<Vec<Diagnostic>> {
    let mut failures = Vec::new();
    for (flag, list) in [("-A", &args.allow), ("-W", &args.warn), ("-D", &args.deny)] {
        for code in list.iter().filter(|c| *c != "warnings" && rules::find(c).is_none()) {
            let hint = rules::code_hint(code);
            failures.push(format!("unknown lint code `{code}` in {flag}{hint}"));
        }
    }
    if !failures.is_empty() {
        let mut error = Error::msg(failures.remove(0));
        error.diagnostics.extend(failures.into_iter().flat_map(|m| Error::msg(m).diagnostics));
        return Err(error);
    }
    let named = |list: &[String], d: &Diagnostic| {
        list.iter().any(|c| rules::canonical(c) == d.code() || (c == "warnings" && d.severity == Severity::Warning))
    };
    Ok(diags
        .into_iter()
        .filter_map(|mut d| {
            if named(&args.deny, &d) {
                d.severity = Severity::Error;
            } else if named(&args.warn, &d) {
                d.severity = Severity::Warning;
            } else if named(&args.allow, &d) {
                return None;
            }
            Some(d)
        })
        .collect())
}

/// Prints `diags` (and, in SARIF and JSON, the suppressed ones) in the
/// format asked for, or writes them to `--output`; `recorded` of the
/// suppressed ones are recorded findings (counted in the summary line).
/// People's formats go to stderr, as rustc's diagnostics do, and end with a
/// summary line; with `--output` the file holds the report and the summary
/// line is printed too.
fn emit(args: &LintArgs, diags: &[Diagnostic], suppressed: &[Suppressed], recorded: usize) -> Result<ExitCode> {
    let text = match args.format {
        // Streamed, to stdout or through a temporary file: the report of
        // many findings is never held whole.
        LintFormat::Json | LintFormat::Sarif => {
            let streamed = |out: &mut dyn std::io::Write| match args.format {
                LintFormat::Json => output::write_json(out, diags, suppressed),
                _ => output::write_sarif(out, diags, suppressed, &rules::all()),
            };
            match &args.output {
                Some(path) => super::write_file_with(path, streamed)?,
                None => super::print_stdout_with(streamed)?,
            }
            return Ok(exit_code(diags));
        }
        LintFormat::RustcJson => output::rustc_json(diags),
        LintFormat::Short => output::short(diags),
        LintFormat::Human => kompat_diag::render(diags, args.output.is_none() && report::stderr_color()),
    };
    let people = matches!(args.format, LintFormat::Human | LintFormat::Short);
    let summary = people.then(|| {
        let summary = output::summary(diags);
        let mut line = format!(
            "kompat lint: {}, {}, {}",
            count(summary.errors, "error"),
            count(summary.warnings, "warning"),
            count(summary.notes, "note")
        );
        if recorded > 0 {
            line.push_str(&format!(" ({} not shown)", count(recorded, "recorded finding")));
        }
        line + "\n"
    });
    match &args.output {
        Some(path) => {
            super::write_file(path, text + summary.as_deref().unwrap_or_default())?;
            eprint!("{}", summary.unwrap_or_default());
        }
        None if people => eprint!("{text}{}", summary.unwrap_or_default()),
        None => print_stdout(&text)?,
    }
    Ok(exit_code(diags))
}

/// 1 when a finding is at error level.
fn exit_code(diags: &[Diagnostic]) -> ExitCode {
    if diags.iter().any(|d| d.severity == Severity::Error) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// An input error: on stderr as always, and in machine formats also as one
/// valid document (on stdout, or in `--output`), so that a SARIF upload
/// shows the problem. People's formats write no file: the error is on stderr.
fn input_error(args: &LintArgs, err: &Error) -> Result<ExitCode> {
    let diags = &err.diagnostics;
    let document = match args.format {
        LintFormat::Json => Some(output::json(diags, &[])?),
        LintFormat::Sarif => Some(output::sarif(diags, &[], &rules::all())?),
        LintFormat::RustcJson => Some(output::rustc_json(diags)),
        LintFormat::Human | LintFormat::Short => None,
    };
    if let Some(document) = document {
        super::write_or_print(args.output.as_deref(), document)?;
    }
    report::print_error(err);
    Ok(ExitCode::from(2))
}

/// The recorded findings file: what was there when kompat was adopted.
/// A finding is identified by code, file, subject and message, not by line,
/// so edits elsewhere in a file keep it recorded; each recorded entry
/// suppresses as many findings as it counts.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Suppressions {
    /// The format's version, for later changes.
    version: u32,
    findings: Vec<Recorded>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Recorded {
    code: String,
    file: Option<String>,
    subject: Option<String>,
    message: String,
    count: usize,
}

type Key = (String, Option<String>, Option<String>, String);

fn key(d: &Diagnostic) -> Key {
    (
        output::code_of(d).to_owned(),
        d.location.as_ref().map(|l| l.path().to_string_lossy().replace('\\', "/")),
        d.subject.as_deref().map(str::to_owned),
        d.message.to_string(),
    )
}

impl Suppressions {
    fn of(diags: &[Diagnostic]) -> Suppressions {
        let mut counts: BTreeMap<Key, usize> = BTreeMap::new();
        for d in diags {
            *counts.entry(key(d)).or_default() += 1;
        }
        let findings = counts
            .into_iter()
            .map(|((code, file, subject, message), count)| Recorded { code, file, subject, message, count })
            .collect();
        Suppressions { version: 1, findings }
    }

    fn to_json(&self) -> Result<String> {
        super::to_json(self)
    }

    fn read(path: &Path) -> Result<Suppressions> {
        let source = kompat_project::SourceFile::read(path)?;
        let parsed: Suppressions = serde_json::from_str(&source.text).map_err(|err| {
            let offset = line_col_offset(&source.text, err.line(), err.column());
            let mut error = Error::msg(format!("invalid suppressions file: {err}"));
            error.diagnostics[0].location = Some(source.locate(offset, offset));
            error
        })?;
        if parsed.version != 1 {
            return Err(Error::in_file(path, format!("unsupported suppressions file version {}", parsed.version)));
        }
        Ok(parsed)
    }

    /// The findings not recorded, and the recorded ones with why they are
    /// suppressed.
    fn split(&self, diags: Vec<Diagnostic>, path: &Path) -> (Vec<Diagnostic>, Vec<Suppressed>) {
        let mut left: BTreeMap<Key, usize> = self
            .findings
            .iter()
            .map(|r| ((r.code.clone(), r.file.clone(), r.subject.clone(), r.message.clone()), r.count))
            .collect();
        let why = format!("recorded in {}", path.display());
        let (mut kept, mut suppressed) = (Vec::new(), Vec::new());
        for d in diags {
            match left.get_mut(&key(&d)) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    suppressed.push(Suppressed {
                        diagnostic: d,
                        kind: SuppressionKind::External,
                        justification: why.clone(),
                    });
                }
                _ => kept.push(d),
            }
        }
        (kept, suppressed)
    }
}

/// The byte offset of a 1-based line and column (serde_json's error
/// position).
fn line_col_offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (start + column.saturating_sub(1)).min(text.len())
}
