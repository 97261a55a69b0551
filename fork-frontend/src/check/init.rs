//! Initialisers flattened to `InitElem`s (one per scalar, at its byte offset), with C's brace
//! elision, strings into `char` arrays, and array sizes taken from the initialiser (`a[]`).
//! Global initialisers must be constants or addresses of globals and strings.

use super::codes::*;
use super::fold::{fold, Folded};
use super::Checker;
use crate::ast::{self, Initializer};
use crate::diag::Diagnostic;
use crate::hir::{Expr, ExprKind, InitElem, IntKind, Type, VarKind};
use crate::source::Span;

fn is_char(ty: &Type) -> bool {
    matches!(ty, Type::Int(IntKind::I8 | IntKind::U8))
}

fn string_literal(init: &Initializer) -> Option<&[u8]> {
    match init {
        Initializer::Expr(ast::Expr {
            kind: ast::ExprKind::StrLit(bytes),
            ..
        }) => Some(bytes),
        _ => None,
    }
}

fn init_span(init: &Initializer) -> Span {
    match init {
        Initializer::Expr(e) => e.span,
        Initializer::List(_, span) => *span,
    }
}

/// Where initialiser elements go while one initialiser is flattened.
struct Flattening {
    global: bool,
    out: Vec<InitElem>,
}

impl Checker {
    /// Flattens `init` for an object of type `ty`; sizes an unsized array (`Array(_, 0)`).
    pub(super) fn initializer(
        &mut self,
        ty: &mut Type,
        init: &Initializer,
        global: bool,
    ) -> Option<Vec<InitElem>> {
        let mut f = Flattening {
            global,
            out: Vec::new(),
        };
        if let Type::Array(elem, 0) = ty {
            let string = match init {
                Initializer::List(items, _) if items.len() == 1 => string_literal(&items[0]),
                other => string_literal(other),
            };
            match (string, init) {
                (Some(bytes), _) if is_char(elem) => {
                    *ty = Type::Array(elem.clone(), bytes.len() as u64 + 1)
                }
                (_, Initializer::List(items, span)) => {
                    return self.sized_by_list(ty, items, *span, &mut f)
                }
                _ => {
                    self.report(
                        Diagnostic::error(
                            &E0310,
                            init_span(init),
                            "an array needs a brace list as initialiser",
                        )
                        .with_label("not a list")
                        .with_help("write `{ a, b, ... }`"),
                    );
                    return None;
                }
            }
        }
        self.init_object(ty, 0, init, &mut f)?;
        Some(f.out)
    }

    fn sized_by_list(
        &mut self,
        ty: &mut Type,
        items: &[Initializer],
        span: Span,
        f: &mut Flattening,
    ) -> Option<Vec<InitElem>> {
        let Type::Array(elem, _) = ty.clone() else {
            return None;
        };
        let mut pos = 0;
        let n = self.fill(&Type::Array(elem.clone(), u64::MAX), 0, items, &mut pos, f)?;
        if n == 0 {
            self.report(
                Diagnostic::error(
                    &E0309,
                    span,
                    "an array sized by an empty initialiser has no elements",
                )
                .with_help("give the array a size or elements"),
            );
            return None;
        }
        *ty = Type::Array(elem, n);
        Some(std::mem::take(&mut f.out))
    }

    /// Initialises one whole object (or sub-object) from one initialiser.
    fn init_object(
        &mut self,
        ty: &Type,
        offset: u64,
        init: &Initializer,
        f: &mut Flattening,
    ) -> Option<()> {
        match init {
            Initializer::List(items, span) => self.init_braced(ty, offset, items, *span, f),
            Initializer::Expr(e) => match ty {
                Type::Array(elem, n) if is_char(elem) && string_literal(init).is_some() => self
                    .init_string(
                        elem,
                        *n,
                        offset,
                        string_literal(init).unwrap_or_default(),
                        e.span,
                        f,
                    ),
                Type::Array(..) | Type::Struct(_) => {
                    self.report(
                        Diagnostic::error(
                            &E0310,
                            e.span,
                            format!(
                                "a `{}` needs a brace list as initialiser",
                                self.type_str(ty)
                            ),
                        )
                        .with_label("not a list")
                        .with_help("write `{ a, b, ... }`"),
                    );
                    None
                }
                _ => self.init_scalar(ty, offset, e, f),
            },
        }
    }

    fn init_braced(
        &mut self,
        ty: &Type,
        offset: u64,
        items: &[Initializer],
        span: Span,
        f: &mut Flattening,
    ) -> Option<()> {
        if ty.is_scalar() {
            return match items {
                [Initializer::Expr(e)] => self.init_scalar(ty, offset, e, f),
                _ => {
                    self.report(
                        Diagnostic::error(
                            &E0310,
                            span,
                            format!(
                                "a scalar of type `{}` takes exactly one value",
                                self.type_str(ty)
                            ),
                        )
                        .with_label("not one value")
                        .with_help("write a single expression"),
                    );
                    None
                }
            };
        }
        if let (Type::Array(elem, n), [single]) = (ty, items) {
            if let (true, Some(bytes)) = (is_char(elem), string_literal(single)) {
                return self.init_string(elem, *n, offset, bytes, init_span(single), f);
            }
        }
        let mut pos = 0;
        self.fill(ty, offset, items, &mut pos, f)?;
        if let Some(extra) = items.get(pos) {
            self.report(
                Diagnostic::error(
                    &E0310,
                    init_span(extra),
                    format!("too many initialisers for `{}`", self.type_str(ty)),
                )
                .with_label("no room for this")
                .with_help("remove the extra elements, or enlarge the array"),
            );
            return None;
        }
        Some(())
    }

