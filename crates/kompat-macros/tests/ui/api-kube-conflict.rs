//! `api(...)` may repeat what `#[kube(...)]` says, but not contradict it.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kube(group = "widgets.example.io", version = "v1beta1", kind = "Widget", plural = "widgets", namespaced)]
#[kompat(api(group = "widgets.example.io", version = "v1", kind = "Gadget", resource = "widgets", introduced = "1.32"))]
struct WidgetSpec;

fn main() {}
