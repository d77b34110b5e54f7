fn f() { tracing::info!(gate = ?Feature /* c */ ::WatchList); }
