//! Declarations: globals, typedefs, function prototypes and definitions, parameters, locals.

use super::builtins::NAMES as BUILTINS;
use super::codes::*;
use super::modes::FnCtx;
use super::scope::Symbol;
use super::{Checker, FuncSig, ParamSig};
use crate::ast::{self, SharityKw, StorageKw};
use crate::diag::Diagnostic;
use crate::hir::{
    self, FnKind, FuncId, GlobalVar, InitElem, Mode, Sharity, Type, Var, VarId, VarKind,
};
use crate::source::Span;

/// A declarator resolved to a type, with what applies to the declared object itself.
struct Declared {
    ty: Type,
    sharity: Sharity,
    is_const: bool,
}

fn sharity_of(kw: Option<SharityKw>) -> Sharity {
    match kw {
        Some(SharityKw::Sh) => Sharity::Shared,
        _ => Sharity::Private,
    }
}

impl Checker {
    /// The type, sharity and constness of a declarator (`int * sh p`: the pointer's own
    /// sharity, written after the `*`, wins over the specifiers').
    fn declared(
        &mut self,
        specs: &ast::DeclSpecs,
        base: &Type,
        d: &ast::Declarator,
    ) -> Option<Declared> {
        let ty = self.derive(base.clone(), &d.derived, d.span)?;
        let (sharity, is_const) = match d.derived.first() {
            Some(ast::Derived::Pointer { is_const, sharity }) => {
                (sharity_of(sharity.or(specs.sharity)), *is_const)
            }
            _ => (sharity_of(specs.sharity), specs.is_const),
        };
        Some(Declared {
            ty,
            sharity,
            is_const,
        })
    }

    fn reject_storage(&mut self, specs: &ast::DeclSpecs, at_file_scope: bool) {
        let unsupported = match specs.storage {
            Some(StorageKw::Extern) => Some("`extern`"),
            Some(StorageKw::Static) if !at_file_scope => Some("a `static` local"),
            _ => None,
        };
        if let Some(what) = unsupported {
            self.report(
                Diagnostic::error(&E0317, specs.span, format!("{what} is not supported"))
                    .with_label("unsupported storage class")
                    .with_help("a Fork program is one translation unit: use a global variable"),
            );
        }
    }

    fn reject_fn_kind(&mut self, specs: &ast::DeclSpecs) {
        if specs.fn_kind.is_some() {
            self.report(
                Diagnostic::error(
                    &E0411,
                    specs.span,
                    "`sync`/`async`/`straight` apply only to functions",
                )
                .with_label("not a function")
                .with_help("remove the function kind"),
            );
        }
    }

    fn typedefs(&mut self, decl: &ast::Decl, base: &Type) {
        if decl.specs.sharity.is_some() || decl.specs.fn_kind.is_some() {
            self.report(
                Diagnostic::error(
                    &E0411,
                    decl.specs.span,
                    "a `typedef` takes no `sh`/`pr` or function kind",
                )
                .with_label("not allowed in a typedef")
                .with_help("write the sharity on the variables declared with the type"),
            );
        }
        for d in &decl.declarators {
            let Some(name) = &d.declarator.name else {
                continue;
            };
            if let Some(ty) = self.derive(base.clone(), &d.declarator.derived, d.declarator.span) {
                self.declare_name(name, Symbol::Typedef(ty));
            }
        }
    }

    pub(super) fn global_decl(&mut self, decl: &ast::Decl) {
        let Some(base) = self.base_type(&decl.specs) else {
            return;
        };
        if decl.specs.storage == Some(StorageKw::Typedef) {
            return self.typedefs(decl, &base);
        }
        self.reject_storage(&decl.specs, true);
        for d in &decl.declarators {
            if let Some(ast::Derived::Function(params)) = d.declarator.derived.first() {
                self.function_decl(&decl.specs, &base, &d.declarator, params, false);
                continue;
            }
            self.reject_fn_kind(&decl.specs);
            let Some(name) = &d.declarator.name else {
                continue;
            };
            let Some(declared) = self.declared(&decl.specs, &base, &d.declarator) else {
                continue;
            };
            if let Some((var, init)) =
                self.variable(name, declared, VarKind::Global, d.init.as_ref())
            {
                self.globals.push(GlobalVar { var, init });
            }
        }
    }

