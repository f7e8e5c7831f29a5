//! Bar charts: the monthly bill of each option (stacked by line) and $ per million tokens by
//! class for each side.

use plotters::prelude::*;
use servecost::report::{Bar, ClassBars};

use crate::charts::{
    category, font, legend, render, Corner, Drawn, Swatch, GRID, HYBRID, RENT, SELF_HOST, SIZE,
};
use crate::format;

/// Colours of the bill's lines: busy, idle (a lighter tint of self-hosting), operations, overflow.
const LINES: [RGBColor; 4] = [
    SELF_HOST,
    RGBColor(0xF0, 0xB4, 0x8A),
    RGBColor(0xCC, 0x79, 0xA7),
    RENT,
];

/// One stacked column of the bill chart.
pub struct Column<'a> {
    /// Label under the column.
    pub label: &'a str,
    /// The lines, stacked bottom-up.
    pub lines: &'a [Bar],
}

/// The bill chart's columns for a report: renting, self-hosting, and the hybrid when searched.
pub fn columns(report: &servecost::Report) -> Vec<(&'static str, Vec<Bar>)> {
    let rent = vec![Bar {
        key: "rent".into(),
        label: "Rent".into(),
        usd: report.rent.monthly_usd,
    }];
    let mut out = vec![
        ("Rent", rent),
        ("Self-host", Bar::lines(&report.self_host.breakdown)),
    ];
    if let Some(h) = &report.hybrid {
        out.push(("Best hybrid", Bar::lines(&h.breakdown)));
    }
    out
}

/// Renting as one column, self-hosting and the hybrid stacked by line.
pub fn breakdown(columns: &[Column<'_>]) -> String {
    render("Monthly bill of each option, line by line", |svg| {
        draw_breakdown(columns, svg)
    })
}

fn draw_breakdown<'a>(columns: &[Column<'_>], out: &'a mut String) -> Drawn<'a> {
    let top = columns
        .iter()
        .map(|c| c.lines.iter().map(|l| l.usd).sum::<f64>())
        .fold(0.0, f64::max);
    if !(top > 0.0) {
        return Ok(());
    }
    let n = columns.len() as f64;
    let root = SVGBackend::with_string(out, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .x_label_area_size(40)
        .y_label_area_size(84)
        .build_cartesian_2d(0.0..n, 0.0..top * 1.15)?;
    let names: Vec<String> = columns.iter().map(|c| c.label.to_owned()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .max_light_lines(1)
        .light_line_style(GRID.mix(0.4))
        .bold_line_style(GRID)
        .x_labels(columns.len() * 2 + 1)
        .x_label_formatter(&|x| category(&names, *x))
        .y_desc("$ per month")
        .y_label_formatter(&|v| format::usd(*v))
        .label_style(font(15))
        .axis_desc_style(font(16))
        .draw()?;
    for (i, column) in columns.iter().enumerate() {
        let x = i as f64;
        let mut base = 0.0;
        for (j, line) in column.lines.iter().enumerate() {
            if line.usd <= 0.0 {
                continue;
            }
            let colour = if column.lines.len() == 1 {
                RENT
            } else {
                LINES[j % LINES.len()]
            };
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x + 0.2, base), (x + 0.8, base + line.usd)],
                colour.filled(),
            )))?;
            base += line.usd;
        }
        chart.draw_series(std::iter::once(Text::new(
            format::usd(base),
            (x + 0.3, base + top * 0.06),
            font(15),
        )))?;
    }
    let entries: Vec<(&str, Swatch)> =
        ["Busy compute", "Idle compute", "Operations", "API overflow"]
            .iter()
            .zip(LINES)
            .map(|(name, colour)| (*name, Swatch::Block(colour)))
            .collect();
    legend(&chart, &entries, Corner::UpperRight)?;
    root.present()?;
    Ok(())
}

/// $ per million tokens by class: rent, self-hosting at full use, self-hosting with the whole bill.
pub fn per_class(classes: &[ClassBars]) -> String {
    render(
        "Cost per million tokens by token class, renting and self-hosting",
        |svg| draw_per_class(classes, svg),
    )
}

fn draw_per_class<'a>(classes: &[ClassBars], out: &'a mut String) -> Drawn<'a> {
    let values = classes
        .iter()
        .flat_map(|c| [c.rent, c.self_marginal, c.self_effective])
        .filter(|v| *v > 0.0);
    let (lo, hi) = values.fold((f64::MAX, 0.0_f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let Some((floor, ceiling)) = super::log_span(lo / 3.0, hi * 3.0) else {
        return Ok(());
    };
    let n = classes.len() as f64;
    let root = SVGBackend::with_string(out, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .x_label_area_size(40)
        .y_label_area_size(84)
        .build_cartesian_2d(0.0..n, (floor..ceiling).log_scale())?;
    let names: Vec<String> = classes.iter().map(|c| c.label.clone()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .max_light_lines(1)
        .light_line_style(GRID.mix(0.4))
        .bold_line_style(GRID)
        .x_labels(classes.len() * 2 + 1)
        .x_label_formatter(&|x| category(&names, *x))
        .y_desc("$ per million tokens (log)")
        .y_label_formatter(&|v| format::per_mtok(*v))
        .label_style(font(15))
        .axis_desc_style(font(16))
        .draw()?;
    let sides = [
        ("Rent", RENT),
        ("Self-host at full use", SELF_HOST),
        ("Self-host, whole bill", HYBRID),
    ];
    for (k, (_, colour)) in sides.iter().enumerate() {
        let bars = classes.iter().enumerate().filter_map(|(i, c)| {
            let v = [c.rent, c.self_marginal, c.self_effective][k];
            let x = i as f64 + 0.15 + 0.24 * k as f64;
            (v > 0.0).then(|| Rectangle::new([(x, floor), (x + 0.22, v)], colour.filled()))
        });
        chart.draw_series(bars)?;
    }
    let entries: Vec<(&str, Swatch)> = sides
        .iter()
        .map(|(name, colour)| (*name, Swatch::Block(*colour)))
        .collect();
    legend(&chart, &entries, Corner::UpperLeft)?;
    root.present()?;
    Ok(())
}
