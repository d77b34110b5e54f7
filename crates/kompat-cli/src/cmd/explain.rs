//! `kompat explain CODE`: a rule's documentation.

use std::process::ExitCode;

use kompat_project::{Error, Result};

use super::print_stdout;
use crate::cli::ExplainArgs;
use kompat_cli::rules;
use kompat_diag::Rule;

pub fn run(args: ExplainArgs) -> Result<ExitCode> {
    let Some(rule) = rules::find(&args.code) else {
        let hint = rules::code_hint(&args.code);
        return Err(Error::msg(format!(
            "unknown lint code `{}`{hint}; `kompat explain --list` lists them all",
            args.code
        )));
    };
    match rules::alias_note(&args.code) {
        Some(note) => print_stdout(&format!("{note}.\n\n{}", text(rule)))?,
        None => print_stdout(&text(rule))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// A rule's documentation as `kompat explain` prints it (Markdown, which
/// reads as plain text too): also the `help` of the rule in SARIF.
pub fn text(rule: &Rule) -> String {
    format!("# {} ({})\n\n{}\n\n{}", rule.code, rule.severity.as_str(), rule.summary, rule.doc_text())
}

pub fn list() -> Result<ExitCode> {
    let text: String =
        rules::all().iter().map(|r| format!("{:<40} {:<8} {}\n", r.code, r.severity.as_str(), r.summary)).collect();
    print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
