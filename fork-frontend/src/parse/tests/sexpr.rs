//! A compact s-expression form of the AST for snapshot tests: spans left out, one statement
//! per line, expressions fully parenthesised so precedence is visible.

use crate::ast::*;

pub fn unit(unit: &TranslationUnit) -> String {
    let mut out = String::new();
    for item in &unit.items {
        match item {
            Item::Decl(decl) => out += &self::decl(decl),
            Item::Function(f) => {
                out += &format!("(fn {} {}\n", specs(&f.specs), declarator(&f.declarator));
                out.push_str("  ");
                block(&f.body, 1, &mut out);
                out.push(')');
            }
        }
        out.push('\n');
    }
    out
}

pub fn specs(s: &DeclSpecs) -> String {
    let mut words = Vec::new();
    if let Some(storage) = s.storage {
        words.push(format!("{storage:?}").to_lowercase());
    }
    if let Some(kind) = s.fn_kind {
        words.push(format!("{kind:?}").to_lowercase());
    }
    if let Some(sharity) = s.sharity {
        words.push(format!("{sharity:?}").to_lowercase());
    }
    if s.is_const {
        words.push("const".into());
    }
    words.push(base(&s.base));
    format!("[{}]", words.join(" "))
}

fn base(b: &BaseType) -> String {
    let sign = |signed: bool| if signed { "" } else { "unsigned " };
    match b {
        BaseType::Void => "void".into(),
        BaseType::Char { signed: None } => "char".into(),
        BaseType::Char { signed: Some(s) } => {
            format!("{}char", if *s { "signed " } else { "unsigned " })
        }
        BaseType::Short { signed } => format!("{}short", sign(*signed)),
        BaseType::Int { signed } => format!("{}int", sign(*signed)),
        BaseType::Long { signed } => format!("{}long", sign(*signed)),
        BaseType::Float => "float".into(),
        BaseType::Double => "double".into(),
        BaseType::Named(name) => format!("typedef:{}", name.name),
        BaseType::Struct { tag, fields } => {
            let mut text = format!("struct {}", tag.as_ref().map_or("_", |t| &t.name));
            if let Some(fields) = fields {
                let fields: Vec<String> = fields.iter().map(decl).collect();
                text += &format!(" {{{}}}", fields.join(" "));
            }
            text
        }
        BaseType::Enum { tag, variants } => {
            let mut text = format!("enum {}", tag.as_ref().map_or("_", |t| &t.name));
            if let Some(variants) = variants {
                let variants: Vec<String> = variants
                    .iter()
                    .map(|(name, value)| match value {
                        Some(v) => format!("{}={}", name.name, expr(v)),
                        None => name.name.clone(),
                    })
                    .collect();
                text += &format!(" {{{}}}", variants.join(" "));
            }
            text
        }
    }
}

/// `(name derived...)`, the derived constructors from the name outwards.
pub fn declarator(d: &Declarator) -> String {
    let mut parts = vec![d.name.as_ref().map_or("_".to_string(), |n| n.name.clone())];
    for derived in &d.derived {
        parts.push(match derived {
            Derived::Pointer { is_const, sharity } => {
                let mut text = "*".to_string();
                if *is_const {
                    text += "const";
                }
                if let Some(s) = sharity {
                    text += &format!("{s:?}").to_lowercase();
                }
                text
            }
            Derived::Array(None) => "[]".into(),
            Derived::Array(Some(size)) => format!("[{}]", expr(size)),
            Derived::Function(params) => {
                let params: Vec<String> = params
                    .iter()
                    .map(|p| format!("{} {}", specs(&p.specs), declarator(&p.declarator)))
                    .collect();
                match params.is_empty() {
                    true => "(fn)".to_string(),
                    false => format!("(fn {})", params.join(", ")),
                }
            }
        });
    }
    format!("({})", parts.join(" "))
}

fn decl(d: &Decl) -> String {
    let mut text = format!("(decl {}", specs(&d.specs));
    for init in &d.declarators {
        text += " ";
        text += &declarator(&init.declarator);
        if let Some(init) = &init.init {
            text += " = ";
            text += &initializer(init);
        }
    }
    text + ")"
}

fn initializer(i: &Initializer) -> String {
    match i {
        Initializer::Expr(e) => expr(e),
        Initializer::List(items, _) => {
            let items: Vec<String> = items.iter().map(initializer).collect();
            format!("{{{}}}", items.join(" "))
        }
    }
}

fn type_name(t: &TypeName) -> String {
    format!("{} {}", specs(&t.specs), declarator(&t.declarator))
}

pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::IntLit {
            value,
            unsigned,
            long,
        } => format!(
            "{value}{}{}",
            if *unsigned { "u" } else { "" },
            if *long { "l" } else { "" }
        ),
        ExprKind::FloatLit { value, single } => {
            format!("{value:?}{}", if *single { "f" } else { "" })
        }
        ExprKind::CharLit(c) => format!("(char {c})"),
        ExprKind::StrLit(bytes) => format!("\"{}\"", bytes.escape_ascii()),
        ExprKind::Ident(name) => name.clone(),
        ExprKind::Dollar => "$".into(),
        ExprKind::DollarDollar => "$$".into(),
        ExprKind::At => "@".into(),
        ExprKind::Unary(op, operand) => {
            let op = match op {
                UnaryOp::Neg => "neg",
                UnaryOp::Plus => "plus",
                UnaryOp::Not => "!",
                UnaryOp::BitNot => "~",
                UnaryOp::Deref => "deref",
                UnaryOp::AddrOf => "addr",
            };
            format!("({op} {})", expr(operand))
        }
        ExprKind::Postfix(op, operand) => format!("(post{} {})", incdec(*op), expr(operand)),
        ExprKind::Prefix(op, operand) => format!("(pre{} {})", incdec(*op), expr(operand)),
        ExprKind::Binary(op, l, r) => format!("({} {} {})", op.symbol(), expr(l), expr(r)),
        ExprKind::Assign(op, l, r) => format!(
            "({}= {} {})",
            op.map_or("", |op| op.symbol()),
            expr(l),
            expr(r)
        ),
        ExprKind::Cond(c, a, b) => format!("(?: {} {} {})", expr(c), expr(a), expr(b)),
        ExprKind::Comma(a, b) => format!("(, {} {})", expr(a), expr(b)),
        ExprKind::Call(f, args) => {
            let mut text = format!("(call {}", expr(f));
            for arg in args {
                text += " ";
                text += &expr(arg);
            }
            text + ")"
        }
        ExprKind::Index(a, i) => format!("(index {} {})", expr(a), expr(i)),
        ExprKind::Member(s, f) => format!("(. {} {})", expr(s), f.name),
        ExprKind::Arrow(p, f) => format!("(-> {} {})", expr(p), f.name),
        ExprKind::Cast(t, e) => format!("(cast {} {})", type_name(t), expr(e)),
        ExprKind::SizeofExpr(e) => format!("(sizeof {})", expr(e)),
        ExprKind::SizeofType(t) => format!("(sizeof-type {})", type_name(t)),
    }
}

fn incdec(op: IncDec) -> &'static str {
    match op {
        IncDec::Inc => "++",
        IncDec::Dec => "--",
    }
}

/// A block at nesting `depth`; the caller has written the indentation.
fn block(b: &Block, depth: usize, out: &mut String) {
    out.push_str("(block");
    for s in &b.stmts {
        out.push('\n');
        stmt(s, depth + 1, out);
    }
    out.push(')');
}

fn stmt(s: &Stmt, depth: usize, out: &mut String) {
    out.push_str(&"  ".repeat(depth));
    // `(head` then each child statement on its own line, then `)`.
    let node = |head: String, children: &[&Stmt], out: &mut String| {
        out.push('(');
        out.push_str(&head);
        for c in children {
            out.push('\n');
            stmt(c, depth + 1, out);
        }
        out.push(')');
    };
    match &s.kind {
        StmtKind::Decl(d) => out.push_str(&decl(d)),
        StmtKind::Expr(e) => node(format!("expr {}", expr(e)), &[], out),
        StmtKind::Empty => node("empty".into(), &[], out),
        StmtKind::Block(b) => block(b, depth, out),
        StmtKind::If { cond, then, els } => {
            let mut children = vec![&**then];
            children.extend(els.as_deref());
            node(format!("if {}", expr(cond)), &children, out)
        }
        StmtKind::While { cond, body } => node(format!("while {}", expr(cond)), &[body], out),
        StmtKind::DoWhile { body, cond } => node(format!("do-while {}", expr(cond)), &[body], out),
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            let opt = |e: &Option<Expr>| e.as_ref().map_or("_".to_string(), expr);
            let mut init_text = "_".to_string();
            if let Some(init) = init {
                init_text.clear();
                stmt(init, 0, &mut init_text);
            }
            node(
                format!("for {init_text} {} {}", opt(cond), opt(step)),
                &[body],
                out,
            )
        }
        StmtKind::Switch { cond, body } => node(format!("switch {}", expr(cond)), &[body], out),
        StmtKind::Case(value, body) => node(format!("case {}", expr(value)), &[body], out),
        StmtKind::Default(body) => node("default".into(), &[body], out),
        StmtKind::Break => node("break".into(), &[], out),
        StmtKind::Continue => node("continue".into(), &[], out),
        StmtKind::Return(None) => node("return".into(), &[], out),
        StmtKind::Return(Some(e)) => node(format!("return {}", expr(e)), &[], out),
        StmtKind::Fork {
            count,
            at,
            dollar,
            body,
        } => {
            let dollar = dollar.as_ref().map_or("_".to_string(), expr);
            let head = format!("fork {} (@= {}) ($= {dollar})", expr(count), expr(at));
            node(head, &[body], out)
        }
        StmtKind::Start(body) => node("start".into(), &[body], out),
        StmtKind::Farm(body) => node("farm".into(), &[body], out),
        StmtKind::Seq(body) => node("seq".into(), &[body], out),
        StmtKind::Barrier => node("barrier".into(), &[], out),
        StmtKind::Goto(label) => node(format!("goto {}", label.name), &[], out),
        StmtKind::Label(label, body) => node(format!("label {}", label.name), &[body], out),
        StmtKind::Unsupported(what) => node(format!("unsupported {what}"), &[], out),
    }
}
