//! Declaration formats.
