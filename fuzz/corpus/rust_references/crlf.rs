use crate::gates::Feature;
fn f() {
    Feature::WatchList;
}
