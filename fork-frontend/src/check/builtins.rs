//! Calls: of user functions (argument conversion, the `sync` call rule) and of Fork's
//! built-ins (docs/language.md §2, §6), including the `printf` format check.

use super::codes::*;
use super::expr::{convert, mk};
use super::scope::Symbol;
use super::types::{is_arith, is_integer, promote};
use super::Checker;
use crate::ast;
use crate::diag::Diagnostic;
use crate::hir::{Builtin, Expr, ExprKind, FloatKind, FnKind, IntKind, MpOp, Sharity, Type};
use crate::source::Span;

/// Every built-in function name: none may be defined by the program.
pub(super) const NAMES: &[&str] = &[
    "printf",
    "mpadd",
    "mpmax",
    "mpmin",
    "mpand",
    "mpor",
    "syncadd",
    "syncmax",
    "syncmin",
    "syncand",
    "syncor",
    "ilog2",
    "groupsize",
    "shmalloc",
    "shfree",
    "malloc",
    "free",
    "assert",
    "abs",
    "labs",
    "fabs",
    "sqrt",
    "pow",
    "exp",
    "log",
    "sin",
    "cos",
    "floor",
    "ceil",
];

/// Historic Fork library functions this dialect rejects (docs/language.md §4).
const LOCK_FUNCTIONS: &[&str] = &[
    "simple_lock_init",
    "simple_lockup",
    "simple_unlock",
    "new_SimpleLock",
    "fair_lock_init",
    "fair_lockup",
    "fair_unlock",
    "new_FairLock",
    "rw_lock_init",
    "rw_lockup",
    "rw_unlock",
    "new_RWLock",
    "lock",
    "unlock",
];

fn is_lock_function(name: &str) -> bool {
    LOCK_FUNCTIONS.contains(&name)
        || ["simple_lock", "fair_lock", "rw_lock"]
            .iter()
            .any(|p| name.starts_with(p))
}

fn mp_op(suffix: &str) -> Option<MpOp> {
    Some(match suffix {
        "add" => MpOp::Add,
        "max" => MpOp::Max,
        "min" => MpOp::Min,
        "and" => MpOp::And,
        "or" => MpOp::Or,
        _ => return None,
    })
}

/// The built-in of a name, with its parameter types and result type. `printf`, `ilog2` and
/// `groupsize` are handled apart.
fn signature(name: &str) -> Option<(Builtin, Vec<Type>, Type)> {
    let int_ptr = Type::Ptr(Box::new(Type::INT));
    let void_ptr = Type::Ptr(Box::new(Type::Void));
    let size = Type::Int(IntKind::U64);
    let d = Type::DOUBLE;
    if let Some(op) = name.strip_prefix("mp").and_then(mp_op) {
        return Some((
            Builtin::Multiprefix(op),
            vec![int_ptr, Type::INT],
            Type::INT,
        ));
    }
    if let Some(op) = name.strip_prefix("sync").and_then(mp_op) {
        return Some((
            Builtin::SyncUpdate(op),
            vec![int_ptr, Type::INT],
            Type::Void,
        ));
    }
    Some(match name {
        "shmalloc" => (Builtin::Shmalloc, vec![size], void_ptr),
        "malloc" => (Builtin::Malloc, vec![size], void_ptr),
        "shfree" => (Builtin::Shfree, vec![void_ptr], Type::Void),
        "free" => (Builtin::Free, vec![void_ptr], Type::Void),
        "abs" => (Builtin::Abs, vec![Type::INT], Type::INT),
        "labs" => (Builtin::Labs, vec![Type::LONG], Type::LONG),
        "fabs" => (Builtin::Fabs, vec![d.clone()], d),
        "sqrt" => (Builtin::Sqrt, vec![d.clone()], d),
        "exp" => (Builtin::Exp, vec![d.clone()], d),
        "log" => (Builtin::Log, vec![d.clone()], d),
        "sin" => (Builtin::Sin, vec![d.clone()], d),
        "cos" => (Builtin::Cos, vec![d.clone()], d),
        "floor" => (Builtin::Floor, vec![d.clone()], d),
        "ceil" => (Builtin::Ceil, vec![d.clone()], d),
        "pow" => (Builtin::Pow, vec![d.clone(), d.clone()], d),
        _ => return None,
    })
}

