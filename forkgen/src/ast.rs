//! The generator's own syntax tree: just enough structure for the reducer to remove
//! statements, unwrap constructs and simplify expressions, and to render Fork text.

use std::fmt::Write;

/// An `int` expression. Every node's value is an `int`; a node's sharity is that of its
/// leaves, so replacing a node by one of its operands or by a constant keeps a shared
/// expression shared.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A constant, a variable, `$$`, `groupsize()`, a memory read of fixed shape.
    Leaf(String),
    Un(&'static str, Box<Expr>),
    Bin(&'static str, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `pre e post`: an index or a call argument position whose surroundings keep the
    /// access in bounds (`S[__PROC_NR__][(e) & 7]`).
    Wrap(String, Box<Expr>, String),
    Call(String, Vec<Expr>),
}

impl Expr {
    pub fn leaf(s: impl Into<String>) -> Expr {
        Expr::Leaf(s.into())
    }

    pub fn bin(op: &'static str, a: Expr, b: Expr) -> Expr {
        Expr::Bin(op, Box::new(a), Box::new(b))
    }

    pub fn wrap(pre: impl Into<String>, e: Expr, post: impl Into<String>) -> Expr {
        Expr::Wrap(pre.into(), Box::new(e), post.into())
    }

    pub fn render(&self, out: &mut String) {
        match self {
            Expr::Leaf(s) => out.push_str(s),
            Expr::Un(op, a) => {
                out.push('(');
                out.push_str(op);
                a.render(out);
                out.push(')');
            }
            Expr::Bin(op, a, b) => {
                out.push('(');
                a.render(out);
                let _ = write!(out, " {op} ");
                b.render(out);
                out.push(')');
            }
            Expr::Cond(c, a, b) => {
                out.push('(');
                c.render(out);
                out.push_str(" ? ");
                a.render(out);
                out.push_str(" : ");
                b.render(out);
                out.push(')');
            }
            Expr::Wrap(pre, e, post) => {
                out.push_str(pre);
                e.render(out);
                out.push_str(post);
            }
            Expr::Call(name, args) => {
                out.push_str(name);
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    a.render(out);
                }
                out.push(')');
            }
        }
    }

    /// The number of nodes (the reducer's measure of size).
    pub fn size(&self) -> usize {
        1 + match self {
            Expr::Leaf(_) => 0,
            Expr::Un(_, a) | Expr::Wrap(_, a, _) => a.size(),
            Expr::Bin(_, a, b) => a.size() + b.size(),
            Expr::Cond(c, a, b) => c.size() + a.size() + b.size(),
            Expr::Call(_, args) => args.iter().map(Expr::size).sum(),
        }
    }
}

/// A statement. `keep` marks declarations and the statements that make a construct valid
/// or race-free (a loop counter's increment, a `barrier`); the reducer never removes them
/// alone.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `pre e post` on one line (`S[...] = e % 5000;`), or `pre` alone.
    Simple {
        pre: String,
        e: Option<Expr>,
        post: String,
        keep: bool,
    },
    /// `pre cond post { body } [else { alt }] tail`: if, loops, fork, seq, farm, start.
    Nest {
        pre: String,
        cond: Option<Expr>,
        post: String,
        body: Vec<Stmt>,
        alt: Option<Vec<Stmt>>,
        tail: String,
        keep: bool,
    },
    /// `switch (scrutinee) { case L: { body } [break;] ... }`.
    Switch { scrutinee: Expr, cases: Vec<Case> },
}

#[derive(Clone, Debug)]
pub struct Case {
    pub label: String,
    pub body: Vec<Stmt>,
    /// Where the case's `break` is: none (falls through), inside its block, or after it.
    pub brk: Break,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Break {
    None,
    Inside,
    After,
}

impl Stmt {
    pub fn simple(pre: impl Into<String>, e: Expr, post: impl Into<String>) -> Stmt {
        Stmt::Simple {
            pre: pre.into(),
            e: Some(e),
            post: post.into(),
            keep: false,
        }
    }

