//! $ per million tokens (blended over the user's mix) against output speed per user, one line
//! per curve of the model, the target marked and the clamped region (below a curve's slowest
//! measured point) shaded.

use plotters::prelude::*;
use servecost::series::CurveSeries;

use crate::charts::{font, legend, render, Corner, Drawn, Swatch, GRID, INK, PALETTE, SIZE};
use crate::format;

/// The chart as an SVG string (empty when there is nothing to draw).
pub fn cost_vs_tps(series: &[CurveSeries], target: f64) -> String {
    render(
        "Self-hosted cost per million tokens against output speed per user",
        |svg| draw(series, target, svg),
    )
}

fn draw<'a>(series: &[CurveSeries], target: f64, out: &'a mut String) -> Drawn<'a> {
    let points = series
        .iter()
        .flat_map(|s| s.points.iter())
        .filter(|p| p.usd_per_mtok > 0.0 && p.usd_per_mtok.is_finite());
    let (x0, x1, y0, y1) =
        points.fold((f64::MAX, 0.0_f64, f64::MAX, 0.0_f64), |(a, b, c, d), p| {
            (
                a.min(p.tps),
                b.max(p.tps),
                c.min(p.usd_per_mtok),
                d.max(p.usd_per_mtok),
            )
        });
    if !(x1 > x0) || !x1.is_finite() {
        return Ok(());
    }
    let Some((y0, y1)) = super::log_span(y0 * 0.8, y1 * 1.25) else {
        return Ok(());
    };
    let x1 = x1.max(target) * 1.02;
    let root = SVGBackend::with_string(out, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .x_label_area_size(52)
        .y_label_area_size(84)
        .build_cartesian_2d(0.0..x1, (y0..y1).log_scale())?;
    chart
        .configure_mesh()
        .max_light_lines(1)
        .light_line_style(GRID.mix(0.4))
        .bold_line_style(GRID)
        .x_desc("Output tokens/s per user")
        .y_desc("$ per million tokens")
        .y_label_formatter(&|v| format::per_mtok(*v))
        .label_style(font(15))
        .axis_desc_style(font(16))
        .draw()?;
    let mut labels = Vec::with_capacity(series.len());
    for (i, s) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        // The clamped region of the scenario's curve, shaded.
        if s.selected {
            chart.draw_series(std::iter::once(Rectangle::new(
                [(0.0, y0), (s.slowest_tps, y1)],
                colour.mix(0.08).filled(),
            )))?;
        }
        let width = if s.selected { 4 } else { 2 };
        chart.draw_series(LineSeries::new(
            s.points.iter().map(|p| (p.tps, p.usd_per_mtok)),
            colour.stroke_width(width),
        ))?;
        labels.push((
            if s.selected {
                format!("{} (yours)", s.label)
            } else {
                s.label.clone()
            },
            Swatch::Line(colour, width),
        ));
    }
    chart.draw_series(std::iter::once(PathElement::new(
        [(target, y0), (target, y1)],
        INK.stroke_width(2),
    )))?;
    chart.draw_series(std::iter::once(Text::new(
        format!("target {} tok/s", format::significant(target, 4)),
        (target, y1 / 1.1),
        font(14),
    )))?;
    let entries: Vec<(&str, Swatch)> = labels.iter().map(|(t, s)| (t.as_str(), *s)).collect();
    legend(&chart, &entries, Corner::UpperLeft)?;
    root.present()?;
    Ok(())
}
