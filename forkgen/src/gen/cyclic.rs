//! `cyclic-loop`: loops that deal a counter out over their group,
//! `for (i = $$; i < n; i += groupsize())`, storing arbitrary values into the cells at the
//! counter of the arrays `C0`..`C2`, or of the pointer parameters `p` and `q` of `h`
//! functions, which their calls pass distinct arrays, one array twice or overlapping offsets
//! (`C0 + 1`); `p` is sometimes `pr int *`, and its argument then maybe `&C0[2 * $$]`, a
//! pointer of each member's own. The transform runs such a loop in one kernel, each member at its own pace,
//! when it finds the cells at the counter belong to one iteration (transform
//! `rules::uniform::CyclicLoops`, `rules::loops::order_free`, `points_to`); a wrong decision
//! shows as a difference from the simulator's lockstep. Both the shapes it accepts and those
//! it must refuse appear: a bound that is not uniform, another step, the loop inside a
//! private loop or under a private `if`, reads of a written array at other indices,
//! parameters that may point into one array or that their function assigns. Strided ones,
//! `i = a + $$ * s; ...; i += groupsize() * s` (`stride`), run in their group under a test at
//! run time (`s > 0`, no overflow; transform `rules::loops::cyclic_in_group`): positive
//! strides, strides that may be 0 or negative (where no member enters), `long` counters,
//! and the refused shapes of another stride in the step and a start that is not uniform.
//! Loops over arrays alone sometimes store into the cells `M0[r][c]`..`M2[r][c]` of
//! two-dimensional twins of `C0`..`C2` (rows of `W` cells), with `r = i / K; c = i % K;`
//! first in the body (`rows`; transform `rules::loops::CounterAt`): accepted where `K` is
//! `W`, refused where it is another divisor or where the body assigns `r` again.
//!
//! Race freedom: a group touches only the arrays its context gives it (`Ctx::cyclic`; a
//! private `if` with an `else` gives them to one branch, a private `switch`'s cases and the
//! subgroups of a `fork` of several get none), and a function is called only where it may
//! touch all it touches. In one round of a cyclic loop the members' counters differ, and each
//! statement stores into one cell at the counter, so no two members store into one cell in one
//! step (a `pr` pointer `p` at `k * $$` further adds `k * $$` to a member's counter: still
//! apart); the branches of a private `if` with an `else` in the loop (groups side by side)
//! touch only its first written base, at the counter. Counters stay at most 16 and a pointer
//! starts at most 17 cells into an array of `LEN`, so every access is in bounds; a
//! two-dimensional twin `Mk` goes with `Ck`'s bit, and its cell `[i / K][i % K]` (`K` from 4 to
//! `W`) is in bounds and differs for every counter.

use super::{lit, set_body, Ctx, Expr, Gen, Kind, Stmt, ACC_OPS, MOD};

const NAMES: [&str; 3] = ["C0", "C1", "C2"];
const LEN: usize = 40;
/// The two-dimensional twins of `NAMES`: `ROWS` rows of `W` cells.
const TWINS: [&str; 3] = ["M0", "M1", "M2"];
const W: usize = 8;
const ROWS: usize = LEN / W;
/// `Ctx::cyclic`'s bits: one for each of `NAMES`, and in an `h` function one for what its
/// parameters point into.
pub(super) const ARRAYS: u8 = 0b111;
pub(super) const PARAMS: u8 = 0b1000;

/// The header's declaration of the arrays.
pub(super) fn declaration() -> String {
    let names: Vec<String> = (NAMES.iter().map(|n| format!("{n}[{LEN}]")))
        .chain(TWINS.iter().map(|n| format!("{n}[{ROWS}][{W}]")))
        .collect();
    format!("sh int {};\n", names.join(", "))
}

/// The checksum's lines for the arrays (in `seq`, with `i` and `h` declared).
pub(super) fn checksum() -> String {
    let cells: String = (NAMES.iter().map(|n| format!("{n}[i]")))
        .chain(TWINS.iter().map(|n| format!("{n}[i / {W}][i % {W}]")))
        .map(|cell| format!("\n            h = h * 31u + (unsigned){cell};"))
        .collect();
    format!("\n        for (i = 0; i < {LEN}; i++) {{{cells}\n        }}")
}

