//! The cost over the years: the cumulative cost of renting, self-hosting and the best hybrid
//! month by month, with self-hosting's payback month marked.

use plotters::prelude::*;
use servecost::plan::PlanReport;

use crate::charts::{
    font, legend, render, Corner, Drawn, Swatch, GRID, HYBRID, INK, RENT, SELF_HOST, SIZE,
};
use crate::format;

/// The cumulative cost of each plan by the end of a month: `(month, rent, self-host, hybrid)`.
pub type Cumulative = (u32, f64, f64, Option<f64>);

/// The cumulative cost of each plan at the end of each month, from month 1.
pub fn cumulative(plan: &PlanReport) -> Vec<Cumulative> {
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

/// `$1.2 M`, `$850 k`, `$0` for an axis.
fn money_tick(v: f64) -> String {
    if v == 0.0 {
        "$0".to_owned()
    } else {
        format!("${}", format::tokens(v))
    }
}

/// The chart as an SVG string (empty when there is nothing to draw).
pub fn cost_over_years(plan: &PlanReport) -> String {
    render("Cumulative cost of each plan over the years", |svg| {
        draw(plan, svg)
    })
}

fn draw<'a>(plan: &PlanReport, out: &'a mut String) -> Drawn<'a> {
    let points = cumulative(plan);
    let Some(&(last, ..)) = points.last() else {
        return Ok(());
    };
    let top = points
        .iter()
        .flat_map(|(_, r, s, h)| [*r, *s].into_iter().chain(*h))
        .fold(0.0_f64, f64::max);
    if !(top.is_finite() && top > 0.0) {
        return Ok(());
    }
    let root = SVGBackend::with_string(out, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    // Months are drawn on a scale of years, so that ticks fall on whole years.
    let x1 = f64::from(last) / 12.0;
    let mut chart = ChartBuilder::on(&root)
        .margin(12)
        .x_label_area_size(52)
        .y_label_area_size(84)
        .build_cartesian_2d(0.0..x1, 0.0..top * 1.08)?;
    let years = (last / 12).max(1);
    chart
        .configure_mesh()
        .x_labels(years as usize + 1)
        .max_light_lines(0)
        .bold_line_style(GRID)
        .x_desc("Years from now")
        .y_desc("Cumulative cost")
        .x_label_formatter(&|v| {
            if (v - v.round()).abs() < 1e-9 {
                format!("{}", v.round())
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|v| money_tick(*v))
        .label_style(font(15))
        .axis_desc_style(font(16))
        .draw()?;
    let from_zero = |f: fn(&Cumulative) -> Option<f64>| {
        std::iter::once((0.0, 0.0)).chain(
            points
                .iter()
                .filter_map(move |p| f(p).map(|v| (f64::from(p.0) / 12.0, v))),
        )
    };
    let mut entries = Vec::new();
    chart.draw_series(LineSeries::new(
        from_zero(|p| Some(p.1)),
        RENT.stroke_width(3),
    ))?;
    // Wider self-hosting under a narrower hybrid: where the two coincide both stay visible.
    chart.draw_series(LineSeries::new(
        from_zero(|p| Some(p.2)),
        SELF_HOST.stroke_width(5),
    ))?;
    if points.iter().all(|p| p.3.is_some()) {
        chart.draw_series(LineSeries::new(from_zero(|p| p.3), HYBRID.stroke_width(2)))?;
    }
    entries.push(("Rent (API)", Swatch::Line(RENT, 3)));
    entries.push(("Self-host", Swatch::Line(SELF_HOST, 5)));
    if points.iter().all(|p| p.3.is_some()) {
        entries.push(("Best hybrid", Swatch::Line(HYBRID, 2)));
    }
    if let Some(m) = plan.payback_month.or(plan.lead_lost_month) {
        let x = f64::from(m) / 12.0;
        chart.draw_series(std::iter::once(PathElement::new(
            [(x, 0.0), (x, top)],
            INK.stroke_width(1),
        )))?;
        let label = if plan.payback_month.is_some() {
            format!("pays back: month {m}")
        } else {
            format!("lead lost: month {m}")
        };
        // Right of the line in the first half, left of it in the second, below the legend.
        let pos = if x < x1 / 2.0 {
            (x + x1 / 80.0, top * 0.55)
        } else {
            (x - x1 / 80.0, top * 0.55)
        };
        let anchor = if x < x1 / 2.0 {
            plotters::style::text_anchor::HPos::Left
        } else {
            plotters::style::text_anchor::HPos::Right
        };
        chart.draw_series(std::iter::once(Text::new(
            label,
            pos,
            font(14).pos(plotters::style::text_anchor::Pos::new(
                anchor,
                plotters::style::text_anchor::VPos::Center,
            )),
        )))?;
    }
    legend(&chart, &entries, Corner::UpperLeft)?;
    root.present()?;
    Ok(())
}
