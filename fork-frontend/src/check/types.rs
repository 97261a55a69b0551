//! Type construction (specifiers + declarators → `hir::Type`), struct layout with C
//! alignment, enum constants, and C's integer promotions and usual arithmetic conversions.

use super::codes::*;
use super::scope::{Symbol, Tag};
use super::Checker;
use crate::ast;
use crate::diag::Diagnostic;
use crate::hir::{Field, FloatKind, IntKind, StructDef, StructId, Type};
use crate::source::Span;

impl Checker {
    /// The type named by declaration specifiers; defines the struct or enum they contain.
    pub(super) fn base_type(&mut self, specs: &ast::DeclSpecs) -> Option<Type> {
        Some(match &specs.base {
            ast::BaseType::Void => Type::Void,
            ast::BaseType::Char { signed } => match signed {
                Some(false) => Type::Int(IntKind::U8),
                _ => Type::Int(IntKind::I8),
            },
            ast::BaseType::Short { signed } => int_type(*signed, IntKind::I16, IntKind::U16),
            ast::BaseType::Int { signed } => int_type(*signed, IntKind::I32, IntKind::U32),
            ast::BaseType::Long { signed } => int_type(*signed, IntKind::I64, IntKind::U64),
            ast::BaseType::Float => Type::Float(FloatKind::F32),
            ast::BaseType::Double => Type::Float(FloatKind::F64),
            ast::BaseType::Struct { tag, fields } => {
                return self.struct_type(tag.as_ref(), fields.as_deref(), specs.span)
            }
            ast::BaseType::Enum { tag, variants } => {
                self.enum_type(tag.as_ref(), variants.as_deref());
                Type::INT
            }
            ast::BaseType::Named(ident) => match self.scopes.lookup(&ident.name) {
                Some((Symbol::Typedef(ty), _)) => ty.clone(),
                _ => {
                    self.undefined(ident, "type name");
                    return None;
                }
            },
        })
    }

    /// Applies a declarator's pointer and array derivations to `base` (innermost first, so
    /// they are applied from the last). An outer `[]` without size gives `Array(_, 0)`, which
    /// the caller sizes from an initialiser or turns into a pointer (parameters).
    pub(super) fn derive(
        &mut self,
        base: Type,
        derived: &[ast::Derived],
        span: Span,
    ) -> Option<Type> {
        // Checked first: every later step walks the type, so its depth must stay small.
        if type_depth(&base) + derived.len() > MAX_TYPE_DEPTH {
            self.report(
                Diagnostic::error(
                    &E0318,
                    span,
                    format!("a type with more than {MAX_TYPE_DEPTH} pointer or array levels"),
                )
                .with_label("too deep")
                .with_help("use fewer levels of pointers and arrays"),
            );
            return None;
        }
        let mut ty = base;
        for (i, d) in derived.iter().enumerate().rev() {
            ty = match d {
                ast::Derived::Pointer { .. } => Type::Ptr(Box::new(ty)),
                ast::Derived::Array(size) => {
                    if !self.require_object(&ty, span, "an array element") {
                        return None;
                    }
                    let n = match size {
                        Some(e) => self.array_size(e)?,
                        None if i == 0 => 0,
                        None => {
                            self.report(
                                Diagnostic::error(
                                    &E0309,
                                    span,
                                    "only the first dimension of an array may be left empty",
                                )
                                .with_label("size missing")
                                .with_help("write every inner dimension, e.g. `int a[][4]`"),
                            );
                            return None;
                        }
                    };
                    let bytes = ty.size(&self.structs).checked_mul(n);
                    if bytes.is_none_or(|b| b > MAX_OBJECT_BYTES) {
                        self.report(
                            Diagnostic::error(&E0309, span, "this array is too large")
                                .with_label(format!("more than {MAX_OBJECT_BYTES} bytes"))
                                .with_help("use smaller dimensions"),
                        );
                        return None;
                    }
                    Type::Array(Box::new(ty), n)
                }
                ast::Derived::Function(_) => {
                    self.report(
                        Diagnostic::error(
                            &E0317,
                            span,
                            "function pointers and function types are not supported",
                        )
                        .with_label("function type here")
                        .with_help("call functions by name; pass data, not functions"),
                    );
                    return None;
                }
            };
        }
        Some(ty)
    }

