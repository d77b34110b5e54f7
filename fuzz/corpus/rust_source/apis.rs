//! The API types of "widgetd", the demo control plane, declared in Rust with
//! `#[derive(ApiLifecycle)]`: the same API versions as `fixtures/apis.toml`.
//! Version priority and storage pins, which are not about one type, are in
//! `../storage.toml`.
//!
//! `kompat apis --decls fixtures/rust ...` reads these declarations from
//! source; the workspace test crate compiles this file, so the derive and
//! the reader are checked against each other.

use kompat::ApiLifecycle;

/// The core group (`group = ""`).
pub mod core_v1 {
    use super::ApiLifecycle;

    #[derive(ApiLifecycle)]
    #[kompat(api(group = "", version = "v1", resource = "configmaps", introduced = "1.0"))]
    pub struct ConfigMap;

    #[derive(ApiLifecycle)]
    #[kompat(api(group = "", version = "v1", resource = "events", introduced = "1.0"))]
    pub struct Event;
}

/// widgets.example.io: Widget went v1alpha1 -> v1beta1 -> v1.
pub mod widgets {
    pub mod v1alpha1 {
        use kompat::ApiLifecycle;

        /// Deprecated in 1.33 and removed in 1.36, by default.
        #[derive(ApiLifecycle)]
        #[kompat(api(
            group = "widgets.example.io",
            version = "v1alpha1",
            resource = "widgets",
            introduced = "1.30",
            replacement = "widgets.example.io/v1beta1/Widget"
        ))]
        pub struct Widget;
    }

    pub mod v1beta1 {
        use kompat::ApiLifecycle;

        /// Removed in 1.38, by default.
        #[derive(ApiLifecycle)]
        #[kompat(api(
            group = "widgets.example.io",
            version = "v1beta1",
            resource = "widgets",
            introduced = "1.32",
            deprecated = "1.35",
            replacement = "widgets.example.io/v1/Widget"
        ))]
        pub struct Widget;
    }

    pub mod v1 {
        use kompat::ApiLifecycle;

        #[derive(ApiLifecycle)]
        #[kompat(api(group = "widgets.example.io", version = "v1", resource = "widgets", introduced = "1.35"))]
        pub struct Widget;
    }

    pub mod v1beta1_pools {
        use kompat::ApiLifecycle;

        /// A brand-new beta.
        #[derive(ApiLifecycle)]
        #[kompat(api(
            group = "widgets.example.io",
            version = "v1beta1",
            resource = "widgetpools",
            introduced = "1.37"
        ))]
        pub struct WidgetPool;
    }

    pub mod v1alpha1_classes {
        use kompat::ApiLifecycle;

        /// An alpha-only kind.
        #[derive(ApiLifecycle)]
        #[kompat(api(
            group = "widgets.example.io",
            version = "v1alpha1",
            resource = "widgetclasses",
            introduced = "1.36"
        ))]
        pub struct WidgetClass;
    }

    /// A kind whose storage is pinned (see `../storage.toml`); the type
    /// names differ from the kind, which is then written out.
    pub mod policies {
        use kompat::ApiLifecycle;

        #[derive(ApiLifecycle)]
        #[kompat(api(
            group = "widgets.example.io",
            version = "v1alpha1",
            kind = "WidgetPolicy",
            resource = "widgetpolicies",
            introduced = "1.33"
        ))]
        pub struct WidgetPolicyV1alpha1;

        #[derive(ApiLifecycle)]
        #[kompat(api(
            group = "widgets.example.io",
            version = "v1beta1",
            kind = "WidgetPolicy",
            resource = "widgetpolicies",
            introduced = "1.35"
        ))]
        pub struct WidgetPolicyV1beta1;
    }
}

/// gadgets.example.io: a beta from before beta-off-by-default, now removed.
pub mod gadgets {
    use kompat::ApiLifecycle;

    #[derive(ApiLifecycle)]
    #[kompat(api(
        group = "gadgets.example.io",
        version = "v1beta1",
        kind = "Gadget",
        resource = "gadgets",
        introduced = "1.20",
        deprecated = "1.30",
        removed = "1.33",
        replacement = "gadgets.example.io/v1/Gadget",
        enabled_by_default = true
    ))]
    pub struct GadgetV1beta1 {
        pub size: u32,
    }

    #[derive(ApiLifecycle)]
    #[kompat(api(
        group = "gadgets.example.io",
        version = "v1",
        kind = "Gadget",
        resource = "gadgets",
        introduced = "1.29"
    ))]
    pub struct GadgetV1 {
        pub size: u64,
    }
}

/// scheduling.example.io: v2 is served but v1 stays preferred (and stored)
/// until v2 has settled.
pub mod scheduling {
    use kompat::ApiLifecycle;

    #[derive(ApiLifecycle)]
    #[kompat(api(
        group = "scheduling.example.io",
        version = "v1",
        kind = "Queue",
        resource = "queues",
        introduced = "1.31"
    ))]
    pub enum QueueV1 {
        Fifo,
        Priority(u8),
    }

    #[derive(ApiLifecycle)]
    #[kompat(api(
        group = "scheduling.example.io",
        version = "v2",
        kind = "Queue",
        resource = "queues",
        introduced = "1.36"
    ))]
    pub struct QueueV2<T> {
        pub policy: T,
    }
}

/// Every declaration, in the order of `fixtures/apis.toml`: the registry a
/// program builds its `ApiSet` from at run time.
pub fn entries() -> Vec<kompat::ApiEntry> {
    vec![
        core_v1::ConfigMap::API,
        core_v1::Event::API,
        widgets::v1alpha1::Widget::API,
        widgets::v1beta1::Widget::API,
        widgets::v1::Widget::API,
        widgets::v1beta1_pools::WidgetPool::API,
        widgets::v1alpha1_classes::WidgetClass::API,
        widgets::policies::WidgetPolicyV1alpha1::API,
        widgets::policies::WidgetPolicyV1beta1::API,
        gadgets::GadgetV1beta1::API,
        gadgets::GadgetV1::API,
        scheduling::QueueV1::API,
        <scheduling::QueueV2<()> as ApiLifecycle>::API,
    ]
}
