//! Declarations: specifiers in any order, declarators (pointers, arrays, functions, nested
//! parentheses, abstract ones), initialisers, struct and enum bodies, function definitions.
//! Typedef names are recorded in `Parser::scopes` as they are declared: that is C's lexer hack.

use super::codes::{E0100, E0109, E0111, E0113, E0114};
use super::token::{Kw, Punct, Tok};
use super::{PResult, Parser, Reported};
use crate::ast::{
    BaseType, Decl, DeclSpecs, Declarator, Derived, FnKindKw, FunctionDef, Ident, InitDeclarator,
    Initializer, Item, Param, SharityKw, StorageKw, TranslationUnit, TypeName,
};
use crate::diag::Diagnostic;
use crate::source::Span;

/// Whether a declarator must name something, must not, or may (parameters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DeclaratorKind {
    Named,
    Abstract,
    Either,
}

fn is_specifier_kw(kw: Kw) -> bool {
    use Kw::*;
    matches!(
        kw,
        Sh | Pr
            | Sync
            | Async
            | Straight
            | Const
            | Static
            | Extern
            | Typedef
            | Unsigned
            | Signed
            | Short
            | Long
            | Char
            | Int
            | Float
            | Double
            | Void
            | Struct
            | Union
            | Enum
    )
}

/// The specifiers seen so far, before they are combined into a `BaseType`.
#[derive(Default)]
struct SpecWords {
    sharity: Option<SharityKw>,
    fn_kind: Option<FnKindKw>,
    storage: Option<StorageKw>,
    is_const: bool,
    signed: Option<bool>,
    short: bool,
    longs: u8,
    /// `void`, `char`, `int`, `float` or `double`.
    keyword_type: Option<Kw>,
    /// `struct ...`, `enum ...` or a typedef name.
    named_type: Option<BaseType>,
}

impl SpecWords {
    fn has_type(&self) -> bool {
        self.keyword_type.is_some()
            || self.named_type.is_some()
            || self.signed.is_some()
            || self.short
            || self.longs > 0
    }

    /// Why `kw` cannot be added, if it cannot.
    fn conflict(&self, kw: Kw) -> Option<&'static str> {
        use Kw::*;
        match kw {
            Sh | Pr if self.sharity.is_some() => Some("a second sharity (`sh`/`pr`)"),
            Sync | Async | Straight if self.fn_kind.is_some() => {
                Some("a second function kind (`sync`/`async`/`straight`)")
            }
            Static | Extern | Typedef if self.storage.is_some() => {
                Some("a second storage class (`static`/`extern`/`typedef`)")
            }
            Signed | Unsigned if self.signed.is_some() => Some("a second `signed`/`unsigned`"),
            Signed | Unsigned | Short | Long if self.named_type.is_some() => {
                Some("a size or sign with a struct, enum or typedef type")
            }
            Short if self.short || self.longs > 0 => Some("a second size (`short`/`long`)"),
            Long if self.short || self.longs >= 2 => Some("a second size (`short`/`long`)"),
            Void | Char | Int | Float | Double | Struct | Union | Enum
                if self.keyword_type.is_some() || self.named_type.is_some() =>
            {
                Some("a second type")
            }
            Struct | Union | Enum if self.signed.is_some() || self.short || self.longs > 0 => {
                Some("a struct or enum type with a size or sign")
            }
            _ => None,
        }
    }

    /// The base type; `Err` names a combination that is no C type (`unsigned float`).
    fn base(self) -> Result<BaseType, &'static str> {
        let signed = self.signed.unwrap_or(true);
        let sized = self.short || self.longs > 0;
        if let Some(named) = self.named_type {
            return Ok(named);
        }
        match self.keyword_type {
            Some(Kw::Void) if sized || self.signed.is_some() => Err("`void` with a size or sign"),
            Some(Kw::Void) => Ok(BaseType::Void),
            Some(Kw::Char) if sized => Err("`char` with `short` or `long`"),
            Some(Kw::Char) => Ok(BaseType::Char {
                signed: self.signed,
            }),
            Some(Kw::Float | Kw::Double) if self.signed.is_some() || self.short => {
                Err("a floating type with a sign or `short`")
            }
            Some(Kw::Float) if self.longs > 0 => Err("`long float`"),
            Some(Kw::Float) => Ok(BaseType::Float),
            Some(Kw::Double) => Ok(BaseType::Double),
            // `int`, or no type word at all (`unsigned x`, `sh x`, `main()`): implicit int.
            _ if self.short => Ok(BaseType::Short { signed }),
            _ if self.longs > 0 => Ok(BaseType::Long { signed }),
            _ => Ok(BaseType::Int { signed }),
        }
    }
}