    fn array_size(&mut self, size: &ast::Expr) -> Option<u64> {
        let n = self.const_int(size, "an array size")?;
        if n <= 0 {
            self.report(
                Diagnostic::error(&E0309, size.span, format!("array size is {n}"))
                    .with_label("must be at least 1")
                    .with_help("use a positive array size"),
            );
            return None;
        }
        Some(n as u64)
    }

    /// The type of a cast or `sizeof(type)`.
    pub(super) fn type_name(&mut self, tn: &ast::TypeName) -> Option<Type> {
        let base = self.base_type(&tn.specs)?;
        self.derive(base, &tn.declarator.derived, tn.span)
    }

    /// Whether `ty` can be the type of an object (variable, member, element): not `void`, no
    /// incomplete struct. Reports the error otherwise.
    pub(super) fn require_object(&mut self, ty: &Type, span: Span, what: &str) -> bool {
        match ty {
            Type::Void => {
                self.report(
                    Diagnostic::error(&E0307, span, format!("{what} cannot have type `void`"))
                        .with_label("`void` here")
                        .with_help("use `void *` for an untyped pointer, or a value type"),
                );
                false
            }
            Type::Struct(id) if !self.struct_complete[id.0 as usize] => {
                let name = self.structs[id.0 as usize].name.clone();
                self.report(
                    Diagnostic::error(
                        &E0204,
                        span,
                        format!("{what} has the incomplete type `struct {name}`"),
                    )
                    .with_label("members unknown here")
                    .with_note(self.structs[id.0 as usize].span, "declared here")
                    .with_help(format!(
                        "define `struct {name} {{ ... }}` before this use, or use a pointer"
                    )),
                );
                false
            }
            Type::Array(elem, _) => self.require_object(elem, span, what),
            _ => true,
        }
    }

    fn struct_type(
        &mut self,
        tag: Option<&ast::Ident>,
        fields: Option<&[ast::Decl]>,
        span: Span,
    ) -> Option<Type> {
        let Some(fields) = fields else {
            let Some(tag) = tag else {
                self.report(
                    Diagnostic::error(&E0204, span, "a struct needs a tag or members")
                        .with_help("write `struct name { ... }`"),
                );
                return None;
            };
            return match self.scopes.lookup_tag(&tag.name) {
                Some(Tag::Struct(id)) => Some(Type::Struct(id)),
                Some(Tag::Enum) => {
                    self.report(
                        Diagnostic::error(
                            &E0204,
                            tag.span,
                            format!("`{}` is an enum tag, not a struct", tag.name),
                        )
                        .with_label("used as a struct")
                        .with_help(format!("write `enum {}`", tag.name)),
                    );
                    None
                }
                // A forward reference: an incomplete struct, completed by a later definition.
                None => Some(Type::Struct(self.new_struct(&tag.name, tag.span))),
            };
        };
        let id = match tag {
            Some(tag) => match self.scopes.lookup_tag_current(&tag.name) {
                Some((Tag::Struct(id), _)) if !self.struct_complete[id.0 as usize] => {
                    self.structs[id.0 as usize].span = tag.span;
                    id
                }
                Some((_, previous)) => {
                    self.report(
                        Diagnostic::error(
                            &E0202,
                            tag.span,
                            format!("`struct {}` is defined twice", tag.name),
                        )
                        .with_label("second definition")
                        .with_note(previous, "first defined here")
                        .with_help("rename one of the structs"),
                    );
                    return None;
                }
                None => self.new_struct(&tag.name, tag.span),
            },
            None => self.new_struct("<anonymous>", span),
        };
        let members = self.struct_fields(fields);
        if fields.is_empty() {
            // C has no empty structs; a zero size would make pointer steps zero.
            self.report(
                Diagnostic::error(&E0317, span, "a struct without members")
                    .with_label("empty struct")
                    .with_help("give the struct at least one member"),
            );
        }
        let mut offset = 0u64;
        let mut align = 1u64;
        let mut laid_out = Vec::new();
        for (name, ty) in members {
            let a = ty.align(&self.structs);
            offset = offset.div_ceil(a) * a;
            laid_out.push(Field {
                name,
                ty: ty.clone(),
                offset,
            });
            offset += ty.size(&self.structs);
            align = align.max(a);
        }
        let def = &mut self.structs[id.0 as usize];
        def.fields = laid_out;
        def.align = align;
        def.size = offset.div_ceil(align) * align;
        self.struct_complete[id.0 as usize] = true;
        Some(Type::Struct(id))
    }

