//! The parser: preprocessed text → `ast::TranslationUnit`.
//!
//! Two stages: `lexer` (nom) turns the text into tokens with byte spans; the grammar modules
//! (`decl`, `stmt`, `expr`) are a recursive-descent parser over those tokens. A token stream
//! makes C's "lexer hack" (typedef names change how `(T)*x` and `T *p;` parse) a lookup in
//! `scopes`, needs no backtracking (every choice is made on one or two tokens, so parsing is
//! linear), and lets `recover` resynchronise on `;` and `}` after an error.

mod codes;
mod decl;
mod expr;
mod lexer;
mod recover;
mod stmt;
mod token;

#[cfg(test)]
mod tests;

pub use codes::CODES;

use crate::ast::TranslationUnit;
use crate::diag::{Code, Diagnostic};
use crate::source::Span;
use std::collections::HashMap;
use token::{Kw, Punct, Tok, Token};

/// Parses a whole translation unit, recovering after syntax errors so one run reports several.
pub fn parse(text: &str) -> (TranslationUnit, Vec<Diagnostic>) {
    let (tokens, lex_diags) = lexer::lex(text);
    // The lexer's and the parser's errors are capped together, in source order, at the end.
    let mut parser = Parser {
        text,
        tokens,
        pos: 0,
        diags: Vec::new(),
        scopes: vec![HashMap::new()],
        depth: 0,
        abandoned: false,
        stopped_at: None,
    };
    let unit = parser.translation_unit();
    let mut diags = lex_diags;
    diags.extend(parser.diags);
    (unit, cap_errors(diags, parser.stopped_at))
}

/// Sorts by position and keeps the first `MAX_ERRORS`, then says where reporting stopped
/// (the first dropped diagnostic, or where the parser gave up).
fn cap_errors(mut diags: Vec<Diagnostic>, stopped_at: Option<Span>) -> Vec<Diagnostic> {
    diags.sort_by_key(|d| d.span.lo);
    let dropped_at = diags.get(MAX_ERRORS).map(|d| d.span);
    let cut = match (dropped_at, stopped_at) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    if let Some(span) = cut {
        diags.truncate(MAX_ERRORS);
        diags.push(
            Diagnostic::error(
                &codes::E0106,
                span,
                format!("too many syntax errors ({MAX_ERRORS}); stopped reporting here"),
            )
            .with_label("reporting stopped here")
            .with_help("fix the first errors and run again"),
        );
    }
    diags
}

/// More errors than this are mostly consequences of the first ones.
const MAX_ERRORS: usize = 50;
/// Nesting deeper than this is reported instead of risking a stack overflow.
const MAX_DEPTH: usize = 256;

/// An error was reported (as a diagnostic); the caller recovers.
#[derive(Debug)]
pub(crate) struct Reported;

pub(crate) type PResult<T> = Result<T, Reported>;

