macro_rules! on { ($g:expr) => { $g } }
fn f(g: &Gates) { if on!(g.enabled(Feature::WatchList)) { tracing::info!("{:?}", Feature::Other); } }
fn s(g: &Gates) -> bool { g.enabled_by_name("WatchList").unwrap_or(false) && is_enabled::<u8>("Other") }
