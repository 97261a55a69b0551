//! C names and declarators for HIR types, variables, functions and struct fields.
//!
//! Every user name gets a suffix or prefix so that it cannot collide with a C++ keyword, a
//! CUDA builtin (`min`, `abs`) or the runtime library (`fk_*`).

use fork_frontend::hir::{FloatKind, FuncId, IntKind, Program, Type, VarId};

/// The declaration of `name` with type `ty` (`int a[8]`, `int (*p)[4]`); with an empty name,
/// the type name (`int (*)[4]`).
pub fn declare(program: &Program, ty: &Type, name: &str) -> String {
    match ty {
        Type::Ptr(pointee) => {
            let inner = if matches!(**pointee, Type::Array(..)) {
                format!("(*{name})")
            } else {
                format!("*{name}")
            };
            declare(program, pointee, &inner)
        }
        Type::Array(elem, n) => declare(program, elem, &format!("{name}[{n}]")),
        base => {
            let base = base_name(program, base);
            if name.is_empty() {
                base
            } else {
                format!("{base} {name}")
            }
        }
    }
}

/// The C type name of `ty`.
pub fn type_name(program: &Program, ty: &Type) -> String {
    declare(program, ty, "")
}

/// The C type "pointer to `ty`".
pub fn pointer_to(program: &Program, ty: &Type) -> String {
    type_name(program, &Type::Ptr(Box::new(ty.clone())))
}

fn base_name(program: &Program, ty: &Type) -> String {
    match ty {
        Type::Void => "void".into(),
        Type::Int(k) => match k {
            IntKind::I8 => "signed char",
            IntKind::U8 => "unsigned char",
            IntKind::I16 => "short",
            IntKind::U16 => "unsigned short",
            IntKind::I32 => "int",
            IntKind::U32 => "unsigned",
            IntKind::I64 => "long long",
            IntKind::U64 => "unsigned long long",
        }
        .into(),
        Type::Float(FloatKind::F32) => "float".into(),
        Type::Float(FloatKind::F64) => "double".into(),
        Type::Struct(id) => struct_name(program, id.0),
        Type::Ptr(_) | Type::Array(..) => unreachable!("declare handles derived types"),
    }
}

pub fn struct_name(program: &Program, id: u32) -> String {
    let name = &program.structs[id as usize].name;
    if name.starts_with('<') {
        format!("struct S{id}")
    } else {
        format!("struct S{id}_{name}")
    }
}

/// `loc_5` for variable 5 named `loc`; the transform's temporaries (`%cond1`) become `t_cond1_9`.
pub fn var_name(program: &Program, var: VarId) -> String {
    let name = &program.var(var).name;
    match name.strip_prefix('%') {
        Some(temp) => format!("t_{temp}_{}", var.0),
        None => format!("{name}_{}", var.0),
    }
}

pub fn func_name(program: &Program, func: FuncId) -> String {
    format!("u_{}", program.func(func).name)
}

/// C++ keywords a C field name may collide with.
const CXX_KEYWORDS: &[&str] = &[
    "bool",
    "catch",
    "class",
    "delete",
    "explicit",
    "export",
    "false",
    "friend",
    "mutable",
    "namespace",
    "new",
    "operator",
    "private",
    "protected",
    "public",
    "template",
    "this",
    "throw",
    "true",
    "try",
    "typeid",
    "typename",
    "using",
    "virtual",
    "nullptr",
    "decltype",
    "constexpr",
    "noexcept",
    "static_assert",
    "thread_local",
    "alignas",
    "alignof",
    "concept",
    "requires",
];

pub fn field_name(name: &str) -> String {
    if CXX_KEYWORDS.contains(&name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// The bit width of an integer type (64 for pointers).
pub fn bits(ty: &Type) -> u64 {
    match ty {
        Type::Int(k) => k.bytes() * 8,
        _ => 64,
    }
}

/// A C literal for a double, exact (Rust prints the shortest representation that reads back).
pub fn float_literal(f: f64) -> String {
    if f.is_nan() {
        "(0.0 / 0.0)".into()
    } else if f.is_infinite() {
        if f > 0.0 {
            "(1.0 / 0.0)"
        } else {
            "(-1.0 / 0.0)"
        }
        .into()
    } else {
        format!("{f:e}")
    }
}

/// A C literal of integer type `ty` with value `v` (already normalised to the type).
pub fn int_literal(program: &Program, v: i64, ty: &Type) -> String {
    match ty {
        Type::Int(IntKind::I32) if v == i32::MIN as i64 => "(-2147483647 - 1)".into(),
        Type::Int(IntKind::I32) if v < 0 => format!("({v})"),
        Type::Int(IntKind::I32) => v.to_string(),
        Type::Int(IntKind::U32) => format!("{}u", v as u32),
        Type::Int(IntKind::I64) if v == i64::MIN => "(-9223372036854775807LL - 1)".into(),
        Type::Int(IntKind::I64) if v < 0 => format!("({v}LL)"),
        Type::Int(IntKind::I64) => format!("{v}LL"),
        Type::Int(IntKind::U64) => format!("{}ull", v as u64),
        other => format!("(({}){v})", type_name(program, other)),
    }
}
