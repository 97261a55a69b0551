//! Name resolution with C scoping: a stack of block scopes for ordinary names (variables,
//! functions, typedef names, enum constants) and one for struct/enum tags.

use crate::ast;
use crate::hir::{FuncId, StructId, Type, VarId};
use crate::source::Span;
use std::collections::HashMap;

#[derive(Debug, Clone)]
pub(super) enum Symbol {
    Var(VarId),
    Func(FuncId),
    Typedef(Type),
    EnumConst(i64),
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Tag {
    Struct(StructId),
    Enum,
}

#[derive(Default)]
struct Scope {
    names: HashMap<String, (Symbol, Span)>,
    tags: HashMap<String, (Tag, Span)>,
}

pub(super) struct Scopes {
    stack: Vec<Scope>,
}

impl Scopes {
    /// Starts with the file scope.
    pub(super) fn new() -> Scopes {
        Scopes {
            stack: vec![Scope::default()],
        }
    }

    pub(super) fn push(&mut self) {
        self.stack.push(Scope::default());
    }

    pub(super) fn pop(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    pub(super) fn lookup(&self, name: &str) -> Option<&(Symbol, Span)> {
        self.stack.iter().rev().find_map(|s| s.names.get(name))
    }

    /// The declaration of `name` in the innermost scope only (for duplicate detection).
    pub(super) fn lookup_current(&self, name: &str) -> Option<&(Symbol, Span)> {
        self.stack.last().and_then(|s| s.names.get(name))
    }

    /// Declares `name` in the innermost scope; returns the previous declaration there, if any.
    pub(super) fn declare(&mut self, name: &str, symbol: Symbol, span: Span) -> Option<Span> {
        let scope = self.stack.last_mut()?;
        match scope.names.get(name) {
            Some((_, previous)) => Some(*previous),
            None => {
                scope.names.insert(name.to_string(), (symbol, span));
                None
            }
        }
    }

    pub(super) fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.stack
            .iter()
            .rev()
            .find_map(|s| s.tags.get(name).map(|(t, _)| *t))
    }

    pub(super) fn lookup_tag_current(&self, name: &str) -> Option<(Tag, Span)> {
        self.stack.last().and_then(|s| s.tags.get(name).copied())
    }

    pub(super) fn declare_tag(&mut self, name: &str, tag: Tag, span: Span) {
        if let Some(scope) = self.stack.last_mut() {
            scope.tags.insert(name.to_string(), (tag, span));
        }
    }

    /// The visible name closest to `name` in spelling, for a "did you mean" help.
    pub(super) fn similar(&self, name: &str, extra: &[&str]) -> Option<String> {
        let visible = self
            .stack
            .iter()
            .flat_map(|s| s.names.keys().map(String::as_str))
            .chain(extra.iter().copied());
        closest(name, visible)
    }
}

/// The candidate closest to `name` by edit distance, if it is close enough to be a typo.
pub(super) fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .filter(|c| *c != name)
        .map(|c| (strsim::osa_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c.to_string())
}

/// Every name declared at file scope (variables, functions, typedefs, enum constants).
pub(super) fn global_names(unit: &ast::TranslationUnit) -> HashMap<String, Span> {
    let mut names = HashMap::new();
    let mut add = |ident: &ast::Ident| {
        names.entry(ident.name.clone()).or_insert(ident.span);
    };
    for item in &unit.items {
        match item {
            ast::Item::Function(def) => {
                if let Some(name) = &def.declarator.name {
                    add(name);
                }
            }
            ast::Item::Decl(decl) => {
                if let ast::BaseType::Enum {
                    variants: Some(variants),
                    ..
                } = &decl.specs.base
                {
                    for (ident, _) in variants {
                        add(ident);
                    }
                }
                for d in &decl.declarators {
                    if let Some(name) = &d.declarator.name {
                        add(name);
                    }
                }
            }
        }
    }
    names
}

/// The names of the functions the unit defines, each once, in order.
pub(super) fn defined_functions(unit: &ast::TranslationUnit) -> Vec<ast::Ident> {
    let mut names: Vec<ast::Ident> = Vec::new();
    for item in &unit.items {
        if let ast::Item::Function(def) = item {
            if let Some(name) = &def.declarator.name {
                if names.iter().all(|n| n.name != name.name) {
                    names.push(name.clone());
                }
            }
        }
    }
    names
}
