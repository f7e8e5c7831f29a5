//! Two scenarios' monthly cost against monthly volume on one chart: A's lines solid, B's dashed,
//! each side's volume marked, both axes logarithmic.

use plotters::prelude::*;

use servecost::series::CostVsVolume;

use crate::charts::{
    dashed, log_span, render, Drawn, Frame, Marks, Overlay, Swatch, BODY, INK, RENT, SELF_HOST,
};

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
        return Ok(Overlay::default());
    };
    let entries = [
        ("A: rent", Swatch::Line(RENT, 3)),
        ("A: self-host", Swatch::Line(SELF_HOST, 3)),
        ("B: rent", Swatch::Dashed(RENT, 3)),
        ("B: self-host", Swatch::Dashed(SELF_HOST, 3)),
    ];
    let frame = Frame::new(&entries, 2, BODY);
    let area = frame.plot_area(out)?;
    let mut chart = super::volume::volume_axes(&area, (x0, x1), (y0, y1), BODY)?;
    let mut marks = Marks::new();
    let mut b_lines = String::new();
    for (side, s, is_b) in [("A", a, false), ("B", b, true)] {
        let rent = s.points.iter().map(|p| (p.tokens, p.rent));
        let staircase = super::volume::staircase(&s.points);
        if is_b {
            b_lines.push_str(&dashed(rent.map(|p| chart.backend_coord(&p)), RENT, 3));
            b_lines.push_str(&dashed(
                staircase.map(|p| chart.backend_coord(&p)),
                SELF_HOST,
                3,
            ));
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
            marks.push((
                chart.backend_coord(&(x, y1)).0,
                format!("{side}'s volume"),
                INK,
            ));
        }
    }
    area.present()?;
    Ok(Overlay::new(&frame, marks, &[]).under(&b_lines))
}
