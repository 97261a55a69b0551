//! The checked program: what every backend consumes (pram-sim, transform, and through the
//! transform the CPU plan executor and the GPU). Names are resolved to ids, every expression
//! has its C type and its sharity, implicit conversions are explicit `Convert` nodes, array
//! decay is an explicit `Decay`, `a[i]` is `*(a + i)`, `p->f` is `(*p).f`, constants (enum
//! values, `sizeof`, macros) are folded. A backend never needs the AST.
//!
//! Memory is byte-addressed with C layout (`Type::size`, `Type::align`, struct field offsets),
//! the same layout on every backend.

use crate::source::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StructId(pub u32);
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StrId(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sharity {
    Shared,
    Private,
}

impl Sharity {
    /// Shared only when both are (the sharity of an expression built from two).
    pub fn join(self, other: Sharity) -> Sharity {
        if self == Sharity::Shared && other == Sharity::Shared {
            Sharity::Shared
        } else {
            Sharity::Private
        }
    }
}

/// Whether code runs in a synchronous region (the group in lockstep) or asynchronously.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    Sync,
    Async,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FnKind {
    Sync,
    Async,
    /// Runs in its caller's mode: its statements are marked `Mode::Sync`, and a backend takes
    /// the real mode from the statement that calls it.
    Straight,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IntKind {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
}

impl IntKind {
    pub fn bytes(self) -> u64 {
        match self {
            IntKind::I8 | IntKind::U8 => 1,
            IntKind::I16 | IntKind::U16 => 2,
            IntKind::I32 | IntKind::U32 => 4,
            IntKind::I64 | IntKind::U64 => 8,
        }
    }

    pub fn signed(self) -> bool {
        matches!(
            self,
            IntKind::I8 | IntKind::I16 | IntKind::I32 | IntKind::I64
        )
    }

    /// The largest value of the signed type of this width.
    pub fn signed_max(self) -> i64 {
        i64::MAX >> (64 - 8 * self.bytes())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloatKind {
    F32,
    F64,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Int(IntKind),
    Float(FloatKind),
    /// Pointers are 8 bytes.
    Ptr(Box<Type>),
    Array(Box<Type>, u64),
    Struct(StructId),
}

impl Type {
    pub const INT: Type = Type::Int(IntKind::I32);
    pub const CHAR: Type = Type::Int(IntKind::I8);
    pub const LONG: Type = Type::Int(IntKind::I64);
    pub const DOUBLE: Type = Type::Float(FloatKind::F64);

    pub fn size(&self, structs: &[StructDef]) -> u64 {
        match self {
            Type::Void => 1,
            Type::Int(k) => k.bytes(),
            Type::Float(FloatKind::F32) => 4,
            Type::Float(FloatKind::F64) => 8,
            Type::Ptr(_) => 8,
            Type::Array(elem, n) => elem.size(structs) * n,
            Type::Struct(id) => structs[id.0 as usize].size,
        }
    }

    pub fn align(&self, structs: &[StructDef]) -> u64 {
        match self {
            Type::Array(elem, _) => elem.align(structs),
            Type::Struct(id) => structs[id.0 as usize].align,
            other => other.size(structs),
        }
    }

    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Int(_) | Type::Float(_) | Type::Ptr(_))
    }

    pub fn pointee(&self) -> Option<&Type> {
        match self {
            Type::Ptr(t) => Some(t),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct StructDef {
    /// The tag, or `<anonymous>`.
    pub name: String,
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    pub ty: Type,
    /// Byte offset in the struct.
    pub offset: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    pub structs: Vec<StructDef>,
    pub vars: Vec<Var>,
    pub funcs: Vec<Function>,
    /// Global variables in declaration order, with their initialisers. Globals are
    /// zero-initialised before `init` is applied.
    pub globals: Vec<GlobalVar>,
    /// String literal contents, each with its terminating NUL.
    pub strings: Vec<Vec<u8>>,
    pub main: FuncId,
}

impl Program {
    pub fn var(&self, id: VarId) -> &Var {
        &self.vars[id.0 as usize]
    }

    pub fn func(&self, id: FuncId) -> &Function {
        &self.funcs[id.0 as usize]
    }

    pub fn string(&self, id: StrId) -> &[u8] {
        &self.strings[id.0 as usize]
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct GlobalVar {
    pub var: VarId,
    pub init: Option<Vec<InitElem>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Var {
    pub name: String,
    pub ty: Type,
    pub sharity: Sharity,
    pub kind: VarKind,
    /// `&v` appears somewhere (or v is an array that decays): v must live in addressable memory.
    pub addr_taken: bool,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarKind {
    Global,
    Local { func: FuncId },
    Param { func: FuncId, index: usize },
}

/// One scalar of an initialiser: store `value` (already converted to the scalar's type) at
/// byte `offset` of the variable. Bytes not covered by any element are zero.
#[derive(Debug, Clone, PartialEq)]
pub struct InitElem {
    pub offset: u64,
    pub value: Expr,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    pub name: String,
    pub kind: FnKind,
    pub ret: Type,
    pub params: Vec<VarId>,
    /// Every local of the body, nested blocks included, in declaration order.
    pub locals: Vec<VarId>,
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
    /// The mode the statement runs in (a `farm` body is `Async` inside a `Sync` function).
    /// In a `straight` function it is always `Sync`: the call site decides (see `FnKind`).
    pub mode: Mode,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    Expr(Expr),
    /// A local comes into scope; `init: None` means no initialiser (backends zero-fill, so runs
    /// are deterministic). Shared locals are created once per executing group.
    Decl {
        var: VarId,
        init: Option<Vec<InitElem>>,
    },
    Block(Block),
    If {
        cond: Expr,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    /// `while`, `do` and `for` (the `for` init is a statement before the loop, in a Block).
    /// `cond: None` loops until `break`/`return`.
    Loop {
        cond: Option<Expr>,
        /// `for`'s third expression, run after the body and after `continue`.
        step: Option<Expr>,
        body: Box<Stmt>,
        /// false for `do ... while`.
        test_first: bool,
    },
    /// Case bodies in source order; control enters at the matching case (or `default`) and
    /// falls through to the following bodies until `break`.
    Switch {
        cond: Expr,
        cases: Vec<SwitchCase>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
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
}

#[derive(Debug, Clone, PartialEq)]
pub struct SwitchCase {
    /// None for `default`.
    pub value: Option<i64>,
    pub body: Vec<Stmt>,
    pub span: Span,
}

impl Stmt {
    /// An `if`/`switch` on a private condition in a synchronous region splits the group
    /// (docs/language.md §4); a shared condition never does.
    pub fn splits_group(&self) -> bool {
        if self.mode != Mode::Sync {
            return false;
        }
        match &self.kind {
            StmtKind::If { cond, .. } | StmtKind::Switch { cond, .. } => {
                cond.sharity == Sharity::Private
            }
            StmtKind::Loop { cond, .. } => {
                cond.as_ref().map(|c| c.sharity) == Some(Sharity::Private)
            }
            StmtKind::Fork { .. } => true,
            _ => false,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    /// The C type of the value (for lvalues: of the object). Arrays keep their array type;
    /// where C decays them, a `Decay` node says so.
    pub ty: Type,
    pub sharity: Sharity,
    pub span: Span,
}

/// The direct subexpressions of an expression kind, in evaluation order; written once for
/// `&` and `&mut` (`Expr::for_each_child`, `Expr::for_each_child_mut`).
macro_rules! for_each_child {
    ($kind:expr, $f:ident, $iter:ident) => {
        match $kind {
            ExprKind::IntConst(_)
            | ExprKind::FloatConst(_)
            | ExprKind::Str(_)
            | ExprKind::Var(_)
            | ExprKind::ProcNr
            | ExprKind::StartedProcs
            | ExprKind::Dollar
            | ExprKind::DollarDollar
            | ExprKind::At
            | ExprKind::GroupSize => {}
            ExprKind::Deref(x)
            | ExprKind::AddrOf(x)
            | ExprKind::Decay(x)
            | ExprKind::Convert(x)
            | ExprKind::Unary(_, x)
            | ExprKind::Member { base: x, .. }
            | ExprKind::IncDec { place: x, .. } => $f(x),
            ExprKind::Binary(_, a, b)
            | ExprKind::LogAnd(a, b)
            | ExprKind::LogOr(a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::PtrOffset {
                ptr: a, index: b, ..
            }
            | ExprKind::PtrDiff { a, b, .. }
            | ExprKind::Assign { place: a, value: b }
            | ExprKind::CompoundAssign {
                place: a, rhs: b, ..
            } => {
                $f(a);
                $f(b);
            }
            ExprKind::Cond(a, b, c) => {
                $f(a);
                $f(b);
                $f(c);
            }
            ExprKind::Call { args, .. } | ExprKind::Builtin { args, .. } => {
                args.$iter().for_each($f)
            }
        }
    };
}

impl Expr {
    /// Calls `f` on each direct subexpression, in evaluation order.
    pub fn for_each_child<'a>(&'a self, mut f: impl FnMut(&'a Expr)) {
        for_each_child!(&self.kind, f, iter)
    }

    /// Calls `f` on each direct subexpression, mutably, in evaluation order.
    pub fn for_each_child_mut(&mut self, mut f: impl FnMut(&mut Expr)) {
        for_each_child!(&mut self.kind, f, iter_mut)
    }

    /// Calls `f` on this expression and every one nested in it, outer before inner.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        self.for_each_child(|c| c.walk(f));
    }

    /// The place an assignment (`=`, `op=`, `++`, `--`) writes; None for any other expression.
    pub fn assigned_place(&self) -> Option<&Expr> {
        match &self.kind {
            ExprKind::Assign { place, .. }
            | ExprKind::CompoundAssign { place, .. }
            | ExprKind::IncDec { place, .. } => Some(place),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// Integer constant of `ty`; unsigned values are stored as their bit pattern.
    IntConst(i64),
    FloatConst(f64),
    /// A string literal: a pointer to its first char (type `char *`).
    Str(StrId),
    /// Lvalue.
    Var(VarId),
    /// Lvalue `*p`.
    Deref(Box<Expr>),
    /// Lvalue `base.field` (`base` is a struct lvalue); index into the struct's `fields`.
    Member {
        base: Box<Expr>,
        field: usize,
    },
    AddrOf(Box<Expr>),
    /// An array lvalue used as a pointer to its first element.
    Decay(Box<Expr>),
    /// Value conversion from the operand's type to `ty` (integer, float, pointer, to void).
    Convert(Box<Expr>),
    Unary(UnOp, Box<Expr>),
    /// Both operands have the same arithmetic type (after C's usual conversions), or for
    /// comparisons the same pointer type. Comparisons have type `int`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `ptr + index * elem_size` (bytes); `index` is a signed 64-bit integer. `p - n` is
    /// `PtrOffset` with a negated index.
    PtrOffset {
        ptr: Box<Expr>,
        index: Box<Expr>,
        elem_size: u64,
    },
    /// `(a - b) / elem_size`, type `long`.
    PtrDiff {
        a: Box<Expr>,
        b: Box<Expr>,
        elem_size: u64,
    },
    /// Short-circuit `&&` / `||`, type `int`.
    LogAnd(Box<Expr>, Box<Expr>),
    LogOr(Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `place = value`; `value` already has the place's type. The value of the expression is
    /// the stored value.
    Assign {
        place: Box<Expr>,
        value: Box<Expr>,
    },
    /// `place op= rhs`: the old value converted to `op_ty`, combined with `rhs` (of `op_ty`),
    /// converted back to the place's type and stored.
    CompoundAssign {
        place: Box<Expr>,
        op: CompoundOp,
        rhs: Box<Expr>,
        op_ty: Type,
    },
    /// `++x`, `x--`, ... on an integer, float (step 1) or pointer (step one element).
    IncDec {
        place: Box<Expr>,
        inc: bool,
        prefix: bool,
    },
    Comma(Box<Expr>, Box<Expr>),
    /// A call of a user function; arguments converted to the parameter types.
    Call {
        func: FuncId,
        args: Vec<Expr>,
    },
    Builtin {
        op: Builtin,
        args: Vec<Expr>,
    },
    /// `__PROC_NR__`
    ProcNr,
    /// `__STARTED_PROCS__`
    StartedProcs,
    /// `$`
    Dollar,
    /// `$$`
    DollarDollar,
    /// `@`
    At,
    /// `groupsize()`
    GroupSize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    BitNot,
    /// `!x`, type `int`.
    LogNot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl BinOp {
    /// The C operator.
    pub fn symbol(self) -> &'static str {
        match self {
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

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompoundOp {
    Arith(BinOp),
    /// `p += n` / `p -= n` on a pointer: step in bytes per element.
    PtrAdd {
        elem_size: u64,
    },
    PtrSub {
        elem_size: u64,
    },
}

/// The multiprefix combining operations (docs/language.md §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MpOp {
    Add,
    Max,
    Min,
    And,
    Or,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `printf(fmt, args...)`: args[0] is a `Str` (the checker requires a literal format and
    /// checks the arguments against it).
    Printf,
    /// `mpadd(p, v)` etc.: returns the old value combined with earlier members' values.
    Multiprefix(MpOp),
    /// `syncadd(p, v)` etc.: the same update, type void.
    SyncUpdate(MpOp),
    Ilog2,
    Shmalloc,
    Shfree,
    Malloc,
    Free,
    /// `assert(e)`: a runtime error with the location when e is 0.
    Assert,
    /// Made by the transform only, never by the checker: a recursive asynchronous call's
    /// state machine (`transform::rules::recursion`) checks that its stack has room for one
    /// more frame; 0 is the fault R0008 (recursion too deep) at the call.
    StackRoom,
    Abs,
    Labs,
    Fabs,
    Sqrt,
    Pow,
    Exp,
    Log,
    Sin,
    Cos,
    Floor,
    Ceil,
}