impl Parser<'_> {
    pub(super) fn translation_unit(&mut self) -> TranslationUnit {
        let mut items = Vec::new();
        while !self.at_eof() {
            match self.external_item() {
                Ok(item) => items.push(item),
                Err(_) => self.recover_at_file_level(),
            }
        }
        TranslationUnit { items }
    }

    /// Whether the current token can start declaration specifiers.
    pub(super) fn starts_decl_specs(&self) -> bool {
        self.starts_type_name_at(0)
    }

    /// Whether the token `ahead` can start a type (a specifier keyword or a typedef name).
    pub(super) fn starts_type_name_at(&self, ahead: usize) -> bool {
        match self.peek_at(ahead) {
            Tok::Kw(kw) => is_specifier_kw(*kw),
            Tok::Ident(name) => self.is_typedef_name(name),
            _ => false,
        }
    }

    /// `name(` at file level: a function declared without specifiers (C89's implicit `int`).
    pub(super) fn starts_implicit_int_function(&self) -> bool {
        matches!(self.peek(), Tok::Ident(_)) && *self.peek_at(1) == Tok::Punct(Punct::LParen)
    }

    /// A file-level declaration or function definition.
    fn external_item(&mut self) -> PResult<Item> {
        let lo = self.lo();
        let specs = if self.starts_decl_specs() {
            self.decl_specs()?
        } else if self.starts_implicit_int_function() {
            // `main() { ... }`: C89's implicit `int`.
            SpecWords::default().into_specs(self, Span::new(lo as usize, lo as usize))
        } else {
            let diag = self
                .found_diag(&E0113, "expected a declaration or a function definition")
                .with_help("statements belong inside a function body; at file level declare variables (`int x = 3;`) or define functions");
            return Err(self.report(diag));
        };
        if self.eat(Punct::Semi) {
            return Ok(Item::Decl(Decl {
                specs,
                declarators: Vec::new(),
                span: self.span_from(lo),
            }));
        }
        let declarator = self.declarator(DeclaratorKind::Named)?;
        if let (Some(Derived::Function(params)), true) =
            (declarator.derived.first(), self.is(Punct::LBrace))
        {
            if let Some(name) = &declarator.name {
                self.declare(&name.name, false);
            }
            self.push_scope();
            for param in params {
                if let Some(name) = &param.declarator.name {
                    self.declare(&name.name, false);
                }
            }
            let body = self.block();
            self.pop_scope();
            return Ok(Item::Function(FunctionDef {
                specs,
                declarator,
                body: body?,
                span: self.span_from(lo),
            }));
        }
        self.decl_rest(specs, lo, declarator).map(Item::Decl)
    }

    /// A declaration inside a block or a `for` header, through its `;`.
    pub(super) fn local_declaration(&mut self) -> PResult<Decl> {
        let lo = self.lo();
        let specs = self.decl_specs()?;
        if self.eat(Punct::Semi) {
            return Ok(Decl {
                specs,
                declarators: Vec::new(),
                span: self.span_from(lo),
            });
        }
        let declarator = self.declarator(DeclaratorKind::Named)?;
        if matches!(declarator.derived.first(), Some(Derived::Function(_)))
            && self.is(Punct::LBrace)
        {
            let diag = Diagnostic::error(
                &E0114,
                declarator.span,
                "a function definition cannot appear inside a function",
            )
            .with_label("nested function definition")
            .with_help("move this function to file level");
            return Err(self.report(diag));
        }
        self.decl_rest(specs, lo, declarator)
    }

    /// The rest of a declaration after its first declarator: initialisers, more declarators, `;`.
    fn decl_rest(&mut self, specs: DeclSpecs, lo: u32, first: Declarator) -> PResult<Decl> {
        let is_typedef = specs.storage == Some(StorageKw::Typedef);
        let mut declarators = Vec::new();
        let mut declarator = first;
        loop {
            // A name is in scope from the end of its declarator, initialiser included.
            if let Some(name) = &declarator.name {
                self.declare(&name.name, is_typedef);
            }
            let init = if self.eat(Punct::Assign) {
                Some(self.initializer()?)
            } else {
                None
            };
            declarators.push(InitDeclarator { declarator, init });
            if !self.eat(Punct::Comma) {
                break;
            }
            declarator = self.declarator(DeclaratorKind::Named)?;
        }
        self.expect(Punct::Semi, "after the declaration")?;
        Ok(Decl {
            specs,
            declarators,
            span: self.span_from(lo),
        })
    }

    /// Declaration specifiers in any order; the caller checked `starts_decl_specs`.
    pub(super) fn decl_specs(&mut self) -> PResult<DeclSpecs> {
        let lo = self.lo();
        let mut words = SpecWords::default();
        loop {
            let kw = match self.peek() {
                Tok::Kw(kw) if is_specifier_kw(*kw) => *kw,
                Tok::Ident(name) if !words.has_type() && self.is_typedef_name(name) => {
                    let ident = Ident {
                        name: name.clone(),
                        span: self.bump(),
                    };
                    words.named_type = Some(BaseType::Named(ident));
                    continue;
                }
                _ => break,
            };
            if let Some(why) = words.conflict(kw) {
                let diag = Diagnostic::error(
                    &E0109,
                    self.span(),
                    format!("`{}` here would be {why} in one declaration", kw.text()),
                )
                .with_label("conflicting specifier")
                .with_help("keep one of each kind: one type, one sharity, one function kind, one storage class");
                self.report(diag);
                self.bump();
                continue;
            }
            match kw {
                Kw::Struct | Kw::Enum => {
                    words.named_type = Some(self.struct_or_enum()?);
                    continue;
                }
                Kw::Union => {
                    let diag = Diagnostic::error(
                        &E0114,
                        self.span(),
                        "`union` is not part of the Fork dialect",
                    )
                    .with_label("union")
                    .with_help("use a `struct`");
                    return Err(self.report(diag));
                }
                Kw::Sh => words.sharity = Some(SharityKw::Sh),
                Kw::Pr => words.sharity = Some(SharityKw::Pr),
                Kw::Sync => words.fn_kind = Some(FnKindKw::Sync),
                Kw::Async => words.fn_kind = Some(FnKindKw::Async),
                Kw::Straight => words.fn_kind = Some(FnKindKw::Straight),
                Kw::Static => words.storage = Some(StorageKw::Static),
                Kw::Extern => words.storage = Some(StorageKw::Extern),
                Kw::Typedef => words.storage = Some(StorageKw::Typedef),
                Kw::Const => words.is_const = true,
                Kw::Signed => words.signed = Some(true),
                Kw::Unsigned => words.signed = Some(false),
                Kw::Short => words.short = true,
                Kw::Long => words.longs += 1,
                other => words.keyword_type = Some(other),
            }
            self.bump();
        }
        let span = self.span_from(lo);
        Ok(words.into_specs(self, span))
    }

    /// `struct tag`, `struct tag? { fields }`, `enum tag`, `enum tag? { A, B = 3 }`.
    fn struct_or_enum(&mut self) -> PResult<BaseType> {
        let is_struct = self.is_kw(Kw::Struct);
        let keyword = if is_struct { "struct" } else { "enum" };
        self.bump();
        let tag = match self.peek() {
            Tok::Ident(name) => Some(Ident {
                name: name.clone(),
                span: self.bump(),
            }),
            _ => None,
        };
        if !self.is(Punct::LBrace) {
            if tag.is_none() {
                let diag = self
                    .found_diag(
                        &E0111,
                        &format!("expected a tag name or `{{` after `{keyword}`"),
                    )
                    .with_help(format!(
                        "write `{keyword} name` or `{keyword} name {{ ... }}`"
                    ));
                return Err(self.report(diag));
            }
            return Ok(if is_struct {
                BaseType::Struct { tag, fields: None }
            } else {
                BaseType::Enum {
                    tag,
                    variants: None,
                }
            });
        }
        let open = self.bump();
        self.nested(|p| {
            if is_struct {
                let fields = p.struct_fields(open)?;
                Ok(BaseType::Struct {
                    tag,
                    fields: Some(fields),
                })
            } else {
                let variants = p.enum_variants(open)?;
                Ok(BaseType::Enum {
                    tag,
                    variants: Some(variants),
                })
            }
        })
    }

    /// Member declarations through the closing `}`; an error in one member is recovered from
    /// at its `;` so the others are still checked.
    fn struct_fields(&mut self, open: Span) -> PResult<Vec<Decl>> {
        let mut fields = Vec::new();
        while !self.is(Punct::RBrace) && !self.at_eof() {
            match self.struct_field() {
                Ok(field) => fields.push(field),
                Err(_) => self.recover_in_block(),
            }
        }
        self.expect_closing(Punct::RBrace, open, "to close the struct body")?;
        Ok(fields)
    }

    fn struct_field(&mut self) -> PResult<Decl> {
        let lo = self.lo();
        if !self.starts_decl_specs() {
            let diag = self
                .found_diag(&E0100, "expected a struct member declaration")
                .with_help("declare each member with a type and a name, as in `int x;`");
            return Err(self.report(diag));
        }
        let specs = self.decl_specs()?;
        let mut declarators = Vec::new();
        loop {
            let declarator = self.declarator(DeclaratorKind::Named)?;
            declarators.push(InitDeclarator {
                declarator,
                init: None,
            });
            if self.is(Punct::Colon) {
                let diag = Diagnostic::error(
                    &E0114,
                    self.span(),
                    "bit-fields are not part of the Fork dialect",
                )
                .with_label("bit-field width")
                .with_help("declare a whole `int` or `unsigned` member");
                return Err(self.report(diag));
            }
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::Semi, "after the struct member")?;
        Ok(Decl {
            specs,
            declarators,
            span: self.span_from(lo),
        })
    }

    fn enum_variants(&mut self, open: Span) -> PResult<Vec<(Ident, Option<crate::ast::Expr>)>> {
        let mut variants = Vec::new();
        while !self.is(Punct::RBrace) {
            let name = self.expect_name("as an enum constant")?;
            let value = if self.eat(Punct::Assign) {
                Some(self.cond_expr()?)
            } else {
                None
            };
            self.declare(&name.name, false);
            variants.push((name, value));
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect_closing(Punct::RBrace, open, "to close the enum body")?;
        Ok(variants)
    }

    /// An identifier, or an error that says keywords are not names.
    pub(super) fn expect_name(&mut self, role: &str) -> PResult<Ident> {
        if let Tok::Ident(name) = self.peek() {
            let name = name.clone();
            return Ok(Ident {
                name,
                span: self.bump(),
            });
        }
        Err(self.name_error(role))
    }

    fn name_error(&mut self, role: &str) -> Reported {
        let help = match self.peek() {
            Tok::Kw(kw) => format!("`{}` is a keyword in Fork; choose another name", kw.text()),
            _ => "write an identifier here".to_string(),
        };
        let diag = self
            .found_diag(&E0111, &format!("expected a name {role}"))
            .with_help(help);
        self.report(diag)
    }

    /// A declarator: `*p`, `a[N][M]`, `(*f)(int)`; abstract ones omit the name.
    pub(super) fn declarator(&mut self, kind: DeclaratorKind) -> PResult<Declarator> {
        self.nested(|p| p.declarator_inner(kind))
    }

    fn declarator_inner(&mut self, kind: DeclaratorKind) -> PResult<Declarator> {
        let lo = self.lo();
        let mut pointers = Vec::new();
        while self.eat(Punct::Star) {
            let mut is_const = false;
            let mut sharity = None;
            loop {
                let word = match self.peek() {
                    Tok::Kw(Kw::Const) => None,
                    Tok::Kw(Kw::Sh) => Some(SharityKw::Sh),
                    Tok::Kw(Kw::Pr) => Some(SharityKw::Pr),
                    _ => break,
                };
                match word {
                    None => is_const = true,
                    Some(_) if sharity.is_some() => {
                        let diag = Diagnostic::error(
                            &E0109,
                            self.span(),
                            "a pointer has one sharity: a second `sh`/`pr` after `*`",
                        )
                        .with_label("second sharity")
                        .with_help("keep one of `sh` and `pr`");
                        self.report(diag);
                    }
                    Some(s) => sharity = Some(s),
                }
                self.bump();
            }
            pointers.push(Derived::Pointer { is_const, sharity });
        }
        let (name, mut derived) = match self.peek() {
            Tok::Ident(name) if kind != DeclaratorKind::Abstract => {
                let name = name.clone();
                (
                    Some(Ident {
                        name,
                        span: self.bump(),
                    }),
                    Vec::new(),
                )
            }
            Tok::Punct(Punct::LParen) if self.nested_declarator_follows(kind) => {
                let open = self.bump();
                let inner = self.declarator(kind)?;
                self.expect_closing(Punct::RParen, open, "to close the declarator")?;
                (inner.name, inner.derived)
            }
            _ if kind == DeclaratorKind::Named => {
                return Err(self.name_error("in the declaration"));
            }
            _ => (None, Vec::new()),
        };
        loop {
            if self.is(Punct::LBracket) {
                let open = self.bump();
                let size = if self.is(Punct::RBracket) {
                    None
                } else {
                    Some(self.assign_expr()?)
                };
                self.expect_closing(Punct::RBracket, open, "to close the array size")?;
                derived.push(Derived::Array(size));
            } else if self.is(Punct::LParen) {
                let open = self.bump();
                derived.push(Derived::Function(self.params(open)?));
            } else {
                break;
            }
        }
        // The pointer nearest the name applies first.
        derived.extend(pointers.into_iter().rev());
        Ok(Declarator {
            name,
            derived,
            span: self.span_from(lo),
        })
    }

    /// At a `(` inside a declarator: a parenthesised declarator (`(*p)`) rather than a
    /// parameter list (`(int)`, `()`)?
    fn nested_declarator_follows(&self, kind: DeclaratorKind) -> bool {
        match self.peek_at(1) {
            _ if kind == DeclaratorKind::Named => true,
            Tok::Punct(Punct::Star | Punct::LParen | Punct::LBracket) => true,
            Tok::Ident(name) => kind == DeclaratorKind::Either && !self.is_typedef_name(name),
            _ => false,
        }
    }

    /// Parameters after `(`, through `)`: `()` and `(void)` are empty lists.
    fn params(&mut self, open: Span) -> PResult<Vec<Param>> {
        if self.eat(Punct::RParen) {
            return Ok(Vec::new());
        }
        if self.is_kw(Kw::Void) && *self.peek_at(1) == Tok::Punct(Punct::RParen) {
            self.bump();
            self.bump();
            return Ok(Vec::new());
        }
        // Parameter names are scoped to the prototype (a definition redeclares them).
        self.push_scope();
        let params = self.param_list(open);
        self.pop_scope();
        params
    }

    fn param_list(&mut self, open: Span) -> PResult<Vec<Param>> {
        let mut params = Vec::new();
        loop {
            if self.is(Punct::Ellipsis) {
                let diag = Diagnostic::error(
                    &E0114,
                    self.span(),
                    "variadic parameters `...` are not part of the Fork dialect",
                )
                .with_label("variadic")
                .with_help("declare every parameter explicitly");
                return Err(self.report(diag));
            }
            if !self.starts_decl_specs() {
                let diag = self
                    .found_diag(&E0100, "expected a parameter declaration")
                    .with_help("write a type and a name, as in `int n`");
                return Err(self.report(diag));
            }
            let lo = self.lo();
            let specs = self.decl_specs()?;
            let declarator = self.declarator(DeclaratorKind::Either)?;
            if let Some(name) = &declarator.name {
                self.declare(&name.name, false);
            }
            params.push(Param {
                specs,
                declarator,
                span: self.span_from(lo),
            });
            if !self.eat(Punct::Comma) {
                self.close_list(open, "parameter")?;
                return Ok(params);
            }
        }
    }

    /// A type in a cast or `sizeof(type)`: specifiers and an abstract declarator.
    pub(super) fn type_name(&mut self) -> PResult<TypeName> {
        let lo = self.lo();
        let specs = self.decl_specs()?;
        let declarator = self.declarator(DeclaratorKind::Abstract)?;
        Ok(TypeName {
            specs,
            declarator,
            span: self.span_from(lo),
        })
    }

    /// `= e` or `= { i, i, ... }` (after the `=`).
    fn initializer(&mut self) -> PResult<Initializer> {
        if !self.is(Punct::LBrace) {
            return Ok(Initializer::Expr(self.assign_expr()?));
        }
        self.nested(|p| {
            let open = p.bump();
            let mut items = Vec::new();
            while !p.is(Punct::RBrace) {
                items.push(p.initializer()?);
                if !p.eat(Punct::Comma) {
                    break;
                }
            }
            p.expect_closing(Punct::RBrace, open, "to close the initialiser list")?;
            Ok(Initializer::List(items, p.span_from(open.lo)))
        })
    }
}

impl SpecWords {
    /// The specifiers as the AST holds them; a combination that is no C type is reported.
    fn into_specs(self, parser: &mut Parser<'_>, span: Span) -> DeclSpecs {
        let (sharity, fn_kind, storage, is_const) =
            (self.sharity, self.fn_kind, self.storage, self.is_const);
        let base = match self.base() {
            Ok(base) => base,
            Err(why) => {
                let diag = Diagnostic::error(&E0109, span, format!("invalid type: {why}"))
                    .with_label("these specifiers")
                    .with_help("write a C type, as in `unsigned long`, `double`, `char`");
                parser.report(diag);
                BaseType::Int { signed: true }
            }
        };
        DeclSpecs {
            sharity,
            fn_kind,
            storage,
            is_const,
            base,
            span,
        }
    }
}
