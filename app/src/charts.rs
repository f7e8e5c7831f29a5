//! Charts drawn with plotters as SVG strings: the same code on the server for the first paint
//! and in WASM after every change. Palette: Okabe–Ito (colour-blind safe).

mod bars;
mod sparkline;
mod tornado;
mod tps;
mod volume;

pub use bars::{breakdown, per_class, Column};
pub use sparkline::sparkline;
pub use tornado::tornado;
pub use tps::cost_vs_tps;
pub use volume::cost_vs_volume;

use plotters::chart::{ChartContext, SeriesLabelPosition};
use plotters::coord::CoordTranslate;
use plotters::drawing::DrawingAreaErrorKind;
use plotters::prelude::DrawingBackend;
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
pub const NAMES: [&str; 5] = ["volume", "classes", "breakdown", "tps", "tornado"];

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
        _ => return None,
    })
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

/// Draws the legend of `chart` at `position`, in the house style.
pub fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.9))
        .border_style(GRID)
        .label_font(font(14))
        .draw()
}
