//! SVG plots of time against P (the study's Figure 6): one line per backend and size.

use crate::report::Row;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

const COLORS: [RGBColor; 6] = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];

/// The series of one program: (label, points (P, seconds)), for rows that were measured.
/// A sequential baseline (no P) is drawn flat over the P range.
fn series(rows: &[Row], program: &str) -> Vec<(String, Vec<(f64, f64)>)> {
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
    let mut out: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for r in &rows {
        let label = format!("{} N={}", r.backend, r.n);
        let Some(t) = r.median_s else { continue };
        let points = match r.procs {
            Some(p) => vec![(p as f64, t)],
            None if lo <= hi => vec![(lo, t), (hi, t)],
            None => continue,
        };
        match out.iter_mut().find(|(l, _)| *l == label) {
            Some((_, pts)) => pts.extend(points),
            None => out.push((label, points)),
        }
    }
    out.iter_mut()
        .for_each(|(_, pts)| pts.sort_by(|a, b| a.0.total_cmp(&b.0)));
    out
}

/// Draws `DIR/PROGRAM.svg`; None when no row of the program has a time against P.
pub fn time_against_procs(
    rows: &[Row],
    program: &str,
    dir: &Path,
) -> Result<Option<PathBuf>, String> {
    let lines = series(rows, program);
    let all: Vec<(f64, f64)> = lines.iter().flat_map(|(_, p)| p.iter().copied()).collect();
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
            .draw()
            .map_err(|e| err(&e))?;
        for (i, (label, points)) in lines.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            chart
                .draw_series(LineSeries::new(points.iter().copied(), color))
                .map_err(|e| err(&e))?
                .label(label.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    Ok(Some(path))
}
