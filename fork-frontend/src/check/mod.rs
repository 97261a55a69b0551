//! The checker: `ast::TranslationUnit` → `hir::Program`. Resolves names (C scoping), types
//! every expression with C's conversions made explicit, folds constants, lays out structs,
//! computes sharity (docs/language.md §3) and the mode of every statement (§4), and enforces
//! the Fork rules. It keeps going after an error: an expression that failed is `None`, which
//! silently poisons whatever contains it, so each mistake is reported once.
//!
//! Decisions this module documents (docs/language.md leaves them open):
//! - `barrier;` in a synchronous region is an error (E0406): it is implicit there.
//! - `sh` locals are allowed in any synchronous region, including a `start`/`seq` body inside
//!   an `async` function (plain `main`); they are an error in asynchronous regions.
//! - The statements of a `straight` function are marked `Mode::Sync`; a `straight` function
//!   runs in the mode of its call site, which backends take from the calling statement.
//! - Functions without `sync`/`async`/`straight` are `async`.
//! - `return`, `break` and `continue` cannot leave a `start`, `farm`, `seq` or `fork` body.
//! - Calls of built-ins are private like user calls, except `groupsize()` (shared) and `ilog2`
//!   (the sharity of its argument), as §3 lists.
//! - An unsuffixed integer literal above `INT_MAX` is `long` (the AST does not say whether it
//!   was hexadecimal, where C would pick `unsigned`).

mod builtins;
pub mod codes;
mod decl;
mod expr;
mod fold;
mod init;
mod modes;
mod scope;
mod stmt;
mod types;

use crate::ast::{self, TranslationUnit};
use crate::diag::{Code, Diagnostic};
use crate::hir::{
    FnKind, FuncId, Function, GlobalVar, Program, Sharity, StrId, StructDef, Type, Var, VarId,
};
use crate::source::Span;
use std::collections::HashMap;

pub const CODES: &[&Code] = codes::CODES;

/// Resolves, types and checks a translation unit. Returns the program when there are no
/// errors; the diagnostics hold errors and warnings.
pub fn check(unit: &TranslationUnit) -> (Option<Program>, Vec<Diagnostic>) {
    // The checker recurses once per nesting level of the input; a thread of its own with a
    // large stack makes the nesting limits, not the caller's stack, decide what fits.
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new()
            .name("forkcc-check".into())
            .stack_size(CHECK_STACK_BYTES)
            .spawn_scoped(scope, || check_here(unit));
        match thread {
            // A panic (a checker bug) reaches the caller as if it had happened here.
            Ok(thread) => thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had: check on the caller's stack.
            Err(_) => check_here(unit),
        }
    })
}

/// Stack for the checking thread (reserved address space; only used pages are committed).
const CHECK_STACK_BYTES: usize = 256 << 20;

fn check_here(unit: &TranslationUnit) -> (Option<Program>, Vec<Diagnostic>) {
    let mut checker = Checker::new(unit);
    for item in &unit.items {
        match item {
            ast::Item::Decl(decl) => checker.global_decl(decl),
            ast::Item::Function(def) => checker.function_def(def),
        }
    }
    checker.finish()
}

/// A function's signature, known from its first declaration (prototype or definition).
#[derive(Debug, Clone)]
struct FuncSig {
    name: String,
    kind: FnKind,
    ret: Type,
    params: Vec<ParamSig>,
    span: Span,
    defined: bool,
    /// The first call, for "called but never defined".
    first_call: Option<Span>,
}

#[derive(Debug, Clone, PartialEq)]
struct ParamSig {
    ty: Type,
    sharity: Sharity,
}

/// Whole-program state while checking.
struct Checker {
    structs: Vec<StructDef>,
    /// Whether each struct's members are known.
    struct_complete: Vec<bool>,
    vars: Vec<Var>,
    /// Whether each variable is `const` (top level), for "assignment to const".
    var_const: Vec<bool>,
    funcs: Vec<Function>,
    sigs: Vec<FuncSig>,
    globals: Vec<GlobalVar>,
    strings: Vec<Vec<u8>>,
    diags: Vec<Diagnostic>,
    scopes: scope::Scopes,
    /// Every global name with its declaration, to tell "used before its declaration" from
    /// "not declared".
    global_names: HashMap<String, Span>,
    /// Ids kept for the functions the unit defines, so that they come first in
    /// `Program::funcs` and prototypes never defined (nor called) can be dropped at the end.
    reserved: HashMap<String, FuncId>,
    defined_count: usize,
    /// The function being checked.
    func: Option<modes::FnCtx>,
    /// How deeply the expression being checked is nested.
    expr_depth: u32,
    /// Whether the current outermost expression was already reported as too deep.
    too_deep_reported: bool,
}

