//! The preprocessor's diagnostic codes (E0002–E0099) with their `forkcc explain` texts.

use crate::diag::Code;

pub const UNTERMINATED_COMMENT: Code = Code {
    id: "E0002",
    title: "a `/*` comment is never closed",
    explain: "A block comment runs to the end of the file because its `*/` is missing, so \
everything after `/*` is ignored.\n\nExample:\n\n    int x; /* counter\n    sync void main(void) { }\n\n\
Fix: close the comment with `*/` where it should end.",
};

pub const UNKNOWN_DIRECTIVE: Code = Code {
    id: "E0003",
    title: "unknown preprocessor directive",
    explain: "A line starting with `#` names no directive forkcc knows. Known: #define, #undef, \
#include, #if, #ifdef, #ifndef, #elif, #else, #endif, #error, #pragma, #line.\n\nExample:\n\n    \
#defne N 16\n\nFix: correct the spelling (`#define N 16`).",
};

pub const MALFORMED_DIRECTIVE: Code = Code {
    id: "E0004",
    title: "a directive is malformed",
    explain: "A known directive lacks a part it needs or has a part it cannot take: a \
`#define`/`#undef`/`#ifdef` without a macro name, a bad parameter list, `#` not followed by \
a parameter in a function-like macro, `##` at either end of a macro body, or an `#include` \
without a \"file\" or <file> name.\n\nExample:\n\n    #define (x) x\n\nFix: write the directive \
in its C form, e.g. `#define TWICE(x) ((x) * 2)`.",
};

pub const CONDITIONAL_WITHOUT_IF: Code = Code {
    id: "E0005",
    title: "`#elif`, `#else` or `#endif` without a matching `#if`",
    explain: "Every `#elif`, `#else` and `#endif` must close or continue an `#if`, `#ifdef` or \
`#ifndef` of the same file.\n\nExample:\n\n    int x;\n    #endif\n\nFix: remove the stray \
directive or add the `#if` it belongs to.",
};

pub const AFTER_ELSE: Code = Code {
    id: "E0006",
    title: "`#elif` or `#else` after `#else`",
    explain: "After the `#else` of a conditional only `#endif` may follow.\n\nExample:\n\n    \
#if N > 4\n    #else\n    #elif N > 2\n    #endif\n\nFix: move the `#elif` before the `#else`, \
or close the conditional with `#endif` first.",
};

pub const UNTERMINATED_IF: Code = Code {
    id: "E0007",
    title: "`#if` without `#endif`",
    explain: "A conditional (`#if`, `#ifdef`, `#ifndef`) is still open at the end of the file \
that contains it.\n\nExample:\n\n    #ifdef DEBUG\n    int trace;\n    /* end of file */\n\n\
Fix: add `#endif` where the conditional part ends (in the same file).",
};

pub const BAD_IF_EXPRESSION: Code = Code {
    id: "E0008",
    title: "invalid `#if` expression",
    explain: "The condition of `#if`/`#elif` must be an integer constant expression: integer \
and character constants, `defined(NAME)`, macros that expand to such, and the C operators \
(no assignment, no `++`, no floating constants), nested at most 64 deep, with shift counts \
0..63. Identifiers that are not macros count as 0; arithmetic is 64-bit signed.\n\nExample:\n\n    #if N >\n\nFix: complete the expression, e.g. `#if N > 4`.",
};

pub const DIVISION_BY_ZERO: Code = Code {
    id: "E0009",
    title: "division by zero in an `#if` expression",
    explain: "The condition of `#if`/`#elif` divides (`/` or `%`) by a value that is 0, often \
a macro that is undefined and therefore 0.\n\nExample:\n\n    #if 64 / BLOCK > 2\n\n(with \
BLOCK undefined). Fix: define the macro (`-D BLOCK=8`) or guard the division, e.g. \
`#if defined(BLOCK) && 64 / BLOCK > 2`.",
};

pub const ARGUMENT_COUNT: Code = Code {
    id: "E0010",
    title: "a function-like macro is called with the wrong number of arguments",
    explain: "A call of a function-like macro must give one argument per parameter. Commas \
inside parentheses do not split arguments.\n\nExample:\n\n    #define MAX(a, b) ((a) > (b) ? \
(a) : (b))\n    x = MAX(1, 2, 3);\n\nFix: pass exactly as many arguments as the macro has \
parameters; wrap an argument that contains a comma in parentheses.",
};

pub const UNTERMINATED_CALL: Code = Code {
    id: "E0011",
    title: "a macro call is never closed",
    explain: "The argument list of a function-like macro call has no closing `)` before the \
next directive or the end of the file.\n\nExample:\n\n    #define SQ(x) ((x) * (x))\n    \
int y = SQ(3;\n\nFix: add the missing `)`.",
};

pub const INCLUDE_NOT_FOUND: Code = Code {
    id: "E0012",
    title: "an included file cannot be read",
    explain: "`#include \"name\"` looks for `name` relative to the directory of the file \
that contains the directive, and that file does not exist or cannot be read. (`#include \
<name>` is accepted and ignored: the library is built in.)\n\nExample:\n\n    #include \
\"util.fh\"\n\nwith no util.fh next to the program. Fix: correct the name or the path.",
};

pub const INCLUDE_CYCLE: Code = Code {
    id: "E0013",
    title: "a file includes itself",
    explain: "An `#include \"...\"` names a file that is already being included, directly or \
through other files, which would never end.\n\nExample: a.fh contains `#include \"b.fh\"` \
and b.fh contains `#include \"a.fh\"`.\n\nFix: remove one of the includes, or protect the \
header with an include guard:\n\n    #ifndef A_FH\n    #define A_FH\n    ...\n    #endif",
};

pub const INCLUDE_TOO_DEEP: Code = Code {
    id: "E0014",
    title: "includes are nested more than 64 deep",
    explain: "Files may include files up to 64 levels deep; a deeper chain is almost always \
a runaway include.\n\nExample: h0.fh includes h1.fh, which includes h2.fh, and so on \
past h64.fh.\n\nFix: flatten the include structure; use include guards so headers are \
read once.",
};

pub const ERROR_DIRECTIVE: Code = Code {
    id: "E0015",
    title: "`#error` directive",
    explain: "The program reached an `#error` line that is not excluded by a conditional. \
Authors use it to reject settings the program does not support.\n\nExample:\n\n    #if N % 2\n    \
#error N must be even\n    #endif\n\nFix: do what the message asks, usually change a `-D` \
setting (here `-D N=16`).",
};

pub const BAD_PASTE: Code = Code {
    id: "E0016",
    title: "`##` does not form a valid token",
    explain: "The `##` operator in a macro body glues two tokens into one, and the result \
must be a single valid token.\n\nExample:\n\n    #define GLUE(a, b) a ## b\n    x = GLUE(+, \
/);\n\nFix: only paste pieces that form one identifier, number or operator; to put tokens \
side by side, leave out `##`.",
};

pub const CODES: &[&Code] = &[
    &UNTERMINATED_COMMENT,
    &UNKNOWN_DIRECTIVE,
    &MALFORMED_DIRECTIVE,
    &CONDITIONAL_WITHOUT_IF,
    &AFTER_ELSE,
    &UNTERMINATED_IF,
    &BAD_IF_EXPRESSION,
    &DIVISION_BY_ZERO,
    &ARGUMENT_COUNT,
    &UNTERMINATED_CALL,
    &INCLUDE_NOT_FOUND,
    &INCLUDE_CYCLE,
    &INCLUDE_TOO_DEEP,
    &ERROR_DIRECTIVE,
    &BAD_PASTE,
];