    fn struct_fields(&mut self, fields: &[ast::Decl]) -> Vec<(String, Type)> {
        let mut members: Vec<(String, Type, Span)> = Vec::new();
        for decl in fields {
            if decl.specs.sharity.is_some()
                || decl.specs.fn_kind.is_some()
                || decl.specs.storage.is_some()
            {
                self.report(
                    Diagnostic::error(
                        &E0411,
                        decl.specs.span,
                        "struct members take no `sh`/`pr`, function kind or storage class",
                    )
                    .with_label("not allowed on a member")
                    .with_help("the sharity of a struct is that of the variable holding it"),
                );
            }
            let Some(base) = self.base_type(&decl.specs) else {
                continue;
            };
            for d in &decl.declarators {
                let Some(name) = &d.declarator.name else {
                    continue;
                };
                let Some(ty) = self.derive(base.clone(), &d.declarator.derived, d.declarator.span)
                else {
                    continue;
                };
                if matches!(ty, Type::Array(_, 0)) {
                    self.report(
                        Diagnostic::error(
                            &E0309,
                            d.declarator.span,
                            format!("member `{}` has no array size", name.name),
                        )
                        .with_help("give the array a size"),
                    );
                    continue;
                }
                if !self.require_object(&ty, d.declarator.span, &format!("member `{}`", name.name))
                {
                    continue;
                }
                if let Some((_, _, previous)) = members.iter().find(|(n, _, _)| *n == name.name) {
                    let previous = *previous;
                    self.report(
                        Diagnostic::error(
                            &E0202,
                            name.span,
                            format!("member `{}` is declared twice", name.name),
                        )
                        .with_label("second declaration")
                        .with_note(previous, "first declared here")
                        .with_help("rename one of the members"),
                    );
                    continue;
                }
                members.push((name.name.clone(), ty, name.span));
            }
        }
        members.into_iter().map(|(n, t, _)| (n, t)).collect()
    }

    fn new_struct(&mut self, name: &str, span: Span) -> StructId {
        let id = StructId(self.structs.len() as u32);
        self.structs.push(StructDef {
            name: name.to_string(),
            fields: Vec::new(),
            size: 0,
            align: 1,
            span,
        });
        self.struct_complete.push(false);
        if name != "<anonymous>" {
            self.scopes.declare_tag(name, Tag::Struct(id), span);
        }
        id
    }

    fn enum_type(
        &mut self,
        tag: Option<&ast::Ident>,
        variants: Option<&[(ast::Ident, Option<ast::Expr>)]>,
    ) {
        let Some(variants) = variants else {
            if let Some(tag) = tag {
                if !matches!(self.scopes.lookup_tag(&tag.name), Some(Tag::Enum)) {
                    self.report(
                        Diagnostic::error(
                            &E0201,
                            tag.span,
                            format!("`enum {}` is not declared", tag.name),
                        )
                        .with_label("unknown enum")
                        .with_help("define the enum before this use"),
                    );
                }
            }
            return;
        };
        if let Some(tag) = tag {
            self.scopes.declare_tag(&tag.name, Tag::Enum, tag.span);
        }
        let mut next = 0i64;
        for (ident, value) in variants {
            if let Some(e) = value {
                if let Some(v) = self.const_int(e, "an enum value") {
                    next = v;
                }
            }
            self.declare_name(ident, Symbol::EnumConst(next));
            next = next.wrapping_add(1);
        }
    }

    /// Declares `ident` in the current scope, reporting a duplicate.
    pub(super) fn declare_name(&mut self, ident: &ast::Ident, symbol: Symbol) -> bool {
        match self.scopes.declare(&ident.name, symbol, ident.span) {
            None => true,
            Some(previous) => {
                self.report(
                    Diagnostic::error(
                        &E0202,
                        ident.span,
                        format!("`{}` is declared twice in the same scope", ident.name),
                    )
                    .with_label("second declaration")
                    .with_note(previous, "first declared here")
                    .with_help("rename one of them, or remove the duplicate"),
                );
                false
            }
        }
    }

