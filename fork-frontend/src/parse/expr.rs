//! Expressions with C precedence and associativity: comma < assignment < `?:` < the binary
//! operators (precedence climbing over `binary_op`) < casts and unary operators < postfix.

use super::codes::{E0100, E0110, E0111, E0114};
use super::token::{Kw, Punct, Tok};
use super::{PResult, Parser};
use crate::ast::{BinaryOp, Expr, ExprKind, Ident, IncDec, UnaryOp};
use crate::diag::Diagnostic;
use crate::source::Span;

/// The binary operator spelled `p` and its precedence (higher binds tighter).
fn binary_op(p: Punct) -> Option<(BinaryOp, u8)> {
    use BinaryOp::*;
    Some(match p {
        Punct::OrOr => (LogOr, 1),
        Punct::AndAnd => (LogAnd, 2),
        Punct::Pipe => (BitOr, 3),
        Punct::Caret => (BitXor, 4),
        Punct::Amp => (BitAnd, 5),
        Punct::EqEq => (Eq, 6),
        Punct::Ne => (Ne, 6),
        Punct::Lt => (Lt, 7),
        Punct::Gt => (Gt, 7),
        Punct::Le => (Le, 7),
        Punct::Ge => (Ge, 7),
        Punct::Shl => (Shl, 8),
        Punct::Shr => (Shr, 8),
        Punct::Plus => (Add, 9),
        Punct::Minus => (Sub, 9),
        Punct::Star => (Mul, 10),
        Punct::Slash => (Div, 10),
        Punct::Percent => (Rem, 10),
        _ => return None,
    })
}

/// `Some(None)` for `=`, `Some(Some(op))` for `op=`.
fn assign_op(p: Punct) -> Option<Option<BinaryOp>> {
    use BinaryOp::*;
    Some(match p {
        Punct::Assign => None,
        Punct::AddAssign => Some(Add),
        Punct::SubAssign => Some(Sub),
        Punct::MulAssign => Some(Mul),
        Punct::DivAssign => Some(Div),
        Punct::RemAssign => Some(Rem),
        Punct::ShlAssign => Some(Shl),
        Punct::ShrAssign => Some(Shr),
        Punct::AndAssign => Some(BitAnd),
        Punct::XorAssign => Some(BitXor),
        Punct::OrAssign => Some(BitOr),
        _ => return None,
    })
}

