//! A self-contained SVG picture of a run, in the spirit of Fork's `trv`: processors (rows;
//! ranges of processors when P > 64) against PRAM steps, each group instance in its colour,
//! grey where a processor waits for sibling subgroups, a solid line where a group splits and a
//! dashed one where it is restored, the function each group runs written on its bars, a
//! legend, and tooltips (hover a bar) with a group's details.
//!
//! Groups are painted parents first, so a subgroup covers its parent's bars for its lifetime;
//! what stays visible of a split group is the time its processors spend outside any subgroup.

use crate::{Group, MarkKind, Slice, SliceKind, Trace};
use std::collections::HashMap;
use std::fmt::Write;

const WIDTH: f64 = 1100.0;
const LEFT: f64 = 96.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 58.0;
/// At most this many rows; more processors share rows.
const MAX_ROWS: u32 = 64;
/// Groups named in the legend.
const LEGEND_GROUPS: usize = 16;
const LINE: f64 = 16.0;
const IDLE: &str = "#dcdcdc";
const PALETTE: [&str; 12] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#edc948", "#76b7b2", "#ff9da7",
    "#9c755f", "#8cd17d", "#a0cbe8", "#d4a6c8",
];

/// What a group's processors do during a stretch of its time.
#[derive(Debug, Clone, Copy, PartialEq)]
enum State<'a> {
    /// Running the function.
    Busy(&'a str),
    /// Running the function asynchronously.
    Async(&'a str),
    /// Split inside the function: waiting outside the subgroups (the subgroups paint over
    /// their members).
    Idle(&'a str),
}

/// What a group does in a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
enum Kind {
    #[default]
    Busy,
    Async,
    /// Split, outside its subgroups.
    Wait,
}

/// One pixel column of one row: the group painted there last (its id + 1; 0 for none), what
/// it does and the function it runs (an index into the function names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
struct Cell {
    group: u32,
    kind: Kind,
    name: u32,
}

/// What a cell looks like: its colour ("" for none) and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Shown {
    colour: &'static str,
    kind: Kind,
}

/// Cells of one content over a block of rows and columns (ends inclusive for rows).
#[derive(Debug, PartialEq, Eq)]
struct Rect<T> {
    rows: (usize, usize),
    cols: (usize, usize),
    cell: T,
}

/// The cells `keep` selects, as rectangles: runs of equal cells in a row, each merged with
/// the run of the same extent and content in the row above.
fn rects<T: Copy + Eq + std::hash::Hash>(
    cells: &[T],
    rows: usize,
    cols: usize,
    keep: impl Fn(&T) -> bool,
) -> Vec<Rect<T>> {
    let mut out: Vec<Rect<T>> = Vec::new();
    let mut above: HashMap<(usize, usize, T), usize> = HashMap::new();
    for r in 0..rows {
        let row = &cells[r * cols..][..cols];
        let mut here = HashMap::new();
        let mut c0 = 0;
        for run in row.chunk_by(|a, b| a == b) {
            let (c1, cell) = (c0 + run.len(), run[0]);
            if keep(&cell) {
                let key = (c0, c1, cell);
                let i = match above.get(&key) {
                    Some(&i) if out[i].rows.1 + 1 == r => {
                        out[i].rows.1 = r;
                        i
                    }
                    _ => {
                        out.push(Rect {
                            rows: (r, r),
                            cols: (c0, c1),
                            cell,
                        });
                        out.len() - 1
                    }
                };
                here.insert(key, i);
            }
            c0 = c1;
        }
        above = here;
    }
    out
}

struct Picture<'a> {
    trace: &'a Trace,
    rows: u32,
    row_h: f64,
    end: f64,
    out: String,
}

pub fn write(trace: &Trace) -> String {
    let rows = trace.procs.clamp(1, MAX_ROWS);
    let mut p = Picture {
        trace,
        rows,
        row_h: (640.0 / rows as f64).clamp(10.0, 22.0).floor(),
        end: trace.end.max(1) as f64,
        out: String::new(),
    };
    p.draw();
    p.out
}

