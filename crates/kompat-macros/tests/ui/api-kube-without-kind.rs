//! Without a kind in `#[kube(...)]` there is no plural to derive: `resource`
//! is still missing (kube-derive reports its own missing `kind`).

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kube(group = "widgets.example.io", version = "v1beta1")]
#[kompat(api(introduced = "1.32"))]
struct WidgetSpec;

fn main() {}