pub(crate) struct Parser<'a> {
    text: &'a str,
    /// Always ends with `Tok::Eof`; `pos` never moves past it.
    tokens: Vec<Token>,
    pos: usize,
    diags: Vec<Diagnostic>,
    /// Ordinary identifiers in scope, innermost last: `true` for typedef names.
    scopes: Vec<HashMap<String, bool>>,
    depth: usize,
    /// Set when parsing gave up (too many errors, too deep): nothing more is reported.
    abandoned: bool,
    /// Where the parser stopped because it had reported `MAX_ERRORS` errors.
    stopped_at: Option<Span>,
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.tokens[self.pos].tok
    }

    fn peek_at(&self, ahead: usize) -> &Tok {
        let last = self.tokens.len() - 1;
        &self.tokens[(self.pos + ahead).min(last)].tok
    }

    fn span(&self) -> Span {
        self.tokens[self.pos].span
    }

    /// Where the current construct started (the current token).
    fn lo(&self) -> u32 {
        self.span().lo
    }

    /// The span from `lo` to the end of the last consumed token.
    fn span_from(&self, lo: u32) -> Span {
        let hi = match self.pos {
            0 => lo,
            pos => self.tokens[pos - 1].span.hi.max(lo),
        };
        Span { lo, hi }
    }

    fn at_eof(&self) -> bool {
        matches!(self.peek(), Tok::Eof)
    }

    fn bump(&mut self) -> Span {
        let span = self.span();
        if !self.at_eof() {
            self.pos += 1;
        }
        span
    }

    fn is(&self, p: Punct) -> bool {
        *self.peek() == Tok::Punct(p)
    }

    fn is_kw(&self, kw: Kw) -> bool {
        *self.peek() == Tok::Kw(kw)
    }

    fn eat(&mut self, p: Punct) -> bool {
        let found = self.is(p);
        if found {
            self.bump();
        }
        found
    }

    fn eat_kw(&mut self, kw: Kw) -> bool {
        let found = self.is_kw(kw);
        if found {
            self.bump();
        }
        found
    }

    /// Consumes `p` or reports "expected `p` {context}, found ...". For a missing `;` a note
    /// also marks the token it belongs after.
    fn expect(&mut self, p: Punct, context: &str) -> PResult<Span> {
        if self.is(p) {
            return Ok(self.bump());
        }
        let mut diag = self.found_diag(
            if p == Punct::Semi {
                &codes::E0107
            } else {
                &codes::E0100
            },
            &format!("expected `{}` {context}", p.text()),
        );
        diag = match (p, self.pos) {
            (Punct::Semi, 1..) => diag
                .with_note(self.tokens[self.pos - 1].span, "`;` belongs after this")
                .with_help(format!("add `;` {context}")),
            _ => diag.with_help(format!("insert `{}` here", p.text())),
        };
        Err(self.report(diag))
    }

    /// Consumes the `)`/`]`/`}` matching the opener at `open`, or reports it unclosed.
    fn expect_closing(&mut self, close: Punct, open: Span, context: &str) -> PResult<Span> {
        if self.is(close) {
            return Ok(self.bump());
        }
        let found = self.describe_current();
        let open_text = &self.text[open.lo as usize..open.hi as usize];
        let diag = Diagnostic::error(
            &codes::E0108,
            self.span(),
            format!("expected `{}` {context}, found {found}", close.text()),
        )
        .with_label(format!("expected `{}`", close.text()))
        .with_note(open, format!("this `{open_text}` is not closed"))
        .with_help(format!(
            "add `{}` to close the `{open_text}`, or remove the extra tokens before it",
            close.text()
        ));
        Err(self.report(diag))
    }

    /// The `)` after an item of a parenthesised list (`item` names the items). A token that
    /// cannot continue the list (`;`, a brace, the end) means the `(` is unclosed; anything
    /// else is reported as a missing `,`.
    fn close_list(&mut self, open: Span, item: &str) -> PResult<Span> {
        let unclosed = matches!(
            self.peek(),
            Tok::Eof
                | Tok::Punct(
                    Punct::RParen | Punct::Semi | Punct::LBrace | Punct::RBrace | Punct::RBracket
                )
        );
        if unclosed {
            return self.expect_closing(Punct::RParen, open, &format!("after the {item}s"));
        }
        let diag = self
            .found_diag(
                &codes::E0100,
                &format!("expected `,` or `)` after the {item}"),
            )
            .with_help(format!(
                "separate the {item}s with `,` and close the list with `)`"
            ));
        Err(self.report(diag))
    }

    /// "{what}, found <current token>" at the current token, labelled; not yet reported.
    fn found_diag(&self, code: &'static Code, what: &str) -> Diagnostic {
        let found = self.describe_current();
        Diagnostic::error(code, self.span(), format!("{what}, found {found}"))
            .with_label(format!("unexpected {found}"))
    }

    /// Records a diagnostic; at `MAX_ERRORS` of its own, the parser stops (see `cap_errors`).
    fn report(&mut self, diag: Diagnostic) -> Reported {
        if self.abandoned {
            return Reported;
        }
        if self.diags.len() < MAX_ERRORS {
            self.diags.push(diag);
        } else {
            self.stopped_at = Some(diag.span);
            self.abandon();
        }
        Reported
    }

    /// The current token as messages name it: "`;`", "identifier `x`", "end of input".
    fn describe_current(&self) -> String {
        let token = &self.tokens[self.pos];
        let text = &self.text[token.span.lo as usize..token.span.hi as usize];
        match &token.tok {
            Tok::Eof => "end of input".to_string(),
            Tok::Ident(name) => format!("identifier `{name}`"),
            Tok::Kw(kw) => format!("keyword `{}`", kw.text()),
            Tok::Punct(p) => format!("`{}`", p.text()),
            Tok::Int { .. } | Tok::Float { .. } => format!("number `{text}`"),
            Tok::Char(_) => format!("character literal `{text}`"),
            Tok::Str(_) => "string literal".to_string(),
        }
    }

    /// Enters one level of nesting; past `MAX_DEPTH`, reports and abandons the input.
    fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            let diag = Diagnostic::error(
                &codes::E0105,
                self.span(),
                format!("nesting deeper than {MAX_DEPTH} levels"),
            )
            .with_label("too deeply nested")
            .with_help("split the construct with helper variables or functions");
            self.report(diag);
            self.abandon();
            return Err(Reported);
        }
        self.depth += 1;
        Ok(())
    }

    /// Skips to the end of the input and stops reporting.
    fn abandon(&mut self) {
        self.pos = self.tokens.len() - 1;
        self.abandoned = true;
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Runs `f` one nesting level deeper.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let result = f(self);
        self.leave();
        result
    }

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    /// Declares an ordinary identifier (a typedef name when `is_typedef`) in the innermost scope.
    fn declare(&mut self, name: &str, is_typedef: bool) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_string(), is_typedef);
        }
    }

    fn is_typedef_name(&self, name: &str) -> bool {
        self.scopes
            .iter()
            .rev()
            .find_map(|scope| scope.get(name))
            .copied()
            .unwrap_or(false)
    }
}
