//! Macro definitions and their expansion: C's rules (argument pre-expansion, rescanning, `#`,
//! `##`, `__VA_ARGS__`), with hide sets (Prosser's algorithm) so that a macro is never
//! expanded inside its own expansion.

use super::codes;
use super::lexer::{self, Kind};
use super::token::{From, HideSet, Token};
use crate::diag::Diagnostic;
use crate::source::Span;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

#[derive(Debug)]
pub(super) struct Macro {
    /// Shared by every token the macro's expansions produce.
    pub name: Arc<str>,
    /// None for an object-like macro. A variadic macro's last parameter is `__VA_ARGS__`.
    pub params: Option<Vec<String>>,
    pub variadic: bool,
    pub body: Vec<Token>,
    /// The macro's name in its `#define` (or `-D`).
    pub defined_at: Span,
    /// Defined by `-D`: a `#define` or `#undef` of the name in the source is ignored.
    pub from_command_line: bool,
}

pub(super) type MacroTable = HashMap<String, Macro>;

/// Parses what follows `#define`: the name, the parameter list, the body.
pub(super) fn parse_define(rest: &[Token], directive: Span) -> Result<(String, Macro), Diagnostic> {
    let malformed = |at: Span, message: &str, label: &str| {
        Diagnostic::error(&codes::MALFORMED_DIRECTIVE, at, message)
            .with_label(label)
            .with_help("write `#define NAME value` or `#define NAME(a, b) body`")
    };
    let Some(name_tok) = rest.first() else {
        return Err(malformed(
            directive,
            "`#define` without a macro name",
            "name expected after this",
        ));
    };
    let name = match name_tok.ident() {
        Some("defined") | None => {
            return Err(malformed(
                name_tok.at,
                "a macro name must be an identifier",
                "not a macro name",
            ))
        }
        Some(name) => name.to_string(),
    };
    let mut at = 1;
    let mut params = None;
    let mut variadic = false;
    if rest.get(1).is_some_and(|t| t.is("(") && !t.space_before) {
        let mut list = Vec::new();
        at = 2;
        loop {
            let Some(tok) = rest.get(at) else {
                return Err(malformed(
                    rest[at - 1].at,
                    "unterminated macro parameter list",
                    "`)` expected after this",
                ));
            };
            at += 1;
            match tok.ident() {
                _ if tok.is(")") && list.is_empty() => break,
                _ if tok.is("...") => {
                    list.push("__VA_ARGS__".to_string());
                    variadic = true;
                }
                Some(p) if !list.iter().any(|q| q == p) => list.push(p.to_string()),
                Some(_) => {
                    return Err(malformed(
                        tok.at,
                        "duplicate macro parameter",
                        "already a parameter",
                    ))
                }
                None => {
                    return Err(malformed(
                        tok.at,
                        "expected a parameter name",
                        "not a parameter name",
                    ))
                }
            }
            match rest.get(at) {
                Some(t) if t.is(")") => {
                    at += 1;
                    break;
                }
                Some(t) if t.is(",") && !variadic => at += 1,
                Some(t) => {
                    return Err(malformed(
                        t.at,
                        "expected `,` or `)` in the parameter list",
                        "unexpected here",
                    ))
                }
                None => {
                    return Err(malformed(
                        tok.at,
                        "unterminated macro parameter list",
                        "`)` expected after this",
                    ))
                }
            }
        }
        params = Some(list);
    }
    // Body tokens count as produced by the macro; substitution points them at the use site.
    let macro_name: Arc<str> = Arc::from(name.as_str());
    let mut body: Vec<Token> = rest[at..].to_vec();
    for tok in &mut body {
        tok.from = From::Macro(macro_name.clone());
    }
    if let Some(first) = body.first_mut() {
        first.space_before = false;
    }
    if let Some(edge) = [body.first(), body.last()]
        .into_iter()
        .flatten()
        .find(|t| t.is("##"))
    {
        return Err(malformed(
            edge.at,
            "`##` cannot be at either end of a macro body",
            "nothing to paste with",
        ));
    }
    if let Some(list) = &params {
        let stringizes_non_param = body.iter().enumerate().find(|(i, t)| {
            t.is("#")
                && !body
                    .get(i + 1)
                    .and_then(Token::ident)
                    .is_some_and(|n| list.iter().any(|p| p == n))
        });
        if let Some((_, hash)) = stringizes_non_param {
            return Err(malformed(
                hash.at,
                "`#` must be followed by a macro parameter",
                "not followed by a parameter",
            ));
        }
    }
    Ok((
        name.clone(),
        Macro {
            name: macro_name,
            params,
            variadic,
            body,
            defined_at: name_tok.at,
            from_command_line: false,
        },
    ))
}

/// Tokens still to be expanded, refilled on demand (more lines of the file for a macro call
/// that spans lines).
pub(super) struct TokenStream<'a> {
    queue: VecDeque<Token>,
    more: Option<&'a mut dyn FnMut() -> Option<Vec<Token>>>,
}

