//! The results: one row per program, size, processor count and backend; printed as a
//! table, written as JSON (with the machine and the command) and CSV.

use crate::host::Host;
use crate::stats::Summary;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;

/// One measured (or skipped) configuration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub program: String,
    pub n: i64,
    /// P; none for the sequential baselines.
    pub procs: Option<u64>,
    pub backend: String,
    /// `ok`, `skipped: ...`, `error: ...` or `wrong answer: ...`.
    pub status: String,
    pub runs: usize,
    pub median_s: Option<f64>,
    pub min_s: Option<f64>,
    pub max_s: Option<f64>,
    /// Sequential median / this median (above 1: faster than the sequential program).
    pub speedup_vs_seq: Option<f64>,
    /// GPU rows: simulator median / GPU median.
    pub speedup_vs_sim: Option<f64>,
    /// GPU rows: the median device time of the algorithm's Fork function (all its calls,
    /// from group formation to the last member's return; `Program::algorithm`); the
    /// hand-written CUDA row: the median time of its algorithm's kernels (CUDA events).
    #[serde(default)]
    pub algorithm_s: Option<f64>,
    /// GPU rows: the algorithm's median (`algorithm_s`) / the hand-written CUDA algorithm's
    /// median (its `algorithm_s`; above 1: slower).
    pub generated_vs_hand: Option<f64>,
    /// GPU rows: the whole program's median / hand-written CUDA median.
    #[serde(default)]
    pub whole_vs_hand: Option<f64>,
    /// Checked GPU rows: this median / the same schedule's `--unchecked` median, the cost of
    /// the checks (results written before the checks existed have none).
    #[serde(default)]
    pub checked_vs_unchecked: Option<f64>,
    /// GPU rows: kernels launched and host read-backs of one run.
    pub launches: Option<u64>,
    pub read_backs: Option<u64>,
    /// GPU rows: share of the run blocked in synchronisation / in host-side group management.
    pub sync_share: Option<f64>,
    pub group_share: Option<f64>,
    /// Simulator rows: simulated operations per second.
    pub sim_ops_per_s: Option<f64>,
}

impl Row {
    pub fn set_times(&mut self, summary: Summary) {
        self.runs = summary.runs;
        self.median_s = Some(summary.median);
        self.min_s = Some(summary.min);
        self.max_s = Some(summary.max);
    }
}

/// Everything one `forkcc bench` invocation wrote.
#[derive(Debug, Serialize, Deserialize)]
pub struct Results {
    pub date: String,
    pub command: String,
    pub host: Host,
    pub rows: Vec<Row>,
}

impl Results {
    /// A results.json written by `write_files`.
    pub fn read(path: &Path) -> Result<Results, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        serde_json::from_str(&text).map_err(|e| e.to_string())
    }

    /// Results dated now (UTC, RFC 3339).
    pub fn new(command: String, host: Host, rows: Vec<Row>) -> Results {
        Results {
            date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            command,
            host,
            rows,
        }
    }
}

impl Row {
    /// The row as one progress line: its case, backend, status and median, so a run cut short
    /// (a time limit) still leaves its measurements in the log.
    pub fn progress(&self) -> String {
        let procs = self.procs.map_or("-".into(), |p| p.to_string());
        let mut line = format!(
            "{} N={} P={} {}: {}",
            self.program, self.n, procs, self.backend, self.status
        );
        if self.median_s.is_some() {
            line.push_str(&format!(
                ", median {} of {} runs",
                seconds(self.median_s),
                self.runs
            ));
        }
        line
    }
}

fn seconds(s: Option<f64>) -> String {
    match s {
        None => "-".into(),
        Some(s) if s >= 1.0 => format!("{s:.3} s"),
        Some(s) if s >= 1e-3 => format!("{:.3} ms", s * 1e3),
        Some(s) => format!("{:.1} us", s * 1e6),
    }
}

/// A ratio in words: `6.50x faster`, `352x slower`, where `more` is what a ratio above 1
/// means (`0.0028` with "faster" is "352x slower" rather than "0.00x").
fn ratio(r: Option<f64>, more: &str, less: &str) -> String {
    let times = |v: f64| match v {
        v if v < 10.0 => format!("{v:.2}x"),
        v if v < 100.0 => format!("{v:.1}x"),
        v => format!("{v:.0}x"),
    };
    match r {
        Some(r) if r >= 1.0 => format!("{} {more}", times(r)),
        Some(r) if r > 0.0 => format!("{} {less}", times(1.0 / r)),
        _ => "-".into(),
    }
}

fn share(s: Option<f64>) -> String {
    s.map_or("-".into(), |s| format!("{:.0}%", s * 100.0))
}

fn count(c: Option<u64>) -> String {
    c.map_or("-".into(), |c| c.to_string())
}

/// The table printed on stdout.
pub fn table(rows: &[Row]) -> String {
    let header = [
        "program",
        "N",
        "P",
        "backend",
        "median",
        "min",
        "max",
        "algorithm",
        "vs seq",
        "vs sim",
        "gen/hand",
        "whole/hand",
        "checked/unchecked",
        "launches",
        "read-backs",
        "sync",
        "group mgmt",
        "sim ops/s",
        "status",
    ];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.program.clone(),
                r.n.to_string(),
                count(r.procs),
                r.backend.clone(),
                seconds(r.median_s),
                seconds(r.min_s),
                seconds(r.max_s),
                seconds(r.algorithm_s),
                ratio(r.speedup_vs_seq, "faster", "slower"),
                ratio(r.speedup_vs_sim, "faster", "slower"),
                // generated / hand-written time: above 1 the generated code is slower.
                ratio(r.generated_vs_hand, "slower", "faster"),
                ratio(r.whole_vs_hand, "slower", "faster"),
                // checked / unchecked time: above 1 the checks cost time.
                ratio(r.checked_vs_unchecked, "slower", "faster"),
                count(r.launches),
                count(r.read_backs),
                share(r.sync_share),
                share(r.group_share),
                r.sim_ops_per_s
                    .map_or("-".into(), |o| format!("{:.1} M", o / 1e6)),
                // A diagnostic spans lines; the table keeps one line per row.
                r.status.replace('\n', " | "),
            ]
        })
        .collect();
    aligned(&header, &cells)
}

