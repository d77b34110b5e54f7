//! [`Text`]: a diagnostic's message or subject, shared rather than copied.
//! A rule reporting the same words for thousands of objects (every object of
//! one removed API) builds them once and hands each finding a reference.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// Immutable text, cheap to clone (a reference count): reads as a `&str`
/// (`Deref`), compares with `str` and `String`, and is built from anything a
/// `String` is. [`Text::push_str`] makes a new text: edits are rare.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text(Arc<str>);

impl Text {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// This text followed by `tail` (a new text: others sharing this one
    /// keep theirs).
    pub fn push_str(&mut self, tail: &str) {
        let mut text = String::with_capacity(self.0.len() + tail.len());
        text.push_str(&self.0);
        text.push_str(tail);
        self.0 = Arc::from(text);
    }
}

impl Default for Text {
    fn default() -> Text {
        Text::from("")
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text(Arc::from(text))
    }
}

impl From<&String> for Text {
    fn from(text: &String) -> Text {
        Text(Arc::from(text.as_str()))
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text(Arc::from(text))
    }
}

impl From<Arc<str>> for Text {
    fn from(text: Arc<str>) -> Text {
        Text(text)
    }
}

impl From<std::borrow::Cow<'_, str>> for Text {
    fn from(text: std::borrow::Cow<'_, str>) -> Text {
        Text(Arc::from(text))
    }
}

impl From<&Text> for Text {
    fn from(text: &Text) -> Text {
        text.clone()
    }
}

impl From<Text> for String {
    fn from(text: Text) -> String {
        text.0.as_ref().to_owned()
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        **self == *other.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_and_edits_do_not() {
        let a = Text::from(format!("removed in {}", "1.25"));
        let mut b = a.clone();
        assert!(std::ptr::eq(a.as_str(), b.as_str()));
        b.push_str("; use policy/v1");
        assert_eq!((a.as_str(), b.as_str()), ("removed in 1.25", "removed in 1.25; use policy/v1"));
    }

    #[test]
    fn compares_and_prints_as_a_string() {
        let t = Text::from("x y");
        let (s, o) = ("x y", "x y".to_owned());
        assert!(t == s, "&str");
        assert!(s == t, "&str");
        assert!(t == o, "String");
        assert!(o == t, "String");
        assert!(t != "x", "a different text");
        assert_eq!((t.to_string(), format!("{t:?}"), t.len()), ("x y".to_owned(), "\"x y\"".to_owned(), 3));
    }
}
