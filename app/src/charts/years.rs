//! The cost over the years: the cumulative cost of renting, self-hosting and the best hybrid
//! month by month, with self-hosting's payback month marked.

use plotters::prelude::*;

use servecost::projection::Projection;

use crate::charts::{
    dashed, font, render, strips, Drawn, Frame, Marks, Overlay, Swatch, DECISION_BODY, GRID,
    HYBRID, INK, RENT, SELF_HOST,
};
use crate::format;

/// The cumulative cost of each plan by the end of a month: `(month, rent, self-host, hybrid)`.
pub type Cumulative = (u32, f64, f64, Option<f64>);

/// The cumulative cost of each plan at the end of each month, from month 1.
pub fn cumulative(plan: &Projection) -> Vec<Cumulative> {
    let (mut rent, mut own, mut hybrid) = (0.0, 0.0, 0.0);
    plan.months
        .iter()
        .map(|m| {
            rent += m.rent_usd;
            own += m.self_host_usd;
            let h = m.hybrid_usd.map(|h| {
                hybrid += h;
                hybrid
            });
            (m.month, rent, own, h)
        })
        .collect()
}

/// The chart as an SVG string (empty when there is nothing to draw).
pub fn cost_over_years(plan: &Projection) -> String {
    cost_over_years_in(plan, DECISION_BODY)
}

/// [`cost_over_years`] with a plot `body` units high (a wide, short chart for an embed).
pub fn cost_over_years_in(plan: &Projection, body: u32) -> String {
    render("Cumulative cost of each plan over the years", |svg| {
        draw(plan, body, svg)
    })
}

fn draw<'a>(plan: &Projection, body: u32, out: &'a mut String) -> Drawn<'a> {
    let points = cumulative(plan);
    let Some(&(last, ..)) = points.last() else {
        return Ok(Overlay::default());
    };
    let top = points
        .iter()
        .flat_map(|(_, r, s, h)| [*r, *s].into_iter().chain(*h))
        .fold(0.0_f64, f64::max);
    if !(top.is_finite() && top > 0.0) {
        return Ok(Overlay::default());
    }
    let hybrid = points.iter().all(|p| p.3.is_some());
    let mut entries = vec![
        ("Rent (API)", Swatch::Line(RENT, 3)),
        ("Self-host", Swatch::Line(SELF_HOST, 3)),
    ];
    if hybrid {
        entries.push(("Best hybrid", Swatch::Dashed(HYBRID, 3)));
    }
    let mark = plan.payback_month.or(plan.lead_lost_month);
    let frame = Frame::new(&entries, usize::from(mark.is_some()), body);
    let area = frame.plot_area(out)?;
    // Months are drawn on a scale of years, so that ticks fall on whole years.
    let x1 = f64::from(last) / 12.0;
    // A short plot (an embed's) has room for two labels: it ends at a round figure, so that they
    // are $0 and that figure rather than $0 alone.
    let labels = super::y_label_count(body);
    let y1 = if labels <= 2 {
        super::round_up(top * 1.08)
    } else {
        top * 1.08
    };
    let mut chart = super::figures_chart(&area, 78).build_cartesian_2d(0.0..x1, 0.0..y1)?;
    let years = (last / 12).max(1);
    chart
        .configure_mesh()
        .x_labels(years as usize + 1)
        .y_labels(labels)
        .max_light_lines(0)
        .bold_line_style(GRID)
        .x_desc("Years from now")
        .y_desc("Cumulative cost")
        .x_label_formatter(&|v| {
            if (v - v.round()).abs() < 1e-9 {
                format::number(v.round())
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|v| format::usd_short(*v))
        .label_style(font())
        .axis_desc_style(font())
        .draw()?;
    let from_zero = |f: fn(&Cumulative) -> Option<f64>| {
        std::iter::once((0.0, 0.0)).chain(
            points
                .iter()
                .filter_map(move |p| f(p).map(|v| (f64::from(p.0) / 12.0, v))),
        )
    };
    chart.draw_series(LineSeries::new(
        from_zero(|p| Some(p.1)),
        RENT.stroke_width(3),
    ))?;
    chart.draw_series(LineSeries::new(
        from_zero(|p| Some(p.2)),
        SELF_HOST.stroke_width(3),
    ))?;
    // Dashed: where the hybrid is renting or self-hosting alone, that line shows between the
    // dashes.
    let hybrid_line = if hybrid {
        dashed(
            from_zero(|p| p.3).map(|p| chart.backend_coord(&p)),
            HYBRID,
            3,
        )
    } else {
        String::new()
    };
    let mut marks = Marks::new();
    if let Some(m) = mark {
        let x = f64::from(m) / 12.0;
        chart.draw_series(std::iter::once(PathElement::new(
            [(x, 0.0), (x, top * 1.08)],
            INK.stroke_width(1),
        )))?;
        let label = if plan.payback_month.is_some() {
            format!("pays back: month {m}")
        } else {
            format!("lead lost: month {m}")
        };
        marks.push((chart.backend_coord(&(x, top)).0, label, INK));
    }
    let (_, plot_y) = chart.plotting_area().get_pixel_range();
    let xs: Vec<i32> = points
        .iter()
        .map(|p| chart.backend_coord(&(f64::from(p.0) / 12.0, 0.0)).0)
        .collect();
    let titles = points
        .iter()
        .filter(|_| super::hovering())
        .map(|(m, r, s, h)| {
            let hybrid = h
                .map(|h| format!(", best hybrid {}", format::usd(h)))
                .unwrap_or_default();
            format!(
                "Paid by the end of month {m} (undiscounted): rent {}, self-host {}{hybrid}",
                format::usd(*r),
                format::usd(*s)
            )
        })
        .collect();
    area.present()?;
    Ok(Overlay::new(&frame, marks, &strips(&xs, plot_y, titles)).under(&hybrid_line))
}
