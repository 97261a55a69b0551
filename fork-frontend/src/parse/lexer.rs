//! The token-level pre-pass (nom): preprocessed text → tokens with byte spans. Lexing errors
//! are reported and lexing goes on, so the grammar sees a usable token stream.

use super::codes::{E0101, E0102, E0103, E0104, E0112};
use super::token::{Kw, Punct, Tok, Token};
use crate::diag::{Code, Diagnostic};
use crate::source::Span;
use nom::branch::alt;
use nom::bytes::complete::{take_while, take_while1, take_while_m_n};
use nom::character::complete::{char, digit1, one_of, satisfy};
use nom::combinator::{opt, recognize};
use nom::multi::many0_count;
use nom::sequence::pair;
use nom::IResult;

/// Tokens of `text`, ending with `Tok::Eof`, and the lexing errors.
pub(crate) fn lex(text: &str) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut lexer = Lexer {
        text,
        tokens: Vec::new(),
        diags: Vec::new(),
    };
    lexer.run();
    (lexer.tokens, lexer.diags)
}

struct Lexer<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    diags: Vec<Diagnostic>,
}

impl<'a> Lexer<'a> {
    fn run(&mut self) {
        let mut rest = self.text;
        loop {
            rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '\x0b');
            let lo = self.offset(rest);
            let Some(first) = rest.chars().next() else {
                self.push(Tok::Eof, lo, lo);
                return;
            };
            let (after, tok) = if let Ok((after, word)) = identifier(rest) {
                if !word.is_ascii() {
                    self.error(
                        &E0101,
                        lo,
                        lo + word.len(),
                        format!("identifier `{word}` contains non-ASCII characters"),
                        "names are written with ASCII letters, digits and `_`",
                    );
                }
                let tok = Kw::from_text(word).map_or_else(|| Tok::Ident(word.to_string()), Tok::Kw);
                (after, Some(tok))
            } else if let Ok((after, number)) = pp_number(rest) {
                (after, Some(self.number(number, lo)))
            } else if first == '"' || first == '\'' {
                let (after, tok) = self.quoted(rest, first, lo);
                (after, tok)
            } else if let Some((len, punct)) = longest_punct(rest) {
                (&rest[len..], Some(Tok::Punct(punct)))
            } else {
                (self.invalid_text(rest, lo), None)
            };
            if let Some(tok) = tok {
                let hi = self.offset(after);
                self.push(tok, lo, hi);
            }
            rest = after;
        }
    }

    /// Reports text that starts no token: one ASCII character, or a whole run of non-ASCII
    /// characters (one error for `→→`, not one per character). Returns the rest.
    fn invalid_text(&mut self, rest: &'a str, lo: usize) -> &'a str {
        let len = match rest.chars().next() {
            Some(c) if c.is_ascii() => 1,
            _ => rest.find(|c: char| c.is_ascii()).unwrap_or(rest.len()),
        };
        let bad = &rest[..len];
        let shown: String = match bad.is_ascii() {
            true => bad.escape_default().collect(),
            false => bad.to_string(),
        };
        self.error(
            &E0101,
            lo,
            lo + len,
            format!("invalid character `{shown}` in the source"),
            "remove it; only string and character literals may hold other characters",
        );
        &rest[len..]
    }

    fn offset(&self, rest: &str) -> usize {
        self.text.len() - rest.len()
    }

    fn push(&mut self, tok: Tok, lo: usize, hi: usize) {
        self.tokens.push(Token {
            tok,
            span: Span::new(lo, hi),
        });
    }

    fn error(&mut self, code: &'static Code, lo: usize, hi: usize, message: String, help: &str) {
        self.diags.push(
            Diagnostic::error(code, Span::new(lo, hi), message)
                .with_label("here")
                .with_help(help),
        );
    }

    /// Decodes a pp-number (C's maximal munch of number-like text) into a literal token.
    fn number(&mut self, text: &str, lo: usize) -> Tok {
        let hi = lo + text.len();
        match decode_number(text) {
            Ok(tok) => tok,
            Err(NumberError::TooLarge) => {
                self.error(
                    &E0112,
                    lo,
                    hi,
                    format!("integer literal `{text}` does not fit in 64 bits"),
                    "use a smaller constant",
                );
                Tok::Int {
                    value: 0,
                    unsigned: false,
                    long: false,
                }
            }
            Err(NumberError::Malformed(why)) => {
                self.error(
                    &E0102,
                    lo,
                    hi,
                    format!("malformed number literal `{text}`: {why}"),
                    "write a decimal (`42`), octal (`052`), hex (`0x2A`) or floating (`1.5`, `1e9`) literal",
                );
                Tok::Int {
                    value: 0,
                    unsigned: false,
                    long: false,
                }
            }
        }
    }

    /// A string (`quote` is `"`) or character (`'`) literal starting at `rest`. Errors are
    /// reported here; an unterminated literal ends at the end of its line.
    fn quoted(&mut self, rest: &'a str, quote: char, lo: usize) -> (&'a str, Option<Tok>) {
        let mut bytes = Vec::new();
        let mut body = &rest[1..];
        loop {
            let item_lo = self.offset(body);
            match body.chars().next() {
                Some(c) if c == quote => {
                    body = &body[1..];
                    break;
                }
                None | Some('\n') => {
                    let what = if quote == '"' { "string" } else { "character" };
                    self.error(
                        &E0103,
                        lo,
                        item_lo,
                        format!("unterminated {what} literal"),
                        &format!("add the closing `{quote}` before the end of the line"),
                    );
                    // Keep the literal, so the parser does not report its absence as well.
                    let tok = if quote == '"' {
                        Tok::Str(bytes)
                    } else {
                        Tok::Char(0)
                    };
                    return (body, Some(tok));
                }
                Some('\\') => match escape(body) {
                    Ok((after, value)) => {
                        let len = body.len() - after.len();
                        if value > 0xFF {
                            self.error(
                                &E0104,
                                item_lo,
                                item_lo + len,
                                format!("escape `{}` is out of range for a byte", &body[..len]),
                                "use at most `\\xff` or `\\377`",
                            );
                        }
                        bytes.push(value as u8);
                        body = after;
                    }
                    Err(_) => {
                        let bad = body[1..].chars().next().map_or(1, |c| 1 + c.len_utf8());
                        self.error(
                            &E0104,
                            item_lo,
                            item_lo + bad,
                            format!("unknown escape sequence `{}`", &body[..bad]),
                            "use one of C's escapes (`\\n`, `\\t`, `\\\\`, `\\x41`, `\\101`), or write `\\\\` for a backslash",
                        );
                        body = &body[bad..];
                    }
                },
                Some(c) => {
                    let mut buf = [0u8; 4];
                    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    body = &body[c.len_utf8()..];
                }
            }
        }
        if quote == '"' {
            return (body, Some(Tok::Str(bytes)));
        }
        match bytes[..] {
            [byte] => (body, Some(Tok::Char(byte))),
            _ => {
                let hi = self.offset(body);
                self.error(
                    &E0104,
                    lo,
                    hi,
                    format!(
                        "a character literal holds exactly one byte, this one holds {}",
                        bytes.len()
                    ),
                    "write one character (`'a'`), or use a string literal (`\"ab\"`)",
                );
                (body, Some(Tok::Char(0)))
            }
        }
    }
}

