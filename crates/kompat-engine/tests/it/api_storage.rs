//! Storage versions: overrides, the two-pass algorithm (alpha-only kinds,
//! first beta after an alpha, brand-new beta, GA promotion, group fallback),
//! the MutatingAdmissionPolicy example, decodable versions, the
//! storage-version hash, and StorageVersion agreement across servers.

use crate::api_common::{set, v};
use kompat_engine::api::{
    common_encoding_version, encoding_condition, storage_version_agreement, storage_version_hash, storage_versions,
    ApiServer, ConditionStatus, GroupResource, ServerStorageVersion,
};
use kompat_engine::api::{storage_version_for, ApiSet};
use kompat_runtime::EffectiveVersion;

/// Prints the storage of `group/resource` at (emulation, min-compatibility) as
/// `VERSION (source)`, with ` [kind missing]` when the chosen version lacks the
/// kind.
#[track_caller]
fn check(set: &ApiSet, gr: &str, emu: &str, mc: &str, expected: &str) {
    let gr = GroupResource::parse_key(gr).expect("GROUP/RESOURCE");
    let s = storage_version_for(set, &gr, v(emu), v(mc), None).expect("declared resource");
    let missing = if s.kind_in_storage_version { "" } else { " [kind missing]" };
    let got = format!("{} ({}){missing}", s.storage_version, s.source.as_str());
    assert_eq!(got, expected, "{gr} at emulation {emu}, min-compatibility {mc}");
}