/// Escapes text for XML.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// `dir/quicksort.fork:94:9` as `quicksort.fork:94`.
fn short_site(site: &str) -> &str {
    let file_line = match site.rsplit_once(':') {
        Some((head, col)) if col.parse::<u32>().is_ok() => head,
        _ => site,
    };
    file_line.rsplit(['/', '\\']).next().unwrap_or(file_line)
}

fn plural(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// Whether dark text reads better than white on `colour` (`#rrggbb`).
fn light(colour: &str) -> bool {
    let ch = |i: usize| u8::from_str_radix(&colour[i..i + 2], 16).unwrap_or(0) as f64;
    0.299 * ch(1) + 0.587 * ch(3) + 0.114 * ch(5) > 150.0
}

/// The stretches of `g`'s time and what its processors do in each, from its slices (nested,
/// in the order they began).
fn segments<'a>(g: &'a Group, slices: &[&'a Slice]) -> Vec<(u64, u64, State<'a>)> {
    let mut out: Vec<(u64, u64, State<'a>)> = Vec::new();
    let mut emit = |from: u64, to: u64, state: State<'a>| {
        if to <= from {
            return;
        }
        match out.last_mut() {
            Some(last) if last.1 == from && last.2 == state => last.1 = to,
            _ => out.push((from, to, state)),
        }
    };
    let base = State::Busy(&g.function);
    let mut stack: Vec<(u64, State<'a>)> = Vec::new();
    let mut cursor = g.begin;
    let top = |stack: &[(u64, State<'a>)]| stack.last().map_or(base, |s| s.1);
    for s in slices {
        while let Some(&(end, state)) = stack.last().filter(|t| t.0 <= s.begin) {
            emit(cursor, end, state);
            cursor = cursor.max(end);
            stack.pop();
        }
        let now = top(&stack);
        emit(cursor, s.begin, now);
        cursor = cursor.max(s.begin);
        let state = match (&s.kind, now) {
            (SliceKind::Call { function }, State::Async(_)) => State::Async(function),
            (SliceKind::Call { function }, _) => State::Busy(function),
            (SliceKind::Split { .. }, State::Busy(f) | State::Async(f) | State::Idle(f)) => {
                State::Idle(f)
            }
            (SliceKind::Async, State::Busy(f) | State::Async(f)) => State::Async(f),
            (SliceKind::Async, State::Idle(f)) => State::Idle(f),
        };
        stack.push((s.end, state));
    }
    while let Some((end, state)) = stack.pop() {
        emit(cursor, end, state);
        cursor = cursor.max(end);
    }
    emit(cursor, g.end, base);
    out
}

/// Tick spacing: 1, 2 or 5 times a power of ten, at most about 10 ticks.
fn tick_step(end: f64) -> u64 {
    let mut step = 1u64;
    loop {
        for m in [1, 2, 5] {
            if end / (step * m) as f64 <= 10.0 {
                return step * m;
            }
        }
        step *= 10;
    }
}

impl Picture<'_> {
    fn x(&self, t: u64) -> f64 {
        LEFT + t as f64 * (WIDTH - LEFT - RIGHT) / self.end
    }

    fn row_y(&self, row: u32) -> f64 {
        TOP + row as f64 * self.row_h
    }

    fn row_of(&self, proc: u32) -> u32 {
        (proc as u64 * self.rows as u64 / self.trace.procs.max(1) as u64) as u32
    }

    /// The first processor of row `row`.
    fn row_start(&self, row: u32) -> u32 {
        (row as u64 * self.trace.procs as u64).div_ceil(self.rows as u64) as u32
    }

    /// The runs of consecutive rows that hold members of `g`.
    fn row_runs(&self, g: &Group) -> Vec<(u32, u32)> {
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for r in &g.members {
            let (a, b) = (self.row_of(r.start), self.row_of(r.end - 1));
            match runs.last_mut() {
                Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
                _ => runs.push((a, b)),
            }
        }
        runs
    }

    fn plot_height(&self) -> f64 {
        self.rows as f64 * self.row_h
    }

    /// A colour per group: neighbours in the tree differ, except that a subgroup with
    /// all of its parent's processors (nobody waits: a private `if` of one processor, a loop
    /// all members stay in) keeps its parent's colour.
    fn colours(&self) -> Vec<&'static str> {
        let groups = &self.trace.groups;
        let mut turn = 0;
        let mut colours: Vec<&'static str> = Vec::with_capacity(groups.len());
        for g in groups {
            let colour = match g.parent {
                Some(p) if groups[p].members == g.members => colours[p],
                Some(p) => {
                    // Colours in turn, in tree order: siblings and cousins differ; the root's
                    // colour stays the root's; a subgroup differs from its parent.
                    let pick = |k: usize| PALETTE[1 + k % (PALETTE.len() - 1)];
                    turn += 1;
                    if pick(turn) == colours[p] {
                        turn += 1;
                    }
                    pick(turn)
                }
                None => PALETTE[0],
            };
            colours.push(colour);
        }
        colours
    }

    /// The splits worth a line: some subgroup is smaller than the group, so some of its
    /// processors wait for others.
    fn visible_splits(&self) -> Vec<bool> {
        let t = self.trace;
        let mut visible = vec![false; t.slices.len()];
        for g in &t.groups {
            if let (Some(s), Some(p)) = (g.split, g.parent) {
                visible[s] |= g.size < t.groups[p].size;
            }
        }
        for (s, v) in t.slices.iter().zip(&mut visible) {
            if let SliceKind::Split { subgroups: 0, .. } = s.kind {
                *v = s.end > s.begin;
            }
        }
        visible
    }

    fn draw(&mut self) {
        let t = self.trace;
        let colours = self.colours();
        let legend_groups = t.groups.len().min(LEGEND_GROUPS);
        let legend_lines =
            2 + legend_groups.div_ceil(2) + usize::from(t.groups.len() > LEGEND_GROUPS);
        let height = TOP + self.plot_height() + 44.0 + legend_lines as f64 * LINE + 12.0;
        let _ = writeln!(
            self.out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="11">"#
        );
        let _ = writeln!(self.out, "<title>{}</title>", esc(&t.title));
        self.out.push_str(concat!(
            r#"<defs><pattern id="cut" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">"#,
            r##"<rect width="8" height="8" fill="#f4f4f4"/><line x1="0" y1="0" x2="0" y2="8" stroke="#9a9a9a" stroke-width="3"/></pattern></defs>"##,
            "\n",
        ));
        let _ = writeln!(
            self.out,
            r#"<rect width="{WIDTH}" height="{height}" fill="white"/>"#
        );
        self.header();
        self.row_labels();
        self.bars(&colours);
        // Lines closer than a few pixels to the last one of their group would only blacken it.
        let mut last_line = vec![f64::NEG_INFINITY; t.groups.len()];
        for (s, visible) in t.slices.iter().zip(self.visible_splits()) {
            if visible && self.x(s.begin) - last_line[s.group] >= 3.0 {
                self.split_lines(s);
                last_line[s.group] = self.x(s.end.max(s.begin));
            }
        }
        self.marks();
        self.cut();
        self.axis();
        self.legend(&colours);
        self.out.push_str("</svg>\n");
    }

    fn header(&mut self) {
        let t = self.trace;
        let _ = writeln!(
            self.out,
            r#"<text x="12" y="20" font-size="15" font-weight="bold">{}</text>"#,
            esc(&t.title)
        );
        let per_row = t.procs.div_ceil(self.rows);
        let rows = if per_row == 1 {
            "one row per processor".to_string()
        } else {
            format!("each row is a range of about {per_row} processors")
        };
        let mut line = format!(
            "{}, {}, {}; {rows}",
            plural(t.procs as u64, "processor"),
            plural(t.end, "PRAM step"),
            plural(t.groups.len() as u64, "group instance"),
        );
        for m in &t.marks {
            if let MarkKind::Fault { code, message, .. } = &m.kind {
                let _ = write!(line, "; fault {code} at step {}: {message}", m.time);
            }
        }
        if let Some(text) = t.cut_text() {
            let _ = write!(line, "; {text}");
        }
        let _ = writeln!(
            self.out,
            r##"<text x="12" y="38" fill="#333">{}</text>"##,
            esc(&line)
        );
    }

    fn row_labels(&mut self) {
        let font = (self.row_h - 2.0).min(11.0);
        for row in 0..self.rows {
            let (a, b) = (self.row_start(row), self.row_start(row + 1) - 1);
            let text = if a == b {
                format!("P{a}")
            } else {
                format!("P{a}-{b}")
            };
            let y = self.row_y(row) + self.row_h / 2.0;
            let _ = writeln!(
                self.out,
                r#"<text x="{:.1}" y="{y:.1}" font-size="{font}" text-anchor="end" dominant-baseline="central">{text}</text>"#,
                LEFT - 6.0
            );
        }
    }

    /// Paints the groups, parents first, into cells of one pixel column by one row: a
    /// subgroup covers its parent, and a stretch thinner than a pixel still takes its whole
    /// pixel (so short subgroups stay visible). Then writes the cells as rectangles (runs of a
    /// row, merged with identical runs of the rows below), one SVG group with a tooltip per
    /// group instance, and labels the bars with the functions running there where they fit.
    fn bars(&mut self, colours: &[&'static str]) {
        let t = self.trace;
        let cols = (WIDTH - LEFT - RIGHT) as usize;
        let mut cells = vec![Cell::default(); self.rows as usize * cols];
        let mut by_group: Vec<Vec<&Slice>> = vec![Vec::new(); t.groups.len()];
        for s in &t.slices {
            by_group[s.group].push(s);
        }
        let mut names: Vec<&str> = Vec::new();
        let mut name_ids: HashMap<&str, u32> = HashMap::new();
        for (id, g) in t.groups.iter().enumerate() {
            let runs = self.row_runs(g);
            for (from, to, state) in segments(g, &by_group[id]) {
                let c0 = ((from as f64 * cols as f64 / self.end) as usize).min(cols - 1);
                let c1 = ((to as f64 * cols as f64 / self.end).ceil() as usize).clamp(c0 + 1, cols);
                let (kind, name) = match state {
                    State::Busy(f) => (Kind::Busy, f),
                    State::Async(f) => (Kind::Async, f),
                    State::Idle(f) => (Kind::Wait, f),
                };
                let name = *name_ids.entry(name).or_insert_with(|| {
                    names.push(name);
                    names.len() as u32 - 1
                });
                let cell = Cell {
                    group: id as u32 + 1,
                    kind,
                    name,
                };
                // A call thinner than a pixel does not rename the pixel: the function around
                // it stays readable (`sort` rather than a blur of the `swap`s it calls).
                let thin = (to - from) as f64 * (cols as f64) < self.end;
                for &(r0, r1) in &runs {
                    for r in r0..=r1 {
                        for c in &mut cells[r as usize * cols..][c0..c1] {
                            let name = match thin && c.group != 0 {
                                true => c.name,
                                false => cell.name,
                            };
                            *c = Cell { name, ..cell };
                        }
                    }
                }
            }
        }
        let rows = self.rows as usize;
        let bars = rects(&cells, rows, cols, |c| c.group != 0);
        let mut order: Vec<usize> = (0..bars.len()).collect();
        order.sort_by_key(|&i| bars[i].cell.group);
        self.out.push_str("<g shape-rendering=\"crispEdges\">\n");
        for same in order.chunk_by(|&a, &b| bars[a].cell.group == bars[b].cell.group) {
            let id = bars[same[0]].cell.group as usize - 1;
            let _ = writeln!(self.out, "<g><title>{}</title>", esc(&self.tooltip(id)));
            for &i in same {
                let r = &bars[i];
                let (fill, extra) = match r.cell.kind {
                    Kind::Busy => (colours[id], ""),
                    Kind::Async => (colours[id], r#" fill-opacity="0.5""#),
                    Kind::Wait => (IDLE, ""),
                };
                let _ = writeln!(
                    self.out,
                    r#"<rect x="{}" y="{:.1}" width="{}" height="{:.1}" fill="{fill}"{extra}/>"#,
                    LEFT + r.cols.0 as f64,
                    self.row_y(r.rows.0 as u32),
                    r.cols.1 - r.cols.0,
                    (r.rows.1 - r.rows.0 + 1) as f64 * self.row_h - 1.0
                );
            }
            self.out.push_str("</g>\n");
        }
        self.out.push_str("</g>\n");
        // Labels go on blocks of one colour, whichever groups paint them: the function that
        // runs in most of the block's cells.
        let shown: Vec<Shown> = cells
            .iter()
            .map(|c| Shown {
                colour: match c.group {
                    0 => "",
                    g => colours[g as usize - 1],
                },
                kind: c.kind,
            })
            .collect();
        let blocks = rects(&shown, rows, cols, |s| {
            !s.colour.is_empty() && s.kind != Kind::Wait
        });
        let mut labelled: HashMap<(usize, String), usize> = HashMap::new();
        for b in &blocks {
            let group = |r: usize, c: usize| cells[r * cols + c].group;
            let first = group(b.rows.0, b.cols.0);
            let one_group =
                (b.rows.0..=b.rows.1).all(|r| (b.cols.0..b.cols.1).all(|c| group(r, c) == first));
            let mut count: HashMap<u32, usize> = HashMap::new();
            for r in b.rows.0..=b.rows.1 {
                for c in &cells[r * cols..][b.cols.0..b.cols.1] {
                    *count.entry(c.name).or_default() += 1;
                }
            }
            let most = count
                .into_iter()
                .max_by_key(|&(name, n)| (n, std::cmp::Reverse(name)));
            let name = most.map_or("", |(name, _)| names[name as usize]);
            let g = &t.groups[first as usize - 1];
            let text = match (one_group, g.parent) {
                (true, Some(_)) => format!("{} {name}", g.label()),
                _ => name.to_string(),
            };
            // A block right below one that starts at the same step with the same text reads
            // as its continuation: one label for both.
            let below = labelled.insert((b.cols.0, text.clone()), b.rows.1);
            if below.is_none_or(|end| end + 1 != b.rows.0) {
                self.bar_label(b, &text);
            }
        }
    }

    fn tooltip(&self, id: usize) -> String {
        let g = &self.trace.groups[id];
        format!(
            "g{id} {}: {} ({}) in {} at {}; steps {} to {}",
            g.label(),
            plural(g.size as u64, "processor"),
            g.members_text(),
            g.function,
            short_site(&g.site),
            g.begin,
            g.end
        )
    }

    /// Writes `text` on a block where it fits (the whole of it, else its last word: the
    /// function).
    fn bar_label(&mut self, block: &Rect<Shown>, text: &str) {
        let (r0, r1) = block.rows;
        let h = (r1 - r0 + 1) as f64 * self.row_h - 1.0;
        let font = (self.row_h - 3.0).min(11.0);
        if font < 7.0 {
            return;
        }
        let fits = |s: &str| {
            s.chars().count() as f64 * font * 0.62 + 6.0 <= (block.cols.1 - block.cols.0) as f64
        };
        let text = match text.rsplit_once(' ') {
            _ if fits(text) => text,
            Some((_, last)) if fits(last) => last,
            _ => return,
        };
        let colour = if light(block.cell.colour) {
            "#111"
        } else {
            "white"
        };
        let _ = writeln!(
            self.out,
            r#"<text x="{:.1}" y="{:.1}" font-size="{font}" fill="{colour}" dominant-baseline="central">{}</text>"#,
            LEFT + block.cols.0 as f64 + 3.0,
            self.row_y(r0 as u32) + h / 2.0,
            esc(text)
        );
    }

    /// A solid line where a group splits and a dashed one where it is restored.
    fn split_lines(&mut self, s: &Slice) {
        let runs = self.row_runs(&self.trace.groups[s.group]);
        for &(r0, r1) in &runs {
            let (y0, y1) = (self.row_y(r0), self.row_y(r1 + 1) - 1.0);
            let xs = self.x(s.begin);
            let _ = writeln!(
                self.out,
                r##"<line x1="{xs:.2}" y1="{y0:.1}" x2="{xs:.2}" y2="{y1:.1}" stroke="#222" stroke-width="1.5"/>"##
            );
            if s.end > s.begin {
                let xe = self.x(s.end);
                let _ = writeln!(
                    self.out,
                    r##"<line x1="{xe:.2}" y1="{y0:.1}" x2="{xe:.2}" y2="{y1:.1}" stroke="#222" stroke-width="1.2" stroke-dasharray="3,2"/>"##
                );
            }
        }
    }

    fn marks(&mut self) {
        let t = self.trace;
        for m in &t.marks {
            let x = self.x(m.time);
            match &m.kind {
                MarkKind::Barrier { processors } => {
                    let Some(g) = m.group else { continue };
                    for (r0, r1) in self.row_runs(&t.groups[g]) {
                        let _ = writeln!(
                            self.out,
                            r##"<line x1="{x:.2}" y1="{:.1}" x2="{x:.2}" y2="{:.1}" stroke="#1f4e9a" stroke-width="1" stroke-dasharray="1,2"><title>barrier of {} at step {} ({})</title></line>"##,
                            self.row_y(r0),
                            self.row_y(r1 + 1) - 1.0,
                            plural(*processors as u64, "processor"),
                            m.time,
                            esc(&m.site)
                        );
                    }
                }
                MarkKind::Fault {
                    code,
                    message,
                    processor,
                } => {
                    let row = match (processor, m.group) {
                        (Some(p), _) => self.row_of(*p),
                        (None, Some(g)) => self.row_runs(&t.groups[g]).first().map_or(0, |r| r.0),
                        (None, None) => 0,
                    };
                    let y = self.row_y(row) + self.row_h / 2.0;
                    let r = (self.row_h / 2.0).clamp(5.0, 8.0);
                    // The code right of the diamond, or left of it near the right edge.
                    let (text_x, anchor) = match x + r + 50.0 > WIDTH {
                        true => (x - r - 3.0, "end"),
                        false => (x + r + 3.0, "start"),
                    };
                    let _ = writeln!(
                        self.out,
                        r##"<g><title>fault {code} at step {} ({}): {}</title><polygon points="{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}" fill="#d00" stroke="white"/><text x="{text_x:.1}" y="{y:.1}" fill="#d00" stroke="white" stroke-width="3" paint-order="stroke" font-weight="bold" dominant-baseline="central" text-anchor="{anchor}">{code}</text></g>"##,
                        m.time,
                        esc(&m.site),
                        esc(message),
                        y - r,
                        x + r,
                        y + r,
                        x - r,
                    );
                }
            }
        }
    }

    fn cut(&mut self) {
        let Some(cut) = self.trace.cut else { return };
        let (x0, x1) = (self.x(cut.time), self.x(self.trace.end));
        let h = self.plot_height();
        let _ = writeln!(
            self.out,
            r#"<rect x="{x0:.2}" y="{TOP}" width="{:.2}" height="{h:.1}" fill="url(#cut)"><title>{}</title></rect>"#,
            (x1 - x0).max(1.0),
            esc(&self.trace.cut_text().unwrap_or_default())
        );
        let _ = writeln!(
            self.out,
            r#"<text x="{:.1}" y="{:.1}" font-weight="bold">trace cut (limit of {} events)</text>"#,
            x0 + 4.0,
            TOP + 12.0,
            cut.limit
        );
    }

    fn axis(&mut self) {
        let y = TOP + self.plot_height() + 2.0;
        let _ = writeln!(
            self.out,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#333"/>"##,
            WIDTH - RIGHT
        );
        let step = tick_step(self.end);
        let mut t = 0;
        while t as f64 <= self.end {
            let x = self.x(t);
            let _ = writeln!(
                self.out,
                r##"<line x1="{x:.1}" y1="{y:.1}" x2="{x:.1}" y2="{:.1}" stroke="#333"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{t}</text>"##,
                y + 4.0,
                y + 15.0
            );
            t += step;
        }
        let _ = writeln!(
            self.out,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#333">PRAM step</text>"##,
            LEFT + (WIDTH - LEFT - RIGHT) / 2.0,
            y + 30.0
        );
    }

    /// The groups the legend names: those covering the most processor-steps, in tree order.
    fn legend_groups(&self) -> Vec<usize> {
        let groups = &self.trace.groups;
        let mut ids: Vec<usize> = (0..groups.len()).collect();
        let area = |g: &Group| (g.end - g.begin) * g.size as u64;
        ids.sort_by_key(|&id| std::cmp::Reverse(area(&groups[id])));
        ids.truncate(LEGEND_GROUPS);
        ids.sort_unstable();
        ids
    }

    fn legend(&mut self, colours: &[&str]) {
        let t = self.trace;
        let y = TOP + self.plot_height() + 52.0;
        let has = |f: fn(&MarkKind) -> bool| t.marks.iter().any(|m| f(&m.kind));
        let mut keys = vec![
            (Key::Swatch(IDLE, ""), "waiting for sibling subgroups"),
            (Key::Line("#222", ""), "split"),
            (Key::Line("#222", r#" stroke-dasharray="3,2""#), "restore"),
        ];
        if t.slices.iter().any(|s| s.kind == SliceKind::Async) {
            let pale = Key::Swatch(PALETTE[0], r#" fill-opacity="0.5""#);
            keys.push((pale, "asynchronous (paler)"));
        }
        if has(|k| matches!(k, MarkKind::Barrier { .. })) {
            let dots = Key::Line("#1f4e9a", r#" stroke-dasharray="1,2""#);
            keys.push((dots, "barrier"));
        }
        if has(|k| matches!(k, MarkKind::Fault { .. })) {
            keys.push((Key::Diamond, "fault"));
        }
        if t.cut.is_some() {
            keys.push((Key::Swatch("url(#cut)", ""), "not recorded (trace cut)"));
        }
        let mut x = 12.0;
        for (key, text) in keys {
            let shape = key.draw(x, y);
            let _ = writeln!(
                self.out,
                r#"{shape}<text x="{:.1}" y="{:.1}" dominant-baseline="central">{}</text>"#,
                x + 22.0,
                y + 5.0,
                esc(text)
            );
            x += 30.0 + text.len() as f64 * 6.4;
        }
        let mut y = y;
        y += LINE * 1.3;
        let _ = writeln!(
            self.out,
            r#"<text x="12" y="{:.1}" font-weight="bold" dominant-baseline="central">Group instances (colour: construct @, processors, function, where)</text>"#,
            y + 5.0
        );
        y += LINE;
        let column = (WIDTH - 24.0) / 2.0;
        for (i, id) in self.legend_groups().into_iter().enumerate() {
            let g = &t.groups[id];
            let (cx, cy) = (12.0 + (i % 2) as f64 * column, y + (i / 2) as f64 * LINE);
            let mut text = format!(
                "g{id} {}: {} ({}) in {}, {}",
                g.label(),
                plural(g.size as u64, "processor"),
                g.members_text(),
                g.function,
                short_site(&g.site)
            );
            if text.chars().count() > 78 {
                text = text.chars().take(77).collect::<String>() + "…";
            }
            let _ = writeln!(
                self.out,
                r#"<rect x="{cx:.1}" y="{cy:.1}" width="16" height="10" fill="{}"/><text x="{:.1}" y="{:.1}" dominant-baseline="central">{}</text>"#,
                colours[id],
                cx + 22.0,
                cy + 5.0,
                esc(&text)
            );
        }
        if t.groups.len() > LEGEND_GROUPS {
            let _ = writeln!(
                self.out,
                r##"<text x="12" y="{:.1}" dominant-baseline="central" fill="#333">... and {} more (the legend names those covering the most processor-steps): hover a bar to see its group</text>"##,
                y + LEGEND_GROUPS.div_ceil(2) as f64 * LINE + 5.0,
                t.groups.len() - LEGEND_GROUPS
            );
        }
    }
}

/// A symbol of the legend's first line.
enum Key {
    /// A swatch of a fill, with extra attributes.
    Swatch(&'static str, &'static str),
    /// A vertical line of a colour, with extra attributes.
    Line(&'static str, &'static str),
    Diamond,
}

impl Key {
    fn draw(&self, x: f64, y: f64) -> String {
        match self {
            Key::Swatch(fill, extra) => format!(
                r#"<rect x="{x:.1}" y="{y:.1}" width="16" height="10" fill="{fill}"{extra}/>"#
            ),
            Key::Line(stroke, extra) => format!(
                r#"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="{stroke}" stroke-width="1.5"{extra}/>"#,
                x + 8.0,
                y - 1.0,
                y + 11.0
            ),
            Key::Diamond => format!(
                r##"<polygon points="{0:.1},{1:.1} {2:.1},{3:.1} {0:.1},{4:.1} {5:.1},{3:.1}" fill="#d00"/>"##,
                x + 8.0,
                y - 1.0,
                x + 14.0,
                y + 5.0,
                y + 11.0,
                x + 2.0
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Construct;

    fn group(begin: u64, end: u64) -> Group {
        Group {
            parent: None,
            split: None,
            depth: 0,
            construct: Construct::Main,
            at: 0,
            size: 4,
            members: std::iter::once(0..4).collect(),
            function: "main".into(),
            site: "a:1:1".into(),
            begin,
            end,
        }
    }

    fn slice(kind: SliceKind, begin: u64, end: u64) -> Slice {
        Slice {
            group: 0,
            kind,
            site: String::new(),
            begin,
            end,
        }
    }

    #[test]
    fn segments_follow_nested_slices() {
        let g = group(0, 20);
        let call = slice(
            SliceKind::Call {
                function: "f".into(),
            },
            2,
            15,
        );
        let split = slice(
            SliceKind::Split {
                construct: Construct::If,
                subgroups: 2,
            },
            5,
            9,
        );
        let segs = segments(&g, &[&call, &split]);
        assert_eq!(
            segs,
            vec![
                (0, 2, State::Busy("main")),
                (2, 5, State::Busy("f")),
                (5, 9, State::Idle("f")),
                (9, 15, State::Busy("f")),
                (15, 20, State::Busy("main")),
            ]
        );
    }

    #[test]
    fn sites_are_shortened_to_file_and_line() {
        assert_eq!(
            short_site("dir/sub/quicksort.fork:94:9"),
            "quicksort.fork:94"
        );
        assert_eq!(short_site(""), "");
    }

    #[test]
    fn equal_runs_of_rows_below_each_other_merge() {
        let (a, b) = (
            Cell {
                group: 1,
                kind: Kind::Busy,
                name: 0,
            },
            Cell {
                group: 2,
                kind: Kind::Wait,
                name: 0,
            },
        );
        let none = Cell::default();
        #[rustfmt::skip]
        let cells = [
            a, a, b,
            a, a, none,
            a, b, b,
        ];
        let r = rects(&cells, 3, 3, |c| c.group != 0);
        let rect = |rows, cols, cell| Rect { rows, cols, cell };
        assert_eq!(
            r,
            vec![
                rect((0, 1), (0, 2), a),
                rect((0, 0), (2, 3), b),
                rect((2, 2), (0, 1), a),
                rect((2, 2), (1, 3), b),
            ]
        );
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(7.0), 1);
        assert_eq!(tick_step(95.0), 10);
        assert_eq!(tick_step(140.0), 20);
        assert_eq!(tick_step(4321.0), 500);
    }
}