impl Checker {
    fn new(unit: &TranslationUnit) -> Checker {
        let defined = scope::defined_functions(unit);
        // Placeholders until each function's declaration is checked.
        let sigs = defined
            .iter()
            .map(|n| FuncSig {
                name: n.name.clone(),
                kind: FnKind::Async,
                ret: Type::Void,
                params: Vec::new(),
                span: n.span,
                defined: false,
                first_call: None,
            })
            .collect();
        let funcs = defined
            .iter()
            .map(|n| empty_function(&n.name, FnKind::Async, Type::Void, n.span))
            .collect();
        let reserved = defined
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name.clone(), FuncId(i as u32)))
            .collect();
        Checker {
            structs: Vec::new(),
            struct_complete: Vec::new(),
            vars: Vec::new(),
            var_const: Vec::new(),
            funcs,
            sigs,
            globals: Vec::new(),
            strings: Vec::new(),
            diags: Vec::new(),
            scopes: scope::Scopes::new(),
            global_names: scope::global_names(unit),
            reserved,
            defined_count: defined.len(),
            func: None,
            expr_depth: 0,
            too_deep_reported: false,
        }
    }

    fn report(&mut self, diagnostic: Diagnostic) {
        self.diags.push(diagnostic);
    }

    fn new_var(&mut self, var: Var, is_const: bool) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(var);
        self.var_const.push(is_const);
        id
    }

    fn intern_string(&mut self, bytes: &[u8]) -> StrId {
        let mut with_nul = bytes.to_vec();
        with_nul.push(0);
        if let Some(i) = self.strings.iter().position(|s| *s == with_nul) {
            return StrId(i as u32);
        }
        self.strings.push(with_nul);
        StrId(self.strings.len() as u32 - 1)
    }

    fn finish(mut self) -> (Option<Program>, Vec<Diagnostic>) {
        self.check_sync_calls();
        for sig in &self.sigs {
            if let (false, Some(call)) = (sig.defined, sig.first_call) {
                self.diags.push(
                    Diagnostic::error(
                        &codes::E0209,
                        call,
                        format!("`{}` is called but never defined", sig.name),
                    )
                    .with_label("called here")
                    .with_note(sig.span, "declared here")
                    .with_help(format!("define `{}`", sig.name)),
                );
            }
        }
        let main = self.sigs.iter().position(|s| s.name == "main" && s.defined);
        // A `main` definition that failed to check has its own error already.
        let main_written = self.sigs[..self.defined_count]
            .iter()
            .any(|s| s.name == "main");
        let main = match main {
            Some(i) => Some(FuncId(i as u32)),
            None if main_written => None,
            None => {
                self.diags.push(
                    Diagnostic::error(
                        &codes::E0208,
                        Span::default(),
                        "the program has no `main` function",
                    )
                    .with_help("add `void main(void) { ... }` (or `sync void main(void)`)"),
                );
                None
            }
        };
        // Only prototypes never defined follow the defined functions; none is called.
        self.funcs.truncate(self.defined_count);
        let has_error = self
            .diags
            .iter()
            .any(|d| d.severity == crate::diag::Severity::Error);
        let program = match (main, has_error) {
            (Some(main), false) => Some(Program {
                structs: self.structs,
                vars: self.vars,
                funcs: self.funcs,
                globals: self.globals,
                strings: self.strings,
                main,
            }),
            _ => None,
        };
        (program, self.diags)
    }
}

/// A function before its body is checked.
fn empty_function(name: &str, kind: FnKind, ret: Type, span: Span) -> Function {
    Function {
        name: name.to_string(),
        kind,
        ret,
        params: Vec::new(),
        locals: Vec::new(),
        body: crate::hir::Block {
            stmts: Vec::new(),
            span,
        },
        span,
    }
}

#[cfg(test)]
mod tests;