    /// Creates and declares a variable, then checks its initialiser: the name is in scope in
    /// its own initialiser (as in C), and an array without size takes it from there.
    fn variable(
        &mut self,
        name: &ast::Ident,
        declared: Declared,
        kind: VarKind,
        init: Option<&ast::Initializer>,
    ) -> Option<(VarId, Option<Vec<InitElem>>)> {
        let Declared {
            mut ty,
            sharity,
            is_const,
        } = declared;
        let var = self.new_var(
            Var {
                name: name.name.clone(),
                ty: ty.clone(),
                sharity,
                kind,
                addr_taken: false,
                span: name.span,
            },
            is_const,
        );
        if !self.declare_name(name, Symbol::Var(var)) {
            return None;
        }
        let init = match init {
            Some(init) => Some(self.initializer(&mut ty, init, kind == VarKind::Global)?),
            None => None,
        };
        if !self.object_type_ok(&ty, name) {
            return None;
        }
        self.vars[var.0 as usize].ty = ty;
        Some((var, init))
    }

    /// A variable's type must be a sized object type.
    fn object_type_ok(&mut self, ty: &Type, name: &ast::Ident) -> bool {
        if matches!(ty, Type::Array(_, 0)) {
            self.report(
                Diagnostic::error(
                    &E0309,
                    name.span,
                    format!("the array `{}` has no size", name.name),
                )
                .with_label("size missing")
                .with_help("give the size in `[]`, or an initialiser to take it from"),
            );
            return false;
        }
        self.require_object(ty, name.span, &format!("the variable `{}`", name.name))
    }

    /// Declares (or re-declares) a function from a prototype or a definition. Returns its id
    /// and parameter types when the declaration is consistent.
    fn function_decl(
        &mut self,
        specs: &ast::DeclSpecs,
        base: &Type,
        d: &ast::Declarator,
        params: &[ast::Param],
        defining: bool,
    ) -> Option<(FuncId, Vec<ParamSig>)> {
        let name = d.name.as_ref()?;
        let kind = match specs.fn_kind {
            Some(ast::FnKindKw::Sync) => FnKind::Sync,
            Some(ast::FnKindKw::Straight) => FnKind::Straight,
            Some(ast::FnKindKw::Async) | None => FnKind::Async,
        };
        if specs.sharity.is_some() {
            self.report(
                Diagnostic::error(
                    &E0411,
                    specs.span,
                    format!("the function `{}` cannot be `sh` or `pr`", name.name),
                )
                .with_label("sharity on a function")
                .with_help("return values are always private; remove `sh`/`pr`"),
            );
        }
        if BUILTINS.contains(&name.name.as_str()) {
            self.report(
                Diagnostic::error(
                    &E0207,
                    name.span,
                    format!("`{}` is a built-in and cannot be redefined", name.name),
                )
                .with_label("built-in name")
                .with_help("choose another name for this function"),
            );
            return None;
        }
        let ret = self.derive(base.clone(), &d.derived[1..], d.span)?;
        if matches!(ret, Type::Array(..)) {
            self.report(
                Diagnostic::error(&E0317, d.span, "a function cannot return an array")
                    .with_help("return a pointer, or fill an array passed as a parameter"),
            );
            return None;
        }
        let params = self.param_sigs(params, kind)?;
        if name.name == "main" && !self.main_signature_ok(kind, &ret, &params, name.span) {
            return None;
        }
        let sig = FuncSig {
            name: name.name.clone(),
            kind,
            ret: ret.clone(),
            params: params.clone(),
            span: name.span,
            defined: defining,
            first_call: None,
        };
        match self.scopes.lookup_current(&name.name).cloned() {
            Some((Symbol::Func(id), previous)) => {
                let old = &self.sigs[id.0 as usize];
                if old.kind != kind || old.ret != ret || old.params != params {
                    self.report(
                        Diagnostic::error(
                            &E0206,
                            name.span,
                            format!(
                                "this declaration of `{}` conflicts with an earlier one",
                                name.name
                            ),
                        )
                        .with_label("different kind, return type or parameters")
                        .with_note(previous, "first declared here")
                        .with_help("make every declaration of the function agree"),
                    );
                    return None;
                }
                if old.defined && defining {
                    self.report(
                        Diagnostic::error(
                            &E0206,
                            name.span,
                            format!("`{}` is defined twice", name.name),
                        )
                        .with_label("second definition")
                        .with_note(previous, "first defined here")
                        .with_help("remove or rename one definition"),
                    );
                    return None;
                }
                let old = &mut self.sigs[id.0 as usize];
                old.defined |= defining;
                if defining {
                    old.span = name.span;
                }
                Some((id, params))
            }
            Some(_) | None => {
                let id = self
                    .reserved
                    .remove(&name.name)
                    .unwrap_or(FuncId(self.sigs.len() as u32));
                if !self.declare_name(name, Symbol::Func(id)) {
                    return None;
                }
                let function = super::empty_function(&name.name, kind, ret, name.span);
                match self.sigs.get_mut(id.0 as usize) {
                    Some(slot) => {
                        *slot = sig;
                        self.funcs[id.0 as usize] = function;
                    }
                    None => {
                        self.sigs.push(sig);
                        self.funcs.push(function);
                    }
                }
                Some((id, params))
            }
        }
    }