/// The bases a loop under `mask` may store into and read: arrays, and `p` and `q`.
fn bases(mask: u8) -> Vec<&'static str> {
    let mut out: Vec<&str> = (0..NAMES.len())
        .filter(|&k| mask & (1 << k) != 0)
        .map(|k| NAMES[k])
        .collect();
    if mask & PARAMS != 0 {
        out.extend(["p", "q"]);
    }
    out
}

/// The bit of `base` in `Ctx::cyclic`.
fn bit(base: &str) -> u8 {
    NAMES
        .iter()
        .position(|n| *n == base)
        .map_or(PARAMS, |k| 1 << k)
}

/// What the statements of a cyclic loop's body may touch: stores at the counter into
/// `writes`, reads of `reads` (which holds `writes`), at any index when `anywhere`, else at
/// the counter only.
#[derive(Clone)]
struct Cells {
    i: String,
    /// The counter as an `int` value (`(int)i` for a `long` one).
    value: String,
    writes: Vec<&'static str>,
    reads: Vec<&'static str>,
    anywhere: bool,
    /// `rows`: the locals `r` and `c` the body sets to `i / K` and `i % K` first; the cells
    /// at the counter are then the twins' `Mk[r][c]`.
    rows: Option<(String, String)>,
}

impl Cells {
    /// For the branches of a private `if` with an `else`: the first written base at the
    /// counter only.
    fn narrow(&self) -> Cells {
        Cells {
            i: self.i.clone(),
            value: self.value.clone(),
            writes: vec![self.writes[0]],
            reads: vec![self.writes[0]],
            anywhere: false,
            rows: self.rows.clone(),
        }
    }

    /// The cell of `base` at the counter: `base[i]`, or its twin's `Mk[r][c]`.
    fn at(&self, base: &str) -> String {
        match &self.rows {
            Some((r, c)) => format!("{}[{r}][{c}]", twin(base)),
            None => format!("{base}[{}]", self.i),
        }
    }
}

/// The two-dimensional twin of the array `base` (`Mk` of `Ck`).
fn twin(base: &str) -> &'static str {
    let k = NAMES.iter().position(|n| *n == base);
    TWINS[k.expect("rows only over the arrays")]
}

