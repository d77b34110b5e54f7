//! A compact notation for API declarations in tests.
//!
//! One item per line:
//! - `GROUP VERSION KIND RESOURCE INTRODUCED [dep=X.Y] [rem=X.Y] [repl=G/V/K] [on|off]`,
//!   where GROUP `-` is the core group and INTRODUCED `-` is missing;
//! - `priority GROUP v1,v1beta1` for an explicit version priority;
//! - `pin GROUP/RESOURCE VERSION` for a storage override.

#![allow(dead_code)]

use kompat_engine::api::{ApiConfig, ApiDecl, ApiSet};
use kompat_runtime::Version;

pub fn v(s: &str) -> Version {
    Version::parse(s).expect("version")
}

pub fn config(text: &str) -> ApiConfig {
    let mut config = ApiConfig::default();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "priority" => {
                let versions = words[2].split(',').map(str::to_owned).collect();
                config.priorities.insert(group(words[1]), versions);
            }
            "pin" => {
                config.storage_overrides.insert(words[1].to_owned(), words[2].to_owned());
            }
            _ => config.apis.push(decl(&words)),
        }
    }
    config
}

fn group(word: &str) -> String {
    if word == "-" {
        String::new()
    } else {
        word.to_owned()
    }
}

fn decl(words: &[&str]) -> ApiDecl {
    let mut decl = ApiDecl {
        group: group(words[0]),
        version: words[1].to_owned(),
        kind: words[2].to_owned(),
        resource: words[3].to_owned(),
        introduced: (words[4] != "-").then(|| v(words[4])),
        ..ApiDecl::default()
    };
    for extra in &words[5..] {
        match *extra {
            "on" => decl.enabled_by_default = Some(true),
            "off" => decl.enabled_by_default = Some(false),
            e if e.starts_with("dep=") => decl.deprecated = Some(v(&e[4..])),
            e if e.starts_with("rem=") => decl.removed = Some(v(&e[4..])),
            e if e.starts_with("repl=") => decl.replacement = Some(e[5..].to_owned()),
            other => panic!("unknown word {other}"),
        }
    }
    decl
}

pub fn set(text: &str) -> ApiSet {
    match ApiSet::build(&config(text)) {
        Ok(set) => set,
        Err(problems) => panic!("declarations have problems: {problems:?}"),
    }
}
