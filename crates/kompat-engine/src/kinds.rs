//! Kind enums whose variants are their codes: [`kinds!`] declares the enum,
//! its `ALL` and a `const fn code()` that is the variant in kebab-case
//! (`DuplicateSpec` is `duplicate-spec`), built at compile time. The linter
//! gives each kind its rule (severity, summary, doc) with
//! `kompat_diag::declare_rules!`, which checks at compile time that every
//! kind has exactly one rule and that the codes agree.

/// Declares a kind enum with `ALL` (every kind, in declaration order) and
/// `code()` (the variant in kebab-case).
macro_rules! kinds {
    (
        $(#[$meta:meta])*
        $vis:vis enum $kind:ident {
            $( $(#[$vmeta:meta])* $variant:ident, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $kind {
            $( $(#[$vmeta])* $variant, )*
        }

        impl $kind {
            /// Every kind, in declaration order.
            pub const ALL: [$kind; [$(stringify!($variant)),*].len()] = [$($kind::$variant),*];

            /// The stable kebab-case code (the variant in kebab-case), used by
            /// `kompat lint` and its configuration.
            pub const fn code(self) -> &'static str {
                match self {
                    $($kind::$variant => {
                        const NAME: &str = stringify!($variant);
                        const BYTES: [u8; $crate::kinds::kebab_len(NAME)] = $crate::kinds::kebab(NAME);
                        const CODE: &str = match ::core::str::from_utf8(&BYTES) {
                            Ok(code) => code,
                            Err(_) => panic!("an identifier is ASCII"),
                        };
                        CODE
                    })*
                }
            }
        }
    };
}
pub(crate) use kinds;

/// Whether a dash goes before byte `i`: an upper-case letter after a
/// lower-case one or a digit.
const fn boundary(name: &[u8], i: usize) -> bool {
    i > 0 && name[i].is_ascii_uppercase() && (name[i - 1].is_ascii_lowercase() || name[i - 1].is_ascii_digit())
}

/// The length of [`kebab`]'s output.
pub(crate) const fn kebab_len(name: &str) -> usize {
    let name = name.as_bytes();
    let (mut i, mut len) = (0, 0);
    while i < name.len() {
        len += if boundary(name, i) { 2 } else { 1 };
        i += 1;
    }
    len
}

/// An UpperCamelCase `name` in kebab-case.
pub(crate) const fn kebab<const N: usize>(name: &str) -> [u8; N] {
    let name = name.as_bytes();
    let mut out = [0u8; N];
    let (mut i, mut at) = (0, 0);
    while i < name.len() {
        if boundary(name, i) {
            out[at] = b'-';
            at += 1;
        }
        out[at] = name[i].to_ascii_lowercase();
        at += 1;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    kinds! {
        enum Demo {
            BoundsTightened,
            Ga,
            ApiV1Thing,
        }
    }

    #[test]
    fn codes_are_variants_in_kebab_case() {
        let codes: Vec<&str> = Demo::ALL.iter().map(|k| k.code()).collect();
        assert_eq!(codes, ["bounds-tightened", "ga", "api-v1-thing"]);
    }
}