    /// Reports an undeclared name, telling "declared further down" from "not declared" and
    /// suggesting a close name.
    pub(super) fn undefined(&mut self, ident: &ast::Ident, what: &str) {
        if let Some(later) = self
            .global_names
            .get(&ident.name)
            .copied()
            .filter(|s| s.lo > ident.span.lo)
        {
            self.report(
                Diagnostic::error(
                    &E0203,
                    ident.span,
                    format!("`{}` is used before its declaration", ident.name),
                )
                .with_label("used here")
                .with_note(later, "declared here, further down")
                .with_help("move the declaration above this use, or add a prototype"),
            );
            return;
        }
        let mut d = Diagnostic::error(
            &E0201,
            ident.span,
            format!("{what} `{}` is not declared", ident.name),
        )
        .with_label("not declared");
        d = match self.scopes.similar(&ident.name, super::builtins::NAMES) {
            Some(close) => d.with_help(format!("did you mean `{close}`?")),
            None => d.with_help(format!("declare `{}` before using it", ident.name)),
        };
        self.report(d);
    }

    pub(super) fn type_str(&self, ty: &Type) -> String {
        crate::pretty::type_to_string(ty, &self.structs)
    }
}

/// The most pointer and array levels a type may have.
const MAX_TYPE_DEPTH: usize = 64;

/// How many pointer and array levels wrap the type's base.
fn type_depth(mut ty: &Type) -> usize {
    let mut depth = 0;
    while let Type::Ptr(inner) | Type::Array(inner, _) = ty {
        depth += 1;
        ty = inner;
    }
    depth
}

/// The largest object forkcc lays out (1 TiB): sizes stay far from `u64` overflow.
const MAX_OBJECT_BYTES: u64 = 1 << 40;

fn int_type(signed: bool, s: IntKind, u: IntKind) -> Type {
    Type::Int(if signed { s } else { u })
}

pub(super) fn is_arith(ty: &Type) -> bool {
    matches!(ty, Type::Int(_) | Type::Float(_))
}

pub(super) fn is_integer(ty: &Type) -> bool {
    matches!(ty, Type::Int(_))
}

/// C's integer promotion: types narrower than `int` become `int`.
pub(super) fn promote(ty: &Type) -> Type {
    match ty {
        Type::Int(k) if k.bytes() < 4 => Type::INT,
        other => other.clone(),
    }
}

/// C's usual arithmetic conversions: the common type of two arithmetic operands.
pub(super) fn usual_arith(a: &Type, b: &Type) -> Type {
    match (promote(a), promote(b)) {
        (Type::Float(FloatKind::F64), _) | (_, Type::Float(FloatKind::F64)) => Type::DOUBLE,
        (Type::Float(_), _) | (_, Type::Float(_)) => Type::Float(FloatKind::F32),
        (Type::Int(x), Type::Int(y)) => Type::Int(common_int(x, y)),
        (other, _) => other,
    }
}

fn common_int(x: IntKind, y: IntKind) -> IntKind {
    if x == y {
        return x;
    }
    if x.signed() == y.signed() {
        return if x.bytes() >= y.bytes() { x } else { y };
    }
    let (s, u) = if x.signed() { (x, y) } else { (y, x) };
    if u.bytes() >= s.bytes() {
        u
    } else {
        // The signed type is wider, so it holds every value of the unsigned one.
        s
    }
}

#[cfg(test)]
mod tests {
    use super::{promote, usual_arith};
    use crate::hir::{FloatKind, IntKind::*, Type};

    #[test]
    fn usual_arithmetic_conversions_follow_c() {
        let i = |k| Type::Int(k);
        assert_eq!(promote(&i(I8)), Type::INT);
        assert_eq!(promote(&i(U16)), Type::INT);
        assert_eq!(usual_arith(&i(I8), &i(U8)), Type::INT);
        assert_eq!(usual_arith(&i(I32), &i(U32)), i(U32));
        assert_eq!(usual_arith(&i(U32), &i(I64)), i(I64));
        assert_eq!(usual_arith(&i(I64), &i(U64)), i(U64));
        assert_eq!(usual_arith(&i(U32), &i(U64)), i(U64));
        assert_eq!(
            usual_arith(&i(I64), &Type::Float(FloatKind::F32)),
            Type::Float(FloatKind::F32)
        );
        assert_eq!(
            usual_arith(&Type::Float(FloatKind::F32), &Type::DOUBLE),
            Type::DOUBLE
        );
    }
}
