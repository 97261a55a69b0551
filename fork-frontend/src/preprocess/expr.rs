//! `#if` expressions: C's integer constant expressions, evaluated in 64-bit signed arithmetic
//! (wrapping), after `defined` and macros are replaced and other identifiers became 0.
//! Division by zero is an error only where the operand is evaluated (`0 && 1/0` is fine).

use super::codes;
use super::lexer::Kind;
use super::token::Token;
use crate::diag::Diagnostic;
use crate::source::Span;

/// Evaluates the expanded tokens of an `#if`/`#elif`; `directive` is the directive's span,
/// for an empty or truncated expression.
pub(super) fn evaluate(tokens: &[Token], directive: Span) -> Result<i64, Diagnostic> {
    let mut parser = Parser {
        tokens,
        pos: 0,
        directive,
        depth: 0,
    };
    if tokens.is_empty() {
        return Err(parser.bad(
            directive,
            "`#if` without a condition",
            "condition expected after this",
        ));
    }
    let value = parser.conditional(true)?;
    match tokens.get(parser.pos) {
        None => Ok(value),
        Some(extra) => Err(parser.bad(
            extra.at,
            format!("unexpected `{}` in `#if` expression", extra.text),
            "the expression should end before this",
        )),
    }
}

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    directive: Span,
    /// Open parentheses and unary operators, bounded so that the recursion is.
    depth: usize,
}

/// How deeply an `#if` expression may nest.
const MAX_DEPTH: usize = 64;

