//! Test cases recorded in a program's comments, for `forkcc test`:
//!
//! ```text
//! //! run: -p 8 -D N=16
//! //! expect:
//! //! first output line
//! //!
//! //! third output line (the second is empty)
//! //! run: -p 2 --crcw common
//! //! expect-error: concurrent write
//! ```
//!
//! A file holds one or more `run:` blocks. `expect:` lines run until a line that does not start
//! with `//!` or the next `//! run:`; `//!` alone is an empty line. `expect-error: TEXT` means
//! the run must fail with TEXT in its diagnostics. The run arguments are `forkcc sim` flags.

/// What a case expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// The exact standard output (every line ends with `\n`).
    Output(String),
    /// The run fails and its diagnostics contain this text.
    Error(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// 1-based line of the `//! run:` directive.
    pub line: usize,
    /// The run arguments, split at whitespace.
    pub args: Vec<String>,
    pub expect: Expect,
}

/// A malformed directive, at a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    pub line: usize,
    pub message: String,
}

const MARK: &str = "//!";

/// Parses every case of `text`. A file without any `//! run:` has no cases.
pub fn parse(text: &str) -> Result<Vec<Case>, SpecError> {
    let mut cases = Vec::new();
    // The open `run:` (line, args) and, once `expect:` was seen, its output lines.
    let mut run: Option<(usize, Vec<String>)> = None;
    let mut output: Option<Vec<&str>> = None;
    let error = |line: usize, message: &str| SpecError {
        line,
        message: message.to_string(),
    };
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let Some(rest) = raw.trim_start().strip_prefix(MARK) else {
            if let Some(lines) = output.take() {
                close(&mut cases, &mut run, Expect::Output(joined(&lines)));
            }
            continue;
        };
        let body = rest.strip_prefix(' ').unwrap_or(rest);
        let directive = body.trim();
        if let Some(args) = directive.strip_prefix("run:") {
            if let Some(lines) = output.take() {
                close(&mut cases, &mut run, Expect::Output(joined(&lines)));
            }
            if let Some((open, _)) = run {
                return Err(error(
                    open,
                    "`//! run:` has no `//! expect:` or `//! expect-error:`",
                ));
            }
            run = Some((line, args.split_whitespace().map(str::to_string).collect()));
        } else if let Some(lines) = output.as_mut() {
            lines.push(body);
        } else if directive == "expect:" {
            if run.is_none() {
                return Err(error(line, "`//! expect:` without a `//! run:` before it"));
            }
            output = Some(Vec::new());
        } else if let Some(text) = directive.strip_prefix("expect-error:") {
            if run.is_none() {
                return Err(error(
                    line,
                    "`//! expect-error:` without a `//! run:` before it",
                ));
            }
            let text = text.trim();
            if text.is_empty() {
                return Err(error(
                    line,
                    "`//! expect-error:` needs the text the error must contain",
                ));
            }
            close(&mut cases, &mut run, Expect::Error(text.to_string()));
        } else if run.is_some() {
            return Err(error(
                line,
                "expected `//! expect:` or `//! expect-error: TEXT` after `//! run:`",
            ));
        }
    }
    if let Some(lines) = output.take() {
        close(&mut cases, &mut run, Expect::Output(joined(&lines)));
    }
    if let Some((open, _)) = run {
        return Err(error(
            open,
            "`//! run:` has no `//! expect:` or `//! expect-error:`",
        ));
    }
    Ok(cases)
}

fn close(cases: &mut Vec<Case>, run: &mut Option<(usize, Vec<String>)>, expect: Expect) {
    if let Some((line, args)) = run.take() {
        cases.push(Case { line, args, expect });
    }
}

fn joined(lines: &[&str]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_runs_with_outputs_and_errors() {
        let text = "/* doc */\n//! run: -p 8 -D N=16\n//! expect:\n//! a b\n//!\n//!   indented\nint x;\n//! run: -p 2\n//! expect-error: concurrent write\n//! run: -p 1\n//! expect:\n//! last\n";
        let cases = parse(text).unwrap();
        assert_eq!(cases.len(), 3);
        assert_eq!(cases[0].line, 2);
        assert_eq!(cases[0].args, vec!["-p", "8", "-D", "N=16"]);
        assert_eq!(
            cases[0].expect,
            Expect::Output("a b\n\n  indented\n".into())
        );
        assert_eq!(cases[1].expect, Expect::Error("concurrent write".into()));
        assert_eq!(cases[2].expect, Expect::Output("last\n".into()));
    }

    #[test]
    fn next_run_ends_an_expect_block() {
        let cases =
            parse("//! run: -p 1\n//! expect:\n//! x\n//! run: -p 2\n//! expect:\n").unwrap();
        assert_eq!(cases[0].expect, Expect::Output("x\n".into()));
        assert_eq!(cases[1].expect, Expect::Output(String::new()));
    }

    #[test]
    fn malformed_directives_are_located() {
        assert_eq!(parse("//! run: -p 1\nint x;\n").unwrap_err().line, 1);
        assert_eq!(parse("\n//! expect:\n").unwrap_err().line, 2);
        assert_eq!(
            parse("//! run: -p 1\n//! expect-error:\n")
                .unwrap_err()
                .line,
            2
        );
        assert_eq!(parse("//! run: -p 1\n//! wrong\n").unwrap_err().line, 2);
        assert!(parse("int main;\n").unwrap().is_empty());
    }
}
