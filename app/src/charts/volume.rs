//! Monthly cost vs monthly volume: the rent line, the self-hosting staircase, the hybrid, the
//! user's volume and the break-even marked, the bands where each plan is cheapest shaded, both
//! axes logarithmic.

use plotters::prelude::*;

use servecost::series::{CostVsVolume, VolumePoint};

use crate::charts::{
    dashed, log_span, render, strips, Drawn, Frame, Marks, Overlay, Swatch, DECISION_BODY, HYBRID,
    INK, RENT, SELF_HOST,
};
use crate::format;

/// The chart as an SVG string (empty when there is nothing to draw).
pub fn cost_vs_volume(series: &CostVsVolume) -> String {
    cost_vs_volume_in(series, DECISION_BODY)
}

/// [`cost_vs_volume`] with a plot `body` units high (a wide, short chart for an embed).
pub fn cost_vs_volume_in(series: &CostVsVolume, body: u32) -> String {
    render("Monthly cost against monthly token volume", |svg| {
        draw(series, body, svg)
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

/// A chart of monthly cost against monthly volume, both on log scales.
pub(super) type VolumeChart<'a, 'o> =
    ChartContext<'a, super::backend::Svg<'o>, Cartesian2d<LogCoord<f64>, LogCoord<f64>>>;

/// A [`VolumeChart`] in `area` over `x` and `y`, its axes drawn, `body` units high.
pub(super) fn volume_axes<'a, 'o>(
    area: &'a DrawingArea<super::backend::Svg<'o>, plotters::coord::Shift>,
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
    body: u32,
) -> Result<VolumeChart<'a, 'o>, DrawingAreaErrorKind<super::backend::Never>> {
    let mut chart = super::figures_chart(area, 84)
        .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())?;
    super::mesh(&mut chart)
        .y_labels(super::y_label_count(body))
        .x_desc("Tokens per month")
        .y_desc("$ per month")
        .x_label_formatter(&|v| format::tokens(*v))
        .y_label_formatter(&|v| format::usd_short(*v))
        .draw()?;
    Ok(chart)
}

fn draw<'a>(s: &CostVsVolume, body: u32, out: &'a mut String) -> Drawn<'a> {
    let pts = &s.points;
    let (Some(first), Some(last)) = (pts.first(), pts.last()) else {
        return Ok(Overlay::default());
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
        return Ok(Overlay::default());
    };
    let hybrid = pts.iter().all(|p| p.hybrid.is_some());
    let mut entries = vec![
        ("Rent (API)", Swatch::Line(RENT, 3)),
        ("Self-host", Swatch::Line(SELF_HOST, 3)),
    ];
    if hybrid {
        entries.push(("Best hybrid", Swatch::Dashed(HYBRID, 3)));
    }
    let marks: Vec<(f64, &str, RGBColor)> = [
        (Some(s.user_tokens), "your volume", INK),
        (s.break_even_tokens, "break-even", SELF_HOST),
    ]
    .into_iter()
    .filter_map(|(x, label, colour)| {
        x.filter(|x| *x >= x0 && *x <= x1)
            .map(|x| (x, label, colour))
    })
    .collect();
    let frame = Frame::new(&entries, marks.len(), body);
    let area = frame.plot_area(out)?;
    let mut chart = volume_axes(&area, (x0, x1), (y0, y1), body)?;

    // Under the lines, each band shaded in the colour of the plan cheapest in it.
    for b in &s.bands {
        let (from, to) = (b.from.max(x0), b.to.min(x1));
        if !(to > from) {
            continue;
        }
        let colour = match b.best {
            servecost::decision::Strategy::Rent => RENT,
            servecost::decision::Strategy::SelfHost => SELF_HOST,
            servecost::decision::Strategy::Hybrid => HYBRID,
        };
        chart.draw_series(std::iter::once(Rectangle::new(
            [(from, y0), (to, y1)],
            colour.mix(0.08).filled(),
        )))?;
    }
    chart.draw_series(LineSeries::new(
        pts.iter().map(|p| (p.tokens, p.rent)),
        RENT.stroke_width(3),
    ))?;
    chart.draw_series(LineSeries::new(staircase(pts), SELF_HOST.stroke_width(3)))?;
    // Dashed: where the hybrid is renting or self-hosting alone, that line shows between the
    // dashes.
    let hybrid_line = if hybrid {
        dashed(
            pts.iter()
                .filter_map(|p| p.hybrid.map(|h| chart.backend_coord(&(p.tokens, h)))),
            HYBRID,
            3,
        )
    } else {
        String::new()
    };
    let mut labels = Marks::new();
    for (x, label, colour) in marks {
        chart.draw_series(std::iter::once(PathElement::new(
            [(x, y0), (x, y1)],
            colour.stroke_width(1),
        )))?;
        labels.push((chart.backend_coord(&(x, y1)).0, label.to_owned(), colour));
    }
    let (_, plot_y) = chart.plotting_area().get_pixel_range();
    let xs: Vec<i32> = pts
        .iter()
        .map(|p| chart.backend_coord(&(p.tokens, y0)).0)
        .collect();
    let titles = pts
        .iter()
        .filter(|_| super::hovering())
        .map(|p| {
            let mut t = String::with_capacity(96);
            format::push_tokens(&mut t, p.tokens);
            t.push_str(" tokens a month: rent ");
            format::push_usd(&mut t, p.rent);
            t.push_str(", self-host ");
            format::push_usd(&mut t, p.self_host);
            if let Some(h) = p.hybrid {
                t.push_str(", best hybrid ");
                format::push_usd(&mut t, h);
            }
            t
        })
        .collect();
    area.present()?;
    Ok(Overlay::new(&frame, labels, &strips(&xs, plot_y, titles)).under(&hybrid_line))
}