    /// Fills an aggregate's elements in order from `items[pos..]` (C's brace elision: a
    /// nested aggregate takes as many plain values as it has scalars). Returns how many
    /// elements were initialised.
    fn fill(
        &mut self,
        ty: &Type,
        offset: u64,
        items: &[Initializer],
        pos: &mut usize,
        f: &mut Flattening,
    ) -> Option<u64> {
        let members: Box<dyn Iterator<Item = (Type, u64)>> = match ty {
            Type::Array(elem, n) => {
                let size = elem.size(&self.structs);
                let elem = (**elem).clone();
                Box::new((0..*n).map(move |i| (elem.clone(), i * size)))
            }
            Type::Struct(id) => Box::new(
                self.structs[id.0 as usize]
                    .fields
                    .iter()
                    .map(|fl| (fl.ty.clone(), fl.offset))
                    .collect::<Vec<_>>()
                    .into_iter(),
            ),
            _ => return None,
        };
        let mut count = 0;
        let mut ok = true;
        for (member_ty, member_offset) in members {
            let Some(item) = items.get(*pos) else { break };
            let before = *pos;
            let elided = matches!(item, Initializer::Expr(_))
                && matches!(member_ty, Type::Array(..) | Type::Struct(_))
                && !(string_literal(item).is_some()
                    && matches!(&member_ty, Type::Array(e, _) if is_char(e)));
            if elided {
                ok &= self
                    .fill(&member_ty, offset + member_offset, items, pos, f)
                    .is_some();
            } else {
                *pos += 1;
                ok &= self
                    .init_object(&member_ty, offset + member_offset, item, f)
                    .is_some();
            }
            if *pos == before {
                break;
            }
            count += 1;
        }
        ok.then_some(count)
    }

    fn init_string(
        &mut self,
        elem: &Type,
        n: u64,
        offset: u64,
        bytes: &[u8],
        span: Span,
        f: &mut Flattening,
    ) -> Option<()> {
        // C allows the terminating NUL to be dropped when the characters fill the array exactly.
        if bytes.len() as u64 > n {
            self.report(
                Diagnostic::error(
                    &E0310,
                    span,
                    format!(
                        "a string of {} characters does not fit in `char[{n}]`",
                        bytes.len()
                    ),
                )
                .with_label("too long")
                .with_help(format!(
                    "make the array at least {} long, or leave its size empty",
                    bytes.len() + 1
                )),
            );
            return None;
        }
        for (i, b) in bytes.iter().enumerate().filter(|(_, b)| **b != 0) {
            let value = super::expr::int_const(
                super::fold::wrap(*b as i64, int_kind(elem)),
                elem.clone(),
                span,
            );
            f.out.push(InitElem {
                offset: offset + i as u64,
                value,
            });
        }
        Some(())
    }

    fn init_scalar(
        &mut self,
        ty: &Type,
        offset: u64,
        e: &ast::Expr,
        f: &mut Flattening,
    ) -> Option<()> {
        let value = self.rvalue(e)?;
        let value = self.assign_convert(value, ty, "this initialiser")?;
        if f.global && !self.is_link_time_constant(&value) {
            self.report(
                Diagnostic::error(&E0308, e.span, "a global initialiser must be a constant")
                    .with_label("not known at compile time")
                    .with_help(
                        "initialise the global with constants, or assign it at the start of `main`",
                    ),
            );
            return None;
        }
        let value = match fold(&value) {
            Folded::Int(v) => super::expr::int_const(v, ty.clone(), value.span),
            Folded::Float(x) => super::expr::mk(
                ExprKind::FloatConst(x),
                ty.clone(),
                value.sharity,
                value.span,
            ),
            _ => value,
        };
        f.out.push(InitElem { offset, value });
        Some(())
    }

    /// A constant, a string, or the address of a global (plus a constant offset).
    fn is_link_time_constant(&self, e: &Expr) -> bool {
        if matches!(fold(e), Folded::Int(_) | Folded::Float(_)) {
            return true;
        }
        match &e.kind {
            ExprKind::Str(_) => true,
            ExprKind::Convert(inner) => {
                matches!(e.ty, Type::Ptr(_)) && self.is_link_time_constant(inner)
            }
            ExprKind::AddrOf(place) | ExprKind::Decay(place) => self.is_global_place(place),
            ExprKind::PtrOffset { ptr, index, .. } => {
                self.is_link_time_constant(ptr) && matches!(fold(index), Folded::Int(_))
            }
            _ => false,
        }
    }

    fn is_global_place(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(v) => self.vars[v.0 as usize].kind == VarKind::Global,
            ExprKind::Member { base, .. } => self.is_global_place(base),
            ExprKind::Deref(ptr) => self.is_link_time_constant(ptr),
            _ => false,
        }
    }
}

fn int_kind(ty: &Type) -> IntKind {
    match ty {
        Type::Int(k) => *k,
        _ => IntKind::I8,
    }
}
