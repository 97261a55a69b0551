//! SVG plots of time against P (the study's Figure 6): one line per backend and size.

use crate::report::Row;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

const COLORS: [RGBColor; 6] = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];

/// One line of a plot.
struct Series {
    label: String,
    /// (P, seconds), ascending in P.
    points: Vec<(f64, f64)>,
    /// False for a sequential baseline, drawn flat over the P range without markers.
    depends_on_p: bool,
}

/// The series of one program, for rows that were measured.
fn series(rows: &[Row], program: &str) -> Vec<Series> {
    let rows: Vec<&Row> = rows
        .iter()
        .filter(|r| r.program == program && r.median_s.is_some())
        .collect();
    let procs: Vec<f64> = rows
        .iter()
        .filter_map(|r| r.procs.map(|p| p as f64))
        .collect();
    let (lo, hi) = procs
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let mut out: Vec<Series> = Vec::new();
    for r in &rows {
        let label = format!("{} N={}", r.backend, r.n);
        let Some(t) = r.median_s else { continue };
        let points = match r.procs {
            Some(p) => vec![(p as f64, t)],
            None if lo <= hi => vec![(lo, t), (hi, t)],
            None => continue,
        };
        match out.iter_mut().find(|s| s.label == label) {
            Some(s) => s.points.extend(points),
            None => out.push(Series {
                label,
                points,
                depends_on_p: r.procs.is_some(),
            }),
        }
    }
    out.iter_mut()
        .for_each(|s| s.points.sort_by(|a, b| a.0.total_cmp(&b.0)));
    out
}

/// Draws `DIR/PROGRAM.svg`; None when no row of the program has a time against P.
pub fn time_against_procs(
    rows: &[Row],
    program: &str,
    dir: &Path,
) -> Result<Option<PathBuf>, String> {
    let lines = series(rows, program);
    let all: Vec<(f64, f64)> = lines
        .iter()
        .flat_map(|s| s.points.iter().copied())
        .collect();
    if all.is_empty() {
        return Ok(None);
    }
    let bound = |f: fn(&(f64, f64)) -> f64| {
        all.iter()
            .map(f)
            .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
    };
    let (p_lo, p_hi) = bound(|p| p.0);
    let (t_lo, t_hi) = bound(|p| p.1);
    let path = dir.join(format!("{program}.svg"));
    let err = |e: &dyn std::fmt::Display| format!("cannot draw `{}`: {e}", path.display());
    {
        let root = SVGBackend::new(&path, (800, 500)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{program}: time against P"), ("sans-serif", 22))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(
                (p_lo * 0.8..p_hi * 1.25).log_scale(),
                (t_lo * 0.8..t_hi * 1.25).log_scale(),
            )
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("P (processors)")
            .y_desc("median time (s)")
            .x_label_formatter(&|p| format!("{p:.0}"))
            .y_label_formatter(&|t| format!("{t:e}"))
            .draw()
            .map_err(|e| err(&e))?;
        for (i, line) in lines.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            chart
                .draw_series(LineSeries::new(line.points.iter().copied(), color))
                .map_err(|e| err(&e))?
                .label(line.label.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
            // Markers at the measured P, so that a size measured at one P shows too.
            if line.depends_on_p {
                chart
                    .draw_series(
                        line.points
                            .iter()
                            .map(|&p| Circle::new(p, 3, color.filled())),
                    )
                    .map_err(|e| err(&e))?;
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    Ok(Some(path))
}
