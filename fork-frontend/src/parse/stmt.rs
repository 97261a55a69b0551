//! Statements: C's, Fork's (`fork`, `start`, `farm`, `seq`, `barrier`), and the rejected ones
//! kept for the checker to name (`goto`, labels, `join`).

use super::codes::E0100;
use super::token::{Kw, Punct, Tok};
use super::{PResult, Parser, Reported};
use crate::ast::{Block, Expr, Stmt, StmtKind};
use crate::diag::Diagnostic;
use crate::source::Span;

impl Parser<'_> {
    /// `{ ... }`; the current token is `{`. Errors inside are reported and recovered from.
    pub(super) fn block(&mut self) -> PResult<Block> {
        let lo = self.lo();
        let open = self.expect(Punct::LBrace, "to open a block")?;
        self.push_scope();
        let mut stmts = Vec::new();
        while !self.is(Punct::RBrace) && !self.at_eof() {
            stmts.push(self.statement()?);
        }
        self.pop_scope();
        self.expect_closing(Punct::RBrace, open, "to close the block")?;
        Ok(Block {
            stmts,
            span: self.span_from(lo),
        })
    }

    /// A statement. After a syntax error inside it (reported), the parser resynchronises
    /// and returns an empty statement in its place, so the enclosing `if`, loop or block goes
    /// on; only a nesting overflow, which abandons the input, is an `Err`.
    pub(super) fn statement(&mut self) -> PResult<Stmt> {
        self.nested(|p| {
            let lo = p.lo();
            let kind = match p.statement_kind() {
                Ok(kind) => kind,
                Err(_) if p.abandoned => return Err(Reported),
                Err(_) => {
                    p.recover_in_block();
                    StmtKind::Empty
                }
            };
            Ok(Stmt {
                kind,
                span: p.span_from(lo),
            })
        })
    }

    /// Dispatches on the first token. Each construct is parsed by its own method so that this
    /// frame, which stays on the stack through nested statements, is small.
    fn statement_kind(&mut self) -> PResult<StmtKind> {
        let kw = match self.peek() {
            Tok::Punct(Punct::LBrace) => return self.block().map(StmtKind::Block),
            Tok::Punct(Punct::Semi) => {
                self.bump();
                return Ok(StmtKind::Empty);
            }
            Tok::Ident(_) if *self.peek_at(1) == Tok::Punct(Punct::Colon) => {
                return self.labeled();
            }
            _ if self.starts_decl_specs() => return self.local_declaration().map(StmtKind::Decl),
            Tok::Kw(kw) if *kw != Kw::Sizeof => *kw,
            _ => return self.expression_statement(),
        };
        let keyword = self.bump();
        match kw {
            Kw::If => self.if_rest(),
            Kw::While => self.while_rest(),
            Kw::Do => self.do_rest(keyword),
            Kw::For => {
                // A declaration in the header is scoped to the loop.
                self.push_scope();
                let kind = self.for_rest();
                self.pop_scope();
                kind
            }
            Kw::Switch => self.switch_rest(),
            Kw::Case => self.case_rest(),
            Kw::Default => {
                self.expect(Punct::Colon, "after `default`")?;
                self.boxed_body().map(StmtKind::Default)
            }
            Kw::Return => self.return_rest(),
            Kw::Goto => {
                let target = self.expect_name("after `goto`")?;
                self.expect(Punct::Semi, "after the `goto` statement")?;
                Ok(StmtKind::Goto(target))
            }
            Kw::Break => self.keyword_then_semi("break", StmtKind::Break),
            Kw::Continue => self.keyword_then_semi("continue", StmtKind::Continue),
            Kw::Barrier => self.keyword_then_semi("barrier", StmtKind::Barrier),
            Kw::Fork => self.fork_rest(),
            Kw::Start => self.boxed_body().map(StmtKind::Start),
            Kw::Farm => self.boxed_body().map(StmtKind::Farm),
            Kw::Seq => self.boxed_body().map(StmtKind::Seq),
            Kw::Join => self.join_rest(),
            Kw::Else => Err(self.keyword_error(
                keyword,
                "`else` without a matching `if`".to_string(),
                "remove the `else`, or check the braces of the `if` before it",
            )),
            other => Err(self.keyword_error(
                keyword,
                format!("keyword `{}` cannot start a statement", other.text()),
                "write a declaration, an expression or a statement here",
            )),
        }
    }

    fn keyword_error(&mut self, keyword: Span, message: String, help: &str) -> Reported {
        let diag = Diagnostic::error(&E0100, keyword, message)
            .with_label("unexpected keyword")
            .with_help(help);
        self.report(diag)
    }

    /// A statement that is the body of the construct being parsed.
    fn boxed_body(&mut self) -> PResult<Box<Stmt>> {
        self.statement().map(Box::new)
    }

    fn keyword_then_semi(&mut self, keyword: &str, kind: StmtKind) -> PResult<StmtKind> {
        self.expect(Punct::Semi, &format!("after `{keyword}`"))?;
        Ok(kind)
    }

    fn labeled(&mut self) -> PResult<StmtKind> {
        let label = self.expect_name("as a label")?;
        self.bump();
        Ok(StmtKind::Label(label, self.boxed_body()?))
    }

    fn if_rest(&mut self) -> PResult<StmtKind> {
        let cond = self.paren_cond("if")?;
        let then = self.boxed_body()?;
        let els = match self.eat_kw(Kw::Else) {
            true => Some(self.boxed_body()?),
            false => None,
        };
        Ok(StmtKind::If { cond, then, els })
    }

    fn while_rest(&mut self) -> PResult<StmtKind> {
        let cond = self.paren_cond("while")?;
        let body = self.boxed_body()?;
        Ok(StmtKind::While { cond, body })
    }

    fn do_rest(&mut self, keyword: Span) -> PResult<StmtKind> {
        let body = self.boxed_body()?;
        if !self.eat_kw(Kw::While) {
            let diag = self
                .found_diag(&E0100, "expected `while` after the body of `do`")
                .with_note(keyword, "this `do`")
                .with_help("end the loop with `while (condition);`");
            return Err(self.report(diag));
        }
        let cond = self.paren_cond("do ... while")?;
        self.expect(Punct::Semi, "after `do ... while (...)`")?;
        Ok(StmtKind::DoWhile { body, cond })
    }

    fn switch_rest(&mut self) -> PResult<StmtKind> {
        let cond = self.paren_cond("switch")?;
        let body = self.boxed_body()?;
        Ok(StmtKind::Switch { cond, body })
    }

    fn case_rest(&mut self) -> PResult<StmtKind> {
        let value = self.cond_expr()?;
        self.expect(Punct::Colon, "after the `case` value")?;
        Ok(StmtKind::Case(value, self.boxed_body()?))
    }

    fn return_rest(&mut self) -> PResult<StmtKind> {
        let value = match self.is(Punct::Semi) {
            true => None,
            false => Some(self.expr()?),
        };
        self.expect(Punct::Semi, "after the `return` statement")?;
        Ok(StmtKind::Return(value))
    }

    /// `join (...) S [else S]`: not in the dialect; parsed past so the checker names it.
    fn join_rest(&mut self) -> PResult<StmtKind> {
        if !self.is(Punct::LParen) {
            let diag = self
                .found_diag(&E0100, "expected `(` after `join`")
                .with_help("`join` statements are written `join (...) S`");
            return Err(self.report(diag));
        }
        self.skip_balanced();
        self.statement()?;
        if self.eat_kw(Kw::Else) {
            self.statement()?;
        }
        Ok(StmtKind::Unsupported("join"))
    }

    fn expression_statement(&mut self) -> PResult<StmtKind> {
        let expr = self.expr()?;
        self.expect(Punct::Semi, "after the expression")?;
        Ok(StmtKind::Expr(expr))
    }

    /// `( expr )` after `if`, `while`, `switch`.
    fn paren_cond(&mut self, construct: &str) -> PResult<Expr> {
        let open = self.expect(Punct::LParen, &format!("after `{construct}`"))?;
        let cond = self.expr()?;
        self.expect_closing(
            Punct::RParen,
            open,
            &format!("after the `{construct}` condition"),
        )?;
        Ok(cond)
    }

    /// `for (init; cond; step) body` after `for`.
    fn for_rest(&mut self) -> PResult<StmtKind> {
        let open = self.expect(Punct::LParen, "after `for`")?;
        let lo = self.lo();
        let init = if self.eat(Punct::Semi) {
            None
        } else if self.starts_decl_specs() {
            let decl = self.local_declaration()?;
            Some(self.boxed_stmt(StmtKind::Decl(decl), lo))
        } else {
            let expr = self.expr()?;
            self.expect(Punct::Semi, "after the loop's initialisation")?;
            Some(self.boxed_stmt(StmtKind::Expr(expr), lo))
        };
        let cond = match self.is(Punct::Semi) {
            true => None,
            false => Some(self.expr()?),
        };
        self.expect(Punct::Semi, "after the loop condition")?;
        let step = match self.is(Punct::RParen) {
            true => None,
            false => Some(self.expr()?),
        };
        self.expect_closing(Punct::RParen, open, "after the `for` header")?;
        let body = self.boxed_body()?;
        Ok(StmtKind::For {
            init,
            cond,
            step,
            body,
        })
    }

    fn boxed_stmt(&self, kind: StmtKind, lo: u32) -> Box<Stmt> {
        Box::new(Stmt {
            kind,
            span: self.span_from(lo),
        })
    }

    /// `fork (k; @ = e1; $ = e2) S` after `fork`; `$ = e2` is optional.
    fn fork_rest(&mut self) -> PResult<StmtKind> {
        let open = self.expect(Punct::LParen, "after `fork`")?;
        let count = self.expr()?;
        self.expect(
            Punct::Semi,
            "after the number of subgroups in `fork (k; @ = e; $ = e)`",
        )?;
        self.expect(
            Punct::At,
            "to choose the subgroup in `fork (k; @ = e; $ = e)`",
        )?;
        self.expect(Punct::Assign, "after `@` in the `fork` header")?;
        let at = self.expr()?;
        let dollar = if self.eat(Punct::Semi) {
            self.expect(Punct::Dollar, "to set `$` in `fork (k; @ = e; $ = e)`")?;
            self.expect(Punct::Assign, "after `$` in the `fork` header")?;
            Some(self.expr()?)
        } else {
            None
        };
        self.expect_closing(Punct::RParen, open, "to close the `fork` header")?;
        let body = self.boxed_body()?;
        Ok(StmtKind::Fork {
            count,
            at,
            dollar,
            body,
        })
    }
}
