//! Charts drawn with plotters as SVG strings: the same code on the server for the first paint
//! and in WASM after every change. Palette: Okabe–Ito (colour-blind safe).

mod bars;
#[cfg(feature = "ssr")]
pub mod export;
mod pair;
mod sparkline;
pub mod tornado;
mod tps;
mod volume;
mod years;

pub use bars::{breakdown, per_class, Column};
pub use pair::cost_vs_volume_pair;
pub use sparkline::sparkline;
pub use tornado::tornado;
pub use tps::cost_vs_tps;
pub use volume::cost_vs_volume;
pub use years::{cost_over_years, cumulative};

use plotters::chart::ChartContext;
use plotters::coord::CoordTranslate;
use plotters::drawing::DrawingAreaErrorKind;
use plotters::element::{PathElement, Rectangle, Text};
use plotters::prelude::DrawingBackend;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, IntoFont, RGBColor, TextStyle, WHITE};

/// Renting.
pub const RENT: RGBColor = RGBColor(0x00, 0x72, 0xB2);
/// Self-hosting.
pub const SELF_HOST: RGBColor = RGBColor(0xD5, 0x5E, 0x00);
/// Hybrid.
pub const HYBRID: RGBColor = RGBColor(0x00, 0x9E, 0x73);
/// Markers and text.
pub const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);
/// Grid lines.
pub const GRID: RGBColor = RGBColor(0xDD, 0xDD, 0xDD);

/// Chart names, as used in export links (`/api/v1/charts/{name}.svg`) and in embeds (`chart=`).
pub const NAMES: [&str; 6] = ["volume", "classes", "breakdown", "tps", "tornado", "years"];

/// The chart called `name` for `report`, as SVG.
pub fn by_name(name: &str, report: &servecost::Report) -> Option<String> {
    Some(match name {
        "volume" => cost_vs_volume(&report.series.cost_vs_volume),
        "classes" => per_class(&report.series.per_class),
        "breakdown" => {
            let columns = bars::columns(report);
            breakdown(
                &columns
                    .iter()
                    .map(|(l, b)| Column { label: l, lines: b })
                    .collect::<Vec<_>>(),
            )
        }
        "tps" => cost_vs_tps(&report.series.cost_vs_tps, report.inputs.tps),
        "tornado" => tornado(&report.sensitivity),
        "years" => cost_over_years(&report.plan),
        _ => return None,
    })
}

/// Most decades a logarithmic axis spans; a wider range is cut at the bottom.
pub const MAX_DECADES: f64 = 12.0;

/// A range a logarithmic axis can draw, from the smallest and largest positive values to show
/// (padding included): both finite and positive, `lo` below `hi`, at most [`MAX_DECADES`] apart.
/// `None` when there is nothing positive to draw.
///
/// plotters' log axis never ends its tick loop on a range that starts at 0 or at a denormal
/// number, and spends time in proportion to the decades spanned: every log axis goes through
/// this, so no input, however degenerate, reaches it.
pub fn log_span(lo: f64, hi: f64) -> Option<(f64, f64)> {
    if !(hi.is_finite() && hi > 1e-200 && hi < 1e200) {
        return None;
    }
    let floor = hi / 10f64.powf(MAX_DECADES);
    let lo = if lo.is_finite() && lo > floor {
        lo
    } else {
        floor
    };
    if lo < hi {
        Some((lo, hi))
    } else {
        Some((hi / 10.0, hi * 10.0))
    }
}

/// Lines of several curves, in order.
pub const PALETTE: [RGBColor; 5] = [
    SELF_HOST,
    RENT,
    HYBRID,
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0xE6, 0x9F, 0x00),
];

/// Chart size in SVG user units; the SVG scales to its container (never below 520 px wide, so
/// its text stays readable: narrower screens scroll it).
pub const SIZE: (u32, u32) = (720, 420);

/// The chart font at `size` (SVG units), in ink colour.
pub fn font(size: u32) -> TextStyle<'static> {
    ("sans-serif", size).into_font().color(&INK)
}

