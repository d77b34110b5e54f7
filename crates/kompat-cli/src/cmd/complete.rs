//! `kompat completions SHELL` and `kompat manpage`: shell completions and man
//! pages generated from the one clap definition of the command line, so they
//! cannot drift from it.

use std::path::Path;
use std::process::ExitCode;

use clap::CommandFactory;
use kompat_project::{Error, Result};

use super::print_stdout;
use crate::cli::{Cli, CompletionsArgs, ManpageArgs};

pub fn completions(args: CompletionsArgs) -> Result<ExitCode> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "kompat", &mut out);
    print_stdout(&utf8(out)?)?;
    Ok(ExitCode::SUCCESS)
}

pub fn manpage(args: ManpageArgs) -> Result<ExitCode> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    match args.out_dir {
        None => {
            print_stdout(&render(cmd)?)?;
        }
        Some(dir) => {
            let mut files = Vec::new();
            pages(&cmd, &dir, &mut files)?;
            // Every page or none (a failure leaves no partial set).
            kompat_gen::write_files(&files).map_err(kompat_gen::file_error)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The page of `cmd` and, recursively, of each of its visible subcommands.
fn pages(cmd: &clap::Command, dir: &Path, out: &mut Vec<kompat_gen::GeneratedFile>) -> Result<()> {
    let man = clap_mangen::Man::new(cmd.clone());
    out.push(kompat_gen::GeneratedFile { path: dir.join(man.get_filename()), contents: render(cmd.clone())? });
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        pages(sub, dir, out)?;
    }
    Ok(())
}

fn render(cmd: clap::Command) -> Result<String> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut out)
        .map_err(|err| Error::msg(format!("cannot render the man page: {err}")))?;
    utf8(out)
}

fn utf8(bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|err| Error::msg(format!("generated text is not UTF-8: {err}")))
}
