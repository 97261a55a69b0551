//! Preprocessing tokens (C11 6.4): identifiers, pp-numbers, string and character literals,
//! punctuators and single other characters. The lexer only cuts text; it never fails.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Ident,
    Number,
    Str,
    Char,
    Punct,
}

/// A token as a byte range of the text it was cut from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Lexeme {
    pub kind: Kind,
    pub lo: usize,
    pub hi: usize,
    /// Whitespace precedes it (on its line).
    pub space_before: bool,
}

pub(super) const PUNCTUATORS: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
    "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##",
];

pub(super) fn lex(text: &str) -> Vec<Lexeme> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut space_before = false;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            space_before = true;
            i += 1;
            continue;
        }
        let (kind, len) = token_at(text, i);
        out.push(Lexeme {
            kind,
            lo: i,
            hi: i + len,
            space_before,
        });
        space_before = false;
        i += len;
    }
    out
}

/// The kind and byte length of the token starting at `i` (never 0).
pub(super) fn token_at(text: &str, i: usize) -> (Kind, usize) {
    let bytes = text.as_bytes();
    let b = bytes[i];
    let rest = &bytes[i..];
    if b.is_ascii_alphabetic() || b == b'_' {
        let len = rest
            .iter()
            .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
            .unwrap_or(rest.len());
        // L"..." and L'...' are one literal.
        if len == 1 && b == b'L' && matches!(rest.get(1), Some(b'"' | b'\'')) {
            let (kind, lit) = token_at(text, i + 1);
            return (kind, lit + 1);
        }
        return (Kind::Ident, len);
    }
    if b.is_ascii_digit() || (b == b'.' && rest.get(1).is_some_and(u8::is_ascii_digit)) {
        let mut len = 1;
        while len < rest.len() {
            let c = rest[len];
            let exponent_sign =
                matches!(c, b'+' | b'-') && matches!(rest[len - 1], b'e' | b'E' | b'p' | b'P');
            if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || exponent_sign {
                len += 1;
            } else {
                break;
            }
        }
        return (Kind::Number, len);
    }
    if b == b'"' || b == b'\'' {
        let mut len = 1;
        while len < rest.len() && rest[len] != b {
            len += if rest[len] == b'\\' { 2 } else { 1 };
        }
        let kind = if b == b'"' { Kind::Str } else { Kind::Char };
        return (kind, (len + 1).min(rest.len()));
    }
    let punct = PUNCTUATORS
        .iter()
        .find(|p| rest.starts_with(p.as_bytes()))
        .map_or_else(|| char_len(text, i), |p| p.len());
    (Kind::Punct, punct)
}

fn char_len(text: &str, i: usize) -> usize {
    text[i..].chars().next().map_or(1, char::len_utf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str) -> Vec<&str> {
        lex(text).iter().map(|l| &text[l.lo..l.hi]).collect()
    }

    #[test]
    fn cuts_c_tokens() {
        assert_eq!(
            cut("a<<=b ## 1.5e+3x \"s\\\"t\" 'c' $$@ ..."),
            vec![
                "a",
                "<<=",
                "b",
                "##",
                "1.5e+3x",
                "\"s\\\"t\"",
                "'c'",
                "$",
                "$",
                "@",
                "..."
            ]
        );
        assert_eq!(cut("\"open"), vec!["\"open"]);
    }
}