/// Makes the SVG scale with its container: plotters writes a fixed width and height.
pub fn responsive(svg: String, title: &str) -> String {
    let (w, h) = SIZE;
    let fixed = format!(r#"width="{w}" height="{h}""#);
    // plotters already writes the viewBox; dropping width and height lets CSS size the chart.
    let scalable =
        format!(r#"preserveAspectRatio="xMidYMid meet" role="img" aria-label="{title}""#);
    svg.replacen(&fixed, &scalable, 1)
}

/// What a drawing returns: plotters errors borrow the SVG string they write to.
pub type Drawn<'a> = Result<(), Box<dyn std::error::Error + 'a>>;

/// Runs `draw` into an SVG string made responsive; a drawing that fails gives an empty string
/// (the figure then shows only its numbers, which are always there).
pub fn render(title: &str, draw: impl FnOnce(&mut String) -> Drawn<'_>) -> String {
    crate::browser::measure("servecost:chart", || {
        let mut svg = String::new();
        if draw(&mut svg).is_err() {
            return String::new();
        }
        responsive(svg, title)
    })
}

/// The name of the category whose slot `[i, i + 1)` has its middle at `v`, for axis labels of
/// bar charts (other ticks get no label).
pub fn category(names: &[String], v: f64) -> String {
    let i = v.floor();
    if (v - i - 0.5).abs() < 0.01 && i >= 0.0 {
        names.get(i as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

/// What a legend entry shows beside its label.
#[derive(Debug, Clone, Copy)]
pub enum Swatch {
    /// A line of this colour and width.
    Line(RGBColor, u32),
    /// A filled block of this colour.
    Block(RGBColor),
}

/// A corner of the plotting area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corner {
    /// Top left.
    UpperLeft,
    /// Top right.
    UpperRight,
    /// Bottom right.
    LowerRight,
}

/// Legend text size.
const LEGEND_FONT: u32 = 14;

/// Width of `text` at `size`, estimated from its characters (sans-serif averages about 0.55 em).
fn text_width(text: &str, size: u32) -> i32 {
    (text.chars().count() as f64 * f64::from(size) * 0.55).ceil() as i32
}

/// Draws a legend in a corner of `chart`'s plotting area, in the house style.
///
/// plotters' own legend measures each label by laying it out in the page, which in the browser
/// forces a layout of the whole page for every label of every chart on every edit; this one
/// estimates widths, so the server and the browser draw the same SVG and nothing is measured.
pub fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &ChartContext<'a, DB, CT>,
    entries: &[(&str, Swatch)],
    corner: Corner,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    if entries.is_empty() {
        return Ok(());
    }
    let area = chart.plotting_area().strip_coord_spec();
    let (width, height) = area.dim_in_pixel();
    let (width, height) = (width as i32, height as i32);
    let (pad, swatch, gap, row) = (8, 18, 8, 20);
    let label = entries
        .iter()
        .map(|(t, _)| text_width(t, LEGEND_FONT))
        .max()
        .unwrap_or(0);
    let (w, h) = (
        pad * 2 + swatch + gap + label,
        pad * 2 + row * entries.len() as i32 - 4,
    );
    let (x0, y0) = match corner {
        Corner::UpperLeft => (10, 10),
        Corner::UpperRight => (width - w - 10, 10),
        Corner::LowerRight => (width - w - 10, height - h - 10),
    };
    area.draw(&Rectangle::new(
        [(x0, y0), (x0 + w, y0 + h)],
        WHITE.mix(0.9).filled(),
    ))?;
    area.draw(&Rectangle::new([(x0, y0), (x0 + w, y0 + h)], GRID))?;
    for (i, (text, mark)) in entries.iter().enumerate() {
        let y = y0 + pad + row * i as i32 + row / 2 - 2;
        let x = x0 + pad;
        match *mark {
            Swatch::Line(colour, stroke) => {
                area.draw(&PathElement::new(
                    [(x, y), (x + swatch, y)],
                    colour.stroke_width(stroke),
                ))?;
            }
            Swatch::Block(colour) => {
                area.draw(&Rectangle::new(
                    [(x + 2, y - 6), (x + 16, y + 6)],
                    colour.filled(),
                ))?;
            }
        }
        area.draw(&Text::new(
            (*text).to_owned(),
            (x + swatch + gap, y),
            font(LEGEND_FONT).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use servecost::series::{CostVsVolume, CurveSeries, TpsPoint, VolumePoint};

    #[test]
    fn log_spans_are_always_drawable() {
        assert_eq!(log_span(1.0, 100.0), Some((1.0, 100.0)));
        // A range from 0, a denormal or 1e-300 is cut to MAX_DECADES below the top.
        for lo in [0.0, 5e-324, 1e-300, -3.0, f64::NAN] {
            let (a, b) = log_span(lo, 1e4).expect("span");
            assert_eq!(b, 1e4);
            assert!((a - 1e4 / 1e12).abs() < 1e-20, "{lo}: {a}");
        }
        assert_eq!(log_span(5.0, 5.0), Some((0.5, 50.0)));
        for hi in [0.0, -1.0, 1e-300, f64::INFINITY, f64::NAN, 1e300] {
            assert_eq!(log_span(1e-3, hi), None, "{hi}");
        }
    }

    /// The hang of the outside fuzz: series whose values sit near 1e-300 (or at 0) reached
    /// plotters' log axis, whose tick loop never ended. Every chart now draws or gives up at
    /// once, whatever its numbers.
    #[test]
    fn degenerate_series_draw_in_bounded_time() {
        let start = std::time::Instant::now();
        for (a, b) in [
            (1e-300, 1e-299),
            (0.0, 1e-300),
            (5e-324, 1e4),
            (1e-300, 1e300),
            (0.0, 0.0),
        ] {
            let series = CostVsVolume {
                points: vec![
                    VolumePoint {
                        tokens: a,
                        rent: a,
                        self_host: b,
                        hybrid: Some(a),
                    },
                    VolumePoint {
                        tokens: b,
                        rent: b,
                        self_host: b,
                        hybrid: Some(b),
                    },
                ],
                user_tokens: a,
                break_even_tokens: Some(b),
            };
            let _ = cost_vs_volume(&series);
            let curves = vec![CurveSeries {
                curve: "c".into(),
                label: "c".into(),
                gpu_hour_usd: 1.0,
                selected: true,
                slowest_tps: 1.0,
                points: vec![
                    TpsPoint {
                        tps: 1.0,
                        usd_per_mtok: a,
                        clamped: false,
                    },
                    TpsPoint {
                        tps: 2.0,
                        usd_per_mtok: b,
                        clamped: false,
                    },
                ],
            }];
            let _ = cost_vs_tps(&curves, 1.5);
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
    }
}