#[test]
fn mutating_admission_policy() {
    // Reference §8.3: v1alpha1 1.32, v1beta1 1.34, v1 1.36. Without the pin and
    // with alphas skipped, v1beta1 at emulated 1.34–1.36, v1 at 1.37.
    let s = set("
        admissionregistration.k8s.io v1alpha1 MutatingAdmissionPolicy mutatingadmissionpolicies 1.32
        admissionregistration.k8s.io v1beta1 MutatingAdmissionPolicy mutatingadmissionpolicies 1.34
        admissionregistration.k8s.io v1 MutatingAdmissionPolicy mutatingadmissionpolicies 1.36
        admissionregistration.k8s.io v1 ValidatingAdmissionPolicy validatingadmissionpolicies 1.30
    ");
    let map = "admissionregistration.k8s.io/mutatingadmissionpolicies";
    check(&s, map, "1.33", "1.32", "v1alpha1 (emulation)");
    check(&s, map, "1.34", "1.33", "v1beta1 (emulation)");
    check(&s, map, "1.35", "1.34", "v1beta1 (rollback-safe)");
    check(&s, map, "1.36", "1.35", "v1beta1 (rollback-safe)");
    check(&s, map, "1.37", "1.36", "v1 (rollback-safe)");
    // Only when min-compatibility allows.
    check(&s, map, "1.37", "1.35", "v1beta1 (rollback-safe)");
    check(&s, map, "1.36", "1.36", "v1 (rollback-safe)");
    // The 1.36-era pin.
    let pinned = set("
        admissionregistration.k8s.io v1alpha1 MutatingAdmissionPolicy mutatingadmissionpolicies 1.32
        admissionregistration.k8s.io v1beta1 MutatingAdmissionPolicy mutatingadmissionpolicies 1.34
        admissionregistration.k8s.io v1 MutatingAdmissionPolicy mutatingadmissionpolicies 1.36
        pin admissionregistration.k8s.io/mutatingadmissionpolicies v1beta1
    ");
    check(&pinned, map, "1.37", "1.36", "v1beta1 (override)");
    check(&pinned, map, "1.33", "1.32", "v1beta1 (override)");
}

#[test]
fn two_pass_cases() {
    let s = set("
        a.io v1alpha1 Alpha alphas 1.33
        a.io v1alpha2 Alpha alphas 1.34
        b.io v1alpha1 Bee bees 1.30
        b.io v1beta1 Bee bees 1.33
        c.io v1beta1 Cee cees 1.34
        d.io v1beta1 Dee dees 1.30
        d.io v1 Dee dees 1.33
        e.io v1 Other others 1.30
        e.io v1beta1 Late lates 1.36
        f.io v1beta1 Eff effs 1.30
        f.io v1beta2 Eff effs 1.32
        f.io v1alpha1 Eff effs 1.25
    ");
    // Alpha-only kind: pass 2, most preferred alpha introduced by emulation.
    check(&s, "a.io/alphas", "1.33", "1.32", "v1alpha1 (emulation)");
    check(&s, "a.io/alphas", "1.34", "1.33", "v1alpha2 (emulation)");
    // Every version after emulation: the group's top version.
    check(&s, "a.io/alphas", "1.32", "1.31", "v1alpha2 (group-fallback)");
    // First beta after an alpha: the beta at once, although not rollback-safe.
    check(&s, "b.io/bees", "1.33", "1.32", "v1beta1 (emulation)");
    check(&s, "b.io/bees", "1.34", "1.33", "v1beta1 (rollback-safe)");
    check(&s, "b.io/bees", "1.32", "1.31", "v1alpha1 (emulation)");
    // Brand-new beta.
    check(&s, "c.io/cees", "1.34", "1.33", "v1beta1 (emulation)");
    check(&s, "c.io/cees", "1.33", "1.32", "v1beta1 (group-fallback)");
    // GA promotion waits for min-compatibility.
    check(&s, "d.io/dees", "1.33", "1.32", "v1beta1 (rollback-safe)");
    check(&s, "d.io/dees", "1.34", "1.33", "v1 (rollback-safe)");
    check(&s, "d.io/dees", "1.34", "1.32", "v1beta1 (rollback-safe)");
    // Fallback to the group's preferred version, which lacks the kind.
    check(&s, "e.io/lates", "1.35", "1.34", "v1 (group-fallback) [kind missing]");
    check(&s, "e.io/lates", "1.36", "1.35", "v1beta1 (emulation)");
    // Pass 1 prefers the most preferred non-alpha, even over an older alpha.
    check(&s, "f.io/effs", "1.33", "1.32", "v1beta2 (rollback-safe)");
    check(&s, "f.io/effs", "1.32", "1.31", "v1beta1 (rollback-safe)");
}

#[test]
fn alpha_detection_is_a_substring_test() {
    // "v1alphabet" is not an alpha by the regex but contains "alpha": pass 1
    // skips it.
    let s = set("
        x.io v1alphabet Ex exes 1.30
        x.io v1beta1 Ex exes 1.30
        priority x.io v1alphabet,v1beta1
    ");
    check(&s, "x.io/exes", "1.31", "1.30", "v1beta1 (rollback-safe)");
}

#[test]
fn explicit_priority_and_zero_min_compatibility() {
    let s = set("
        p.io v1beta1 Pee pees 1.30
        p.io v1 Pee pees 1.30
        priority p.io v1beta1,v1
    ");
    check(&s, "p.io/pees", "1.31", "1.30", "v1beta1 (rollback-safe)");
    // min-compatibility 0.0 skips the introduced check (Kubernetes' guard), so
    // a young project stores its most preferred non-alpha version at once.
    let young = set("
        y.io v1alpha1 Why whys 0.1
        y.io v1 Why whys 0.2
    ");
    check(&young, "y.io/whys", "0.1", "0.0", "v1 (rollback-safe)");
    check(&young, "y.io/whys", "0.2", "0.1", "v1 (emulation)");
    check(&young, "y.io/whys", "0.1", "0.1", "v1alpha1 (emulation)");
}

#[test]
fn all_resources_with_hash_and_decodable_versions() {
    let s = set("
        - v1 Pod pods 1.0
        apps v1 Deployment deployments 1.9
        apps v1beta1 Deployment deployments 1.6 dep=1.8 rem=1.16
        apps v1beta2 Deployment deployments 1.8 dep=1.9 rem=1.16
        networking.k8s.io v1beta1 IPAddress ipaddresses 1.31
        networking.k8s.io v1 IPAddress ipaddresses 1.33
        w.io v1alpha1 Widget widgets 1.30
        w.io v1beta1 Widget widgets 1.32
        w.io v1 Widget widgets 1.34
    ");
    let show = |emu: &str, mc: &str, bin: Option<&str>| {
        storage_versions(&s, v(emu), v(mc), bin.map(v))
            .iter()
            .map(|r| {
                format!(
                    "{}/{} {} {} {} [{}]",
                    r.group,
                    r.resource,
                    r.kind,
                    r.encoding_version(),
                    r.hash,
                    r.decodable_versions.join(" ")
                )
            })
            .collect::<Vec<_>>()
    };
    // IPAddress at 1.33 with min-compatibility 1.32 stays v1beta1: the real
    // hash data.go shows for networking.k8s.io/v1/ipaddresses.
    assert_eq!(
        show("1.33", "1.32", Some("1.36")),
        [
            "/pods Pod v1 xPOwRZ+Yhw8= [v1]",
            "apps/deployments Deployment apps/v1 8aSe+NMegvE= [apps/v1]",
            "networking.k8s.io/ipaddresses IPAddress networking.k8s.io/v1beta1 O4H8VxQhW5Y= [networking.k8s.io/v1 networking.k8s.io/v1beta1]",
            format!("w.io/widgets Widget w.io/v1beta1 {} [w.io/v1 w.io/v1beta1]", hash_independently("w.io/v1beta1/Widget")).as_str(),
        ]
    );
    // Decodable versions follow the binary version (w.io/v1alpha1 is removed
    // at 1.36, apps/v1beta1 and v1beta2 at 1.16); without one, the emulation.
    assert_eq!(
        show("1.33", "1.32", None)[3],
        format!(
            "w.io/widgets Widget w.io/v1beta1 {} [w.io/v1 w.io/v1beta1 w.io/v1alpha1]",
            hash_independently("w.io/v1beta1/Widget")
        )
    );
    assert_eq!(
        show("1.15", "1.14", None)[1],
        format!("apps/deployments Deployment apps/v1 8aSe+NMegvE= [apps/v1 apps/v1beta2 apps/v1beta1]")
    );
    // The encoding version is always decodable, even a removed pinned one.
    let pinned = set("
        apps v1 Deployment deployments 1.9
        apps v1beta1 Deployment deployments 1.6 rem=1.16
        pin apps/deployments v1beta1
    ");
    let r = &storage_versions(&pinned, v("1.20"), v("1.19"), None)[0];
    assert_eq!(r.decodable_versions, ["apps/v1beta1", "apps/v1"]);
    assert_eq!(r.hash, hash_independently("apps/v1beta1/Deployment"));
}

#[test]
fn storage_version_hash_reference_vectors() {
    // Reference §4.2 (kubernetes pkg/controlplane/storageversionhashdata).
    let table = [
        ("", "v1", "Pod", "xPOwRZ+Yhw8="),
        ("", "v1", "ConfigMap", "qFsyl6wFWjQ="),
        ("", "v1", "Event", "r2yiGXH7wu8="),
        ("apps", "v1", "Deployment", "8aSe+NMegvE="),
        ("batch", "v1", "CronJob", "sd5LIXh4Fjs="),
        ("autoscaling", "v2", "HorizontalPodAutoscaler", "qwQve8ut294="),
        ("certificates.k8s.io", "v1", "CertificateSigningRequest", "95fRKMXA+00="),
        ("flowcontrol.apiserver.k8s.io", "v1", "FlowSchema", "GJVAJZSZBIw="),
        ("networking.k8s.io", "v1beta1", "IPAddress", "O4H8VxQhW5Y="),
        ("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy", "6OxvlMmQ6is="),
    ];
    for (group, version, kind, expected) in table {
        assert_eq!(storage_version_hash(group, version, kind), expected, "{group}/{version}/{kind}");
        assert_eq!(
            hash_independently(&format!("{group}/{version}/{kind}")),
            expected,
            "independent {group}/{version}/{kind}"
        );
    }
}

#[test]
fn storage_version_hash_matches_an_independent_implementation() {
    let inputs = [
        ("", "", ""),
        ("widgets.example.io", "v1alpha1", "Widget"),
        ("widgets.example.io", "v1beta1", "Widget"),
        ("widgets.example.io", "v1", "Widget"),
        ("admissionregistration.k8s.io", "v1beta1", "MutatingAdmissionPolicy"),
        ("storagemigration.k8s.io", "v1beta1", "StorageVersionMigration"),
        ("resource.k8s.io", "v1alpha3", "DeviceTaintRule"),
        ("", "v1", "Ünïcödé"),
        ("a-very-long-group-name.with.many.labels.example.com", "v10beta20", "SomeRatherLongKindNameThatSpansBlocks"),
    ];
    for (group, version, kind) in inputs {
        let got = storage_version_hash(group, version, kind);
        assert_eq!(got.len(), 12);
        assert!(got.ends_with('='));
        assert_eq!(got, hash_independently(&format!("{group}/{version}/{kind}")), "{group}/{version}/{kind}");
    }
}

#[test]
fn agreement_across_servers() {
    let s = set("
        - v1 Pod pods 1.0
        w.io v1beta1 Widget widgets 1.30
        w.io v1 Widget widgets 1.33
    ");
    let server = |id: &str, bin: &str, emu: &str, mc: &str| ApiServer {
        id: id.to_owned(),
        version: EffectiveVersion { binary: v(bin), emulation: v(emu), min_compatibility: v(mc) },
    };
    let show = |servers: &[ApiServer]| {
        storage_version_agreement(&s, servers)
            .iter()
            .map(|a| {
                let reports: Vec<String> = a
                    .servers
                    .iter()
                    .map(|r| format!("{}={}[{}]", r.api_server_id, r.encoding_version, r.decodable_versions.join(" ")))
                    .collect();
                format!(
                    "{} {} common={} {} {} {:?} {}",
                    a.name,
                    reports.join(","),
                    a.common_encoding_version.as_deref().unwrap_or("nil"),
                    a.condition.status.as_str(),
                    a.condition.reason,
                    a.condition.message,
                    a.group.is_empty()
                )
            })
            .collect::<Vec<_>>()
    };
    // Mid-upgrade: the new server at 1.34 (min-compatibility 1.33) encodes v1,
    // the old one at 1.33 (min-compatibility 1.32) v1beta1.
    assert_eq!(
        show(&[server("old", "1.33", "1.33", "1.32"), server("new", "1.34", "1.34", "1.33")]),
        [
            "core.pods old=v1[v1],new=v1[v1] common=v1 True CommonEncodingVersionSet \"Common encoding version set\" true",
            "w.io.widgets old=w.io/v1beta1[w.io/v1 w.io/v1beta1],new=w.io/v1[w.io/v1 w.io/v1beta1] common=nil False CommonEncodingVersionUnset \"Common encoding version unset\" false",
        ]
    );
    // The new binary emulating the old release agrees with the old server.
    assert_eq!(
        show(&[server("old", "1.33", "1.33", "1.32"), server("new", "1.34", "1.33", "1.32")])[1],
        "w.io.widgets old=w.io/v1beta1[w.io/v1 w.io/v1beta1],new=w.io/v1beta1[w.io/v1 w.io/v1beta1] common=w.io/v1beta1 True CommonEncodingVersionSet \"Common encoding version set\" false"
    );
    // No server: no common version.
    assert_eq!(
        show(&[])[1],
        "w.io.widgets  common=nil False CommonEncodingVersionUnset \"Common encoding version unset\" false"
    );
}

#[test]
fn common_encoding_version_rule() {
    let report = |id: &str, enc: &str| ServerStorageVersion {
        api_server_id: id.to_owned(),
        encoding_version: enc.to_owned(),
        decodable_versions: vec![enc.to_owned()],
    };
    assert_eq!(common_encoding_version(&[]), None);
    assert_eq!(common_encoding_version(&[report("a", "apps/v1")]).as_deref(), Some("apps/v1"));
    assert_eq!(common_encoding_version(&[report("a", "apps/v1"), report("b", "apps/v1")]).as_deref(), Some("apps/v1"));
    assert_eq!(common_encoding_version(&[report("a", "apps/v1"), report("b", "apps/v1beta1")]), None);
    let set = encoding_condition(Some("apps/v1"));
    assert_eq!(
        (set.status, set.reason, set.message),
        (ConditionStatus::True, "CommonEncodingVersionSet", "Common encoding version set")
    );
    let unset = encoding_condition(None);
    assert_eq!(
        (unset.status, unset.reason, unset.message),
        (ConditionStatus::False, "CommonEncodingVersionUnset", "Common encoding version unset")
    );
}

/// The storage-version hash computed without the `sha2` and `base64` crates: a
/// straightforward FIPS 180-4 SHA-256 and a hand-written base64 encoder.
fn hash_independently(input: &str) -> String {
    let digest = sha256(input.as_bytes());
    base64_std(&digest[..8])
}

fn sha256(message: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
        0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
        0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
        0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
        0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
        0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] =
        [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    let mut data = message.to_vec();
    let bit_len = (message.len() as u64) * 8;
    data.push(0x80);
    while data.len() % 64 != 56 {
        data.push(0);
    }
    data.extend_from_slice(&bit_len.to_be_bytes());
    for block in data.chunks(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh.wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (state, add) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *state = state.wrapping_add(add);
        }
    }
    let mut out = [0u8; 32];
    for (i, word) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&word.to_be_bytes());
    }
    out
}

fn base64_std(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
