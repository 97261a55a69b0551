//! Error recovery: after a reported syntax error, skip to a point where parsing can go on
//! (just past a `;`, past a balanced `{...}`, or before the `}` that closes the enclosing block),
//! so one run reports several independent errors.

use super::token::{Kw, Punct, Tok};
use super::Parser;

impl Parser<'_> {
    /// Resynchronises inside a block. Stops before an unmatched `}` (the block's end).
    pub(super) fn recover_in_block(&mut self) {
        self.skip_to_sync_point(false);
    }

    /// Resynchronises at file level, where a stray `}` is skipped too. Always makes progress.
    pub(super) fn recover_at_file_level(&mut self) {
        let start = self.pos;
        self.skip_to_sync_point(true);
        if self.pos == start {
            self.bump();
        }
    }

    fn skip_to_sync_point(&mut self, file_level: bool) {
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Punct(Punct::Semi) => {
                    self.bump();
                    return;
                }
                Tok::Punct(Punct::RBrace) => return,
                Tok::Punct(Punct::LBrace) => {
                    self.skip_balanced();
                    // A `{...}` ends a statement, unless an `else` follows (the statement
                    // was an `if`: skip its else branch too). At file level it may also be a
                    // struct body followed by declarators: go on unless a declaration starts.
                    if self.eat_kw(Kw::Else) {
                        continue;
                    }
                    let item_starts =
                        self.starts_decl_specs() || self.starts_implicit_int_function();
                    if !file_level || self.at_eof() || item_starts {
                        return;
                    }
                }
                Tok::Punct(Punct::LParen | Punct::LBracket) => self.skip_group(true),
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// Skips from an opening bracket past its matching closer (or to the end of the input).
    pub(super) fn skip_balanced(&mut self) {
        self.skip_group(false);
    }

    /// Skips a bracketed group during recovery. With `lenient`, an unclosed `(` or `[` ends
    /// before the next `;`, `{` or `}`: those cannot occur inside parentheses or brackets in
    /// the dialect (`for` and `fork` headers, where `;` can, are parsed, not skipped), so the
    /// statements after an unclosed `(` are not swallowed.
    fn skip_group(&mut self, lenient: bool) {
        let lenient = lenient && !self.is(Punct::LBrace);
        let mut depth = 0usize;
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Punct(Punct::Semi | Punct::LBrace | Punct::RBrace) if lenient => return,
                Tok::Punct(Punct::LParen | Punct::LBracket | Punct::LBrace) => depth += 1,
                Tok::Punct(Punct::RParen | Punct::RBracket | Punct::RBrace) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }
}