impl<'a> TokenStream<'a> {
    pub fn new(
        tokens: Vec<Token>,
        more: Option<&'a mut dyn FnMut() -> Option<Vec<Token>>>,
    ) -> Self {
        TokenStream {
            queue: tokens.into(),
            more,
        }
    }

    fn fill(&mut self) -> bool {
        while self.queue.is_empty() {
            match self.more.as_mut().and_then(|more| more()) {
                Some(tokens) => self.queue.extend(tokens),
                None => return false,
            }
        }
        true
    }

    /// The next token, reading on into following lines (inside a macro call).
    fn next_pulling(&mut self) -> Option<Token> {
        self.fill();
        self.queue.pop_front()
    }

    /// The next token without taking it, reading on into following lines: a function-like
    /// macro's name at the end of a line may be called on the next one.
    fn peek_pulling(&mut self) -> Option<&Token> {
        self.fill();
        self.queue.front()
    }

    fn push_front(&mut self, tokens: Vec<Token>) {
        for tok in tokens.into_iter().rev() {
            self.queue.push_front(tok);
        }
    }
}

pub(super) struct Expander<'a> {
    pub macros: &'a MacroTable,
    pub diagnostics: &'a mut Vec<Diagnostic>,
}

/// A call's arguments and its closing parenthesis.
struct Call {
    args: Vec<Vec<Token>>,
    rparen: Token,
}

impl Expander<'_> {
    /// Expands every macro in `input` until it is exhausted.
    pub fn expand(&mut self, input: &mut TokenStream) -> Vec<Token> {
        let mut out = Vec::new();
        while let Some(tok) = input.queue.pop_front() {
            let name = match tok.ident() {
                Some(name) if !tok.hide.contains(name) => name,
                _ => {
                    out.push(tok);
                    continue;
                }
            };
            let Some(m) = self.macros.get(name) else {
                out.push(tok);
                continue;
            };
            let name = m.name.clone();
            let Some(params) = &m.params else {
                let (use_at, use_name) = use_site(&tok, None, &name);
                let hide = HideSet::for_expansion(&tok.hide, None, &name);
                let expansion = self.substitute(m, &[], use_at, &use_name, &tok, &hide);
                input.push_front(expansion);
                continue;
            };
            if !input.peek_pulling().is_some_and(|t| t.is("(")) {
                out.push(tok);
                continue;
            }
            let max_args = m.variadic.then_some(params.len());
            match collect_call(input, max_args) {
                Err(consumed) => {
                    self.diagnostics.push(
                        Diagnostic::error(&codes::UNTERMINATED_CALL, tok.at, format!("unterminated call of macro `{name}`"))
                            .with_label("the argument list of this call is never closed")
                            .with_help("add the closing `)`; a macro call must end before the next directive or the end of the file"),
                    );
                    out.push(tok);
                    out.extend(consumed);
                }
                Ok(mut call) => {
                    let named = params.len() - usize::from(m.variadic);
                    if params.is_empty() && call.args.len() == 1 && call.args[0].is_empty() {
                        call.args.clear();
                    }
                    if m.variadic && call.args.len() == named {
                        call.args.push(Vec::new());
                    }
                    let (use_at, use_name) = use_site(&tok, Some(&call.rparen), &name);
                    if call.args.len() != params.len() {
                        let wanted = if m.variadic {
                            format!("at least {named}")
                        } else {
                            named.to_string()
                        };
                        self.diagnostics.push(
                            Diagnostic::error(
                                &codes::ARGUMENT_COUNT,
                                use_at,
                                format!(
                                    "macro `{name}` takes {wanted} argument{} but {} {} given",
                                    plural(named),
                                    call.args.len(),
                                    if call.args.len() == 1 { "was" } else { "were" }
                                ),
                            )
                            .with_label(format!("called with {} argument{}", call.args.len(), plural(call.args.len())))
                            .with_note(m.defined_at, format!("`{name}` is defined here"))
                            .with_help("pass one argument per parameter; wrap an argument that contains a comma in parentheses"),
                        );
                        continue;
                    }
                    let hide = HideSet::for_expansion(&tok.hide, Some(&call.rparen.hide), &name);
                    let expansion = self.substitute(m, &call.args, use_at, &use_name, &tok, &hide);
                    input.push_front(expansion);
                }
            }
        }
        out
    }

    /// The body of `m` with the arguments put in, every token marked as coming from the
    /// use site and given the hide set `hide`.
    fn substitute(
        &mut self,
        m: &Macro,
        args: &[Vec<Token>],
        use_at: Span,
        use_name: &Arc<str>,
        name_tok: &Token,
        hide: &HideSet,
    ) -> Vec<Token> {
        let params: &[String] = m.params.as_deref().unwrap_or(&[]);
        let param = |t: &Token| t.ident().and_then(|n| params.iter().position(|p| p == n));
        let at_use_site = |t: &Token| Token {
            from: From::Macro(use_name.clone()),
            at: use_at,
            ..t.clone()
        };
        let body = &m.body;
        let mut expanded: Vec<Option<Vec<Token>>> = vec![None; args.len()];
        let mut out: Vec<Token> = Vec::new();
        let mut i = 0;
        while i < body.len() {
            let tok = &body[i];
            if m.params.is_some() && tok.is("#") {
                if let Some(p) = body.get(i + 1).and_then(param) {
                    out.push(at_use_site(&stringize(&args[p], tok)));
                    i += 2;
                    continue;
                }
            }
            if tok.is("##") {
                let rhs = match body.get(i + 1) {
                    Some(next) => {
                        param(next).map_or_else(|| vec![at_use_site(next)], |p| args[p].clone())
                    }
                    None => Vec::new(),
                };
                i += 2;
                let mut rhs = rhs.into_iter();
                match (out.last_mut(), rhs.next()) {
                    (Some(lhs), Some(first)) => {
                        self.paste(lhs, &first, use_at);
                        *lhs = at_use_site(lhs);
                    }
                    (None, Some(first)) => out.push(first),
                    _ => {}
                }
                out.extend(rhs);
                continue;
            }
            match param(tok) {
                Some(p) => {
                    let pasted = body.get(i + 1).is_some_and(|t| t.is("##"));
                    let mut arg = if pasted {
                        args[p].clone()
                    } else {
                        // Each argument is expanded once, however often it is used.
                        if expanded[p].is_none() {
                            expanded[p] =
                                Some(self.expand(&mut TokenStream::new(args[p].clone(), None)));
                        }
                        expanded[p].clone().unwrap_or_default()
                    };
                    if let Some(first) = arg.first_mut() {
                        first.space_before = tok.space_before;
                    }
                    out.extend(arg);
                }
                None => out.push(at_use_site(tok)),
            }
            i += 1;
        }
        for tok in &mut out {
            tok.hide = tok.hide.union(hide);
        }
        if let Some(first) = out.first_mut() {
            first.space_before = name_tok.space_before;
        }
        out
    }

    /// `lhs ## rhs`, in place (the caller points the result at the use site).
    fn paste(&mut self, lhs: &mut Token, rhs: &Token, use_at: Span) {
        let joined = format!("{}{}", lhs.text, rhs.text);
        let (kind, len) = lexer::token_at(&joined, 0);
        if len != joined.len() {
            self.diagnostics.push(
                Diagnostic::error(&codes::BAD_PASTE, use_at, format!("pasting `{}` and `{}` does not give a valid token", lhs.text, rhs.text))
                    .with_label("in this macro use")
                    .with_help("`##` must form one identifier, number or operator; leave it out to put tokens side by side"),
            );
        }
        lhs.kind = kind;
        lhs.text = Arc::from(joined);
    }
}