    fn main_signature_ok(
        &mut self,
        kind: FnKind,
        ret: &Type,
        params: &[ParamSig],
        span: Span,
    ) -> bool {
        let problem = if kind == FnKind::Straight {
            Some("`main` cannot be `straight`")
        } else if !params.is_empty() {
            Some("`main` takes no parameters")
        } else if !matches!(ret, Type::Void) && *ret != Type::INT {
            Some("`main` must return `int` or `void`")
        } else {
            None
        };
        if let Some(problem) = problem {
            self.report(
                Diagnostic::error(&E0208, span, problem)
                    .with_label("invalid `main`")
                    .with_help(
                        "declare `void main(void)`, `int main(void)`, or the same with `sync`",
                    ),
            );
        }
        problem.is_none()
    }

    fn param_sigs(&mut self, params: &[ast::Param], kind: FnKind) -> Option<Vec<ParamSig>> {
        if let [p] = params {
            if p.specs.base == ast::BaseType::Void
                && p.declarator.derived.is_empty()
                && p.declarator.name.is_none()
            {
                return Some(Vec::new());
            }
        }
        let mut out = Vec::new();
        let mut ok = true;
        for p in params {
            let Some(base) = self.base_type(&p.specs) else {
                ok = false;
                continue;
            };
            let Some(declared) = self.declared(&p.specs, &base, &p.declarator) else {
                ok = false;
                continue;
            };
            // C adjusts array parameters to pointers.
            let ty = match declared.ty {
                Type::Array(elem, _) => Type::Ptr(elem),
                other => other,
            };
            let what = match &p.declarator.name {
                Some(n) => format!("the parameter `{}`", n.name),
                None => "a parameter".to_string(),
            };
            if !self.require_object(&ty, p.span, &what) {
                ok = false;
            }
            if declared.sharity == Sharity::Shared && kind != FnKind::Sync {
                self.report(
                    Diagnostic::error(
                        &E0402,
                        p.span,
                        format!("{what} is `sh`, but the function is not `sync`"),
                    )
                    .with_label("shared parameter")
                    .with_help("make the function `sync`, or the parameter private"),
                );
                ok = false;
            }
            out.push(ParamSig {
                ty,
                sharity: declared.sharity,
            });
        }
        ok.then_some(out)
    }

