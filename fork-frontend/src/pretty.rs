//! The readable text form of a checked program (`forkcc build --emit ast`): structs with
//! their layout, globals, and every function with its kind, its parameters and locals (type,
//! sharity, id), and its statements in C-like syntax. Each statement line starts with its
//! mode (`sync`/`async`); group-splitting statements carry `/*split*/`; every expression
//! that is not a constant carries its sharity (`a#0[$$]:pr`); conversions show as casts,
//! array decay as `decay(..)`. Variables print as `name#id`.

use crate::hir::{
    BinOp, Builtin, CompoundOp, Expr, ExprKind, FloatKind, FnKind, InitElem, IntKind, Mode, MpOp,
    Program, Sharity, Stmt, StmtKind, StructDef, Type, UnOp, VarId,
};
use std::fmt::Write;

pub fn print_program(program: &Program) -> String {
    let mut p = Printer {
        program,
        out: String::new(),
    };
    p.program();
    p.out
}

/// C spelling of a type (`int *`, `struct node`, `double[2][3]`).
pub fn type_to_string(ty: &Type, structs: &[StructDef]) -> String {
    match ty {
        Type::Void => "void".into(),
        Type::Int(k) => match k {
            IntKind::I8 => "char",
            IntKind::U8 => "unsigned char",
            IntKind::I16 => "short",
            IntKind::U16 => "unsigned short",
            IntKind::I32 => "int",
            IntKind::U32 => "unsigned",
            IntKind::I64 => "long",
            IntKind::U64 => "unsigned long",
        }
        .into(),
        Type::Float(FloatKind::F32) => "float".into(),
        Type::Float(FloatKind::F64) => "double".into(),
        Type::Ptr(t) => format!("{} *", type_to_string(t, structs)),
        Type::Array(..) => {
            // C writes the outermost dimension first: `int[2][3]` is two arrays of three.
            let (mut elem, mut dims) = (ty, String::new());
            while let Type::Array(inner, n) = elem {
                dims.push_str(&format!("[{n}]"));
                elem = inner;
            }
            format!("{}{dims}", type_to_string(elem, structs))
        }
        Type::Struct(id) => format!(
            "struct {}",
            structs.get(id.0 as usize).map_or("?", |s| s.name.as_str())
        ),
    }
}

fn sharity(s: Sharity) -> &'static str {
    match s {
        Sharity::Shared => "sh",
        Sharity::Private => "pr",
    }
}

fn fn_kind(k: FnKind) -> &'static str {
    match k {
        FnKind::Sync => "sync",
        FnKind::Async => "async",
        FnKind::Straight => "straight",
    }
}

fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::BitAnd => "&",
        BinOp::BitOr => "|",
        BinOp::BitXor => "^",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
    }
}

fn builtin_name(b: Builtin) -> String {
    let mp = |op: MpOp| match op {
        MpOp::Add => "add",
        MpOp::Max => "max",
        MpOp::Min => "min",
        MpOp::And => "and",
        MpOp::Or => "or",
    };
    match b {
        Builtin::Multiprefix(op) => format!("mp{}", mp(op)),
        Builtin::SyncUpdate(op) => format!("sync{}", mp(op)),
        other => format!("{other:?}").to_lowercase(),
    }
}

fn escape(bytes: &[u8]) -> String {
    let text: String = bytes
        .iter()
        .take_while(|b| **b != 0)
        .flat_map(|b| std::ascii::escape_default(*b))
        .map(char::from)
        .collect();
    format!("\"{text}\"")
}

struct Printer<'a> {
    program: &'a Program,
    out: String,
}

