//! Feature-gate lookups against their baselines, in the same run.
//!
//! - The untyped gate: `FeatureGate::enabled(idx)` (resolved once per
//!   emulation version, then an array index) against resolving the spec on
//!   every call.
//! - The typed gate of a `#[derive(FeatureGates)]` enum of 300 gates:
//!   `TypedGate::enabled(Gate::X)` against a bare `[bool; N]` index (goal: at
//!   most 1.5x), for one constant gate and in a sweep over all gates (against
//!   a sweep over `0..N` and one over the same variants of `Gate::ALL`), and
//!   against a `HashMap<&str, bool>` lookup by name (goal: at least 10x
//!   faster); lookups by name, typed (`TypedGate::enabled_by_name`) and
//!   untyped (`FeatureGate::enabled_by_name`), against the same `HashMap`
//!   (goal: faster).
//!
//! Every lookup's index or name goes through `black_box`, in the baselines
//! too, so none of them is folded or vectorised away. `scripts/bench-gate`
//! checks the ratios (building with every loop aligned to 64 bytes, so that
//! a sweep's time does not depend on where its loop happens to land).
//!
//! Run with `cargo bench -p kompat-engine --bench gate`.

use std::collections::HashMap;
use std::sync::Arc;

use divan::black_box;
use kompat::{FeatureGates, TypedGate};
use kompat_engine::{validate, FeatureDecl, SpecDecl};
use kompat_runtime::{spec_at, FeatureGate, FeatureSet, Stage, Version, VersionLit};

fn main() {
    divan::main();
}

/// A few hundred gates with Kubernetes-like lifecycles.
fn feature_set(n: usize) -> FeatureSet {
    let lit = |minor: u32| VersionLit::from(Version::new(1, minor));
    let decls: Vec<FeatureDecl> = (0..n)
        .map(|i| {
            let start = 20 + (i % 15) as u32;
            let spec = |minor, stage, default, locked| SpecDecl {
                version: Some(lit(minor)),
                default,
                lock_to_default: locked,
                stage,
                min_compatibility_version: None,
            };
            FeatureDecl {
                name: format!("Gate{i:04}"),
                specs: vec![
                    spec(start, Stage::Alpha, false, false),
                    spec(start + 2, Stage::Beta, true, false),
                    spec(start + 4, Stage::GA, true, true),
                ],
                ..FeatureDecl::default()
            }
        })
        .collect();
    let validated = validate(&decls);
    assert!(validated.problems.is_empty());
    validated.set
}

const N: usize = 300;
const EMULATION: Version = Version::new(1, 33);

#[divan::bench]
fn enabled_by_index(bencher: divan::Bencher) {
    let gate = FeatureGate::new(Arc::new(feature_set(N)), EMULATION, None);
    bencher.bench_local(|| (0..N).filter(|&i| gate.enabled(black_box(i))).count());
}

/// The baseline: resolve the spec at every call, as a gate without
/// precomputed state would.
#[divan::bench]
fn resolve_on_every_call(bencher: divan::Bencher) {
    let set = feature_set(N);
    bencher.bench_local(|| {
        set.features().iter().filter(|f| spec_at(&f.specs, black_box(EMULATION), None).default).count()
    });
}

/// Building a gate: resolving every feature once.
#[divan::bench]
fn build_gate(bencher: divan::Bencher) {
    let set = Arc::new(feature_set(N));
    bencher.bench_local(|| FeatureGate::new(set.clone(), black_box(EMULATION), None));
}