    pub fn raw(text: impl Into<String>, keep: bool) -> Stmt {
        Stmt::Simple {
            pre: text.into(),
            e: None,
            post: String::new(),
            keep,
        }
    }

    pub fn nest(pre: impl Into<String>, cond: Option<Expr>, post: impl Into<String>) -> Stmt {
        Stmt::Nest {
            pre: pre.into(),
            cond,
            post: post.into(),
            body: Vec::new(),
            alt: None,
            tail: String::new(),
            keep: false,
        }
    }

    pub fn render(&self, indent: usize, out: &mut String) {
        let pad = "    ".repeat(indent);
        match self {
            Stmt::Simple { pre, e, post, .. } => {
                out.push_str(&pad);
                out.push_str(pre);
                if let Some(e) = e {
                    e.render(out);
                }
                out.push_str(post);
                out.push('\n');
            }
            Stmt::Nest {
                pre,
                cond,
                post,
                body,
                alt,
                tail,
                ..
            } => {
                out.push_str(&pad);
                out.push_str(pre);
                if let Some(c) = cond {
                    c.render(out);
                }
                out.push_str(post);
                out.push_str(" {\n");
                render_block(body, indent + 1, out);
                out.push_str(&pad);
                out.push('}');
                if let Some(alt) = alt {
                    out.push_str(" else {\n");
                    render_block(alt, indent + 1, out);
                    out.push_str(&pad);
                    out.push('}');
                }
                out.push_str(tail);
                out.push('\n');
            }
            Stmt::Switch { scrutinee, cases } => {
                out.push_str(&pad);
                out.push_str("switch (");
                scrutinee.render(out);
                out.push_str(") {\n");
                for case in cases {
                    let _ = writeln!(out, "{pad}{}: {{", case.label);
                    render_block(&case.body, indent + 1, out);
                    if case.brk == Break::Inside {
                        let _ = writeln!(out, "{pad}    break;");
                    }
                    let _ = writeln!(out, "{pad}}}");
                    if case.brk == Break::After {
                        let _ = writeln!(out, "{pad}break;");
                    }
                }
                let _ = writeln!(out, "{pad}}}");
            }
        }
    }

    pub fn size(&self) -> usize {
        1 + match self {
            Stmt::Simple { e, .. } => e.as_ref().map_or(0, Expr::size),
            Stmt::Nest {
                cond, body, alt, ..
            } => {
                cond.as_ref().map_or(0, Expr::size)
                    + block_size(body)
                    + alt.as_deref().map_or(0, block_size)
            }
            Stmt::Switch { scrutinee, cases } => {
                scrutinee.size() + cases.iter().map(|c| 1 + block_size(&c.body)).sum::<usize>()
            }
        }
    }
}

pub fn render_block(stmts: &[Stmt], indent: usize, out: &mut String) {
    for s in stmts {
        s.render(indent, out);
    }
}

pub fn block_size(stmts: &[Stmt]) -> usize {
    stmts.iter().map(Stmt::size).sum()
}

/// A function: its signature line, its body, and whether the reducer may drop it (every
/// function but `main`).
#[derive(Clone, Debug)]
pub struct Func {
    pub signature: String,
    pub body: Vec<Stmt>,
    pub removable: bool,
}

/// A whole program: the fixed header (macros, globals), the functions in definition
/// order (callees before callers), and the processor counts it is run with.
#[derive(Clone, Debug)]
pub struct Program {
    pub seed: u64,
    pub header: String,
    pub funcs: Vec<Func>,
    pub procs: Vec<u32>,
}

impl Program {
    /// The Fork source text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        out.push_str(&self.header);
        for f in &self.funcs {
            out.push('\n');
            out.push_str(&f.signature);
            out.push_str("\n{\n");
            render_block(&f.body, 1, &mut out);
            out.push_str("}\n");
        }
        out
    }

    pub fn size(&self) -> usize {
        self.funcs.iter().map(|f| 1 + block_size(&f.body)).sum()
    }
}