/// Where an expansion's tokens point: the outermost macro use in the file.
fn use_site(name_tok: &Token, rparen: Option<&Token>, name: &Arc<str>) -> (Span, Arc<str>) {
    match &name_tok.from {
        From::Macro(outer) => (name_tok.at, outer.clone()),
        _ => {
            let end = rparen.filter(|r| matches!(r.from, From::Line { .. }));
            (
                end.map_or(name_tok.at, |r| name_tok.at.to(r.at)),
                name.clone(),
            )
        }
    }
}

/// Reads `( args )` after a function-like macro's name. With `max_args`, commas after the
/// last parameter stay inside it (`__VA_ARGS__`). Err holds what was consumed when the input
/// ends first.
fn collect_call(input: &mut TokenStream, max_args: Option<usize>) -> Result<Call, Vec<Token>> {
    let mut consumed = Vec::new();
    consumed.extend(input.next_pulling());
    let mut args: Vec<Vec<Token>> = vec![Vec::new()];
    let mut depth = 0usize;
    loop {
        let Some(tok) = input.next_pulling() else {
            consumed.extend(args.into_iter().flatten());
            return Err(consumed);
        };
        if tok.is(")") && depth == 0 {
            return Ok(Call { args, rparen: tok });
        }
        if tok.is(",") && depth == 0 && max_args.is_none_or(|max| args.len() < max) {
            args.push(Vec::new());
            continue;
        }
        if tok.is("(") {
            depth += 1;
        } else if tok.is(")") {
            depth -= 1;
        }
        if let Some(arg) = args.last_mut() {
            arg.push(tok);
        }
    }
}

/// `#param`: the argument's spelling as a string literal (the caller points it at the use
/// site).
fn stringize(arg: &[Token], hash: &Token) -> Token {
    let mut text = String::from("\"");
    for (i, tok) in arg.iter().enumerate() {
        if i > 0 && tok.space_before {
            text.push(' ');
        }
        if matches!(tok.kind, Kind::Str | Kind::Char) {
            text.push_str(&tok.text.replace('\\', "\\\\").replace('"', "\\\""));
        } else {
            text.push_str(&tok.text);
        }
    }
    text.push('"');
    Token {
        kind: Kind::Str,
        text: Arc::from(text),
        space_before: hash.space_before,
        at: hash.at,
        from: hash.from.clone(),
        hide: HideSet::default(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
