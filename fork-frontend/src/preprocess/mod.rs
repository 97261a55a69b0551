//! The C preprocessor subset of docs/language.md §1: `#define` (object- and function-like,
//! `#`, `##`, `__VA_ARGS__`), `#undef`, `-D`, `#include`, conditionals, `#error`, comments and
//! line continuations.
//!
//! Output and map: every logical line of input gives its text (expanded) and as many newlines
//! as it spanned, so the output keeps the input's line structure. Text copied from a file is
//! recorded in the `SourceMap` byte for byte; text produced by a macro points at the macro's
//! use site (macro arguments keep pointing at where they were written). The preprocessor's own
//! diagnostics use spans straight into the original files (`SourceMap::file_span`).
//!
//! Errors are reported and the preprocessor goes on: a bad directive is skipped, a bad `#if`
//! counts as false, a bad macro call is dropped, a missing include file is left out.

mod codes;
mod expr;
mod lexer;
mod lines;
mod macros;
mod token;

pub use codes::CODES;

use crate::diag::Diagnostic;
use crate::source::{FileId, SourceMap, Span};
use lines::LogicalLine;
use macros::{Expander, Macro, MacroTable, TokenStream};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use token::{From, Token};

pub struct Preprocessed {
    /// The text the parser reads: macros expanded, directives and comments gone, one line
    /// per input line (included files' lines inserted at their `#include`).
    pub text: String,
    /// Maps spans of `text` back to the original files and macro use sites.
    pub map: SourceMap,
    /// The preprocessor's errors, spans pointing straight into the original files.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads an included file (`#include "name"`), `name` already resolved against the including
/// file's directory.
pub type IncludeReader = dyn Fn(&str) -> std::io::Result<String>;

pub fn read_include(path: &str) -> std::io::Result<String> {
    std::fs::read_to_string(path)
}

/// How deep `#include "..."` may nest below the main file.
const MAX_INCLUDE_DEPTH: usize = 64;

/// Name of the pseudo-file that holds the `-D` definitions, shown in their diagnostics.
const COMMAND_LINE: &str = "<command line>";

/// Preprocesses `text` (shown as `name`), reading included files through `read`. `defines`
/// are `-D NAME=VALUE`; they win over a `#define` or `#undef` of the same name in the source.
pub fn preprocess(
    name: &str,
    text: &str,
    read: &IncludeReader,
    defines: &[(String, String)],
) -> Preprocessed {
    let mut pp = Preprocessor {
        read,
        map: SourceMap::default(),
        out: String::new(),
        diagnostics: Vec::new(),
        macros: MacroTable::new(),
        include_stack: vec![normalize(Path::new(name))],
    };
    let main = pp.map.add_file(name, text);
    pp.define_from_command_line(defines);
    pp.process_file(main);
    pp.map.set_output_len(pp.out.len());
    Preprocessed {
        text: pp.out,
        map: pp.map,
        diagnostics: pp.diagnostics,
    }
}

struct Preprocessor<'r> {
    read: &'r IncludeReader,
    map: SourceMap,
    out: String,
    diagnostics: Vec<Diagnostic>,
    macros: MacroTable,
    /// Normalized names of the files being read, outermost first.
    include_stack: Vec<String>,
}

/// The logical lines of one file and how far they have been read.
struct FileReader {
    file: FileId,
    /// Virtual offset of the file's first byte.
    base: u32,
    lines: Vec<LogicalLine>,
    next: usize,
    /// Newlines of lines taken by a macro call that spans lines, still to be written.
    pulled_newlines: usize,
}

impl FileReader {
    /// The next line's tokens, for a macro call that continues there; None at a directive
    /// or the end of the file.
    fn pull(&mut self) -> Option<Vec<Token>> {
        let line = self.lines.get(self.next)?;
        if line.is_directive() {
            return None;
        }
        let index = self.next;
        self.next += 1;
        self.pulled_newlines += 1 + line.hidden_newlines;
        Some(token::line_tokens(line, index, self.base))
    }
}

