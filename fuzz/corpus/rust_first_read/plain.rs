fn main() { std::io::stdout(); }
