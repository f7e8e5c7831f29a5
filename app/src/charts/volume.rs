//! Monthly cost vs monthly volume: the rent line, the self-hosting staircase, the hybrid, the
//! user's volume and the break-even marked, both axes logarithmic.

use plotters::prelude::*;
use servecost::series::{CostVsVolume, VolumePoint};

use crate::charts::{
    font, legend, log_span, render, Corner, Drawn, Swatch, GRID, HYBRID, INK, RENT, SELF_HOST, SIZE,
};
use crate::format;

/// The chart as an SVG string (empty when there is nothing to draw).
pub fn cost_vs_volume(series: &CostVsVolume) -> String {
    render("Monthly cost against monthly token volume", |svg| {
        draw(series, svg)
    })
}

/// Self-hosting's cost as the staircase it is (whole replicas): each point's cost held until the
/// next volume.
pub fn staircase(pts: &[VolumePoint]) -> impl Iterator<Item = (f64, f64)> + Clone + '_ {
    pts.windows(2).flat_map(|w| {
        [
            (w[0].tokens, w[0].self_host),
            (w[1].tokens, w[0].self_host),
            (w[1].tokens, w[1].self_host),
        ]
    })
}

fn draw<'a>(s: &CostVsVolume, out: &'a mut String) -> Drawn<'a> {
    let pts = &s.points;
    let (Some(first), Some(last)) = (pts.first(), pts.last()) else {
        return Ok(());
    };
    let costs = pts
        .iter()
        .flat_map(|p| [p.rent, p.self_host].into_iter().chain(p.hybrid))
        .filter(|c| *c > 0.0);
    let (lo, hi) = costs.fold((f64::MAX, 0.0_f64), |(lo, hi), c| (lo.min(c), hi.max(c)));
    let (Some((x0, x1)), Some((y0, y1))) = (
        log_span(first.tokens, last.tokens),
        log_span(lo * 0.8, hi * 1.25),
    ) else {
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

    chart.draw_series(LineSeries::new(
        pts.iter().map(|p| (p.tokens, p.rent)),
        RENT.stroke_width(3),
    ))?;
    chart.draw_series(LineSeries::new(staircase(pts), SELF_HOST.stroke_width(3)))?;
    let mut entries = vec![
        ("Rent (API)", Swatch::Line(RENT, 3)),
        ("Self-host", Swatch::Line(SELF_HOST, 3)),
    ];
    if pts.iter().all(|p| p.hybrid.is_some()) {
        chart.draw_series(LineSeries::new(
            pts.iter().filter_map(|p| p.hybrid.map(|h| (p.tokens, h))),
            HYBRID.stroke_width(2),
        ))?;
        entries.push(("Best hybrid", Swatch::Line(HYBRID, 2)));
    }
    let marks = [(Some(s.user_tokens), "your volume", INK)]
        .into_iter()
        .chain([(s.break_even_tokens, "break-even", SELF_HOST)]);
    for (x, label, colour) in marks {
        let Some(x) = x.filter(|x| *x >= x0 && *x <= x1) else {
            continue;
        };
        chart.draw_series(std::iter::once(PathElement::new(
            [(x, y0), (x, y1)],
            colour.stroke_width(1),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            label,
            (x, y1 / 1.08),
            ("sans-serif", 14).into_font().color(&colour),
        )))?;
    }
    legend(&chart, &entries, Corner::UpperLeft)?;
    root.present()?;
    Ok(())
}