/// Declares the typed gates: a third Alpha (off), a third Beta (on), a
/// third GA (on, locked) at 1.33.
macro_rules! gates {
    (alpha: $($alpha:ident)* ; beta: $($beta:ident)* ; ga: $($ga:ident)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
        #[kompat(crate = "kompat")]
        enum Gate {
            $(#[kompat(spec(version = "1.30", stage = "Alpha", default = false))] $alpha,)*
            $(#[kompat(spec(version = "1.30", stage = "Beta", default = true))] $beta,)*
            $(#[kompat(spec(version = "1.30", stage = "GA", default = true, locked = true))] $ga,)*
        }
    };
}

gates! {
    alpha:
        WidgetGate000 WidgetGate001 WidgetGate002 WidgetGate003 WidgetGate004 WidgetGate005 WidgetGate006 WidgetGate007 WidgetGate008 WidgetGate009
        WidgetGate010 WidgetGate011 WidgetGate012 WidgetGate013 WidgetGate014 WidgetGate015 WidgetGate016 WidgetGate017 WidgetGate018 WidgetGate019
        WidgetGate020 WidgetGate021 WidgetGate022 WidgetGate023 WidgetGate024 WidgetGate025 WidgetGate026 WidgetGate027 WidgetGate028 WidgetGate029
        WidgetGate030 WidgetGate031 WidgetGate032 WidgetGate033 WidgetGate034 WidgetGate035 WidgetGate036 WidgetGate037 WidgetGate038 WidgetGate039
        WidgetGate040 WidgetGate041 WidgetGate042 WidgetGate043 WidgetGate044 WidgetGate045 WidgetGate046 WidgetGate047 WidgetGate048 WidgetGate049
        WidgetGate050 WidgetGate051 WidgetGate052 WidgetGate053 WidgetGate054 WidgetGate055 WidgetGate056 WidgetGate057 WidgetGate058 WidgetGate059
        WidgetGate060 WidgetGate061 WidgetGate062 WidgetGate063 WidgetGate064 WidgetGate065 WidgetGate066 WidgetGate067 WidgetGate068 WidgetGate069
        WidgetGate070 WidgetGate071 WidgetGate072 WidgetGate073 WidgetGate074 WidgetGate075 WidgetGate076 WidgetGate077 WidgetGate078 WidgetGate079
        WidgetGate080 WidgetGate081 WidgetGate082 WidgetGate083 WidgetGate084 WidgetGate085 WidgetGate086 WidgetGate087 WidgetGate088 WidgetGate089 WidgetGate090 WidgetGate091 WidgetGate092 WidgetGate093 WidgetGate094 WidgetGate095 WidgetGate096 WidgetGate097 WidgetGate098 WidgetGate099;
    beta:
        WidgetGate100 WidgetGate101 WidgetGate102 WidgetGate103 WidgetGate104 WidgetGate105 WidgetGate106 WidgetGate107 WidgetGate108 WidgetGate109
        WidgetGate110 WidgetGate111 WidgetGate112 WidgetGate113 WidgetGate114 WidgetGate115 WidgetGate116 WidgetGate117 WidgetGate118 WidgetGate119
        WidgetGate120 WidgetGate121 WidgetGate122 WidgetGate123 WidgetGate124 WidgetGate125 WidgetGate126 WidgetGate127 WidgetGate128 WidgetGate129
        WidgetGate130 WidgetGate131 WidgetGate132 WidgetGate133 WidgetGate134 WidgetGate135 WidgetGate136 WidgetGate137 WidgetGate138 WidgetGate139
        WidgetGate140 WidgetGate141 WidgetGate142 WidgetGate143 WidgetGate144 WidgetGate145 WidgetGate146 WidgetGate147 WidgetGate148 WidgetGate149
        WidgetGate150 WidgetGate151 WidgetGate152 WidgetGate153 WidgetGate154 WidgetGate155 WidgetGate156 WidgetGate157 WidgetGate158 WidgetGate159
        WidgetGate160 WidgetGate161 WidgetGate162 WidgetGate163 WidgetGate164 WidgetGate165 WidgetGate166 WidgetGate167 WidgetGate168 WidgetGate169
        WidgetGate170 WidgetGate171 WidgetGate172 WidgetGate173 WidgetGate174 WidgetGate175 WidgetGate176 WidgetGate177 WidgetGate178 WidgetGate179
        WidgetGate180 WidgetGate181 WidgetGate182 WidgetGate183 WidgetGate184 WidgetGate185 WidgetGate186 WidgetGate187 WidgetGate188 WidgetGate189 WidgetGate190 WidgetGate191 WidgetGate192 WidgetGate193 WidgetGate194 WidgetGate195 WidgetGate196 WidgetGate197 WidgetGate198 WidgetGate199;
    ga:
        WidgetGate200 WidgetGate201 WidgetGate202 WidgetGate203 WidgetGate204 WidgetGate205 WidgetGate206 WidgetGate207 WidgetGate208 WidgetGate209
        WidgetGate210 WidgetGate211 WidgetGate212 WidgetGate213 WidgetGate214 WidgetGate215 WidgetGate216 WidgetGate217 WidgetGate218 WidgetGate219
        WidgetGate220 WidgetGate221 WidgetGate222 WidgetGate223 WidgetGate224 WidgetGate225 WidgetGate226 WidgetGate227 WidgetGate228 WidgetGate229
        WidgetGate230 WidgetGate231 WidgetGate232 WidgetGate233 WidgetGate234 WidgetGate235 WidgetGate236 WidgetGate237 WidgetGate238 WidgetGate239
        WidgetGate240 WidgetGate241 WidgetGate242 WidgetGate243 WidgetGate244 WidgetGate245 WidgetGate246 WidgetGate247 WidgetGate248 WidgetGate249
        WidgetGate250 WidgetGate251 WidgetGate252 WidgetGate253 WidgetGate254 WidgetGate255 WidgetGate256 WidgetGate257 WidgetGate258 WidgetGate259
        WidgetGate260 WidgetGate261 WidgetGate262 WidgetGate263 WidgetGate264 WidgetGate265 WidgetGate266 WidgetGate267 WidgetGate268 WidgetGate269
        WidgetGate270 WidgetGate271 WidgetGate272 WidgetGate273 WidgetGate274 WidgetGate275 WidgetGate276 WidgetGate277 WidgetGate278 WidgetGate279
        WidgetGate280 WidgetGate281 WidgetGate282 WidgetGate283 WidgetGate284 WidgetGate285 WidgetGate286 WidgetGate287 WidgetGate288 WidgetGate289
        WidgetGate290 WidgetGate291 WidgetGate292 WidgetGate293 WidgetGate294 WidgetGate295 WidgetGate296 WidgetGate297 WidgetGate298 WidgetGate299
}

/// The typed gate at 1.33, and its values as a bare array and a map by name.
fn typed() -> (TypedGate<Gate>, [bool; N], HashMap<&'static str, bool>) {
    let gate = Gate::gate(EMULATION, None);
    let mut array = [false; N];
    for (slot, &g) in array.iter_mut().zip(Gate::ALL) {
        *slot = gate.enabled(g);
    }
    let map = Gate::ALL.iter().map(|&g| (g.name(), gate.enabled(g))).collect();
    (gate, array, map)
}

/// A gate in the middle of the enum.
const ONE: Gate = Gate::WidgetGate150;

#[divan::bench]
fn typed_enabled_one(bencher: divan::Bencher) {
    let (gate, _, _) = typed();
    bencher.bench_local(|| black_box(&gate).enabled(ONE));
}

#[divan::bench]
fn array_index_one(bencher: divan::Bencher) {
    let (_, array, _) = typed();
    bencher.bench_local(|| black_box(&array)[ONE as usize]);
}

#[divan::bench]
fn typed_enabled_sweep(bencher: divan::Bencher) {
    let (gate, _, _) = typed();
    bencher.bench_local(|| Gate::ALL.iter().filter(|&&g| gate.enabled(black_box(g))).count());
}

/// The sweep's baseline: every index of `0..N`, each checked against the
/// array's length.
#[divan::bench]
fn array_index_sweep(bencher: divan::Bencher) {
    let (_, array, _) = typed();
    bencher.bench_local(|| (0..N).filter(|&i| array[black_box(i)]).count());
}

/// The sweep's second baseline: the same variants as the typed sweep, read
/// from `Gate::ALL` in the same order, each an index into the array
/// (`g as usize`), so that the two loops differ only in the lookup.
#[divan::bench]
fn array_variant_sweep(bencher: divan::Bencher) {
    let (_, array, _) = typed();
    bencher.bench_local(|| Gate::ALL.iter().filter(|&&g| array[black_box(g) as usize]).count());
}

#[divan::bench]
fn hashmap_by_name_sweep(bencher: divan::Bencher) {
    let (_, _, map) = typed();
    bencher.bench_local(|| Gate::NAMES.iter().filter(|&&n| map.get(black_box(n)) == Some(&true)).count());
}

#[divan::bench]
fn typed_by_name_sweep(bencher: divan::Bencher) {
    let (gate, _, _) = typed();
    bencher.bench_local(|| Gate::NAMES.iter().filter(|&&n| gate.enabled_by_name(black_box(n)) == Ok(true)).count());
}

#[divan::bench]
fn untyped_by_name_sweep(bencher: divan::Bencher) {
    let (gate, _, _) = typed();
    let gate = gate.untyped();
    bencher.bench_local(|| Gate::NAMES.iter().filter(|&&n| gate.enabled_by_name(black_box(n)) == Ok(true)).count());
}
