//! The checker's diagnostic codes (E02xx names, E03xx types, E04xx Fork rules, W02xx
//! warnings) with the text `forkcc explain` prints.

use crate::diag::Code;

macro_rules! codes {
    ($($name:ident = $id:literal, $title:literal, $explain:literal;)*) => {
        $(pub const $name: Code = Code { id: $id, title: $title, explain: $explain };)*
        /// Every checker code, for the registry.
        pub const CODES: &[&Code] = &[$(&$name),*];
    };
}

codes! {
    E0201 = "E0201", "a name is used that is not declared",
        "Every variable, function, type name and enum constant must be declared before it is \
used, as in C.\n\n    int main(void) { return cuont; }   // error: did you mean `count`?\n\n\
Declare the name, or fix its spelling.";
    E0202 = "E0202", "a name is declared twice in the same scope",
        "A scope may declare a name only once (a function prototype may be followed by its \
definition).\n\n    int x; int x;   // error\n\nRename one of them, or remove the duplicate.";
    E0203 = "E0203", "a name is used before its declaration",
        "C resolves names in order: a global declared further down the file is not visible \
above its declaration.\n\n    int f(void) { return g(); }  int g(void) { return 1; }\n\n\
Move the declaration up, or add a prototype (`int g(void);`) before the use.";
    E0204 = "E0204", "a struct type is unknown or incomplete where its size is needed",
        "A variable, member, array element or `sizeof` needs a struct whose members are known.\n\n    \
    struct node n;   // error if `struct node { ... }` was never defined\n\n\
Define the struct before this use, or use a pointer to it.";
    E0205 = "E0205", "a struct has no member of this name",
        "`s.f` and `p->f` need `f` to be a member of the struct.\n\n    \
    struct P { int x; } p;  p.z = 1;   // error\n\nUse one of the struct's members.";
    E0206 = "E0206", "a function is redefined, or conflicts with its prototype",
        "A function may be defined once, and every declaration must agree on its kind \
(`sync`/`async`/`straight`), return type and parameters.\n\n    \
    int f(int);  long f(int x) { return x; }   // error\n\nMake the declarations agree.";
    E0207 = "E0207", "a built-in name is redefined",
        "Fork's built-ins (`printf`, `mpadd`, `groupsize`, `shmalloc`, `abs`, ...) cannot be \
defined by the program.\n\n    int abs(int x) { return x; }   // error\n\nChoose another name.";
    E0208 = "E0208", "`main` is missing or has a wrong signature",
        "A Fork program needs `main`, declared `void main(void)`, `int main(void)`, or the same \
with `sync`.\n\nAdd a `main` function without parameters.";
    E0209 = "E0209", "a function is called but never defined",
        "A prototype alone is not enough: the program must define every function it calls.\n\n\
Add the function's definition.";
    E0301 = "E0301", "an operator is applied to operands of the wrong type",
        "Operators follow C: arithmetic needs numbers, `*` and `[]` need a pointer or array, \
`%` and bit operators need integers, `.` needs a struct.\n\n    \
    int x; x->f = 1;   // error: `->` needs a pointer to a struct\n\nFix the operand types.";
    E0302 = "E0302", "a value of one type is used where another type is needed",
        "Assignments, initialisers, arguments and `return` convert between arithmetic types \
implicitly, but not between pointers of different types, pointers and integers, or \
structs of different types.\n\n    int *p; double *q = p;   // error\n\n\
Use a value of the right type, or an explicit cast.";
    E0303 = "E0303", "the operand must be an lvalue",
        "Assignment, `++`/`--` and `&` need an object in memory: a variable, `*p`, `a[i]`, \
`s.f`.\n\n    (x + 1) = 2;   // error\n\nAssign to a variable or element instead.";
    E0304 = "E0304", "a read-only object is modified",
        "`const` variables and Fork's `$`, `$$`, `@`, `__PROC_NR__`, `__STARTED_PROCS__` \
cannot be assigned (`$` and `@` are set by `fork`).\n\n    const int n = 3; n = 4;   // error\n\n\
Assign to a writable variable.";
    E0305 = "E0305", "an array is assigned as a whole",
        "C arrays cannot be assigned; copy them element by element.\n\n    \
    int a[4], b[4]; a = b;   // error\n\nUse a loop over the elements.";
    E0306 = "E0306", "a call has the wrong number of arguments",
        "A call must pass exactly one argument per parameter.\n\n    \
    int f(int a, int b);  f(1);   // error\n\nPass every argument.";
    E0307 = "E0307", "`void` is used as a value or object type",
        "A `void` expression has no value, and no variable or member has type `void`.\n\n    \
    void f(void);  int x = f();   // error\n\nUse a function that returns a value.";
    E0308 = "E0308", "a constant expression is required",
        "Array sizes, `case` labels, enum values and initialisers of global variables must be \
computable at compile time.\n\n    int n = 4; int a[n];   // error\n\nUse a literal, a \
`#define` or an enum constant.";
    E0309 = "E0309", "an array size is not positive",
        "Array dimensions must be at least 1.\n\n    int a[0];   // error\n\nUse a positive size.";
    E0310 = "E0310", "an initialiser does not fit the object",
        "A brace list may not have more elements than the array or struct it initialises, and a \
scalar takes a single value.\n\n    int a[2] = {1, 2, 3};   // error\n\nRemove the extra \
elements, or enlarge the array.";
    E0311 = "E0311", "a `return` does not match the function's return type",
        "A `void` function returns no value; any other function must return one.\n\n    \
    int f(void) { return; }   // error\n\nReturn a value of the function's type.";
    E0312 = "E0312", "a `printf` format does not match its arguments",
        "The format must be a string literal; each conversion (`%d %i %u %ld %lu %x %c %s %f \
%e %g %%`, with optional `-` flag, width and precision) needs one argument of the matching \
type.\n\n    printf(\"%d\\n\", 1.5);   // error: %d needs an int\n\nFix the conversion or the \
argument.";
    E0313 = "E0313", "a constant expression divides by zero",
        "Dividing by zero at compile time has no value.\n\n    int a[4 / 0];   // error\n\n\
Fix the constant.";
    E0314 = "E0314", "a cast between these types is not allowed",
        "Casts convert between arithmetic types, between pointers and integers, and to `void`; \
never to or from a struct or an array.\n\n    struct P p; int x = (int)p;   // error\n\n\
Convert the members instead.";
    E0315 = "E0315", "something that is not a function is called, or a function is used as a value",
        "Only functions and built-ins can be called, and forkcc has no function pointers: a \
function's name may appear only in a call.\n\n    int x; x(1);   // error\n\nCall a function.";
    E0316 = "E0316", "`break`, `continue`, `case` or `default` is out of place",
        "`break` must be inside a loop or `switch`, `continue` inside a loop, `case`/`default` \
directly in a `switch` body (each value once, one `default`).\n\n    \
    int main(void) { break; }   // error\n\nMove the statement into the construct it belongs to.";
    E0317 = "E0317", "a C feature that forkcc does not support",
        "forkcc accepts the C subset of the Fork dialect. Not supported: function pointers, \
`?:` on struct values, a member of a struct value that is not in memory (`f().x`), \
`extern`, `static` locals, function declarations inside functions, functions returning \
arrays.\n\n    int (*f)(int);   // error\n\nRewrite with the supported subset: call \
functions by name, store structs in variables, use globals.";
    E0318 = "E0318", "an expression or a type is nested too deeply",
        "forkcc checks expressions nested up to 256 levels (operators, calls, indexing), like \
the parser's limit for brackets, and types of up to 64 pointer and array levels; a chain \
such as `a1 + a2 + ... + a300` exceeds the first.\n\nSplit the expression with helper \
variables; use fewer levels of pointers and arrays.";
    E0401 = "E0401", "a `sync` function is called from an asynchronous region",
        "A `sync` function runs as a group and must be called by a whole group in a synchronous \
region (a `sync` function, a `start` or `seq` body).\n\n    \
    sync void f(void) {}  void main(void) { f(); }   // error\n\n\
Call it inside `start { ... }`, or make the caller `sync`.";
    E0402 = "E0402", "an `sh` parameter outside a `sync` function",
        "Only a `sync` function is called by a group, which can pass a shared argument.\n\n    \
    void f(sh int n) {}   // error\n\nMake the function `sync`, or the parameter private.";
    E0403 = "E0403", "an `sh` local in an asynchronous region",
        "A shared local belongs to the group executing its declaration; asynchronous code has no \
group in lockstep to own it.\n\n    void f(void) { sh int x; }   // error\n\n\
Declare it in a `sync` function or a `start` body, or make it a `sh` global.";
    E0404 = "E0404", "a `straight` function uses a group construct",
        "A `straight` function runs in its caller's mode, so it may contain no `fork`, `start`, \
`farm`, `seq`, `barrier`, `sh` local, nor call a `sync` function.\n\n\
Make the function `sync` (or `async`), or move the construct to its caller.";
    E0405 = "E0405", "`start` outside an asynchronous region",
        "`start S` gathers all processors from asynchronous execution into the root group; in a \
synchronous region (a `sync` function, `sync main`, a `start`/`seq` body) they already are \
in a group.\n\n    sync void main(void) { start { } }   // error\n\nRemove the `start`.";
    E0406 = "E0406", "`barrier` in a synchronous region",
        "In a synchronous region every statement already ends with an implicit barrier of the \
group; forkcc rejects the explicit one so that it is never mistaken for a sync point of a \
subgroup.\n\nRemove the `barrier;`.";
    E0407 = "E0407", "`fork` outside a synchronous region",
        "`fork` splits the current group, which exists only in a synchronous region.\n\n    \
    void main(void) { fork (2; @ = $$ % 2) ; }   // error\n\nPut it inside `start { ... }` or \
a `sync` function.";
    E0408 = "E0408", "the group count of `fork` is not shared",
        "`fork (k; ...)` needs the same k on every member, so k must be a shared expression \
(constants, `sh` variables, `@`, `groupsize()`, ...).\n\n    fork ($$ + 1; @ = 0) ;   // error\n\n\
Compute k into a `sh` variable first.";
    E0409 = "E0409", "`goto` and labels are not part of the dialect",
        "Jumps would break the group structure of synchronous execution.\n\nUse loops, `break` \
and `continue`.";
    E0410 = "E0410", "`join` and locks are not part of the dialect",
        "forkcc implements neither `join` nor the lock functions (`simple_lock`, `fair_lock`, \
`rw_lock`, `lock`, `unlock`).\n\nSynchronise with `start`, `barrier` or multiprefix \
operations (`mpadd`).";
    E0411 = "E0411", "`sh`/`pr` or a function kind is written where it has no meaning",
        "`sh`/`pr` apply to variables and parameters, `sync`/`async`/`straight` to functions.\n\n    \
    sh int f(void);   // error\n\nRemove the qualifier.";
    E0412 = "E0412", "a call that synchronises is placed where it cannot run first",
        "In asynchronous code, a call of an `async` function that executes `barrier` (or \
`start`, `seq`, directly or through its callees), or of a `straight` function that calls \
one (called there, it runs as asynchronous code; so do its own statements), runs before the \
rest of its statement, as `t = f(x);` written just before it would, so that its barriers pair with the \
other processors' barriers the same way on every backend. It may be a whole statement \
(`f(x);`, `v = f(x);`, `int v = f(x);`) or sit in the expression of a statement, \
declaration, `return`, `if` or `switch` condition (`v = f(x) + 1;`, `return f(x);`, \
`if (f(x) > 0)`, `g(f(x));`), but not in an operand of `&&`, `||` or `?:` that is not always \
evaluated, in a loop condition or `for` step, next to a second such call, or after another \
side effect of its statement (an assignment, `++`, a call, `printf`, `mpadd` evaluated \
earlier in C's left-to-right order, as in `a[i++] = f(x) + 1;`).\n\n    \
    while (f(i) > 0) i++;   // error\n\nCall it in a statement of its own \
(`t = f(i); while (t > 0) { i++; t = f(i); }`) and use `t`.";
    W0201 = "W0201", "a shared variable is assigned a private value in a synchronous region",
        "Every member of the group writes the variable in the same step, each with its own \
(private) value: a concurrent write of possibly different values.\n\n    \
    sh int x;  x = $$;   // warning\n\nGuard the write with `if ($$ == 0)`, run it in `seq`, \
or combine the values with `mpadd`.";
    W0202 = "W0202", "a private value is passed to an `sh` parameter",
        "The calling group writes a shared argument once for all its members; if members pass \
different values, one of them is stored (or the write is a CRCW violation).\n\n    \
    sync void f(sh int n);  ...  f($$);   // warning\n\nPass a shared value (a constant, a `sh` \
variable, `groupsize()`), or make the parameter private.";
    W0203 = "W0203", "a loop with a private condition writes a shared variable",
        "In a synchronous region, a loop whose condition is private forms a subgroup, and each \
member leaves when its own condition fails. A shared variable written in the body is then \
updated by fewer and fewer members, which is rarely what was meant. (A `sh` variable \
declared in the loop's body belongs to the loop's group, whichever members it has: writing \
it is not warned about.)\n\n    \
sh int steps;  while (i < $$) { steps++; i++; }   // warning\n\nLoop to a shared bound \
and test the private part inside, or guard the write with `if ($$ == 0)`.";
}