fn node(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

impl Parser<'_> {
    /// A full expression, commas included.
    pub(super) fn expr(&mut self) -> PResult<Expr> {
        let lo = self.lo();
        let mut lhs = self.assign_expr()?;
        while self.eat(Punct::Comma) {
            let rhs = self.assign_expr()?;
            lhs = node(
                ExprKind::Comma(Box::new(lhs), Box::new(rhs)),
                self.span_from(lo),
            );
        }
        Ok(lhs)
    }

    /// An assignment expression: what a call argument or an initialiser is.
    pub(super) fn assign_expr(&mut self) -> PResult<Expr> {
        self.nested(|p| {
            let lo = p.lo();
            let lhs = p.cond_expr()?;
            let op = match p.peek() {
                Tok::Punct(punct) => assign_op(*punct),
                _ => None,
            };
            let Some(op) = op else { return Ok(lhs) };
            p.bump();
            let rhs = p.assign_expr()?;
            Ok(node(
                ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)),
                p.span_from(lo),
            ))
        })
    }

    /// A conditional expression: what `case` labels, array sizes and enum values are.
    pub(super) fn cond_expr(&mut self) -> PResult<Expr> {
        let lo = self.lo();
        let cond = self.binary_expr(1)?;
        if !self.is(Punct::Question) {
            return Ok(cond);
        }
        let question = self.bump();
        let then = self.nested(|p| p.expr())?;
        if !self.is(Punct::Colon) {
            let diag = self
                .found_diag(&E0100, "expected `:` of the conditional expression")
                .with_note(question, "the `?` of this conditional")
                .with_help("write `c ? a : b`");
            return Err(self.report(diag));
        }
        self.bump();
        let els = self.nested(|p| p.cond_expr())?;
        Ok(node(
            ExprKind::Cond(Box::new(cond), Box::new(then), Box::new(els)),
            self.span_from(lo),
        ))
    }

    /// Binary operators of precedence `min_prec` and tighter, left-associative.
    fn binary_expr(&mut self, min_prec: u8) -> PResult<Expr> {
        let lo = self.lo();
        let mut lhs = self.cast_expr()?;
        loop {
            let Tok::Punct(punct) = *self.peek() else {
                return Ok(lhs);
            };
            let Some((op, prec)) = binary_op(punct).filter(|&(_, prec)| prec >= min_prec) else {
                return Ok(lhs);
            };
            self.bump();
            let rhs = self.binary_expr(prec + 1)?;
            lhs = node(
                ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                self.span_from(lo),
            );
        }
    }

    /// `(type) e` or a unary expression.
    fn cast_expr(&mut self) -> PResult<Expr> {
        self.nested(|p| {
            if !(p.is(Punct::LParen) && p.starts_type_name_at(1)) {
                return p.unary_expr();
            }
            let lo = p.lo();
            let open = p.bump();
            let ty = p.type_name()?;
            p.expect_closing(Punct::RParen, open, "to close the cast")?;
            if p.is(Punct::LBrace) {
                let diag = Diagnostic::error(
                    &E0114,
                    p.span(),
                    "compound literals `(type){...}` are not part of the Fork dialect",
                )
                .with_label("compound literal")
                .with_help("declare a named variable with an initialiser instead");
                return Err(p.report(diag));
            }
            let operand = p.cast_expr()?;
            Ok(node(
                ExprKind::Cast(Box::new(ty), Box::new(operand)),
                p.span_from(lo),
            ))
        })
    }

    fn unary_expr(&mut self) -> PResult<Expr> {
        let lo = self.lo();
        // `++`/`--` apply to a unary expression, the other prefix operators to a cast
        // expression (`-(int)x`).
        let op = match self.peek() {
            Tok::Punct(Punct::Inc) => Err(IncDec::Inc),
            Tok::Punct(Punct::Dec) => Err(IncDec::Dec),
            Tok::Punct(Punct::Minus) => Ok(UnaryOp::Neg),
            Tok::Punct(Punct::Plus) => Ok(UnaryOp::Plus),
            Tok::Punct(Punct::Not) => Ok(UnaryOp::Not),
            Tok::Punct(Punct::Tilde) => Ok(UnaryOp::BitNot),
            Tok::Punct(Punct::Star) => Ok(UnaryOp::Deref),
            Tok::Punct(Punct::Amp) => Ok(UnaryOp::AddrOf),
            Tok::Kw(Kw::Sizeof) => return self.sizeof_expr(),
            _ => return self.postfix_expr(),
        };
        self.bump();
        let kind = match op {
            Ok(op) => ExprKind::Unary(op, Box::new(self.cast_expr()?)),
            Err(incdec) => ExprKind::Prefix(incdec, Box::new(self.nested(|p| p.unary_expr())?)),
        };
        Ok(node(kind, self.span_from(lo)))
    }

    fn sizeof_expr(&mut self) -> PResult<Expr> {
        let lo = self.lo();
        self.bump();
        if self.is(Punct::LParen) && self.starts_type_name_at(1) {
            let open = self.bump();
            let ty = self.type_name()?;
            self.expect_closing(Punct::RParen, open, "to close `sizeof(type)`")?;
            return Ok(node(ExprKind::SizeofType(Box::new(ty)), self.span_from(lo)));
        }
        let operand = self.nested(|p| p.unary_expr())?;
        Ok(node(
            ExprKind::SizeofExpr(Box::new(operand)),
            self.span_from(lo),
        ))
    }

    fn postfix_expr(&mut self) -> PResult<Expr> {
        let lo = self.lo();
        let mut expr = self.primary_expr()?;
        loop {
            let kind = match self.peek() {
                Tok::Punct(Punct::LBracket) => {
                    let open = self.bump();
                    let index = self.nested(|p| p.expr())?;
                    self.expect_closing(Punct::RBracket, open, "to close the index")?;
                    ExprKind::Index(Box::new(expr), Box::new(index))
                }
                Tok::Punct(Punct::LParen) => {
                    let open = self.bump();
                    let args = self.call_args(open)?;
                    ExprKind::Call(Box::new(expr), args)
                }
                Tok::Punct(Punct::Dot) => {
                    self.bump();
                    ExprKind::Member(Box::new(expr), self.member_name(".")?)
                }
                Tok::Punct(Punct::Arrow) => {
                    self.bump();
                    ExprKind::Arrow(Box::new(expr), self.member_name("->")?)
                }
                Tok::Punct(Punct::Inc) => {
                    self.bump();
                    ExprKind::Postfix(IncDec::Inc, Box::new(expr))
                }
                Tok::Punct(Punct::Dec) => {
                    self.bump();
                    ExprKind::Postfix(IncDec::Dec, Box::new(expr))
                }
                _ => return Ok(expr),
            };
            expr = node(kind, self.span_from(lo));
        }
    }

    /// The arguments of a call, after its `(`, through the closing `)`.
    fn call_args(&mut self, open: Span) -> PResult<Vec<Expr>> {
        let mut args = Vec::new();
        if self.eat(Punct::RParen) {
            return Ok(args);
        }
        loop {
            args.push(self.nested(|p| p.assign_expr())?);
            if self.eat(Punct::Comma) {
                continue;
            }
            self.close_list(open, "argument")?;
            return Ok(args);
        }
    }

    fn member_name(&mut self, after: &str) -> PResult<Ident> {
        if let Tok::Ident(name) = self.peek() {
            let name = name.clone();
            let span = self.bump();
            return Ok(Ident { name, span });
        }
        let diag = self
            .found_diag(&E0111, &format!("expected a member name after `{after}`"))
            .with_help("write the name of a struct member, as in `s.x` or `p->next`");
        Err(self.report(diag))
    }

    fn primary_expr(&mut self) -> PResult<Expr> {
        let span = self.span();
        let kind = match self.peek() {
            Tok::Ident(name) => ExprKind::Ident(name.clone()),
            &Tok::Int {
                value,
                unsigned,
                long,
            } => ExprKind::IntLit {
                value,
                unsigned,
                long,
            },
            &Tok::Float { value, single } => ExprKind::FloatLit { value, single },
            &Tok::Char(byte) => ExprKind::CharLit(byte),
            Tok::Str(_) => return Ok(self.string_literals()),
            Tok::Punct(Punct::Dollar) => ExprKind::Dollar,
            Tok::Punct(Punct::DollarDollar) => ExprKind::DollarDollar,
            Tok::Punct(Punct::At) => ExprKind::At,
            Tok::Punct(Punct::LParen) => {
                let open = self.bump();
                let inner = self.nested(|p| p.expr())?;
                self.expect_closing(Punct::RParen, open, "to close the parenthesis")?;
                // The parentheses belong to the expression's text.
                return Ok(Expr {
                    kind: inner.kind,
                    span: self.span_from(open.lo),
                });
            }
            _ => {
                let diag = self.found_diag(&E0110, "expected an expression").with_help(
                    "write an operand: a name, a constant, or a parenthesised expression",
                );
                return Err(self.report(diag));
            }
        };
        self.bump();
        Ok(node(kind, span))
    }

    /// Adjacent string literals, concatenated as in C.
    fn string_literals(&mut self) -> Expr {
        let lo = self.lo();
        let mut bytes = Vec::new();
        while let Tok::Str(part) = self.peek() {
            bytes.extend_from_slice(part);
            self.bump();
        }
        node(ExprKind::StrLit(bytes), self.span_from(lo))
    }
}
