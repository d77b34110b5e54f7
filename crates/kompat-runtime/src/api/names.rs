//! Group/version/kind names, printed the way Kubernetes prints them
//! where they appear in its messages.

use std::fmt;

/// An API group and version. Displays as Go's `schema.GroupVersion.String()`:
/// `apps/v1`, and just `v1` for the core group.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupVersion {
    /// The API group; `""` is the core group.
    pub group: String,
    /// The version, e.g. `v1beta1`.
    pub version: String,
}

impl GroupVersion {
    /// A group-version from its parts.
    pub fn new(group: &str, version: &str) -> GroupVersion {
        GroupVersion { group: group.to_owned(), version: version.to_owned() }
    }

    /// The kind `kind` in this group-version.
    pub fn with_kind(&self, kind: &str) -> GroupVersionKind {
        GroupVersionKind::new(&self.group, &self.version, kind)
    }
}

impl fmt::Display for GroupVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group.is_empty() {
            f.write_str(&self.version)
        } else {
            write!(f, "{}/{}", self.group, self.version)
        }
    }
}

/// A group, version and kind. Displays as `GROUP/VERSION/KIND`, with an empty
/// group for the core group (`/v1/Pod`): the form kompat uses for subjects and
/// the exact input of the storage-version hash.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupVersionKind {
    /// The API group; `""` is the core group.
    pub group: String,
    /// The version, e.g. `v1beta1`.
    pub version: String,
    /// The kind, e.g. `CronJob`.
    pub kind: String,
}

impl GroupVersionKind {
    /// A group/version/kind from its parts.
    pub fn new(group: &str, version: &str, kind: &str) -> GroupVersionKind {
        GroupVersionKind { group: group.to_owned(), version: version.to_owned(), kind: kind.to_owned() }
    }

    /// Splits `GROUP/VERSION/KIND` on `/` into exactly three parts (the group
    /// may be empty); `None` otherwise. No other check is made.
    pub fn split(text: &str) -> Option<GroupVersionKind> {
        let mut parts = text.split('/');
        let (group, version, kind) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        Some(GroupVersionKind::new(group, version, kind))
    }

    /// The group and version without the kind.
    pub fn group_version(&self) -> GroupVersion {
        GroupVersion::new(&self.group, &self.version)
    }
}

impl fmt::Display for GroupVersionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.group, self.version, self.kind)
    }
}
