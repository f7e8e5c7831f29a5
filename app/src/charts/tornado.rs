//! The sensitivity tornado: for each input, self-hosting minus renting at its low and high
//! setting, around the value as given; the largest swing on top.

use plotters::prelude::*;

use servecost::sensitivity::Sensitivity;

use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::charts::{
    font, render, Drawn, Frame, Hover, Marks, Overlay, Swatch, GRID, INK, PAD, PALETTE,
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
        return Ok(Overlay::default());
    };
    let values = rows
        .iter()
        .flat_map(|r| [r.low, r.high])
        .flatten()
        .chain([base, 0.0]);
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if !(lo.is_finite() && hi.is_finite()) {
        return Ok(Overlay::default());
    }
    let pad = ((hi - lo) * 0.08).max(1.0);
    let n = rows.len() as f64;
    let entries = [
        ("Low end", Swatch::Block(LOW)),
        ("High end", Swatch::Block(HIGH)),
        ("Your scenario", Swatch::Line(INK, 2)),
    ];
    // Each input's row: its name on top, its bar under it, so long names need no margin.
    let frame = Frame::new(&entries, 0, ROW_HEIGHT * rows.len() as u32 + 64);
    let area = frame.plot_area(out)?;
    let mut chart = ChartBuilder::on(&area)
        .margin(PAD)
        .margin_left(PAD * 2)
        .margin_right(PAD * 5)
        .x_label_area_size(52)
        .y_label_area_size(0)
        .build_cartesian_2d(lo - pad..hi + pad, 0.0..n)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .disable_y_axis()
        .x_labels(4)
        .max_light_lines(0)
        .bold_line_style(GRID)
        .x_desc("Self-hosting minus renting, $ a month")
        .x_label_formatter(&|v| format::usd_short(*v))
        .label_style(font())
        .axis_desc_style(font())
        .draw()?;
    let mut hovers = Vec::new();
    let left = lo - pad;
    for (i, r) in rows.iter().enumerate() {
        let y = n - 1.0 - i as f64;
        chart.draw_series(std::iter::once(Text::new(
            r.label.clone(),
            (left, y + 1.0),
            font().pos(Pos::new(HPos::Left, VPos::Top)),
        )))?;
        // The bar fills the lower half of the row, under its name.
        let (b0, b1) = (y + 0.08, y + 0.48);
        for (value, colour, setting) in [(r.low, LOW, &r.low_label), (r.high, HIGH, &r.high_label)]
        {
            if let Some(v) = value {
                let corners = [(base.min(v), b0), (base.max(v), b1)];
                chart.draw_series(std::iter::once(Rectangle::new(corners, colour.filled())))?;
                if !super::hovering() {
                    continue;
                }
                let title = format!(
                    "{} {setting}: self-hosting minus renting {} a month (your scenario: {})",
                    r.label,
                    format::usd(v),
                    format::usd(base)
                );
                hovers.push(Hover::spanning(
                    chart.backend_coord(&corners[0]),
                    chart.backend_coord(&corners[1]),
                    6,
                    title,
                ));
            }
        }
        // Your scenario, and zero, through the bar only: the names stay clear.
        for (x, style) in [(0.0, ZERO.stroke_width(2)), (base, INK.stroke_width(2))] {
            chart.draw_series(std::iter::once(PathElement::new(
                [(x, y + 0.02), (x, b1 + 0.06)],
                style,
            )))?;
        }
        // Where a bar crosses zero, the cheaper side changes within that input's range: marked
        // on the zero line.
        if crosses_zero(r) {
            chart.draw_series(std::iter::once(Cross::new(
                (0.0, (b0 + b1) / 2.0),
                6,
                INK.stroke_width(3),
            )))?;
        }
    }
    area.present()?;
    Ok(Overlay::new(&frame, Marks::new(), &hovers))
}

/// An input at its low and its high end: colours of their own, not renting's and self-hosting's,
/// which mean something else on every other chart.
const LOW: RGBColor = PALETTE[3];
const HIGH: RGBColor = PALETTE[4];
/// The zero line: grey enough to find, lighter than your scenario's line.
const ZERO: RGBColor = RGBColor(0x99, 0x99, 0x99);

/// Height of one input's row, name and bar.
const ROW_HEIGHT: u32 = 46;

/// Whether the input's range carries self-hosting minus renting across zero.
pub fn crosses_zero(r: &Sensitivity) -> bool {
    [r.low, r.high]
        .into_iter()
        .flatten()
        .any(|v| (v < 0.0) != (r.base < 0.0) && v != 0.0)
}
