//! The parser's diagnostic codes (E0100–E0199) with their `forkcc explain` texts.

use crate::diag::Code;

pub const E0100: Code = Code {
    id: "E0100",
    title: "unexpected token",
    explain: "The parser found a token where the grammar does not allow it; the message names \
what was expected.\n\nExample:\n\n    while x > 0) x--;   // `(` missing after `while`\n\nFix: \
write the construct as the message says: `while (x > 0) x--;`.",
};

pub const E0101: Code = Code {
    id: "E0101",
    title: "invalid character in the source",
    explain: "A character that is no part of any Fork token appears outside a string or \
character literal (for example `#` after preprocessing, a backtick, or a non-ASCII letter).\n\n\
Fix: delete the character, or put it inside a string literal.",
};

pub const E0102: Code = Code {
    id: "E0102",
    title: "malformed number literal",
    explain: "A number literal is not valid C: a digit 8 or 9 in an octal literal (`09`), an \
unknown suffix (`12x`), a second decimal point (`1.2.3`), or an exponent without digits \
(`1e`).\n\nFix: write one of the valid forms: `42`, `052` (octal), `0x2A`, `42u`, `42L`, \
`42UL`, `1.5`, `.5f`, `1e9`.",
};

pub const E0103: Code = Code {
    id: "E0103",
    title: "unterminated string or character literal",
    explain: "A string literal `\"...\"` or a character literal `'...'` is not closed on the \
same line.\n\nExample:\n\n    printf(\"hello\\n);\n\nFix: add the closing quote; to split a long \
string over lines, write adjacent literals: `\"abc\" \"def\"`.",
};

pub const E0104: Code = Code {
    id: "E0104",
    title: "invalid character literal or escape sequence",
    explain: "A character literal must hold exactly one byte (`'a'`, `'\\n'`, `'\\x41'`, \
`'\\101'`), and a backslash escape must be one of C's: `\\n \\t \\r \\0 \\\\ \\' \\\" \\? \\a \
\\b \\f \\v`, an octal escape `\\ooo` or a hex escape `\\xhh`, and its value must fit in a \
byte (`\\777` and `\\x141` do not).\n\nFix: use one character per literal, or a string literal \
for several.",
};

pub const E0105: Code = Code {
    id: "E0105",
    title: "nesting too deep",
    explain: "Statements, expressions, declarators or initialisers are nested more than 256 \
levels deep. The parser stops there instead of risking a stack overflow.\n\nFix: split the \
construct with helper variables or functions.",
};

pub const E0106: Code = Code {
    id: "E0106",
    title: "too many syntax errors",
    explain: "After 50 syntax errors the parser stops: later errors are usually consequences of \
earlier ones.\n\nFix: correct the first errors and run again.",
};

pub const E0107: Code = Code {
    id: "E0107",
    title: "missing `;`",
    explain: "Declarations, expression statements, `return`, `break`, `continue`, `barrier` \
and `do ... while (c)` end with a semicolon.\n\nExample:\n\n    x = 1     // error: `;` missing\n    y = 2;\n\nFix: add `;` \
after `x = 1`.",
};

pub const E0108: Code = Code {
    id: "E0108",
    title: "unclosed delimiter",
    explain: "A `(`, `[` or `{` has no matching closing delimiter before the end of the \
input, or before a closing delimiter of another kind.\n\nFix: add the missing `)`, `]` or `}`; \
the label points at the opening delimiter.",
};

pub const E0109: Code = Code {
    id: "E0109",
    title: "invalid combination of declaration specifiers",
    explain: "The specifiers of a declaration contradict each other or repeat: two types \
(`int float x;`), `sh` and `pr` together, two function kinds (`sync async`), two storage \
classes (`static extern`), `signed unsigned`, `short long`, or `unsigned` with `float`.\n\n\
Fix: keep one of each kind: `sh unsigned long x;`, `sync int f(void)`.",
};

pub const E0110: Code = Code {
    id: "E0110",
    title: "expected an expression",
    explain: "An expression is required here (an operand, a condition, an array size, an \
initialiser) but the text has none or starts with a token no expression can start with.\n\n\
Example:\n\n    x = * ;\n\nFix: write the missing operand.",
};

pub const E0111: Code = Code {
    id: "E0111",
    title: "expected a name",
    explain: "A declarator, struct member, enum constant, label or `goto` target needs an \
identifier here. Keywords cannot be names: `sh`, `pr`, `fork`, `farm`, `seq`, `start`, \
`barrier`, `sync`, `async`, `straight` and `join` are keywords in Fork.\n\nExample:\n\n    int \
seq = 3;   // `seq` is a keyword\n\nFix: choose another name.",
};

pub const E0112: Code = Code {
    id: "E0112",
    title: "integer literal too large",
    explain: "An integer literal does not fit in 64 bits (the widest type, `unsigned \
long`).\n\nFix: use a smaller constant, or a floating literal (`1e20`).",
};

pub const E0113: Code = Code {
    id: "E0113",
    title: "expected a declaration",
    explain: "At file level only declarations and function definitions may appear: \
statements belong inside a function body.\n\nExample:\n\n    x = 3;   // at file level\n\nFix: \
declare the variable (`int x = 3;`) or move the statement into a function.",
};

pub const E0114: Code = Code {
    id: "E0114",
    title: "unsupported construct",
    explain: "The text uses C syntax that the Fork dialect does not include: `union`, \
bit-fields, variadic parameters `...`, compound literals `(T){...}`, or a function \
definition inside a function.\n\nFix: rewrite with the constructs of docs/language.md \
§2 (structs, explicit parameters, named variables, file-level functions).",
};

pub const CODES: &[&Code] = &[
    &E0100, &E0101, &E0102, &E0103, &E0104, &E0105, &E0106, &E0107, &E0108, &E0109, &E0110, &E0111,
    &E0112, &E0113, &E0114,
];