impl Gen<'_> {
    /// The arrays a `sync` function or `main` may touch.
    pub(super) fn cyclic_arrays(&self) -> u8 {
        if self.opts.on("cyclic-loop") {
            ARRAYS
        } else {
            0
        }
    }

    /// The bits of `Ctx::cyclic` the statement being generated may use.
    pub(super) fn cyclic_mask(&self, ctx: &Ctx) -> u8 {
        ctx.cyclic & self.cyclic_allowed
    }

    /// The arrays the function `name` touches.
    pub(super) fn fn_cyclic(&self, name: &str) -> u8 {
        self.funcs
            .iter()
            .find(|f| f.name == name)
            .map_or(0, |f| f.cyclic)
    }

    /// A cyclic loop over the arrays of `ctx`, sometimes inside a private loop or under a
    /// private `if`.
    pub(super) fn cyclic_loop(&mut self, ctx: &Ctx, out: &mut Vec<Stmt>) {
        let mut bases = bases(self.cyclic_mask(ctx) & ARRAYS);
        if self.cyclic_mask(ctx) & PARAMS != 0 && self.rng.chance(50) {
            bases.extend(["p", "q"]);
        }
        let mut writes = vec![*self.rng.pick(&bases)];
        let second = *self.rng.pick(&bases);
        if second != writes[0] && self.rng.chance(30) {
            writes.push(second);
        }
        self.wrapped_loop(ctx, &bases, writes, out);
    }

    /// The loop of an `h` function through its parameters: it stores into `p` (and `q`) at
    /// the counter. With a small chance the function assigns `p` (never at run time: `n` is at
    /// most 16), so that `p` may point anywhere.
    pub(super) fn parameter_loop(&mut self, ctx: &Ctx, out: &mut Vec<Stmt>) {
        if self.rng.chance(8) {
            let mut s = Stmt::nest("if (n > 99)", None, "");
            set_body(&mut s, vec![Stmt::raw("p = q;", true)], None);
            if let Stmt::Nest { keep, .. } = &mut s {
                *keep = true;
            }
            out.push(s);
        }
        let writes = if self.rng.chance(30) {
            vec!["p", "q"]
        } else {
            vec!["p"]
        };
        let mut bases = vec!["p", "q"];
        if self.cyclic_mask(ctx) & ARRAYS != 0 && self.rng.chance(30) {
            let k = self.rng.below(NAMES.len());
            if self.cyclic_mask(ctx) & (1 << k) != 0 {
                bases.push(NAMES[k]);
            }
        }
        self.wrapped_loop(ctx, &bases, writes, out);
    }

    /// The loop, inside a private loop (its condition uniform or not) or under a private
    /// `if`, or alone.
    fn wrapped_loop(
        &mut self,
        ctx: &Ctx,
        bases: &[&'static str],
        writes: Vec<&'static str>,
        out: &mut Vec<Stmt>,
    ) {
        for b in bases {
            self.cyclic_used |= bit(b);
        }
        let inner = Ctx {
            clean: false,
            level: self.level(),
            depth: ctx.depth + 1,
            ..ctx.clone()
        };
        match self.rng.below(100) {
            0..=11 => {
                let j = self.name("j");
                out.push(Stmt::raw(format!("pr int {j} = 0;"), false));
                let bound = if self.rng.chance(50) {
                    lit(self.rng.range(1, 3))
                } else {
                    self.expr(ctx, 1, false)
                };
                let mut s = Stmt::nest(
                    format!("for ({j} = 0; {j} < ("),
                    Some(bound),
                    format!(") % 4; {j}++)"),
                );
                let saved = self.scope.clone();
                self.scope.readonly.push(j);
                let mut body = Vec::new();
                self.counter_loop(&inner, bases, writes, &mut body);
                self.scope = saved;
                set_body(&mut s, body, None);
                out.push(s);
            }
            12..=23 => {
                let c = self.expr(ctx, 1, false);
                let mut s = Stmt::nest("if (", Some(c), ")");
                let saved = self.scope.clone();
                let mut body = Vec::new();
                self.counter_loop(&inner, bases, writes, &mut body);
                self.scope = saved;
                set_body(&mut s, body, None);
                out.push(s);
            }
            _ => self.counter_loop(ctx, bases, writes, out),
        }
    }

    /// `for (i = $$; i < n; i += groupsize()) { ... }` and its variants, strided ones among
    /// them (`stride`).
    fn counter_loop(
        &mut self,
        ctx: &Ctx,
        bases: &[&'static str],
        writes: Vec<&'static str>,
        out: &mut Vec<Stmt>,
    ) {
        let i = self.name("i");
        let cmp = if self.rng.chance(80) { "<" } else { "<=" };
        let bound = self.counter_bound(ctx, bases, out);
        let (ty, start, step) = match self.rng.below(100) {
            0..=59 => {
                let start = if self.rng.chance(88) { "$$" } else { "$$ + 1" };
                let step = match self.rng.below(100) {
                    0..=79 => format!("{i} += groupsize()"),
                    80..=86 => format!("{i} += 2 * groupsize()"),
                    87..=93 => format!("{i} = {i} + groupsize()"),
                    _ => format!("{i} += groupsize() + 1"),
                };
                ("int", start.to_string(), step)
            }
            _ => self.stride(ctx, &i, out),
        };
        // The assignment `i = $$` in the `for`, or (not recognised) a statement before it.
        let init = match self.rng.below(100) {
            0..=79 => {
                out.push(Stmt::raw(format!("pr {ty} {i} = 0;"), false));
                format!("{i} = {start}")
            }
            80..=89 => {
                out.push(Stmt::raw(format!("pr {ty} {i};"), false));
                out.push(Stmt::raw(format!("{i} = {start};"), true));
                String::new()
            }
            _ => {
                out.push(Stmt::raw(format!("pr {ty} {i} = {start};"), true));
                String::new()
            }
        };
        let body_ctx = Ctx {
            clean: false,
            can_break: true,
            can_continue: true,
            level: self.level(),
            depth: ctx.depth + 1,
            ..ctx.clone()
        };
        let mut reads = writes.clone();
        reads.extend(
            bases
                .iter()
                .filter(|b| !writes.contains(b) && self.rng.chance(50)),
        );
        let long = ty == "long";
        // Over arrays alone, an `int` counter: sometimes their twins' cells at `i / K, i % K`.
        let rows = (!long && bases.iter().all(|b| NAMES.contains(b)) && self.rng.chance(25))
            .then(|| (self.name("r"), self.name("c")));
        let cells = Cells {
            i: i.clone(),
            value: if long {
                format!("((int){i})")
            } else {
                i.clone()
            },
            writes,
            reads,
            anywhere: true,
            rows: rows.clone(),
        };
        // Readable in the body and after the loop (an `int` one: the scope's are `int`s).
        if !long {
            self.scope.readonly.push(i.clone());
        }
        let mut body = self.cyclic_body(&body_ctx, &cells, 4);
        if let Some((r, c)) = &rows {
            out.push(Stmt::raw(format!("pr int {r} = 0, {c} = 0;"), false));
            body.splice(0..0, self.row_parts(&i, r, c));
        }
        let mut s = Stmt::nest(
            format!("for ({init}; {i} {cmp} "),
            Some(bound),
            format!("; {step})"),
        );
        if let Stmt::Nest { keep, .. } = &mut s {
            // Its body alone would store into the cells at `$$` in every round.
            *keep = true;
        }
        set_body(&mut s, body, None);
        out.push(s);
    }

    /// The first statements of a `rows` loop's body: `r = i / K; c = i % K;` in either order,
    /// `K` mostly `W` (the twins' row: accepted) and else 4 to 7 (refused, yet in bounds and
    /// apart for counters up to 16); sometimes `r` assigned again after them (refused), by a
    /// statement that never changes it.
    fn row_parts(&mut self, i: &str, r: &str, c: &str) -> Vec<Stmt> {
        let k = match self.rng.chance(80) {
            true => W,
            false => self.rng.range(4, W as i64 - 1) as usize,
        };
        let mut parts = vec![
            Stmt::raw(format!("{r} = {i} / {k};"), true),
            Stmt::raw(format!("{c} = {i} % {k};"), true),
        ];
        if self.rng.chance(40) {
            parts.reverse();
        }
        if self.rng.chance(10) {
            parts.push(Stmt::raw(format!("if ({r} > 99) {r} = 0;"), true));
        }
        parts
    }

    /// A strided start and step, `i = a + $$ * s` and `i += groupsize() * s` (the operands in
    /// either order, `a` maybe left out, a `long` counter with widened `$$` and `groupsize()`):
    /// `(type, start, step)`. `a` is at most 3 and `s` from 1 to 3, so counters below a bound
    /// of at most 16 stay apart and in bounds; a stride that may be 0 or negative (`% 3` of
    /// a uniform value) comes with the start `s > 0 ? a : 32`, which no member of a group of
    /// at most 8 enters below 16. Refused shapes too: another stride in the step, a start that
    /// differs between members.
    fn stride(
        &mut self,
        ctx: &Ctx,
        i: &str,
        out: &mut Vec<Stmt>,
    ) -> (&'static str, String, String) {
        let mut positive = true;
        let s = match self.rng.below(100) {
            0..=39 => self.rng.range(1, 3).to_string(),
            40..=74 => {
                let s = self.name("s");
                let value = Expr::wrap("((", self.expr(ctx, 1, true), ") & 1) + 1");
                out.push(Stmt::simple(format!("pr int {s} = "), value, ";"));
                s
            }
            _ => {
                let s = self.name("s");
                let value = Expr::wrap("(", self.expr(ctx, 1, true), ") % 3");
                out.push(Stmt::simple(format!("pr int {s} = "), value, ";"));
                positive = false;
                s
            }
        };
        let a = match self.rng.below(100) {
            0..=29 => None,
            30..=69 => Some(self.rng.range(0, 3).to_string()),
            70..=91 => {
                let a = self.name("a");
                let value = Expr::wrap("((", self.expr(ctx, 1, true), ") & 3)");
                out.push(Stmt::simple(format!("pr int {a} = "), value, ";"));
                Some(a)
            }
            // Not uniform (and 0): refused.
            _ => Some("($$ / groupsize())".to_string()),
        };
        let a = match (a, positive) {
            (a, true) => a,
            (a, false) => Some(format!("({s} > 0 ? {} : 32)", a.as_deref().unwrap_or("0"))),
        };
        let long = self.rng.chance(20);
        let (dd, gs, s_in) = match long {
            true => ("(long)$$", "(long)groupsize()", format!("(long){s}")),
            false => ("$$", "groupsize()", s.clone()),
        };
        let dealt = match self.rng.chance(50) {
            true => format!("{dd} * {s_in}"),
            false => format!("{s_in} * {dd}"),
        };
        let start = match a {
            Some(a) if long => format!("(long){a} + {dealt}"),
            Some(a) => format!("{a} + {dealt}"),
            None => dealt,
        };
        // Another stride: refused.
        let step_s = match self.rng.chance(6) {
            true => format!("({s_in} + 1)"),
            false => s_in,
        };
        let step = match self.rng.chance(50) {
            true => format!("{i} += {gs} * {step_s}"),
            false => format!("{i} += {step_s} * {gs}"),
        };
        (if long { "long" } else { "int" }, start, step)
    }

    /// A bound of at most 16: a constant, shared, a uniform private local, `n` in an `h`
    /// function (all uniform), not uniform, or a cell of a base (uniform, but maybe stored
    /// into by the loop).
    fn counter_bound(&mut self, ctx: &Ctx, bases: &[&'static str], out: &mut Vec<Stmt>) -> Expr {
        match self.rng.below(100) {
            0..=29 => lit(self.rng.range(0, 16)),
            30..=44 => Expr::wrap("((", self.expr(ctx, 1, true), ") & 15)"),
            45..=57 => {
                let n = self.name("n");
                let value = if self.rng.chance(50) {
                    lit(self.rng.range(1, 16))
                } else {
                    Expr::wrap("((", self.expr(ctx, 1, true), ") & 15)")
                };
                out.push(Stmt::simple(format!("pr int {n} = "), value, ";"));
                Expr::leaf(n)
            }
            58..=69 if bases.contains(&"p") => Expr::leaf("n"),
            58..=84 => match self.rng.below(3) {
                0 => Expr::wrap("((", self.expr(ctx, 1, false), ") & 15)"),
                1 => Expr::leaf("(16 - $$)"),
                _ => Expr::leaf(format!("((__PROC_NR__ + {}) & 15)", self.rng.range(1, 15))),
            },
            _ => {
                let b = *self.rng.pick(bases);
                Expr::leaf(format!("({b}[{}] & 15)", self.rng.range(0, 15)))
            }
        }
    }

    /// Up to `n` statements of a cyclic loop's body, with a store into each written base.
    fn cyclic_body(&mut self, ctx: &Ctx, cells: &Cells, n: usize) -> Vec<Stmt> {
        let saved = self.scope.clone();
        // Each written base at least once (generated first: it reads nothing the other
        // statements declare), at a random place.
        let mut stores = Vec::new();
        for w in &cells.writes {
            if cells.anywhere || self.rng.chance(50) {
                stores.push(self.cyclic_store(ctx, cells, w));
            }
        }
        let mut body = Vec::new();
        for _ in 0..self.rng.below(n) {
            match self.rng.below(100) {
                0..=34 => {
                    let w = *self.rng.pick(&cells.writes);
                    body.push(self.cyclic_store(ctx, cells, w));
                }
                35..=49 => {
                    let v = self.rng.pick(&self.scope.privs).clone();
                    let e = self.cyclic_value(ctx, cells);
                    body.push(Stmt::simple(format!("{v} = ("), e, format!("){MOD};")));
                }
                50..=61 => {
                    // An accumulator's update; as `mp...`, a multiprefix (no order-free loop).
                    let cell = self.rng.below(ACC_OPS.len());
                    let func = if self.rng.chance(90) { "sync" } else { "mp" };
                    let e = self.cyclic_value(ctx, cells);
                    body.push(Stmt::simple(
                        format!("{func}{}(&ACC[{cell}], (", ACC_OPS[cell]),
                        e,
                        ") % 100);",
                    ));
                }
                62..=76 if ctx.depth < 4 => {
                    let c = self.cyclic_value(ctx, cells);
                    let mut s = Stmt::nest("if ((", Some(c), ") % 3 != 0)");
                    let deeper = Ctx {
                        depth: ctx.depth + 1,
                        ..ctx.clone()
                    };
                    if self.rng.chance(40) {
                        // The branches' groups run side by side.
                        let narrow = cells.narrow();
                        let then = self.cyclic_body(&deeper, &narrow, 2);
                        let alt = self.cyclic_body(&deeper, &narrow, 2);
                        set_body(&mut s, then, Some(alt));
                    } else {
                        let then = self.cyclic_body(&deeper, cells, 3);
                        set_body(&mut s, then, None);
                    }
                    body.push(s);
                }
                // Not in a `plain` function: the transform's presence then fails in all of it.
                77..=80 if !self.plain => {
                    let c = self.cyclic_value(ctx, cells);
                    let word = *self.rng.pick(&["break;", "continue;"]);
                    let mut s = Stmt::nest("if ((", Some(c), ") % 4 == 0)");
                    set_body(&mut s, vec![Stmt::raw(word, false)], None);
                    body.push(s);
                }
                81..=86 if self.opts.on("order-free-loop") => {
                    let k = self.rng.range(1, 5);
                    body.push(Stmt::raw(
                        format!("F[({} * {k}) & 15] = 1;", cells.i),
                        false,
                    ));
                }
                // The address of a cell at the counter taken: `step` changes it through a
                // pointer (not order-free).
                87 if self.opts.on("assignment-order") => {
                    let v = self.rng.pick(&self.scope.privs).clone();
                    let w = *self.rng.pick(&cells.writes);
                    body.push(Stmt::raw(
                        format!("{v} = ({v} + step(&{w}[{}])){MOD};", cells.i),
                        false,
                    ));
                }
                88 | 89 => {
                    // A store into the processor's own row: not order-free.
                    let e = self.cyclic_value(ctx, cells);
                    body.push(Stmt::simple(
                        format!("S[__PROC_NR__][{} & 7] = (", cells.i),
                        e,
                        format!("){MOD};"),
                    ));
                }
                // Anything else (a nested loop, a call, output), where no groups run side
                // by side.
                90..=95 if cells.anywhere && ctx.depth < 3 => self.stmt(ctx, &mut body),
                _ => {}
            }
        }
        for store in stores {
            let at = self.rng.below(body.len() + 1);
            body.insert(at, store);
        }
        self.scope = saved;
        body
    }

    /// `w[i] = value;` (`rows`: `Mk[r][c] = value;`)
    fn cyclic_store(&mut self, ctx: &Ctx, cells: &Cells, w: &str) -> Stmt {
        let e = self.cyclic_value(ctx, cells);
        Stmt::simple(format!("{} = (", cells.at(w)), e, format!("){MOD};"))
    }

    /// A value of one to three terms: private and group values, the counter, cells of the
    /// bases at the counter, and with `anywhere` at other indices.
    fn cyclic_value(&mut self, ctx: &Ctx, cells: &Cells) -> Expr {
        let mut e = self.cyclic_term(ctx, cells);
        for _ in 0..self.rng.below(3) {
            let op = *self.rng.pick(&["+", "-", "^"]);
            let t = self.cyclic_term(ctx, cells);
            e = Expr::bin(op, e, t);
        }
        e
    }

    fn cyclic_term(&mut self, ctx: &Ctx, cells: &Cells) -> Expr {
        let i = &cells.i;
        match self.rng.below(10) {
            0 | 1 => self.expr(ctx, 2, false),
            2 => Expr::leaf(cells.value.clone()),
            3 => Expr::leaf(format!("({} * {})", cells.value, self.rng.range(2, 9))),
            4 => Expr::leaf(*self.rng.pick(&["$$", "groupsize()"])),
            5..=7 if !cells.anywhere || self.rng.chance(50) => {
                let b = *self.rng.pick(&cells.reads);
                Expr::leaf(cells.at(b))
            }
            5..=7 => {
                let b = self.other_index_base(cells);
                Expr::leaf(format!("{b}[({i} + {}) & 15]", self.rng.range(1, 15)))
            }
            _ if cells.anywhere => {
                let b = self.other_index_base(cells);
                Expr::wrap(format!("{b}[("), self.expr(ctx, 1, false), ") & 15]")
            }
            _ => {
                let b = *self.rng.pick(&cells.reads);
                Expr::leaf(cells.at(b))
            }
        }
    }

    /// A base to read at another index than the counter: mostly one the loop does not store
    /// into (a loop that reads what it stores at other cells runs in lockstep).
    fn other_index_base(&mut self, cells: &Cells) -> &'static str {
        let unwritten: Vec<&'static str> = (cells.reads.iter())
            .filter(|b| !cells.writes.contains(b))
            .copied()
            .collect();
        let pool = if unwritten.is_empty() || self.rng.chance(25) {
            &cells.reads
        } else {
            &unwritten
        };
        pool[self.rng.below(pool.len())]
    }

    /// A call of an `h` function with two bases (the same one or two, at offsets of at most
    /// 3 into an array; for a `pr int *p`, sometimes at `$$` or `2 * $$` more) and a bound of at
    /// most 16.
    pub(super) fn cyclic_call(&mut self, ctx: &Ctx, out: &mut Vec<Stmt>) {
        let f = self
            .callable(ctx, |k| matches!(k, Kind::Cyclic { .. }))
            .expect("in the menu only when some");
        let private = |g: &Gen, i: usize| g.funcs[i].kind == Kind::Cyclic { private: true };
        let callee_private =
            (0..self.funcs.len()).any(|i| self.funcs[i].name == f && private(self, i));
        // This function's own `p` may differ between the members: not for a `sh` parameter.
        let own_private = ctx.this.is_some_and(|i| private(self, i));
        let all = bases(self.cyclic_mask(ctx));
        let shared: Vec<&str> = (all.iter().copied())
            .filter(|b| !own_private || *b != "p")
            .collect();
        let a = *self.rng.pick(if callee_private { &all } else { &shared });
        let b = if shared.contains(&a) && self.rng.chance(45) {
            a
        } else {
            *self.rng.pick(&shared)
        };
        self.cyclic_used |= self.fn_cyclic(&f) | bit(a) | bit(b);
        let mut arg = |base: &str, private: bool| {
            // A parameter points at an offset already.
            if base == "p" || base == "q" || self.rng.chance(40) {
                Expr::leaf(base)
            } else if private && self.rng.chance(60) {
                let c = self.rng.range(1, 2);
                Expr::leaf(format!("&{base}[{c} * $$ + {}]", self.rng.range(0, 3)))
            } else if self.rng.chance(50) {
                Expr::leaf(format!("{base} + {}", self.rng.range(1, 3)))
            } else {
                Expr::leaf(format!("&{base}[{}]", self.rng.range(1, 3)))
            }
        };
        let (pa, pb) = (arg(a, callee_private), arg(b, false));
        let n = if self.rng.chance(50) {
            lit(self.rng.range(0, 16))
        } else {
            Expr::wrap("((", self.expr(ctx, 1, true), ") & 15) + 1")
        };
        let v = self.rng.pick(&["v0", "v1", "v2"]).to_string();
        let call = Expr::Call(f, vec![pa, pb, n]);
        out.push(self.maybe_conditional(ctx, v, call));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_name_the_bases() {
        assert_eq!(bases(ARRAYS), vec!["C0", "C1", "C2"]);
        assert_eq!(bases(0b101 | PARAMS), vec!["C0", "C2", "p", "q"]);
        assert_eq!(bit("C1"), 0b10);
        assert_eq!(bit("q"), PARAMS);
    }
}
