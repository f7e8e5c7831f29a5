//! Two scenarios' monthly cost against monthly volume on one chart: A's lines solid, B's dashed,
//! each side's volume marked, both axes logarithmic.

use plotters::prelude::*;
use servecost::series::CostVsVolume;

use crate::charts::{
    font, legend, log_span, render, Corner, Drawn, Swatch, GRID, INK, RENT, SELF_HOST, SIZE,
};
use crate::format;

/// The chart as an SVG string (empty when there is nothing to draw).
pub fn cost_vs_volume_pair(a: &CostVsVolume, b: &CostVsVolume) -> String {
    render(
        "Monthly cost against monthly volume, scenarios A and B",
        |svg| draw(a, b, svg),
    )
}

fn draw<'a>(a: &CostVsVolume, b: &CostVsVolume, out: &'a mut String) -> Drawn<'a> {
    let all = a.points.iter().chain(&b.points);
    let (mut x_lo, mut x_hi, mut y_lo, mut y_hi) = (f64::MAX, 0.0_f64, f64::MAX, 0.0_f64);
    for p in all {
        x_lo = x_lo.min(p.tokens);
        x_hi = x_hi.max(p.tokens);
        for c in [p.rent, p.self_host].into_iter().filter(|c| *c > 0.0) {
            y_lo = y_lo.min(c);
            y_hi = y_hi.max(c);
        }
    }
    let (Some((x0, x1)), Some((y0, y1))) =
        (log_span(x_lo, x_hi), log_span(y_lo * 0.8, y_hi * 1.25))
    else {
        return Ok(());
    };
    let root = SVGBackend::with_string(out, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .margin(12)
        .x_label_area_size(52)
        .y_label_area_size(84)
        .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())?;
    chart
        .configure_mesh()
        .max_light_lines(1)
        .light_line_style(GRID.mix(0.4))
        .bold_line_style(GRID)
        .x_desc("Tokens per month")
        .y_desc("$ per month")
        .x_label_formatter(&|v| format::tokens(*v))
        .y_label_formatter(&|v| format::usd(*v))
        .label_style(font(15))
        .axis_desc_style(font(16))
        .draw()?;
    for (side, s, dashed) in [("A", a, false), ("B", b, true)] {
        let rent = s.points.iter().map(|p| (p.tokens, p.rent));
        let staircase = super::volume::staircase(&s.points);
        if dashed {
            chart.draw_series(DashedLineSeries::new(rent, 8, 5, RENT.stroke_width(3)))?;
            chart.draw_series(DashedLineSeries::new(
                staircase,
                8,
                5,
                SELF_HOST.stroke_width(3),
            ))?;
        } else {
            chart.draw_series(LineSeries::new(rent, RENT.stroke_width(3)))?;
            chart.draw_series(LineSeries::new(staircase, SELF_HOST.stroke_width(3)))?;
        }
        let x = s.user_tokens;
        if x >= x0 && x <= x1 {
            chart.draw_series(std::iter::once(PathElement::new(
                [(x, y0), (x, y1)],
                INK.stroke_width(1),
            )))?;
            chart.draw_series(std::iter::once(Text::new(
                format!("{side}'s volume"),
                (x, if dashed { y1 / 1.5 } else { y1 / 1.08 }),
                font(14),
            )))?;
        }
    }
    legend(
        &chart,
        &[
            ("A: rent (solid)", Swatch::Line(RENT, 3)),
            ("A: self-host (solid)", Swatch::Line(SELF_HOST, 3)),
            ("B: dashed lines", Swatch::Line(INK, 1)),
        ],
        Corner::LowerRight,
    )?;
    root.present()?;
    Ok(())
}
