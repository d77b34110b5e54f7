//! `stored-before-written`: something written before every supported reader
//! understands it (a CEL library, an enum value, a new field).

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, Severity};

pub const CODE: &str = "stored-before-written";

pub fn rule() -> Rule {
    Rule {
        code: CODE,
        severity: Severity::Error,
        summary: "something is written before every supported reader can read it".to_owned(),
        doc: doc(
            "Checks `[[stored_before_written]]` declarations: servers must start writing a new CEL library, enum value or field at least one release after readers tolerate it (`written_since` > `readable_since`), and with a binary version, at no emulation and min-compatibility version in the window may servers write it while the min-compatibility version is below `readable_since`.",
            "During a rolling upgrade or after a rollback, a server at the min-compatibility version reads what newer servers stored. A value it does not understand fails validation or is dropped: a CEL expression using an unknown library no longer compiles, an unknown enum value is rejected, an unknown field is pruned. Kubernetes adds such things one release before it lets anyone write them.",
            "[[stored_before_written]]\nname = \"cel-library-quantity\"\nkind = \"cel-library\"\nreadable_since = \"1.36\"\nwritten_since = \"1.36\"",
            "[[stored_before_written]]\nname = \"cel-library-quantity\"\nkind = \"cel-library\"\nreadable_since = \"1.36\"\nwritten_since = \"1.37\"",
        ),
    }
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (item, location) in cx.decls.stored_before_written() {
        let what = item.kind.as_deref().map_or_else(|| item.name.clone(), |k| format!("{k} {}", item.name));
        let message = if item.written_since <= item.readable_since {
            Some(format!(
                "{what} is written from {} but readable only from {}: writes must lag reads by at least one release",
                item.written_since, item.readable_since
            ))
        } else {
            cx.binary.and_then(|binary| {
                let (emu, mc) = cx
                    .window
                    .points(binary)
                    .into_iter()
                    .find(|&(emu, mc)| emu >= item.written_since && mc < item.readable_since)?;
                Some(format!(
                    "{what} is written at emulation version {emu} while min-compatibility version {mc} admits readers older than {}",
                    item.readable_since
                ))
            })
        };
        if let Some(message) = message {
            out.push(Diagnostic {
                code: CODE,
                severity: Severity::Error,
                message,
                location: Some(location.clone()),
                subject: Some(item.name.clone()),
                notes: vec!["write it only from a release whose min-compatibility version is at least readable_since"
                    .to_owned()],
                labels: Vec::new(),
            });
        }
    }
}
