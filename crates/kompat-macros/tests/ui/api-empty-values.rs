//! Empty version, kind and resource: the core's messages, each at its literal.

use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "", kind = "", resource = "", introduced = "1.8"))]
struct CronJob;

fn main() {}
