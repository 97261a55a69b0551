//! Tokens: what the lexer produces and the grammar consumes. Keywords and punctuators are
//! closed sets, each with its spelling, so diagnostics can name exactly what was found.

use crate::source::Span;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    Kw(Kw),
    Int {
        value: u64,
        unsigned: bool,
        long: bool,
    },
    Float {
        value: f64,
        single: bool,
    },
    Char(u8),
    Str(Vec<u8>),
    Punct(Punct),
    Eof,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub span: Span,
}

macro_rules! spelled_enum {
    ($(#[$meta:meta])* $name:ident, $table:ident { $($variant:ident = $text:literal),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum $name { $($variant),* }

        /// Every spelling, for tests that go over all of them.
        #[cfg(test)]
        pub(crate) const $table: &[(&str, $name)] = &[$(($text, $name::$variant)),*];

        impl $name {
            pub fn text(self) -> &'static str {
                match self { $($name::$variant => $text),* }
            }

            pub fn from_text(text: &str) -> Option<$name> {
                match text { $($text => Some($name::$variant),)* _ => None }
            }
        }
    };
}

spelled_enum!(
    /// Reserved words: never identifiers.
    Kw, KEYWORDS {
        Sh = "sh", Pr = "pr", Sync = "sync", Async = "async", Straight = "straight",
        Const = "const", Static = "static", Extern = "extern", Typedef = "typedef",
        Unsigned = "unsigned", Signed = "signed", Short = "short", Long = "long",
        Char = "char", Int = "int", Float = "float", Double = "double", Void = "void",
        Struct = "struct", Union = "union", Enum = "enum", If = "if", Else = "else", While = "while", Do = "do",
        For = "for", Switch = "switch", Case = "case", Default = "default", Break = "break",
        Continue = "continue", Return = "return", Goto = "goto", Sizeof = "sizeof",
        Fork = "fork", Start = "start", Farm = "farm", Seq = "seq", Barrier = "barrier",
        Join = "join",
    }
);

spelled_enum!(
    /// Punctuators; the lexer takes the longest spelling that matches (`<<=` before `<<`).
    Punct, PUNCTS {
        Ellipsis = "...", ShlAssign = "<<=", ShrAssign = ">>=",
        DollarDollar = "$$", Arrow = "->", Inc = "++", Dec = "--", Shl = "<<", Shr = ">>",
        Le = "<=", Ge = ">=", EqEq = "==", Ne = "!=", AndAnd = "&&", OrOr = "||",
        AddAssign = "+=", SubAssign = "-=", MulAssign = "*=", DivAssign = "/=",
        RemAssign = "%=", AndAssign = "&=", XorAssign = "^=", OrAssign = "|=",
        LParen = "(", RParen = ")", LBracket = "[", RBracket = "]", LBrace = "{", RBrace = "}",
        Comma = ",", Semi = ";", Colon = ":", Question = "?", Dot = ".",
        Plus = "+", Minus = "-", Star = "*", Slash = "/", Percent = "%", Lt = "<", Gt = ">",
        Assign = "=", Not = "!", Tilde = "~", Amp = "&", Caret = "^", Pipe = "|",
        Dollar = "$", At = "@",
    }
);
