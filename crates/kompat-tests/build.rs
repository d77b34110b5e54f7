//! Generates the input of the `derive_behaviour` test: an enum with a few hundred
//! `#[derive(FeatureGates)]` variants and the same declarations as
//! `kompat_engine::FeatureDecl`s, written to `$OUT_DIR/big_enum.rs`.
//!
//! Deterministic (a fixed linear congruential generator); every lifecycle is
//! valid by construction, and dependencies point at earlier gates only.

use std::fmt::Write as _;
use std::path::PathBuf;

const GATES: usize = 320;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(n)) as u32
    }
}

/// (version, stage, default, locked, min_compatibility)
type Spec = (String, &'static str, bool, bool, Option<String>);

fn spec(minor: u32, stage: &'static str, default: bool, locked: bool, mcv: Option<u32>) -> Spec {
    (format!("1.{minor}"), stage, default, locked, mcv.map(|m| format!("1.{m}")))
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let mut rng = Lcg(0x6b6f6d706174);
    let mut enum_src = String::new();
    let mut decls_src = String::new();
    // Recipe of each gate, so dependents can pick compatible dependencies.
    let mut recipes: Vec<u32> = Vec::new();
    for i in 0..GATES {
        let recipe = rng.next(8);
        let m = 10 + rng.next(25);
        let k = 1 + rng.next(4);
        let specs: Vec<Spec> = match recipe {
            0 => vec![spec(m, "Alpha", false, false, None)],
            1 => vec![spec(m, "Alpha", false, false, None), spec(m + k, "Beta", true, false, None)],
            2 => vec![
                spec(m, "Alpha", false, false, None),
                spec(m + k, "Beta", false, false, None),
                spec(m + k, "Beta", true, false, Some(m + k)),
            ],
            3 => vec![spec(0, "GA", true, true, None)],
            4 => vec![
                spec(m, "Alpha", false, false, None),
                spec(m + 1, "Beta", true, false, None),
                spec(m + 2, "GA", true, true, None),
            ],
            5 => vec![
                spec(0, "GA", true, false, None),
                spec(m, "Deprecated", true, false, None),
                spec(m + 1, "Deprecated", false, true, None),
            ],
            6 => vec![
                spec(m, "Beta", false, false, None),
                spec(m, "Beta", true, false, Some(m)),
                spec(m + 2, "GA", true, false, None),
            ],
            _ => vec![
                spec(m, "Alpha", false, false, None),
                spec(m + 1, "Beta", false, false, None),
                spec(m + 1, "Beta", true, false, Some(m + 1)),
                spec(m + 3, "Beta", false, false, None),
            ],
        };
        // Any gate may depend on a GA-locked-from-1.0 gate (recipe 3); an
        // Alpha-only gate (recipe 0) also on any gate never Deprecated.
        let mut deps: Vec<usize> = Vec::new();
        for _ in 0..rng.next(3) {
            if i == 0 {
                break;
            }
            let j = rng.next(i as u32) as usize;
            let ok = recipes[j] == 3 || (recipe == 0 && recipes[j] != 5);
            if ok && !deps.contains(&j) {
                deps.push(j);
            }
        }
        recipes.push(recipe);
        let ident = format!("Gate{i:03}");
        let name = if i % 7 == 3 { format!("Renamed{i}Gate") } else { ident.clone() };
        let description = (i % 5 == 0).then(|| format!("Gate number {i}."));

        if let Some(d) = &description {
            let _ = writeln!(enum_src, "    /// {d}");
        }
        if name != ident {
            let _ = writeln!(enum_src, "    #[kompat(name = {name:?})]");
        }
        if !deps.is_empty() {
            let list: Vec<String> = deps.iter().map(|j| format!("Gate{j:03}")).collect();
            let _ = writeln!(enum_src, "    #[kompat(depends_on({}))]", list.join(", "));
        }
        for (version, stage, default, locked, mcv) in &specs {
            let mut attr = format!("version = {version:?}, stage = {stage:?}, default = {default}");
            if *locked {
                attr.push_str(", locked = true");
            }
            if let Some(mcv) = mcv {
                let _ = write!(attr, ", min_compatibility = {mcv:?}");
            }
            let _ = writeln!(enum_src, "    #[kompat(spec({attr}))]");
        }
        let _ = writeln!(enum_src, "    {ident},");

        let spec_list: Vec<String> =
            specs.iter().map(|(v, s, d, l, m)| format!("({v:?}, {s:?}, {d}, {l}, {m:?})")).collect();
        let dep_names: Vec<String> = deps
            .iter()
            .map(|&j| if j % 7 == 3 { format!("{:?}", format!("Renamed{j}Gate")) } else { format!("\"Gate{j:03}\"") })
            .collect();
        let _ = writeln!(
            decls_src,
            "        decl({name:?}, &[{}], &[{}], {description:?}),",
            spec_list.join(", "),
            dep_names.join(", ")
        );
    }
    let src = format!(
        "#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]\npub enum Big {{\n{enum_src}}}\n\n\
         pub fn big_decls() -> Vec<FeatureDecl> {{\n    vec![\n{decls_src}    ]\n}}\n"
    );
    let Some(out_dir) = std::env::var_os("OUT_DIR") else {
        println!("cargo::warning=OUT_DIR is not set; the behaviour test input was not generated");
        return;
    };
    if let Err(err) = std::fs::write(PathBuf::from(out_dir).join("big_enum.rs"), src) {
        println!("cargo::warning=cannot write the behaviour test input: {err}");
    }
}