/// The longest punctuator (at most 3 characters) at the start of `input`, with its length.
fn longest_punct(input: &str) -> Option<(usize, Punct)> {
    (1..=3)
        .rev()
        .find_map(|len| Some((len, Punct::from_text(input.get(..len)?)?)))
}

/// An identifier or keyword. Non-ASCII letters are taken in too (and reported by the caller),
/// so a name like `größe` is one bad name, not a cascade of errors.
fn identifier(input: &str) -> IResult<&str, &str> {
    recognize(pair(
        satisfy(|c| c.is_alphabetic() || c == '_'),
        take_while(|c: char| c.is_alphanumeric() || c == '_'),
    ))(input)
}

/// C's preprocessing number: a digit (or `.digit`) followed by letters, digits, `_`, `.` and
/// signed exponents. Decoding it afterwards gives precise errors for `09`, `1.2.3`, `12abc`.
fn pp_number(input: &str) -> IResult<&str, &str> {
    recognize(pair(
        alt((digit1, recognize(pair(char('.'), digit1)))),
        many0_count(alt((
            recognize(pair(one_of("eEpP"), one_of("+-"))),
            recognize(satisfy(|c| {
                c.is_ascii_alphanumeric() || c == '_' || c == '.'
            })),
        ))),
    ))(input)
}

