//! $ per million tokens (blended over the user's mix) against output speed per user, one line
//! per curve of the model, the target marked and the clamped region (below a curve's slowest
//! measured point) shaded.

use plotters::prelude::*;

use servecost::series::CurveSeries;

use crate::charts::{render, Drawn, Frame, Hover, Overlay, Swatch, BODY, INK, PALETTE};
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
        return Ok(Overlay::default());
    }
    let Some((y0, y1)) = super::log_span(y0 * 0.8, y1 * 1.25) else {
        return Ok(Overlay::default());
    };
    let x1 = x1.max(target) * 1.02;
    // The scenario's curve widest and first; the others narrower in turn, each drawn over the
    // ones before, so a curve that runs along another still shows at its edges.
    let mut order: Vec<usize> = (0..series.len()).collect();
    order.sort_by_key(|i| !series[*i].selected);
    let widths: Vec<u32> = (0..order.len()).map(|k| (5 - k.min(3)) as u32).collect();
    let labels: Vec<(String, Swatch)> = order
        .iter()
        .zip(&widths)
        .map(|(i, w)| {
            let s = &series[*i];
            // The legend names the hardware; the source is in the hover and the table.
            let short = s.label.split(" (").next().unwrap_or(&s.label);
            let short = short.strip_suffix(", not stated").unwrap_or(short);
            let text = if s.selected {
                format!("{short} (yours)")
            } else {
                short.to_owned()
            };
            (text, Swatch::Line(PALETTE[i % PALETTE.len()], *w))
        })
        .collect();
    let entries: Vec<(&str, Swatch)> = labels.iter().map(|(t, s)| (t.as_str(), *s)).collect();
    let frame = Frame::new(&entries, 1, BODY);
    let area = frame.plot_area(out)?;
    let mut chart =
        super::figures_chart(&area, 78).build_cartesian_2d(0.0..x1, (y0..y1).log_scale())?;
    super::mesh(&mut chart)
        .x_desc("Output tokens/s per user")
        .y_desc("$ per million tokens")
        .x_label_formatter(&|v| format::number(*v))
        .y_label_formatter(&|v| format::usd_short(*v))
        .draw()?;
    let mut hovers = Vec::new();
    // Each point says its curve by the legend's short name: the table and /data give the source.
    for ((i, width), (name, _)) in order.iter().zip(&widths).zip(&labels) {
        let s = &series[*i];
        let colour = PALETTE[i % PALETTE.len()];
        // The clamped region of the scenario's curve, shaded.
        if s.selected {
            chart.draw_series(std::iter::once(Rectangle::new(
                [(0.0, y0), (s.slowest_tps, y1)],
                colour.mix(0.08).filled(),
            )))?;
        }
        chart.draw_series(LineSeries::new(
            s.points.iter().map(|p| (p.tps, p.usd_per_mtok)),
            colour.stroke_width(*width),
        ))?;
        for p in s.points.iter().filter(|_| super::hovering()) {
            let (x, y) = chart.backend_coord(&(p.tps, p.usd_per_mtok));
            hovers.push(Hover {
                rect: (x - 5, y - 5, x + 5, y + 5),
                title: format!(
                    "{name}: {} tokens/s per user, {} per million tokens{}",
                    format::significant(p.tps, 4),
                    format::per_mtok(p.usd_per_mtok),
                    if p.clamped {
                        " (below the slowest measured point)"
                    } else {
                        ""
                    }
                ),
            });
        }
    }
    chart.draw_series(std::iter::once(PathElement::new(
        [(target, y0), (target, y1)],
        INK.stroke_width(2),
    )))?;
    let marks = vec![(
        chart.backend_coord(&(target, y1)).0,
        format!("target {} tokens/s", format::significant(target, 4)),
        INK,
    )];
    area.present()?;
    Ok(Overlay::new(&frame, marks, &hovers))
}
