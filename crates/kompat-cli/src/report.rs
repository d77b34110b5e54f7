//! Diagnostics for people on stderr: [`kompat_diag::render`] (rustc style,
//! the one renderer for people, shared with `kompat_gen::Builder`'s errors)
//! in colour when `--color` and the environment say so.

use kompat_project::Error;

use kompat_diag::render;

/// Prints every diagnostic of an input error to stderr, rustc style.
pub fn print_error(err: &Error) {
    let diags = &err.diagnostics;
    eprint!("{}", render(diags, stderr_color()));
}

/// Whether to colour what goes to stderr: `--color`, else NO_COLOR, CLICOLOR,
/// CLICOLOR_FORCE and whether stderr is a terminal, per their specs.
pub fn stderr_color() -> bool {
    !matches!(anstream::AutoStream::choice(&std::io::stderr()), anstream::ColorChoice::Never)
}