/// An open `#if` group.
struct Conditional {
    /// The `#if`/`#ifdef`/`#ifndef` keyword.
    at: Span,
    /// Whether the text around the conditional is being kept.
    parent_active: bool,
    /// Whether the current branch is being kept.
    active: bool,
    /// Whether some branch has been kept (or none may be, the parent being inactive).
    taken: bool,
    else_at: Option<Span>,
}

impl Preprocessor<'_> {
    fn define_from_command_line(&mut self, defines: &[(String, String)]) {
        if defines.is_empty() {
            return;
        }
        let text: String = defines
            .iter()
            .map(|(name, value)| format!("-D {name}={value}\n"))
            .collect();
        let file = self.map.add_file(COMMAND_LINE, &text);
        let base = self.map.file_span(file, 0..0).lo;
        let (lines, _) = lines::logical_lines(&text);
        for ((index, line), (name, _)) in lines.iter().enumerate().zip(defines) {
            let name_end = 3 + name.len();
            let mut tokens: Vec<Token> = token::line_tokens(line, index, base)
                .into_iter()
                .filter(|t| matches!(t.from, From::Line { lo, .. } if lo >= 3))
                .collect();
            // The `=` between name and value is not part of the definition.
            tokens.retain(|t| !matches!(t.from, From::Line { lo, .. } if lo == name_end));
            if let Some(value) = tokens
                .iter_mut()
                .find(|t| matches!(t.from, From::Line { lo, .. } if lo > name_end))
            {
                value.space_before = true;
            }
            let whole = self.map.file_span(file, 0..line.text.len());
            match macros::parse_define(&tokens, whole) {
                Ok((name, definition)) => {
                    let definition = Macro {
                        from_command_line: true,
                        ..definition
                    };
                    self.macros.insert(name, definition);
                }
                Err(diagnostic) => self.diagnostics.push(diagnostic),
            }
        }
    }

    fn process_file(&mut self, file: FileId) {
        let text = self.map.file(file).text.clone();
        let base = self.map.file_span(file, 0..0).lo;
        let (lines, unterminated) = lines::logical_lines(&text);
        if let Some(at) = unterminated {
            self.diagnostics.push(
                Diagnostic::error(
                    &codes::UNTERMINATED_COMMENT,
                    self.map.file_span(file, at..at + 2),
                    "unterminated comment",
                )
                .with_label("this comment is never closed")
                .with_help("close the comment with `*/`"),
            );
        }
        let mut reader = FileReader {
            file,
            base,
            lines,
            next: 0,
            pulled_newlines: 0,
        };
        let mut conditionals: Vec<Conditional> = Vec::new();
        while reader.next < reader.lines.len() {
            let index = reader.next;
            reader.next += 1;
            let line = &reader.lines[index];
            let active = conditionals.last().is_none_or(|c| c.active);
            if line.is_directive() {
                let tokens = token::line_tokens(line, index, base);
                self.directive(&reader, index, &tokens, &mut conditionals);
            } else if active {
                // Most lines use no macro: they are copied without building tokens.
                let lexemes = lexer::lex(&line.text);
                let uses_macro = lexemes.iter().any(|l| {
                    l.kind == lexer::Kind::Ident && self.macros.contains_key(&line.text[l.lo..l.hi])
                });
                if uses_macro {
                    let tokens = token::line_tokens(line, index, base);
                    self.expand_line(&mut reader, tokens);
                } else if let Some(last) = lexemes.last() {
                    self.copy(line, base, 0..last.hi);
                }
            }
            let line = &reader.lines[index];
            let newlines = 1 + line.hidden_newlines + std::mem::take(&mut reader.pulled_newlines);
            self.map
                .push_copied(self.out.len(), base + line.end_offset());
            self.out.extend(std::iter::repeat_n('\n', newlines));
        }
        for open in conditionals {
            self.diagnostics.push(
                Diagnostic::error(
                    &codes::UNTERMINATED_IF,
                    open.at,
                    "conditional without `#endif`",
                )
                .with_label("this conditional is never closed")
                .with_help(format!(
                    "add `#endif` where the conditional part ends, in `{}`",
                    self.map.file(file).name
                )),
            );
        }
    }

    fn expand_line(&mut self, reader: &mut FileReader, tokens: Vec<Token>) {
        let mut more = || reader.pull();
        let mut stream = TokenStream::new(tokens, Some(&mut more));
        let expanded = Expander {
            macros: &self.macros,
            diagnostics: &mut self.diagnostics,
        }
        .expand(&mut stream);
        drop(stream);
        self.emit(&reader.lines, reader.base, &expanded);
    }

    /// Writes expanded tokens: text between two tokens that were adjacent in the file is
    /// copied as it was, elsewhere a space separates tokens where the source had one or where
    /// they would otherwise run together.
    fn emit(&mut self, lines: &[LogicalLine], base: u32, tokens: &[Token]) {
        let mut prev: Option<&Token> = None;
        for tok in tokens {
            // Where to copy from when `tok` directly follows `prev` in the file; the first
            // token of a line brings the line's indentation.
            let copy_from = match (prev.map(|p| &p.from), &tok.from) {
                (
                    Some(From::Line {
                        line: prev_line,
                        index: prev_index,
                        hi: prev_hi,
                        ..
                    }),
                    From::Line { line, index, .. },
                ) if prev_line == line && prev_index + 1 == *index => Some(*prev_hi),
                (None, From::Line { index: 0, .. }) => Some(0),
                _ => None,
            };
            match (&tok.from, copy_from) {
                (From::Line { line, hi, .. }, Some(from)) => {
                    self.copy(&lines[*line], base, from..*hi);
                }
                _ => {
                    if prev.is_some_and(|p| tok.space_before || token::would_paste(p, tok)) {
                        self.out.push(' ');
                    }
                    match &tok.from {
                        From::Line { line, lo, hi, .. } => self.copy(&lines[*line], base, *lo..*hi),
                        From::Macro(name) => {
                            self.map.push_expansion(self.out.len(), tok.at, name);
                            self.out.push_str(&tok.text);
                        }
                    }
                }
            }
            prev = Some(tok);
        }
    }

    /// Copies `range` of a logical line, recording where each run of contiguous original
    /// bytes came from.
    fn copy(&mut self, line: &LogicalLine, base: u32, range: std::ops::Range<usize>) {
        let mut start = range.start;
        for i in range.start + 1..=range.end {
            let run_ends = i == range.end || line.offsets[i] != line.offsets[i - 1] + 1;
            if run_ends {
                if let Some(text) = line.text.get(start..i) {
                    self.map
                        .push_copied(self.out.len(), base + line.offsets[start]);
                    self.out.push_str(text);
                }
                start = i;
            }
        }
    }

    fn directive(
        &mut self,
        reader: &FileReader,
        index: usize,
        tokens: &[Token],
        conditionals: &mut Vec<Conditional>,
    ) {
        let active = conditionals.last().is_none_or(|c| c.active);
        // A `#` alone is the null directive.
        let Some(keyword) = tokens.get(1) else {
            return;
        };
        let rest = &tokens[2..];
        let whole = tokens[0].at.to(tokens[tokens.len() - 1].at);
        let head = tokens[0].at.to(keyword.at);
        match keyword.ident().unwrap_or("") {
            kind @ ("if" | "ifdef" | "ifndef") => {
                let value = active && self.condition(kind, rest, head);
                conditionals.push(Conditional {
                    at: head,
                    parent_active: active,
                    active: value,
                    taken: value || !active,
                    else_at: None,
                });
            }
            kind @ ("elif" | "else") => {
                let Some(open) = conditionals.last_mut() else {
                    self.diagnostics.push(without_if(kind, head));
                    return;
                };
                if let Some(else_at) = open.else_at {
                    self.diagnostics.push(
                        Diagnostic::error(&codes::AFTER_ELSE, head, format!("`#{kind}` after `#else`"))
                            .with_label(format!("this `#{kind}` follows the `#else`"))
                            .with_note(else_at, "the `#else` is here")
                            .with_help("only `#endif` may follow `#else`; move this branch before the `#else`"),
                    );
                    open.active = false;
                    return;
                }
                let keep = if kind == "else" {
                    open.else_at = Some(head);
                    !open.taken
                } else {
                    let (parent_active, taken) = (open.parent_active, open.taken);
                    parent_active && !taken && self.condition(kind, rest, head)
                };
                let Some(open) = conditionals.last_mut() else {
                    return;
                };
                open.active = keep;
                open.taken |= keep;
            }
            "endif" => {
                if conditionals.pop().is_none() {
                    self.diagnostics.push(without_if("endif", head));
                }
            }
            _ if !active => {}
            "define" => match macros::parse_define(rest, head) {
                Ok((name, definition)) => {
                    if !self.macros.get(&name).is_some_and(|m| m.from_command_line) {
                        self.macros.insert(name, definition);
                    }
                }
                Err(diagnostic) => self.diagnostics.push(diagnostic),
            },
            "undef" => match rest.first().and_then(Token::ident) {
                Some(name) => {
                    if !self.macros.get(name).is_some_and(|m| m.from_command_line) {
                        self.macros.remove(name);
                    }
                }
                None => self.diagnostics.push(
                    Diagnostic::error(&codes::MALFORMED_DIRECTIVE, head, "`#undef` without a macro name")
                        .with_label("name expected after this")
                        .with_help("write `#undef NAME`"),
                ),
            },
            "include" => self.include(reader.file, rest, head),
            "error" => {
                let message = match keyword.from {
                    From::Line { hi, .. } => reader.lines[index].text[hi..].trim().to_string(),
                    _ => String::new(),
                };
                self.diagnostics.push(
                    Diagnostic::error(&codes::ERROR_DIRECTIVE, whole, format!("#error {message}"))
                        .with_label("`#error` reached")
                        .with_help("the program rejects these settings; check its `-D` defines and conditions"),
                );
            }
            "pragma" | "line" => {}
            _ => self.diagnostics.push(
                Diagnostic::error(
                    &codes::UNKNOWN_DIRECTIVE,
                    head,
                    format!("unknown directive `#{}`", keyword.text),
                )
                .with_label("not a preprocessor directive")
                .with_help("directives are #define, #undef, #include, #if, #ifdef, #ifndef, #elif, #else, #endif, #error, #pragma"),
            ),
        }
    }

    /// Evaluates the condition of `#if`/`#elif` (`rest`) or `#ifdef`/`#ifndef`; an error
    /// counts as false.
    fn condition(&mut self, kind: &str, rest: &[Token], head: Span) -> bool {
        if kind == "ifdef" || kind == "ifndef" {
            return match rest {
                [name] if name.ident().is_some() => {
                    self.macros.contains_key(&*name.text) == (kind == "ifdef")
                }
                _ => {
                    self.diagnostics.push(
                        Diagnostic::error(
                            &codes::MALFORMED_DIRECTIVE,
                            head,
                            format!("`#{kind}` needs exactly one macro name"),
                        )
                        .with_label("a single name expected after this")
                        .with_help(format!("write `#{kind} NAME`; use `#if` for expressions")),
                    );
                    false
                }
            };
        }
        let result = self.replace_defined(rest).and_then(|tokens| {
            let expanded = Expander {
                macros: &self.macros,
                diagnostics: &mut self.diagnostics,
            }
            .expand(&mut TokenStream::new(tokens, None));
            expr::evaluate(&expanded, head)
        });
        match result {
            Ok(value) => value != 0,
            Err(diagnostic) => {
                self.diagnostics.push(diagnostic);
                false
            }
        }
    }

    /// `defined NAME` and `defined(NAME)` become `1` or `0`.
    fn replace_defined(&self, rest: &[Token]) -> Result<Vec<Token>, Diagnostic> {
        let mut out = Vec::with_capacity(rest.len());
        let mut i = 0;
        while i < rest.len() {
            if rest[i].ident() != Some("defined") {
                out.push(rest[i].clone());
                i += 1;
                continue;
            }
            let (name, end) = match (rest.get(i + 1), rest.get(i + 2), rest.get(i + 3)) {
                (Some(open), Some(name), Some(close)) if open.is("(") && close.is(")") => {
                    (name, i + 4)
                }
                (Some(name), _, _) => (name, i + 2),
                _ => (&rest[i], i + 1),
            };
            if name.ident().is_none() || name.ident() == Some("defined") {
                return Err(Diagnostic::error(
                    &codes::BAD_IF_EXPRESSION,
                    rest[i].at.to(name.at),
                    "`defined` needs a macro name",
                )
                .with_label("expected `defined NAME` or `defined(NAME)`")
                .with_help("write `defined NAME` or `defined(NAME)`"));
            }
            let mut value = rest[i].clone();
            value.kind = lexer::Kind::Number;
            value.text = Arc::from(if self.macros.contains_key(&*name.text) {
                "1"
            } else {
                "0"
            });
            out.push(value);
            i = end;
        }
        Ok(out)
    }

    fn include(&mut self, file: FileId, rest: &[Token], head: Span) {
        let Some(target) = rest.first() else {
            self.diagnostics.push(
                Diagnostic::error(
                    &codes::MALFORMED_DIRECTIVE,
                    head,
                    "`#include` without a file name",
                )
                .with_label("file name expected after this")
                .with_help("write `#include \"file\"` (or `#include <fork.h>` for the library)"),
            );
            return;
        };
        // `<...>` headers are the built-in library: accepted and ignored.
        if target.is("<") {
            return;
        }
        let Some(name) = target
            .text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .filter(|_| target.kind == lexer::Kind::Str)
        else {
            self.diagnostics.push(
                Diagnostic::error(
                    &codes::MALFORMED_DIRECTIVE,
                    target.at,
                    "expected \"file\" or <file> after `#include`",
                )
                .with_label("not a file name")
                .with_help("write `#include \"file\"`; names are not macro-expanded"),
            );
            return;
        };
        let including = Path::new(&self.map.file(file).name);
        let path = normalize(&including.parent().unwrap_or(Path::new("")).join(name));
        if let Some(start) = self.include_stack.iter().position(|p| *p == path) {
            let chain: Vec<&str> = self.include_stack[start..]
                .iter()
                .map(String::as_str)
                .collect();
            self.diagnostics.push(
                Diagnostic::error(&codes::INCLUDE_CYCLE, target.at, format!("`{path}` includes itself"))
                    .with_label("this include closes a cycle")
                    .with_help(format!(
                        "the chain is {} -> {path}; remove an include or add an include guard (#ifndef/#define/#endif)",
                        chain.join(" -> ")
                    )),
            );
            return;
        }
        if self.include_stack.len() > MAX_INCLUDE_DEPTH {
            self.diagnostics.push(
                Diagnostic::error(
                    &codes::INCLUDE_TOO_DEEP,
                    target.at,
                    format!("includes nested more than {MAX_INCLUDE_DEPTH} deep"),
                )
                .with_label("this include is too deep")
                .with_help("flatten the includes; protect headers with include guards"),
            );
            return;
        }
        let text = match (self.read)(&path) {
            Ok(text) => text,
            Err(err) => {
                self.diagnostics.push(
                    Diagnostic::error(&codes::INCLUDE_NOT_FOUND, target.at, format!("cannot read include file `{name}`: {err}"))
                        .with_label("included here")
                        .with_help(format!("looked for `{path}` (names are relative to the including file's directory)")),
                );
                return;
            }
        };
        let included = self.map.add_file(&path, &text);
        self.include_stack.push(path);
        self.process_file(included);
        self.include_stack.pop();
    }
}

fn without_if(kind: &str, head: Span) -> Diagnostic {
    Diagnostic::error(
        &codes::CONDITIONAL_WITHOUT_IF,
        head,
        format!("`#{kind}` without `#if`"),
    )
    .with_label("no open `#if` here")
    .with_help("remove it, or add the `#if`/`#ifdef`/`#ifndef` it belongs to (in the same file)")
}

/// `a/./b/../c` → `a/c`, without touching the file system.
fn normalize(path: &Path) -> String {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out.display().to_string()
}

#[cfg(test)]
mod tests;
