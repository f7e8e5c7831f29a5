//! The sensitivity tornado: for each input, self-hosting minus renting at its low and high
//! setting, around the value as given; the largest swing on top.

use plotters::prelude::*;
use servecost::sensitivity::Sensitivity;

use crate::charts::{
    font, legend, render, Corner, Drawn, Swatch, GRID, INK, RENT, SELF_HOST, SIZE,
};
use crate::format;

/// The chart as an SVG string (empty when there is nothing to draw).
pub fn tornado(rows: &[Sensitivity]) -> String {
    render(
        "Sensitivity: self-hosting minus renting when each input moves over its range",
        |svg| draw(rows, svg),
    )
}

fn draw<'a>(rows: &[Sensitivity], out: &'a mut String) -> Drawn<'a> {
    let Some(base) = rows.first().map(|r| r.base) else {
        return Ok(());
    };
    let values = rows
        .iter()
        .flat_map(|r| [r.low, r.high])
        .flatten()
        .chain([base, 0.0]);
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = ((hi - lo) * 0.08).max(1.0);
    let n = rows.len() as f64;
    let root = SVGBackend::with_string(out, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .x_label_area_size(52)
        .y_label_area_size(190)
        .build_cartesian_2d(lo - pad..hi + pad, 0.0..n)?;
    let names: Vec<String> = rows.iter().map(|r| r.label.clone()).collect();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .max_light_lines(1)
        .light_line_style(GRID.mix(0.4))
        .bold_line_style(GRID)
        .y_labels(rows.len() * 2 + 1)
        .y_label_formatter(&|y| {
            let i = y.floor() as usize;
            if (y - y.floor() - 0.5).abs() < 0.01 {
                // Row 0 is drawn at the top.
                names
                    .get(rows.len().saturating_sub(i + 1))
                    .cloned()
                    .unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_desc("Self-hosting minus renting, $ per month (left of 0: self-hosting cheaper)")
        .x_label_formatter(&|v| format::usd(*v))
        .label_style(font(15))
        .axis_desc_style(font(15))
        .draw()?;
    for (i, r) in rows.iter().enumerate() {
        let y = n - 1.0 - i as f64;
        for (value, colour) in [(r.low, RENT), (r.high, SELF_HOST)] {
            if let Some(v) = value {
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(base.min(v), y + 0.2), (base.max(v), y + 0.8)],
                    colour.mix(0.85).filled(),
                )))?;
            }
        }
    }
    for (x, style) in [(base, INK.stroke_width(2)), (0.0, GRID.stroke_width(2))] {
        chart.draw_series(std::iter::once(PathElement::new([(x, 0.0), (x, n)], style)))?;
    }
    // Where a bar crosses zero, the verdict (renting against self-hosting) flips within that
    // input's range: marked on the zero line.
    for (i, r) in rows.iter().enumerate() {
        if crosses_zero(r) {
            let y = n - 1.0 - i as f64 + 0.5;
            chart.draw_series(std::iter::once(Cross::new(
                (0.0, y),
                7,
                INK.stroke_width(3),
            )))?;
        }
    }
    legend(
        &chart,
        &[
            ("Input at its low setting", Swatch::Block(RENT)),
            ("Input at its high setting", Swatch::Block(SELF_HOST)),
        ],
        Corner::LowerRight,
    )?;
    root.present()?;
    Ok(())
}

/// Whether the input's range carries self-hosting minus renting across zero.
pub fn crosses_zero(r: &Sensitivity) -> bool {
    [r.low, r.high]
        .into_iter()
        .flatten()
        .any(|v| (v < 0.0) != (r.base < 0.0) && v != 0.0)
}
