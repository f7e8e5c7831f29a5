//! Bar charts: the monthly bill of each option (stacked by line) and $ per million tokens by
//! class for each side.

use plotters::prelude::*;

use servecost::report::{Bar, ClassBars};

use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::charts::{
    category, font, render, Drawn, Frame, Hover, Marks, Overlay, Swatch, BODY, HYBRID, PAD, RENT,
    SELF_HOST,
};
use crate::format;

/// Colours of the bill's lines: busy, idle (a lighter tint of self-hosting), operations, overflow
/// (renting's colour: both are API tokens).
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
        return Ok(Overlay::default());
    }
    // The legend names the lines some column has: renting's one column is all API tokens, the
    // colour of the hybrid's API overflow.
    let shown = |j: usize| {
        columns
            .iter()
            .any(|c| c.lines.len() > 1 && c.lines.get(j).is_some_and(|l| l.usd > 0.0))
    };
    let mut entries: Vec<(&str, Swatch)> = ["Busy compute", "Idle compute", "Operations"]
        .iter()
        .zip(LINES)
        .enumerate()
        .filter(|(j, _)| shown(*j))
        .map(|(_, (name, colour))| (*name, Swatch::Block(colour)))
        .collect();
    entries.push(("API tokens", Swatch::Block(RENT)));
    let n = columns.len() as f64;
    let frame = Frame::new(&entries, 0, BODY);
    let area = frame.plot_area(out)?;
    let mut chart = bars_chart(&area).build_cartesian_2d(0.0..n, 0.0..top * 1.15)?;
    let names: Vec<String> = columns.iter().map(|c| c.label.to_owned()).collect();
    super::mesh(&mut chart)
        .disable_x_mesh()
        .x_labels(columns.len() * 2 + 1)
        .y_labels(5)
        .x_label_formatter(&|x| category(&names, *x))
        .y_desc("$ per month")
        .y_label_formatter(&|v| format::usd_short(*v))
        .draw()?;
    let mut hovers = Vec::new();
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
            let corners = [(x + 0.2, base), (x + 0.8, base + line.usd)];
            chart.draw_series(std::iter::once(Rectangle::new(corners, colour.filled())))?;
            base += line.usd;
            if !super::hovering() {
                continue;
            }
            let title = if column.lines.len() == 1 {
                format!("{}: {} a month", column.label, format::usd(line.usd))
            } else {
                format!(
                    "{}, {}: {} a month",
                    column.label,
                    line.label.to_ascii_lowercase(),
                    format::usd(line.usd)
                )
            };
            hovers.push(Hover::spanning(
                chart.backend_coord(&corners[0]),
                chart.backend_coord(&corners[1]),
                1,
                title,
            ));
        }
        chart.draw_series(std::iter::once(Text::new(
            format::usd(base),
            (x + 0.5, base + top * 0.015),
            font().pos(Pos::new(HPos::Center, VPos::Bottom)),
        )))?;
    }
    area.present()?;
    Ok(Overlay::new(&frame, Marks::new(), &hovers))
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
        return Ok(Overlay::default());
    };
    let n = classes.len() as f64;
    let sides = [
        ("Rent", RENT),
        ("Self-host at full use", SELF_HOST),
        ("Self-host, whole bill", HYBRID),
    ];
    let entries: Vec<(&str, Swatch)> = sides
        .iter()
        .map(|(name, colour)| (*name, Swatch::Block(*colour)))
        .collect();
    let frame = Frame::new(&entries, 0, BODY);
    let area = frame.plot_area(out)?;
    let mut chart = bars_chart(&area).build_cartesian_2d(0.0..n, (floor..ceiling).log_scale())?;
    // Short names under the bars (the table and the hover give the full ones).
    let names: Vec<String> = classes
        .iter()
        .map(|c| match c.class.as_str() {
            "input" => "Uncached".to_owned(),
            "cached" => "Cached".to_owned(),
            "output" => "Output".to_owned(),
            "blended" => "Blended".to_owned(),
            _ => c.label.clone(),
        })
        .collect();
    super::mesh(&mut chart)
        .disable_x_mesh()
        .x_labels(classes.len() * 2 + 1)
        .y_labels(5)
        .x_label_formatter(&|x| category(&names, *x))
        .y_desc("$ per million tokens")
        .y_label_formatter(&|v| format::usd_short(*v))
        .draw()?;
    let mut hovers = Vec::new();
    for (k, (side, colour)) in sides.iter().enumerate() {
        for (i, c) in classes.iter().enumerate() {
            let v = [c.rent, c.self_marginal, c.self_effective][k];
            if !(v > 0.0) {
                continue;
            }
            let x = i as f64 + 0.15 + 0.24 * k as f64;
            let corners = [(x, floor), (x + 0.22, v)];
            chart.draw_series(std::iter::once(Rectangle::new(corners, colour.filled())))?;
            if !super::hovering() {
                continue;
            }
            let title = format!(
                "{}, {}: {} per million tokens",
                c.label,
                side.to_ascii_lowercase(),
                format::per_mtok(v)
            );
            hovers.push(Hover::spanning(
                chart.backend_coord(&corners[0]),
                chart.backend_coord(&corners[1]),
                1,
                title,
            ));
        }
    }
    area.present()?;
    Ok(Overlay::new(&frame, Marks::new(), &hovers))
}

/// The builder of a bar chart: named columns under the bars, figures up the side.
fn bars_chart<'a, 'b, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, plotters::coord::Shift>,
) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(area);
    builder
        .margin(PAD)
        .margin_right(PAD * 2)
        .x_label_area_size(36)
        .y_label_area_size(78);
    builder
}
