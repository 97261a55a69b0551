//! The token the directive parser and the macro expander work on: its text, where it came from,
//! and its hide set (the macros whose expansion produced it, which it must not re-invoke).

use super::lexer::{self, Kind};
use super::lines::LogicalLine;
use crate::source::Span;
use std::sync::Arc;

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub kind: Kind,
    pub text: Arc<str>,
    pub space_before: bool,
    /// Virtual span in the original file: the token itself, or the use site of the outermost
    /// macro whose expansion produced it.
    pub at: Span,
    pub from: From,
    pub hide: HideSet,
}

/// The macros a token must not re-invoke. Shared between the tokens of one expansion, so
/// that expanding allocates per expansion, not per token.
#[derive(Debug, Clone, Default)]
pub(super) struct HideSet(Option<Arc<[Arc<str>]>>);

impl HideSet {
    pub fn names(&self) -> &[Arc<str>] {
        self.0.as_deref().unwrap_or(&[])
    }

    pub fn contains(&self, name: &str) -> bool {
        self.names().iter().any(|h| &**h == name)
    }

    /// Prosser's rule for a call: what both the macro's name and its `)` hid (for an
    /// object-like macro: what its name hid), plus the macro itself.
    pub fn for_expansion(
        name_hide: &HideSet,
        rparen_hide: Option<&HideSet>,
        name: &Arc<str>,
    ) -> HideSet {
        let mut names: Vec<Arc<str>> = name_hide
            .names()
            .iter()
            .filter(|h| rparen_hide.is_none_or(|r| r.contains(h)))
            .cloned()
            .collect();
        if !names.contains(name) {
            names.push(name.clone());
        }
        HideSet(Some(names.into()))
    }

    /// This set with `other` added.
    pub fn union(&self, other: &HideSet) -> HideSet {
        if self.names().is_empty() {
            return other.clone();
        }
        if other.names().iter().all(|h| self.contains(h)) {
            return self.clone();
        }
        let mut names = self.names().to_vec();
        names.extend(other.names().iter().filter(|h| !self.contains(h)).cloned());
        HideSet(Some(names.into()))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum From {
    /// Token `index` of logical line `line` of the file being read, its bytes `lo..hi`.
    Line {
        line: usize,
        index: usize,
        lo: usize,
        hi: usize,
    },
    /// Produced by expanding this macro (the outermost one, used at `Token::at`). Tokens of
    /// a macro body carry the macro's name and their place in the definition.
    Macro(Arc<str>),
}

impl Token {
    pub fn is(&self, punct: &str) -> bool {
        self.kind == Kind::Punct && &*self.text == punct
    }

    pub fn ident(&self) -> Option<&str> {
        (self.kind == Kind::Ident).then_some(&*self.text)
    }
}

/// The tokens of logical line `index`, whose file starts at virtual offset `base`.
pub(super) fn line_tokens(line: &LogicalLine, index: usize, base: u32) -> Vec<Token> {
    lexer::lex(&line.text)
        .into_iter()
        .enumerate()
        .map(|(position, l)| Token {
            kind: l.kind,
            text: Arc::from(&line.text[l.lo..l.hi]),
            space_before: l.space_before,
            at: Span {
                lo: base + line.offsets[l.lo],
                hi: base + line.offsets[l.hi - 1] + 1,
            },
            from: From::Line {
                line: index,
                index: position,
                lo: l.lo,
                hi: l.hi,
            },
            hide: HideSet::default(),
        })
        .collect()
}

/// Whether writing `b` right after `a` would read back as different tokens, so the output
/// needs a space between them.
pub(super) fn would_paste(a: &Token, b: &Token) -> bool {
    let word = |k: Kind| matches!(k, Kind::Ident | Kind::Number);
    if word(a.kind) && word(b.kind) {
        return true;
    }
    if a.kind != Kind::Punct || b.kind != Kind::Punct {
        return false;
    }
    // `b` completes a longer punctuator (or a comment opener) that starts with `a`.
    lexer::PUNCTUATORS.iter().chain(&["//", "/*"]).any(|p| {
        p.len() > a.text.len() && p.starts_with(&*a.text) && b.text.starts_with(&p[a.text.len()..])
    })
}