/// Columns padded to their widest cell, two spaces apart.
fn aligned(header: &[&str], cells: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            cells
                .iter()
                .map(|row| row[c].len())
                .chain([header[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    let mut line = |fields: &mut dyn Iterator<Item = &str>| {
        let text: Vec<String> = fields
            .zip(&widths)
            .map(|(f, &w)| format!("{f:<w$}"))
            .collect();
        let _ = writeln!(out, "{}", text.join("  ").trim_end());
    };
    line(&mut header.iter().copied());
    for row in cells {
        line(&mut row.iter().map(String::as_str));
    }
    out
}

/// The overhead suite's cost per step: for each program, backend and P measured at two step
/// counts N, (median at the larger N - median at the smaller) / (difference in N), which
/// leaves out what a run costs whatever its length (launch, allocation, output). Empty when
/// no such pair of rows succeeded.
pub fn overhead_table(rows: &[Row]) -> String {
    let ok = |r: &&Row| r.status == "ok" && r.median_s.is_some();
    let mut cells = Vec::new();
    for small in rows.iter().filter(ok) {
        let large = rows.iter().filter(ok).find(|r| {
            r.program == small.program
                && r.backend == small.backend
                && r.procs == small.procs
                && r.n > small.n
        });
        let (Some(large), Some(procs)) = (large, small.procs) else {
            continue;
        };
        let (Some(t1), Some(t0)) = (large.median_s, small.median_s) else {
            continue;
        };
        let per_step = (t1 - t0) / (large.n - small.n) as f64;
        cells.push(vec![
            small.program.clone(),
            procs.to_string(),
            small.backend.clone(),
            format!("{:.2} us", per_step * 1e6),
        ]);
    }
    if cells.is_empty() {
        return String::new();
    }
    aligned(&["program", "P", "backend", "per step"], &cells)
}

/// The columns every CSV line repeats after the row's, so that the CSV alone says where
/// and how its numbers were measured.
#[derive(Serialize)]
struct Provenance<'a> {
    date: &'a str,
    cpu: &'a str,
    gpu: Option<&'a str>,
    cuda_driver: Option<&'a str>,
    command: &'a str,
}

/// Writes `results.json` and `results.csv` into `dir`.
pub fn write_files(results: &Results, dir: &Path) -> Result<(), String> {
    let json = serde_json::to_string_pretty(results).map_err(|e| e.to_string())?;
    let json_path = dir.join("results.json");
    std::fs::write(&json_path, json)
        .map_err(|e| format!("cannot write `{}`: {e}", json_path.display()))?;
    let csv_path = dir.join("results.csv");
    let mut writer = csv::Writer::from_path(&csv_path)
        .map_err(|e| format!("cannot write `{}`: {e}", csv_path.display()))?;
    let provenance = Provenance {
        date: &results.date,
        cpu: &results.host.cpu,
        gpu: results.host.gpu.as_deref(),
        cuda_driver: results.host.cuda_driver.as_deref(),
        command: &results.command,
    };
    for row in &results.rows {
        writer
            .serialize((row, &provenance))
            .map_err(|e| format!("cannot write `{}`: {e}", csv_path.display()))?;
    }
    writer
        .flush()
        .map_err(|e| format!("cannot write `{}`: {e}", csv_path.display()))
}

#[cfg(test)]
mod tests {
    use super::{overhead_table, ratio, Row};

    #[test]
    fn ratios_are_written_as_faster_or_slower() {
        let speedup = |r| ratio(Some(r), "faster", "slower");
        assert_eq!(speedup(6.5), "6.50x faster");
        assert_eq!(speedup(1.0 / 352.0), "352x slower");
        assert_eq!(speedup(1.0 / 23.4), "23.4x slower");
        assert_eq!(speedup(0.5), "2.00x slower");
        assert_eq!(ratio(Some(42.0), "slower", "faster"), "42.0x slower");
        assert_eq!(ratio(None, "faster", "slower"), "-");
    }

    #[test]
    fn the_cost_per_step_is_the_difference_over_the_difference_in_steps() {
        let row = |n, procs, backend: &str, median, status: &str| Row {
            program: "barrier".into(),
            n,
            procs: Some(procs),
            backend: backend.into(),
            status: status.into(),
            median_s: Some(median),
            ..Row::default()
        };
        let rows = [
            row(100, 32, "gpu", 0.010, "ok"),
            row(1100, 32, "gpu", 0.030, "ok"),
            row(100, 32, "gpu-device", 0.010, "ok"),
            row(1100, 32, "gpu-device", 0.5, "error: x"),
        ];
        let table = overhead_table(&rows);
        assert!(table.contains("barrier  32  gpu      20.00 us"), "{table}");
        assert!(!table.contains("gpu-device"), "{table}");
        assert_eq!(overhead_table(&rows[2..]), "");
    }
}
