//! The syntactic tree the parser produces: names are strings, nothing is resolved or typed.
//! `check` turns it into the resolved, typed `hir`. Every node carries the `Span` of its text in
//! the preprocessed source; `source::SourceMap` maps spans back to the original files.

use crate::source::Span;

#[derive(Debug, Clone, PartialEq)]
pub struct TranslationUnit {
    pub items: Vec<Item>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A global declaration, a typedef, or a struct/enum definition (possibly with declarators).
    Decl(Decl),
    Function(FunctionDef),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SharityKw {
    Sh,
    Pr,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FnKindKw {
    Sync,
    Async,
    Straight,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageKw {
    Typedef,
    Static,
    Extern,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// Declaration specifiers, as written: `sh const unsigned long`, `struct node`, `sync int`.
#[derive(Debug, Clone, PartialEq)]
pub struct DeclSpecs {
    pub sharity: Option<SharityKw>,
    pub fn_kind: Option<FnKindKw>,
    pub storage: Option<StorageKw>,
    pub is_const: bool,
    pub base: BaseType,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum BaseType {
    Void,
    Char {
        signed: Option<bool>,
    },
    Short {
        signed: bool,
    },
    Int {
        signed: bool,
    },
    Long {
        signed: bool,
    },
    Float,
    Double,
    /// `struct tag`, or `struct tag? { fields }` when `fields` is Some.
    Struct {
        tag: Option<Ident>,
        fields: Option<Vec<Decl>>,
    },
    /// `enum tag`, or `enum tag? { A, B = 3 }` when `variants` is Some.
    Enum {
        tag: Option<Ident>,
        variants: Option<Vec<(Ident, Option<Expr>)>>,
    },
    /// A name introduced by `typedef`.
    Named(Ident),
}

/// A declarator: the name and the type constructors around it (`*p`, `a[N][M]`, `(*f)(int)`).
#[derive(Debug, Clone, PartialEq)]
pub struct Declarator {
    /// None for abstract declarators (in casts, `sizeof(type)`, unnamed parameters).
    pub name: Option<Ident>,
    /// Applied innermost first: for `*a[3]` this is `[Array(3), Pointer]` (array of pointers).
    pub derived: Vec<Derived>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Derived {
    Pointer {
        is_const: bool,
        /// `int * sh p`: the sharity of the pointer itself, where written after the `*`.
        sharity: Option<SharityKw>,
    },
    /// `[N]`; `[]` has no size (parameters, or an initialised array).
    Array(Option<Expr>),
    Function(Vec<Param>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Decl {
    pub specs: DeclSpecs,
    pub declarators: Vec<InitDeclarator>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct InitDeclarator {
    pub declarator: Declarator,
    pub init: Option<Initializer>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Initializer {
    Expr(Expr),
    List(Vec<Initializer>, Span),
}

/// A type as written in a cast or `sizeof(type)`.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeName {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FunctionDef {
    pub specs: DeclSpecs,
    /// Its `derived` starts with `Derived::Function(params)` (outermost first, as for every
    /// declarator): `int *f(void)` has `[Function([]), Pointer]`, a function returning `int *`.
    pub declarator: Declarator,
    pub body: Block,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    Decl(Decl),
    Expr(Expr),
    Empty,
    Block(Block),
    If {
        cond: Expr,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    For {
        /// A declaration (C99) or an expression statement; `None` when empty.
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    Switch {
        cond: Expr,
        body: Box<Stmt>,
    },
    Case(Expr, Box<Stmt>),
    Default(Box<Stmt>),
    Break,
    Continue,
    Return(Option<Expr>),
    /// `fork (k; @ = e1; $ = e2) S`; `dollar` is None when `$ = e2` is omitted.
    Fork {
        count: Expr,
        at: Expr,
        dollar: Option<Expr>,
        body: Box<Stmt>,
    },
    Start(Box<Stmt>),
    Farm(Box<Stmt>),
    Seq(Box<Stmt>),
    Barrier,
    /// Constructs the dialect rejects, kept so the checker can name them in a clear error.
    Goto(Ident),
    Label(Ident, Box<Stmt>),
    /// `join (...) ...`, `lock`-family statements: the name of the construct.
    Unsupported(&'static str),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// Integer literal with its C suffix flags (`10u`, `10L`).
    IntLit {
        value: u64,
        unsigned: bool,
        long: bool,
    },
    FloatLit {
        value: f64,
        /// `1.5f`
        single: bool,
    },
    CharLit(u8),
    /// Escapes already decoded; no terminating NUL.
    StrLit(Vec<u8>),
    Ident(String),
    /// `$`
    Dollar,
    /// `$$`
    DollarDollar,
    /// `@`
    At,
    Unary(UnaryOp, Box<Expr>),
    /// `x++` / `x--`
    Postfix(IncDec, Box<Expr>),
    /// `++x` / `--x`
    Prefix(IncDec, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `=` when op is None, `+=` etc. otherwise.
    Assign(Option<BinaryOp>, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    /// Calls of functions and of built-ins alike (`printf`, `mpadd`, `groupsize`): the checker
    /// decides which.
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Member(Box<Expr>, Ident),
    Arrow(Box<Expr>, Ident),
    Cast(Box<TypeName>, Box<Expr>),
    SizeofExpr(Box<Expr>),
    SizeofType(Box<TypeName>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IncDec {
    Inc,
    Dec,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `+x`
    Plus,
    /// `!x`
    Not,
    /// `~x`
    BitNot,
    /// `*p`
    Deref,
    /// `&x`
    AddrOf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            LogAnd => "&&",
            LogOr => "||",
        }
    }
}