/// Binary operators by precedence level, loosest first.
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["|"],
    &["^"],
    &["&"],
    &["==", "!="],
    &["<", ">", "<=", ">="],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Parser<'_> {
    fn bad(&self, at: Span, message: impl Into<String>, label: &str) -> Diagnostic {
        Diagnostic::error(&codes::BAD_IF_EXPRESSION, at, message)
            .with_label(label)
            .with_help("an `#if` condition is an integer constant expression: numbers, `defined(NAME)`, macros and C operators")
    }

    fn peek_is(&self, punct: &str) -> bool {
        self.tokens.get(self.pos).is_some_and(|t| t.is(punct))
    }

    /// Where an operand is missing: the token there, or the end of the directive.
    fn missing_at(&self) -> Span {
        match (self.tokens.get(self.pos), self.tokens.last()) {
            (Some(t), _) => t.at,
            (None, Some(last)) => Span {
                lo: last.at.hi,
                hi: last.at.hi,
            },
            (None, None) => self.directive,
        }
    }

    fn conditional(&mut self, live: bool) -> Result<i64, Diagnostic> {
        let cond = self.binary(0, live)?;
        if !self.peek_is("?") {
            return Ok(cond);
        }
        self.pos += 1;
        let then = self.conditional(live && cond != 0)?;
        if !self.peek_is(":") {
            return Err(self.bad(
                self.missing_at(),
                "expected `:` in `?:`",
                "`:` expected here",
            ));
        }
        self.pos += 1;
        let otherwise = self.conditional(live && cond == 0)?;
        Ok(if cond != 0 { then } else { otherwise })
    }

    fn binary(&mut self, level: usize, live: bool) -> Result<i64, Diagnostic> {
        let Some(ops) = LEVELS.get(level) else {
            return self.unary(live);
        };
        let mut lhs = self.binary(level + 1, live)?;
        while let Some(op) = self
            .tokens
            .get(self.pos)
            .filter(|t| t.kind == Kind::Punct && ops.contains(&&*t.text))
        {
            self.pos += 1;
            let rhs_live = match &*op.text {
                "&&" => live && lhs != 0,
                "||" => live && lhs == 0,
                _ => live,
            };
            let rhs = self.binary(level + 1, rhs_live)?;
            lhs = self.apply(op, lhs, rhs, rhs_live)?;
        }
        Ok(lhs)
    }

    fn apply(&self, op: &Token, a: i64, b: i64, live: bool) -> Result<i64, Diagnostic> {
        let bool_value = |c: bool| i64::from(c);
        Ok(match &*op.text {
            "||" => bool_value(a != 0 || b != 0),
            "&&" => bool_value(a != 0 && b != 0),
            "|" => a | b,
            "^" => a ^ b,
            "&" => a & b,
            "==" => bool_value(a == b),
            "!=" => bool_value(a != b),
            "<" => bool_value(a < b),
            ">" => bool_value(a > b),
            "<=" => bool_value(a <= b),
            ">=" => bool_value(a >= b),
            "<<" | ">>" if !(0..64).contains(&b) => {
                if !live {
                    return Ok(0);
                }
                return Err(self.bad(
                    op.at,
                    format!("shift by {b} in `#if` expression"),
                    "shift count must be 0..63",
                ));
            }
            "<<" => a.wrapping_shl(b as u32),
            ">>" => a.wrapping_shr(b as u32),
            "+" => a.wrapping_add(b),
            "-" => a.wrapping_sub(b),
            "*" => a.wrapping_mul(b),
            "/" | "%" if b == 0 => {
                if !live {
                    return Ok(0);
                }
                return Err(Diagnostic::error(&codes::DIVISION_BY_ZERO, op.at, "division by zero in `#if` expression")
                    .with_label("the right operand is 0 here")
                    .with_help("an undefined macro counts as 0: define it (e.g. with -D) or guard the division with `defined(NAME) &&`"));
            }
            "/" => a.wrapping_div(b),
            _ => a.wrapping_rem(b),
        })
    }

    fn unary(&mut self, live: bool) -> Result<i64, Diagnostic> {
        let Some(tok) = self.tokens.get(self.pos) else {
            return Err(self.bad(
                self.missing_at(),
                "`#if` expression ends early",
                "an operand is expected here",
            ));
        };
        self.pos += 1;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.bad(
                tok.at,
                format!("`#if` expression nested more than {MAX_DEPTH} deep"),
                "too deep here",
            ));
        }
        let value = self.operand(tok, live);
        self.depth -= 1;
        value
    }

    /// A unary operator with its operand, a parenthesized expression or a constant.
    fn operand(&mut self, tok: &Token, live: bool) -> Result<i64, Diagnostic> {
        match tok.kind {
            Kind::Punct => match &*tok.text {
                "+" => self.unary(live),
                "-" => Ok(self.unary(live)?.wrapping_neg()),
                "~" => Ok(!self.unary(live)?),
                "!" => Ok(i64::from(self.unary(live)? == 0)),
                "(" => {
                    let value = self.conditional(live)?;
                    if !self.peek_is(")") {
                        return Err(self.bad(
                            self.missing_at(),
                            "expected `)` in `#if` expression",
                            "`)` expected here",
                        ));
                    }
                    self.pos += 1;
                    Ok(value)
                }
                _ => Err(self.bad(
                    tok.at,
                    format!("unexpected `{}` in `#if` expression", tok.text),
                    "an operand is expected here",
                )),
            },
            // Identifiers left after macro expansion count as 0, as in C.
            Kind::Ident => Ok(0),
            Kind::Number => integer(&tok.text).ok_or_else(|| {
                self.bad(
                    tok.at,
                    format!("`{}` is not an integer constant", tok.text),
                    "only integer constants are allowed in `#if`",
                )
            }),
            Kind::Char => character(&tok.text).ok_or_else(|| {
                self.bad(
                    tok.at,
                    format!("`{}` is not a valid character constant", tok.text),
                    "not a single character",
                )
            }),
            Kind::Str => Err(self.bad(
                tok.at,
                "a string cannot appear in an `#if` expression",
                "string here",
            )),
        }
    }
}

/// A C integer constant: decimal, `0x` hex or `0` octal, with optional `u`/`l` suffixes.
fn integer(text: &str) -> Option<i64> {
    let digits = text.trim_end_matches(['u', 'U', 'l', 'L']);
    let (radix, digits) = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        (16, hex)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    // Values up to u64::MAX are allowed and wrap, like C's unsigned constants.
    u64::from_str_radix(digits, radix).ok().map(|v| v as i64)
}

/// A character constant: one character or one escape sequence.
fn character(text: &str) -> Option<i64> {
    let inner = text
        .strip_prefix('L')
        .unwrap_or(text)
        .strip_prefix('\'')?
        .strip_suffix('\'')?;
    let mut chars = inner.chars();
    let first = chars.next()?;
    let value = if first != '\\' {
        first as i64
    } else {
        let rest = chars.as_str();
        let value = match rest {
            "n" => 10,
            "t" => 9,
            "r" => 13,
            "a" => 7,
            "b" => 8,
            "f" => 12,
            "v" => 11,
            "\\" | "'" | "\"" | "?" => rest.chars().next()? as i64,
            _ if rest.starts_with('x') => i64::from_str_radix(&rest[1..], 16).ok()?,
            _ => i64::from_str_radix(rest, 8).ok()?,
        };
        return Some(value);
    };
    chars.next().is_none().then_some(value)
}