    pub(super) fn function_def(&mut self, def: &ast::FunctionDef) {
        let Some(ast::Derived::Function(params)) = def.declarator.derived.first() else {
            self.report(
                Diagnostic::error(
                    &E0317,
                    def.declarator.span,
                    "a function definition needs a parameter list",
                )
                .with_help("write `type name(params) { ... }`"),
            );
            return;
        };
        let Some(base) = self.base_type(&def.specs) else {
            return;
        };
        self.reject_storage(&def.specs, true);
        let Some((id, sigs)) = self.function_decl(&def.specs, &base, &def.declarator, params, true)
        else {
            return;
        };
        let sig = self.sigs[id.0 as usize].clone();
        self.func = Some(FnCtx {
            id,
            kind: sig.kind,
            is_main: sig.name == "main",
            ret: sig.ret.clone(),
            mode: if sig.kind == FnKind::Async {
                Mode::Async
            } else {
                Mode::Sync
            },
            locals: Vec::new(),
            breakables: Vec::new(),
            single_member: false,
            construct_depth: 0,
        });
        // Parameters and the body's outermost declarations share one scope, as in C.
        self.scopes.push();
        let mut param_vars = Vec::new();
        for (index, (p, ps)) in params.iter().zip(&sigs).enumerate() {
            let name = p.declarator.name.clone().unwrap_or(ast::Ident {
                name: format!("<param {index}>"),
                span: p.span,
            });
            let is_const = p.specs.is_const && p.declarator.derived.is_empty();
            let var = self.new_var(
                Var {
                    name: name.name.clone(),
                    ty: ps.ty.clone(),
                    sharity: ps.sharity,
                    kind: VarKind::Param { func: id, index },
                    addr_taken: false,
                    span: name.span,
                },
                is_const,
            );
            if p.declarator.name.is_some() {
                self.declare_name(&name, Symbol::Var(var));
            }
            param_vars.push(var);
        }
        let stmts = self.block_items(&def.body.stmts);
        self.scopes.pop();
        let ctx = self.func.take();
        let f = &mut self.funcs[id.0 as usize];
        f.params = param_vars;
        f.locals = ctx.map(|c| c.locals).unwrap_or_default();
        f.body = hir::Block {
            stmts,
            span: def.body.span,
        };
        f.span = def.span;
    }

    /// A declaration inside a function: typedefs, locals (with their initialisers).
    pub(super) fn local_decl(&mut self, decl: &ast::Decl, out: &mut Vec<hir::Stmt>) {
        let Some(base) = self.base_type(&decl.specs) else {
            return;
        };
        if decl.specs.storage == Some(StorageKw::Typedef) {
            return self.typedefs(decl, &base);
        }
        self.reject_storage(&decl.specs, false);
        self.reject_fn_kind(&decl.specs);
        for d in &decl.declarators {
            if matches!(
                d.declarator.derived.first(),
                Some(ast::Derived::Function(_))
            ) {
                self.report(
                    Diagnostic::error(
                        &E0317,
                        d.declarator.span,
                        "functions must be declared at file scope",
                    )
                    .with_label("local function declaration")
                    .with_help("move the prototype before the function"),
                );
                continue;
            }
            let Some(name) = &d.declarator.name else {
                continue;
            };
            let Some(declared) = self.declared(&decl.specs, &base, &d.declarator) else {
                continue;
            };
            if declared.sharity == Sharity::Shared
                && !self.check_shared_local(&name.name, name.span)
            {
                continue;
            }
            // A struct initialised from a struct value is a declaration plus an assignment.
            let copy_from = match (&declared.ty, &d.init) {
                (Type::Struct(_), Some(ast::Initializer::Expr(e))) => Some(e),
                _ => None,
            };
            let Some(func) = self.func.as_ref().map(|f| f.id) else {
                continue;
            };
            let init = if copy_from.is_some() {
                None
            } else {
                d.init.as_ref()
            };
            let Some((var, init)) = self.variable(name, declared, VarKind::Local { func }, init)
            else {
                continue;
            };
            if let Some(ctx) = &mut self.func {
                ctx.locals.push(var);
            }
            let ty = self.vars[var.0 as usize].ty.clone();
            let sharity = self.vars[var.0 as usize].sharity;
            let place = super::expr::mk(hir::ExprKind::Var(var), ty.clone(), sharity, name.span);
            for elem in init.iter().flatten() {
                self.check_shared_write(&place, &elem.value, elem.value.span);
            }
            let mode = self.mode();
            out.push(hir::Stmt {
                kind: hir::StmtKind::Decl { var, init },
                mode,
                span: d.declarator.span,
            });
            if let Some(e) = copy_from {
                if let Some(value) = self
                    .rvalue(e)
                    .and_then(|v| self.assign_convert(v, &ty, "this initialiser"))
                {
                    let span = name.span.to(e.span);
                    self.check_shared_write(&place, &value, span);
                    let sharity = place.sharity.join(value.sharity);
                    let assign = super::expr::mk(
                        hir::ExprKind::Assign {
                            place: Box::new(place),
                            value: Box::new(value),
                        },
                        ty.clone(),
                        sharity,
                        span,
                    );
                    out.push(hir::Stmt {
                        kind: hir::StmtKind::Expr(assign),
                        mode,
                        span,
                    });
                }
            }
        }
    }
}