impl Checker {
    pub(super) fn call(
        &mut self,
        callee: &ast::Expr,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Expr> {
        let ast::ExprKind::Ident(name) = &callee.kind else {
            let _ = self.expr(callee);
            self.report(
                Diagnostic::error(&E0315, callee.span, "only a function can be called by name")
                    .with_label("not a function name")
                    .with_help("forkcc has no function pointers; call a function by its name"),
            );
            return None;
        };
        let ident = ast::Ident {
            name: name.clone(),
            span: callee.span,
        };
        match self.scopes.lookup(name).cloned() {
            Some((Symbol::Func(id), _)) => return self.user_call(id, &ident, args, span),
            Some((_, declared)) => {
                self.report(
                    Diagnostic::error(&E0315, callee.span, format!("`{name}` is not a function"))
                        .with_label("called here")
                        .with_note(declared, "declared here")
                        .with_help("call a function, or rename the variable that hides it"),
                );
                return None;
            }
            None => {}
        }
        if NAMES.contains(&name.as_str()) {
            return self.builtin_call(&ident, args, span);
        }
        if is_lock_function(name) {
            self.report(
                Diagnostic::error(
                    &E0410,
                    callee.span,
                    format!("the lock function `{name}` is not part of this dialect"),
                )
                .with_label("locks are not supported")
                .with_help(
                    "synchronise with `start`, `barrier` or multiprefix operations (`mpadd`)",
                ),
            );
            return None;
        }
        self.undefined(&ident, "function");
        None
    }

    /// Checks arguments against parameter types, reporting a wrong count.
    fn arguments(
        &mut self,
        name: &str,
        params: &[Type],
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Vec<Expr>> {
        let checked: Vec<Option<Expr>> = args.iter().map(|a| self.rvalue(a)).collect();
        if args.len() != params.len() {
            self.report(
                Diagnostic::error(
                    &E0306,
                    span,
                    format!(
                        "`{name}` takes {} argument(s), {} given",
                        params.len(),
                        args.len()
                    ),
                )
                .with_label("wrong number of arguments")
                .with_help(format!("pass exactly {} argument(s)", params.len())),
            );
            return None;
        }
        let mut out = Vec::new();
        for (i, (arg, ty)) in checked.into_iter().zip(params).enumerate() {
            out.push(arg.and_then(|a| {
                self.assign_convert(a, ty, &format!("argument {} of `{name}`", i + 1))
            }));
        }
        out.into_iter().collect()
    }

    fn user_call(
        &mut self,
        id: crate::hir::FuncId,
        ident: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Expr> {
        let sig = self.sigs[id.0 as usize].clone();
        if sig.kind == FnKind::Sync {
            self.check_sync_call(&sig.name, span);
        }
        self.sigs[id.0 as usize]
            .first_call
            .get_or_insert(ident.span);
        let params: Vec<Type> = sig.params.iter().map(|p| p.ty.clone()).collect();
        let args = self.arguments(&sig.name, &params, args, span)?;
        for (arg, param) in args.iter().zip(&sig.params) {
            if param.sharity == Sharity::Shared && arg.sharity == Sharity::Private {
                self.report(
                    Diagnostic::warning(
                        &W0202,
                        arg.span,
                        format!(
                            "a private value is passed to a `sh` parameter of `{}`",
                            sig.name
                        ),
                    )
                    .with_label("may differ between the members of the group")
                    .with_note(sig.span, "declared here")
                    .with_help("pass a shared value, or make the parameter private"),
                );
            }
        }
        Some(mk(
            ExprKind::Call { func: id, args },
            sig.ret,
            Sharity::Private,
            span,
        ))
    }

    fn builtin_call(&mut self, ident: &ast::Ident, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let name = ident.name.as_str();
        match name {
            "printf" => return self.printf(args, span),
            "groupsize" => {
                self.arguments(name, &[], args, span)?;
                return Some(mk(ExprKind::GroupSize, Type::INT, Sharity::Shared, span));
            }
            "ilog2" => {
                let args = self.arguments(name, &[Type::INT], args, span)?;
                let sharity = args[0].sharity;
                return Some(mk(
                    ExprKind::Builtin {
                        op: Builtin::Ilog2,
                        args,
                    },
                    Type::INT,
                    sharity,
                    span,
                ));
            }
            "assert" => {
                let [e] = args else {
                    self.arguments(name, &[Type::INT], args, span)?;
                    return None;
                };
                let e = self.condition(e)?;
                return Some(mk(
                    ExprKind::Builtin {
                        op: Builtin::Assert,
                        args: vec![e],
                    },
                    Type::Void,
                    Sharity::Private,
                    span,
                ));
            }
            _ => {}
        }
        let (op, params, ret) = signature(name)?;
        if let (Builtin::Multiprefix(_) | Builtin::SyncUpdate(_), Some(first)) = (op, args.first())
        {
            // The cell must be exactly an `int`: no implicit pointer conversion.
            let cell = self.rvalue(first)?;
            if cell.ty != params[0] {
                self.report(
                    Diagnostic::error(
                        &E0302,
                        cell.span,
                        format!(
                            "`{name}` needs an `int *` cell, found `{}`",
                            self.type_str(&cell.ty)
                        ),
                    )
                    .with_label("not a pointer to `int`")
                    .with_help(format!(
                        "pass the address of an `int`, e.g. `{name}(&count, 1)`"
                    )),
                );
                return None;
            }
        }
        let args = self.arguments(name, &params, args, span)?;
        Some(mk(
            ExprKind::Builtin { op, args },
            ret,
            Sharity::Private,
            span,
        ))
    }

    /// `printf`: a literal format whose conversions match the arguments; the arguments get C's
    /// default promotions (`float` → `double`, small integers → `int`).
    fn printf(&mut self, args: &[ast::Expr], span: Span) -> Option<Expr> {
        let Some((format, rest)) = args.split_first() else {
            self.report(
                Diagnostic::error(&E0306, span, "`printf` needs a format string")
                    .with_label("no arguments")
                    .with_help("write `printf(\"...\\n\", ...)`"),
            );
            return None;
        };
        let ast::ExprKind::StrLit(bytes) = &format.kind else {
            let _ = self.expr(format);
            self.report(
                Diagnostic::error(
                    &E0312,
                    format.span,
                    "the format of `printf` must be a string literal",
                )
                .with_label("not a string literal")
                .with_help("write the format inline: `printf(\"%d\\n\", x)`"),
            );
            return None;
        };
        let values: Vec<Option<Expr>> = rest.iter().map(|a| self.rvalue(a)).collect();
        let conversions = match parse_format(bytes) {
            Ok(c) => c,
            Err(message) => {
                self.report(
                    Diagnostic::error(&E0312, format.span, message)
                        .with_label("in this format")
                        .with_help("supported: %d %i %u %x %ld %lu %c %s %f %e %g %%, with `-`, width and precision"),
                );
                return None;
            }
        };
        if conversions.len() != rest.len() {
            self.report(
                Diagnostic::error(
                    &E0312,
                    span,
                    format!(
                        "the format has {} conversion(s) but {} argument(s) follow it",
                        conversions.len(),
                        rest.len()
                    ),
                )
                .with_label("argument count differs")
                .with_note(format.span, "format here")
                .with_help("pass one argument per conversion (`%%` takes none)"),
            );
            return None;
        }
        let format = self.expr(format)?;
        let mut out = vec![format];
        let mut failed = false;
        for (value, conv) in values.into_iter().zip(conversions) {
            let Some(value) = value else {
                failed = true;
                continue;
            };
            match self.printf_argument(value, conv) {
                Some(v) => out.push(v),
                None => failed = true,
            }
        }
        if failed {
            return None;
        }
        Some(mk(
            ExprKind::Builtin {
                op: Builtin::Printf,
                args: out,
            },
            Type::INT,
            Sharity::Private,
            span,
        ))
    }

    fn printf_argument(&mut self, value: Expr, conv: Conversion) -> Option<Expr> {
        let promoted = match &value.ty {
            Type::Float(_) => Type::DOUBLE,
            t => promote(t),
        };
        let ok = match conv {
            Conversion::Int { long } => match promoted {
                Type::Int(k) => (k.bytes() == 8) == long,
                _ => false,
            },
            Conversion::Char => {
                is_integer(&promoted)
                    && promoted != Type::LONG
                    && promoted != Type::Int(IntKind::U64)
            }
            Conversion::Str => {
                matches!(&promoted, Type::Ptr(t) if matches!(**t, Type::Int(IntKind::I8 | IntKind::U8)))
            }
            Conversion::Float => matches!(promoted, Type::Float(FloatKind::F64)),
        };
        if !ok {
            let wanted = match conv {
                Conversion::Int { long: false } => "an `int` or `unsigned`",
                Conversion::Int { long: true } => "a `long` or `unsigned long`",
                Conversion::Char => "an `int` (a character)",
                Conversion::Str => "a `char *` string",
                Conversion::Float => "a `double` or `float`",
            };
            let found = self.type_str(&value.ty);
            let help = if is_arith(&value.ty) {
                "cast the argument, or use the conversion of its type (`%ld` for long, `%f` for double)"
            } else {
                "pass a value of the conversion's type"
            };
            self.report(
                Diagnostic::error(
                    &E0312,
                    value.span,
                    format!("this `printf` conversion needs {wanted}, found `{found}`"),
                )
                .with_label(format!("has type `{found}`"))
                .with_help(help),
            );
            return None;
        }
        Some(convert(value, &promoted))
    }
}

/// The argument a `printf` conversion takes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Conversion {
    /// `%d %i %u %x`, `%ld`...
    Int {
        long: bool,
    },
    Char,
    Str,
    Float,
}

/// The conversions of a `printf` format, in order; an error message for an unsupported one.
fn parse_format(format: &[u8]) -> Result<Vec<Conversion>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        while format.get(i) == Some(&b'-') {
            i += 1;
        }
        while format.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if format.get(i) == Some(&b'.') {
            i += 1;
            while format.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        let long = format.get(i) == Some(&b'l');
        if long {
            i += 1;
        }
        let conv = match format.get(i) {
            Some(b'%') if !long => None,
            Some(b'd' | b'i' | b'u' | b'x') => Some(Conversion::Int { long }),
            Some(b'c') if !long => Some(Conversion::Char),
            Some(b's') if !long => Some(Conversion::Str),
            Some(b'f' | b'e' | b'g') if !long => Some(Conversion::Float),
            Some(c) => {
                return Err(format!(
                    "unsupported `printf` conversion `%{}{}`",
                    if long { "l" } else { "" },
                    (*c as char).escape_default()
                ))
            }
            None => return Err("the format ends in the middle of a `%` conversion".to_string()),
        };
        out.extend(conv);
        i += 1;
    }
    Ok(out)
}

#[cfg(test)]
mod format_tests {
    use super::{parse_format, Conversion};

    #[test]
    fn format_conversions() {
        assert_eq!(
            parse_format(b"%d %-5.2f %ld %% %s %c|%x %lu %08.3e").unwrap(),
            vec![
                Conversion::Int { long: false },
                Conversion::Float,
                Conversion::Int { long: true },
                Conversion::Str,
                Conversion::Char,
                Conversion::Int { long: false },
                Conversion::Int { long: true },
                Conversion::Float,
            ]
        );
        assert!(parse_format(b"%q").is_err());
        assert!(parse_format(b"50%").is_err());
        assert!(parse_format(b"%lc").is_err());
    }
}