/// One backslash escape (the input starts at `\`) → its value, which the caller checks
/// fits in a byte (C takes every hex digit: `\x41B` is one, out-of-range, escape).
fn escape(input: &str) -> IResult<&str, u32> {
    let (rest, _) = char('\\')(input)?;
    alt((
        |i| {
            let (i, digits) = take_while_m_n(1, 3, |c: char| ('0'..='7').contains(&c))(i)?;
            Ok((i, u32::from_str_radix(digits, 8).unwrap_or(u32::MAX)))
        },
        |i| {
            let (i, _) = char('x')(i)?;
            let (i, digits) = take_while1(|c: char| c.is_ascii_hexdigit())(i)?;
            Ok((i, u32::from_str_radix(digits, 16).unwrap_or(u32::MAX)))
        },
        |i| {
            let (i, c) = one_of("ntr\\'\"?abfv")(i)?;
            let value = match c {
                'n' => b'\n',
                't' => b'\t',
                'r' => b'\r',
                'a' => 0x07,
                'b' => 0x08,
                'f' => 0x0c,
                'v' => 0x0b,
                other => other as u8,
            };
            Ok((i, u32::from(value)))
        },
    ))(rest)
}

enum NumberError {
    TooLarge,
    Malformed(&'static str),
}

fn decode_number(text: &str) -> Result<Tok, NumberError> {
    let hex = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"));
    if let Some(hex) = hex {
        let digits_end = hex
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(hex.len());
        if digits_end == 0 {
            return Err(NumberError::Malformed("no digits after `0x`"));
        }
        let value =
            u64::from_str_radix(&hex[..digits_end], 16).map_err(|_| NumberError::TooLarge)?;
        return int_with_suffix(value, &hex[digits_end..]);
    }
    let is_float = text.contains('.') || text.contains(['e', 'E']);
    if is_float {
        return decode_float(text);
    }
    let digits_end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let digits = &text[..digits_end];
    let value = if digits.len() > 1 && digits.starts_with('0') {
        if digits.contains(['8', '9']) {
            return Err(NumberError::Malformed(
                "octal literals use only the digits 0-7",
            ));
        }
        u64::from_str_radix(digits, 8)
    } else {
        digits.parse::<u64>()
    }
    .map_err(|_| NumberError::TooLarge)?;
    int_with_suffix(value, &text[digits_end..])
}

fn int_with_suffix(value: u64, suffix: &str) -> Result<Tok, NumberError> {
    let lower = suffix.to_ascii_lowercase();
    let (unsigned, long) = match lower.as_str() {
        "" => (false, false),
        "u" => (true, false),
        "l" | "ll" => (false, true),
        "ul" | "lu" | "ull" | "llu" => (true, true),
        _ => {
            return Err(NumberError::Malformed(
                "unknown suffix (use u, l, ul or ll)",
            ))
        }
    };
    Ok(Tok::Int {
        value,
        unsigned,
        long,
    })
}

/// `1.5`, `1.`, `.5`, `1e9`, `1.5e-3`, with an optional `f`/`F` (single) or `l`/`L` suffix.
fn decode_float(text: &str) -> Result<Tok, NumberError> {
    let (body, single) = match text.as_bytes().last() {
        Some(b'f' | b'F') => (&text[..text.len() - 1], true),
        Some(b'l' | b'L') => (&text[..text.len() - 1], false),
        _ => (text, false),
    };
    let well_formed = float_body(body).is_ok_and(|(rest, _)| rest.is_empty());
    if !well_formed {
        return Err(NumberError::Malformed(
            "expected digits, one `.`, an optional exponent (`e-3`) and an optional `f` suffix",
        ));
    }
    body.parse::<f64>()
        .map(|value| Tok::Float { value, single })
        .map_err(|_| NumberError::Malformed("not a floating constant"))
}

fn float_body(input: &str) -> IResult<&str, &str> {
    let fraction = alt((
        recognize(pair(digit1, pair(char('.'), opt(digit1)))),
        recognize(pair(char('.'), digit1)),
    ));
    let exponent = recognize(pair(one_of("eE"), pair(opt(one_of("+-")), digit1)));
    alt((
        recognize(pair(fraction, opt(exponent))),
        recognize(pair(
            digit1,
            recognize(pair(one_of("eE"), pair(opt(one_of("+-")), digit1))),
        )),
    ))(input)
}
