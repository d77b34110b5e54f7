//! The StorageState a migration-triggering controller keeps per resource
//! (kube-storage-version-migrator's `migration.k8s.io` StorageState, with the
//! HA extension of the storage-state KEP: one current hash per reporter).
//!
//! - created with `persistedStorageVersionHashes = ["Unknown"]`;
//! - when a reporter's hash changes, the new hash is appended unless listed;
//! - a completed migration collapses the list to the migrated hash.

/// The placeholder for versions the tracker cannot know (`const Unknown`).
pub const UNKNOWN: &str = "Unknown";

/// One reporter's `currentStorageVersionHash`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackerReport {
    /// The reporting server's id.
    pub reporter_id: String,
    pub hash: String,
}

/// `StorageState.status` for one resource.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StorageState {
    /// `currentStorageVersionHashes`, in server order.
    pub current: Vec<TrackerReport>,
    /// `persistedStorageVersionHashes`, in the order recorded.
    pub persisted: Vec<String>,
}

impl StorageState {
    /// A tracker whose resource was migrated before the plan: it lists each
    /// reported hash once.
    pub fn migrated(reports: Vec<TrackerReport>) -> StorageState {
        let mut persisted: Vec<String> = Vec::new();
        for report in &reports {
            if !persisted.contains(&report.hash) {
                persisted.push(report.hash.clone());
            }
        }
        StorageState { current: reports, persisted }
    }

    /// One observation of every reporter. The first observation with a
    /// reporter creates the tracker (`["Unknown"]`); afterwards a reporter
    /// whose hash changed (or a new reporter) appends its hash unless listed.
    /// Reporters that no longer report are dropped.
    pub fn observe(&mut self, reports: Vec<TrackerReport>) {
        if self.persisted.is_empty() {
            if !reports.is_empty() {
                self.persisted.push(UNKNOWN.to_owned());
                self.current = reports;
            }
            return;
        }
        for report in &reports {
            let previous = self.current.iter().find(|r| r.reporter_id == report.reporter_id);
            let changed = previous.is_none_or(|p| p.hash != report.hash);
            if changed && !self.persisted.contains(&report.hash) {
                self.persisted.push(report.hash.clone());
            }
        }
        self.current = reports;
    }

    /// A migration to `hash` completed: `persisted = [hash]`.
    pub fn complete(&mut self, hash: &str) {
        self.persisted = vec![hash.to_owned()];
    }

    /// The hash every reporter agrees on, if they do.
    pub fn agreed(&self) -> Option<&str> {
        let first = self.current.first()?;
        self.current.iter().all(|r| r.hash == first.hash).then_some(first.hash.as_str())
    }

    /// Migrated: a single persisted hash, which every reporter reports.
    pub fn is_migrated(&self) -> bool {
        match (self.persisted.as_slice(), self.agreed()) {
            ([only], Some(agreed)) => only == agreed,
            _ => false,
        }
    }

    /// "Unknown" is listed: the migrator deems no upgrade or downgrade safe.
    pub fn has_unknown(&self) -> bool {
        self.persisted.iter().any(|h| h == UNKNOWN)
    }
}