impl Printer<'_> {
    fn ty(&self, ty: &Type) -> String {
        type_to_string(ty, &self.program.structs)
    }

    fn var_decl(&self, id: VarId) -> String {
        let v = self.program.var(id);
        let addr = if v.addr_taken { " /*addr*/" } else { "" };
        format!(
            "{} {} {}#{}{addr}",
            sharity(v.sharity),
            self.ty(&v.ty),
            v.name,
            id.0
        )
    }

    fn program(&mut self) {
        let p = self.program;
        for (i, s) in p.structs.iter().enumerate() {
            let _ = writeln!(
                self.out,
                "struct {} #{i}: size {}, align {}",
                s.name, s.size, s.align
            );
            for f in &s.fields {
                let _ = writeln!(self.out, "  +{} {} {}", f.offset, self.ty(&f.ty), f.name);
            }
        }
        for g in &p.globals {
            let decl = self.var_decl(g.var);
            let init = self.init(g.var, g.init.as_deref());
            let _ = writeln!(self.out, "global {decl}{init}");
        }
        for (i, f) in p.funcs.iter().enumerate() {
            let params: Vec<String> = f.params.iter().map(|v| self.var_decl(*v)).collect();
            let main = if i == p.main.0 as usize {
                " (main)"
            } else {
                ""
            };
            let _ = writeln!(
                self.out,
                "\nfunc #{i}{main}: {} {} {}({})",
                fn_kind(f.kind),
                self.ty(&f.ret),
                f.name,
                params.join(", ")
            );
            if !f.locals.is_empty() {
                let locals: Vec<String> = f.locals.iter().map(|v| self.var_decl(*v)).collect();
                let _ = writeln!(self.out, "  locals: {}", locals.join(", "));
            }
            for s in &f.body.stmts {
                self.stmt(s, 1);
            }
        }
    }

    /// A scalar's initial value, or an aggregate's elements with their byte offsets.
    fn init(&self, var: VarId, init: Option<&[InitElem]>) -> String {
        match init {
            None => String::new(),
            Some([single]) if self.program.var(var).ty.is_scalar() => {
                format!(" = {}", self.expr(&single.value))
            }
            Some(elems) => {
                let parts: Vec<String> = elems
                    .iter()
                    .map(|e| format!("+{}: {}", e.offset, self.expr(&e.value)))
                    .collect();
                format!(" = {{ {} }}", parts.join(", "))
            }
        }
    }

    fn line(&mut self, mode: Mode, depth: usize, text: &str) {
        let mode = match mode {
            Mode::Sync => "sync ",
            Mode::Async => "async",
        };
        let _ = writeln!(self.out, "{mode} |{}{text}", "  ".repeat(depth));
    }

    /// A statement's head line followed by its body one level deeper.
    fn nested(&mut self, s: &Stmt, depth: usize, head: String, body: &Stmt) {
        let split = if s.splits_group() { " /*split*/" } else { "" };
        self.body(s.mode, depth, &format!("{head}{split}"), body);
    }

    /// `head {` with a block's statements one level deeper, or `head` and a single statement.
    fn body(&mut self, mode: Mode, depth: usize, head: &str, body: &Stmt) {
        match &body.kind {
            StmtKind::Block(b) => {
                self.line(mode, depth, &format!("{head} {{"));
                for inner in &b.stmts {
                    self.stmt(inner, depth + 1);
                }
                self.line(mode, depth, "}");
            }
            _ => {
                self.line(mode, depth, head);
                self.stmt(body, depth + 1);
            }
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: usize) {
        let split = if s.splits_group() { " /*split*/" } else { "" };
        match &s.kind {
            StmtKind::Expr(e) => {
                let text = format!("{};", self.expr(e));
                self.line(s.mode, depth, &text);
            }
            StmtKind::Decl { var, init } => {
                let text = format!(
                    "decl {}{};",
                    self.var_decl(*var),
                    self.init(*var, init.as_deref())
                );
                self.line(s.mode, depth, &text);
            }
            StmtKind::Block(b) => {
                self.line(s.mode, depth, "{");
                for inner in &b.stmts {
                    self.stmt(inner, depth + 1);
                }
                self.line(s.mode, depth, "}");
            }
            StmtKind::If { cond, then, els } => {
                let head = format!("if ({})", self.expr(cond));
                self.nested(s, depth, head, then);
                if let Some(els) = els {
                    self.body(s.mode, depth, "else", els);
                }
            }
            StmtKind::Loop {
                cond,
                step,
                body,
                test_first,
            } => {
                let cond = cond.as_ref().map(|c| self.expr(c)).unwrap_or_default();
                if *test_first {
                    let head = match step {
                        Some(step) => format!("for (; {cond}; {})", self.expr(step)),
                        None if cond.is_empty() => "for (;;)".to_string(),
                        None => format!("while ({cond})"),
                    };
                    self.nested(s, depth, head, body);
                } else {
                    self.body(s.mode, depth, "do", body);
                    self.line(s.mode, depth, &format!("while ({cond});{split}"));
                }
            }
            StmtKind::Switch { cond, cases } => {
                let text = format!("switch ({}){split}", self.expr(cond));
                self.line(s.mode, depth, &text);
                for case in cases {
                    let label = match case.value {
                        Some(v) => format!("case {v}:"),
                        None => "default:".to_string(),
                    };
                    self.line(s.mode, depth + 1, &label);
                    for inner in &case.body {
                        self.stmt(inner, depth + 2);
                    }
                }
            }
            StmtKind::Break => self.line(s.mode, depth, "break;"),
            StmtKind::Continue => self.line(s.mode, depth, "continue;"),
            StmtKind::Return(value) => {
                let text = match value {
                    Some(v) => format!("return {};", self.expr(v)),
                    None => "return;".to_string(),
                };
                self.line(s.mode, depth, &text);
            }
            StmtKind::Fork {
                count,
                at,
                dollar,
                body,
            } => {
                let dollar = dollar
                    .as_ref()
                    .map(|d| format!("; $ = {}", self.expr(d)))
                    .unwrap_or_default();
                let head = format!("fork ({}; @ = {}{dollar})", self.expr(count), self.expr(at));
                self.nested(s, depth, head, body);
            }
            StmtKind::Start(body) => self.nested(s, depth, "start".into(), body),
            StmtKind::Farm(body) => self.nested(s, depth, "farm".into(), body),
            StmtKind::Seq(body) => self.nested(s, depth, "seq".into(), body),
            StmtKind::Barrier => self.line(s.mode, depth, "barrier;"),
        }
    }

    fn expr(&self, e: &Expr) -> String {
        let sh = sharity(e.sharity);
        match &e.kind {
            ExprKind::IntConst(v) => match e.ty {
                Type::Int(IntKind::I32) => v.to_string(),
                Type::Int(IntKind::U32) => format!("{v}u"),
                Type::Int(IntKind::I64) => format!("{v}L"),
                Type::Int(IntKind::U64) => format!("{}UL", *v as u64),
                _ => format!("({}){v}", self.ty(&e.ty)),
            },
            ExprKind::FloatConst(f) => match e.ty {
                Type::Float(FloatKind::F32) => format!("{f:?}f"),
                _ => format!("{f:?}"),
            },
            ExprKind::Str(id) => escape(self.program.string(*id)),
            ExprKind::Var(v) => format!("{}#{}:{sh}", self.program.var(*v).name, v.0),
            ExprKind::Deref(ptr) => match &ptr.kind {
                ExprKind::PtrOffset {
                    ptr: base, index, ..
                } => {
                    let base = match &base.kind {
                        ExprKind::Decay(array) => self.expr(array),
                        _ => self.expr(base),
                    };
                    format!("{base}[{}]:{sh}", self.expr(index))
                }
                _ => format!("*{}", self.expr(ptr)),
            },
            ExprKind::Member { base, field } => {
                let name = match &base.ty {
                    Type::Struct(id) => self.program.structs[id.0 as usize].fields[*field]
                        .name
                        .as_str(),
                    _ => "?",
                };
                match &base.kind {
                    ExprKind::Deref(ptr) if !matches!(ptr.kind, ExprKind::PtrOffset { .. }) => {
                        format!("{}->{name}", self.expr(ptr))
                    }
                    _ => format!("{}.{name}", self.expr(base)),
                }
            }
            ExprKind::AddrOf(place) => format!("&{}", self.expr(place)),
            ExprKind::Decay(array) => format!("decay({})", self.expr(array)),
            ExprKind::Convert(inner) => format!("({}){}", self.ty(&e.ty), self.expr(inner)),
            ExprKind::Unary(op, inner) => {
                let op = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::LogNot => "!",
                };
                format!("({op}{}):{sh}", self.expr(inner))
            }
            ExprKind::Binary(op, a, b) => {
                format!("({} {} {}):{sh}", self.expr(a), binop(*op), self.expr(b))
            }
            ExprKind::PtrOffset {
                ptr,
                index,
                elem_size,
            } => {
                format!(
                    "({} +{elem_size}* {}):{sh}",
                    self.expr(ptr),
                    self.expr(index)
                )
            }
            ExprKind::PtrDiff { a, b, elem_size } => {
                format!("({} -/{elem_size} {}):{sh}", self.expr(a), self.expr(b))
            }
            ExprKind::LogAnd(a, b) => format!("({} && {}):{sh}", self.expr(a), self.expr(b)),
            ExprKind::LogOr(a, b) => format!("({} || {}):{sh}", self.expr(a), self.expr(b)),
            ExprKind::Cond(c, t, f) => format!(
                "({} ? {} : {}):{sh}",
                self.expr(c),
                self.expr(t),
                self.expr(f)
            ),
            ExprKind::Assign { place, value } => {
                format!("({} = {}):{sh}", self.expr(place), self.expr(value))
            }
            ExprKind::CompoundAssign {
                place,
                op,
                rhs,
                op_ty,
            } => {
                let op = match op {
                    CompoundOp::Arith(op) => format!("{}=[{}]", binop(*op), self.ty(op_ty)),
                    CompoundOp::PtrAdd { elem_size } => format!("+={elem_size}*"),
                    CompoundOp::PtrSub { elem_size } => format!("-={elem_size}*"),
                };
                format!("({} {op} {}):{sh}", self.expr(place), self.expr(rhs))
            }
            ExprKind::IncDec { place, inc, prefix } => {
                let op = if *inc { "++" } else { "--" };
                let place = self.expr(place);
                if *prefix {
                    format!("({op}{place}):{sh}")
                } else {
                    format!("({place}{op}):{sh}")
                }
            }
            ExprKind::Comma(a, b) => format!("({}, {}):{sh}", self.expr(a), self.expr(b)),
            ExprKind::Call { func, args } => {
                let args: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                format!(
                    "{}({}):{sh}",
                    self.program.func(*func).name,
                    args.join(", ")
                )
            }
            ExprKind::Builtin { op, args } => {
                let args: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                format!("{}({}):{sh}", builtin_name(*op), args.join(", "))
            }
            ExprKind::ProcNr => format!("__PROC_NR__:{sh}"),
            ExprKind::StartedProcs => format!("__STARTED_PROCS__:{sh}"),
            ExprKind::Dollar => format!("$:{sh}"),
            ExprKind::DollarDollar => format!("$$:{sh}"),
            ExprKind::At => format!("@:{sh}"),
            ExprKind::GroupSize => format!("groupsize():{sh}"),
        }
    }
}
