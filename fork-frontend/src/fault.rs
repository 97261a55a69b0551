//! Runtime faults: the stable R0xxx codes and the `Fault` a machine stops with. A fault names
//! the source location (its span), the processor (`__PROC_NR__`, `$$`, `@`) and the PRAM step
//! where the executor knows it. Every executor reports through this one type (the simulator,
//! the GPU driver; the standalone `.cu` prints the same short form), so a fault reads the same
//! on each.

use crate::diag::{Code, Diagnostic};
use crate::source::Span;

macro_rules! codes {
    ($($name:ident $id:literal $title:literal $explain:literal;)*) => {
        $(pub const $name: Code = Code { id: $id, title: $title, explain: $explain };)*
        /// Every runtime fault code, for `forkcc explain`.
        pub const CODES: &[&Code] = &[$(&$name),*];
    };
}

codes! {
    R0001 "R0001" "out-of-bounds memory access"
        "A processor read or wrote outside the array, variable or heap block its pointer points \
into.\n\n    int a[4];\n    a[$$] = 0;      // with -p 8: processors 4..7 write past the end\n\n\
Check the index against the size, or run with fewer processors.";
    R0002 "R0002" "null or invalid pointer"
        "A processor dereferenced a null pointer, a value that is not a pointer, or subtracted \
pointers into different objects.\n\n    int *p = 0;\n    *p = 1;\n\nMake the pointer point at an \
object first.";
    R0003 "R0003" "division by zero"
        "An integer `/` or `%` had a zero right operand.\n\n    x = n / ($$ - 3);  // processor \
3 divides by zero\n\nGuard the division.";
    R0004 "R0004" "concurrent write conflict (CRCW common)"
        "In one synchronous step several processors wrote different values into one cell. The \
default PRAM model, CRCW common, requires concurrent writers to agree.\n\n    sh int x;\n    x = \
$$;           // all processors write different values\n\nWrite from one processor (`if ($$ == \
0)`), or choose `--crcw arbitrary` or `--crcw priority`.";
    R0005 "R0005" "concurrent access forbidden by the PRAM model"
        "Under `--model erew` no two processors may read or write one cell in one step; under \
`--model crew` no two may write it.\n\n    sh int x;\n    y = x;           // EREW: all processors \
read x at once\n\nSpread the accesses over several steps or use the CRCW model.";
    R0006 "R0006" "step limit exceeded"
        "The program ran more group steps than the limit, which usually means it does not \
terminate (for example a processor spins on a flag nobody sets).\n\nRaise the limit with \
`--max-steps N` if the program is just long.";
    R0007 "R0007" "assertion failed"
        "`assert(e)` found `e` equal to 0 on some processor.";
    R0008 "R0008" "recursion too deep"
        "Calls nested deeper than the simulator's limit, which usually means a recursion has no \
base case.";
    R0009 "R0009" "use of memory after its lifetime"
        "A pointer was used after the object it points to was freed (`free`, `shfree`) or its \
scope ended (a local of a function that returned, a shared local of a group that ended).\n\n\
Keep the object alive while it is used, or allocate it with `shmalloc`/`malloc`.";
    R0010 "R0010" "invalid free"
        "`free`/`shfree` was given a pointer that is not the start of a live heap block of the \
right kind (`free` for `malloc`, `shfree` for `shmalloc`).";
    R0011 "R0011" "race between sibling subgroups"
        "With `--check races`: two sibling subgroups (the branches of a private `if`, the \
subgroups of a `fork`) touched the same shared cell and at least one wrote it. Their order is \
not defined by the PRAM; the result depends on the backend.";
    R0012 "R0012" "invalid argument to a built-in, or a simulator limit exceeded"
        "A built-in got an argument outside its domain: `ilog2(x)` needs x > 0, `shmalloc(n)`/\
`malloc(n)` need n >= 0. Or the program asked for more than the simulator holds: an object \
over 2 GiB, more than 8 GiB of memory in all, a `printf` field wider than 1 MiB, more than \
1 GiB of output.";
    R0013 "R0013" "internal simulator error"
        "The simulator met a program it cannot execute, which the front end should have \
rejected. Please report it with the program.";
}

/// The help of a `--crcw common` conflict (R0004), the same on every backend.
pub const CONFLICT_HELP: &str = "let one processor write (e.g. under `if ($$ == 0)`), or run with `--crcw arbitrary` or `--crcw priority`";

/// Which processor faulted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Who {
    /// `__PROC_NR__`
    pub proc: u32,
    /// `$$` and `@` in its group; None where the executor knows only the number (the GPU
    /// finds a conflict's first writer in the write logs, which hold no group).
    pub in_group: Option<(u32, i64)>,
}

impl std::fmt::Display for Who {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "processor {}", self.proc)?;
        match self.in_group {
            Some((rank, at)) => write!(f, " ($$ = {rank}, @ = {at})"),
            None => Ok(()),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub code: &'static Code,
    pub span: Span,
    /// What went wrong, with the values involved.
    pub what: String,
    pub who: Option<Who>,
    /// The PRAM step (the simulator's group steps); None where the executor does not count
    /// them (the GPU).
    pub step: Option<u64>,
    pub notes: Vec<(Span, String)>,
    pub help: Option<String>,
}

impl Fault {
    pub fn new(code: &'static Code, span: Span, what: impl Into<String>) -> Fault {
        Fault {
            code,
            span,
            what: what.into(),
            who: None,
            step: None,
            notes: Vec::new(),
            help: None,
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Fault {
        self.help = Some(help.into());
        self
    }

    pub fn with_note(mut self, span: Span, label: impl Into<String>) -> Fault {
        self.notes.push((span, label.into()));
        self
    }

    /// The one-line message: what, who, when.
    pub fn message(&self) -> String {
        let mut m = self.what.clone();
        if let Some(who) = &self.who {
            m.push_str(&format!(", by {who}"));
        }
        if let Some(step) = self.step {
            m.push_str(&format!(
                "{} PRAM step {step}",
                if self.who.is_some() { " at" } else { ", at" }
            ));
        }
        m
    }

    pub fn to_diagnostic(&self) -> Diagnostic {
        let label = match &self.who {
            Some(who) => format!("{who} faulted here"),
            None => "here".to_string(),
        };
        let mut d = Diagnostic::error(self.code, self.span, self.message()).with_label(label);
        for (span, note) in &self.notes {
            d = d.with_note(*span, note.clone());
        }
        match &self.help {
            Some(help) => d.with_help(help.clone()),
            None => d,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_in_the_runtime_range() {
        let mut ids: Vec<&str> = CODES.iter().map(|c| c.id).collect();
        assert!(ids.iter().all(|id| id.starts_with("R0")));
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), CODES.len());
    }
}
