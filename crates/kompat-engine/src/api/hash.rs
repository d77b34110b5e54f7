//! The discovery storage-version hash (`discovery.StorageVersionHash`).

use base64::Engine;
use sha2::{Digest, Sha256};

/// SHA-256 of `GROUP/VERSION/KIND` (core group: `/v1/Pod`), first 8 bytes,
/// standard base64 with padding: always 12 characters.
pub fn storage_version_hash(group: &str, version: &str, kind: &str) -> String {
    let digest = Sha256::digest(format!("{group}/{version}/{kind}").as_bytes());
    base64::engine::general_purpose::STANDARD.encode(&digest[..8])
}
