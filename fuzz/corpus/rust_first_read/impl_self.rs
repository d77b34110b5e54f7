impl Feature {
    fn f() { Self::Other; }
}
