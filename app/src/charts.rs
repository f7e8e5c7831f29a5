//! Charts drawn with plotters as SVG strings: the same code on the server for the first paint
//! and in WASM after every change. Palette: Okabe–Ito (colour-blind safe).

pub mod backend;
mod bars;
#[cfg(feature = "ssr")]
pub mod export;
mod pair;
mod registry;
mod sparkline;
pub mod tornado;
mod tps;
mod volume;
mod years;

pub use bars::{breakdown, per_class, Column};
pub use pair::cost_vs_volume_pair;
pub use registry::Chart;
pub use sparkline::{sparkline, Week};
pub use tornado::tornado;
pub use tps::cost_vs_tps;
pub use volume::{cost_vs_volume, cost_vs_volume_in};
pub use years::{cost_over_years, cost_over_years_in, cumulative};

use plotters::style::{Color, IntoFont, RGBColor, TextStyle};

thread_local! {
    /// Whether the charts drawn now on this thread carry their hover targets: see [`on_page`].
    static HOVER: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// What a chart figure shows ([`crate::components::ChartFigure`]).
#[derive(Clone)]
pub enum Drawing {
    /// A chart of the calculator's report: drawn by the server as it renders the page, and in
    /// the browser when it is wanted ([`draw_in_browser`]).
    Of(Chart, crate::query::Answer),
    /// A chart of a page the browser does not take over ([`crate::hydrated`]): drawn by the
    /// server alone ([`server_only`]).
    Served(String),
}

impl Drawing {
    /// The chart as the server sends it; nothing in the browser, which keeps what was served
    /// until it draws the chart itself.
    pub fn served(&self) -> String {
        match self {
            Drawing::Of(chart, report) => server_only(|| on_page(|| chart.draw(report))),
            Drawing::Served(svg) => svg.clone(),
        }
    }

    /// What the browser draws, if anything.
    pub fn in_browser(self) -> Option<(Chart, crate::query::Answer)> {
        match self {
            Drawing::Of(chart, report) => Some((chart, report)),
            Drawing::Served(_) => None,
        }
    }
}

/// What `draw` makes on the server; nothing in the browser. For what only the server draws: a
/// chart of a page the browser never renders, or the first drawing of one it takes over. The
/// browser's bundle then carries no drawing code but [`draw_in_browser`]'s, which arrives apart.
pub fn server_only(draw: impl FnOnce() -> String) -> String {
    #[cfg(feature = "ssr")]
    {
        draw()
    }
    #[cfg(not(feature = "ssr"))]
    {
        let _ = draw;
        String::new()
    }
}

/// `chart` of `report`, drawn in the browser with its hover targets. The charts' code (plotters
/// and every chart's drawing) is a module of its own, split from the first download by the
/// build (`scripts/lib.sh`, wasm-split-cli): fetched the first time a chart is drawn in the
/// browser, after an edit or when a pointer first comes over a chart, never for the first
/// paint, which the server drew. `Err` when the module could not be fetched (a later call tries
/// again): the page goes on without that drawing, never aborts.
#[cfg(feature = "hydrate")]
#[leptos::wasm_split::wasm_split(servecost_charts, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn draw_in_browser(
    chart: Chart,
    report: crate::query::Answer,
) -> Result<String, leptos::wasm_split::SplitLoaderError> {
    Ok(chart.draw(&report))
}

/// Whether the chart being drawn carries hover targets (each value as an SVG `<title>`):
/// always in the browser, in exported files, in embeds and on the pages the browser does not
/// take over; not in the calculator as the server sends it.
pub fn hovering() -> bool {
    HOVER.with(std::cell::Cell::get)
}

/// The chart `draw` makes, as the page shows it. In the calculator the server sends, without
/// its hover targets: they repeat the values of the chart's numbers table and were a third of
/// the page's bytes (and their titles a share of its rendering). In the browser, with them
/// ([`draw_in_browser`]): the page draws a chart's targets when a pointer first comes over it
/// ([`crate::components::ChartFigure`]), and every chart it redraws after an edit carries
/// them. A page the browser does not take over ([`crate::hydrated`], the saved record) keeps
/// them: nothing would draw them later.
pub fn on_page(draw: impl FnOnce() -> String) -> String {
    #[cfg(feature = "ssr")]
    {
        let taken_over = leptos::prelude::use_context::<http::request::Parts>()
            .is_some_and(|parts| crate::hydrated(parts.uri.path()));
        if !taken_over {
            return draw();
        }
        /// Sets the switch back however `draw` ends.
        struct Restore(bool);
        impl Drop for Restore {
            fn drop(&mut self) {
                HOVER.with(|h| h.set(self.0));
            }
        }
        let _restore = Restore(HOVER.with(|h| h.replace(false)));
        draw()
    }
    #[cfg(not(feature = "ssr"))]
    draw()
}

/// A chart's grid, labels and axis descriptions in the house style: five labels an axis, one
/// light line between bold ones, the page's font. The caller adds what it says.
pub fn mesh<'a, 'b, DB, XT, YT, X, Y>(
    chart: &'b mut plotters::chart::ChartContext<
        'a,
        DB,
        plotters::coord::cartesian::Cartesian2d<X, Y>,
    >,
) -> plotters::chart::MeshStyle<'a, 'b, X, Y, DB>
where
    DB: plotters::prelude::DrawingBackend,
    X: plotters::coord::ranged1d::Ranged<ValueType = XT>
        + plotters::coord::ranged1d::ValueFormatter<XT>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = YT>
        + plotters::coord::ranged1d::ValueFormatter<YT>,
{
    let mut mesh = chart.configure_mesh();
    mesh.x_labels(5)
        .y_labels(5)
        .max_light_lines(1)
        .light_line_style(GRID.mix(0.4))
        .bold_line_style(GRID)
        .label_style(font())
        .axis_desc_style(font());
    mesh
}

/// The builder of a chart whose axes carry figures (volumes, speeds, years): margins and label
/// areas in the house style, `y_labels` wide for the vertical axis's figures.
pub fn figures_chart<'a, 'b, DB: plotters::prelude::DrawingBackend>(
    area: &'a plotters::drawing::DrawingArea<DB, plotters::coord::Shift>,
    y_labels: u32,
) -> plotters::chart::ChartBuilder<'a, 'b, DB> {
    let mut builder = plotters::chart::ChartBuilder::on(area);
    builder
        .margin(PAD)
        .margin_right(PAD * 3)
        .x_label_area_size(X_AXIS)
        .y_label_area_size(y_labels);
    builder
}

/// Height of the x axis's labels and title under a plot ([`figures_chart`]).
const X_AXIS: u32 = 50;

/// How many labels the y axis of a plot `body` units high (its x axis and margins included)
/// takes: five, or fewer where five would stand closer than 1.6 lines of text (an embed's short
/// charts), two at least.
pub fn y_label_count(body: u32) -> usize {
    let axis = f64::from(body.saturating_sub(X_AXIS)) - 2.0 * f64::from(PAD);
    (axis / (1.6 * TEXT) + 1.0).floor().clamp(2.0, 5.0) as usize
}

/// The round figure (1, 2 or 5 times a power of ten) at or above `v > 0`: where an axis with
/// room for two labels ends, so that they are its start and this.
pub fn round_up(v: f64) -> f64 {
    let scale = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * scale)
        .find(|r| *r >= v)
        .unwrap_or(v)
}

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

/// Every chart, as named in export links (`/api/v1/charts/{name}.svg`) and embeds (`chart=`).
pub const NAMES: [Chart; 6] = Chart::ALL;

/// The chart called `name` for `report`, as SVG (`None` for no chart of that name).
pub fn by_name(name: &str, report: &servecost::Report) -> Option<String> {
    Chart::from_key(name).map(|c| c.draw(report))
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

/// Chart width in SVG user units. Charts are shown about this wide (two abreast on a desktop,
/// one across a phone), so with [`TEXT`] their text stays at least 11 CSS px from a 360 px
/// screen up, and in a 600 x 400 embed.
pub const WIDTH: u32 = 440;

/// Height of the plot with its axes, below the legend and the marks' labels.
pub const BODY: u32 = 210;

/// Height of the plot of the two charts that carry the decision (cost against volume, over the
/// years): wider than tall, so that each prints at the page's width with room for the rest.
pub const DECISION_BODY: u32 = 170;

/// Height of the plot in an embed's chart, which fills a 600 px frame's width.
pub const COMPACT_BODY: u32 = 110;

/// Text size in SVG user units: tick labels, legends, marks and axis titles alike.
pub const TEXT: f64 = 15.0;

/// Height of a row of the legend or of the marks' labels.
const ROW: i32 = 22;

/// Width of a legend swatch with the space after it.
const SWATCH: i32 = 24;

/// Space between the chart's edge and its content.
pub const PAD: i32 = 8;

/// The chart font, in ink colour. plotters writes a font's size divided by 1.24, so the text
/// it draws comes out at [`TEXT`] units.
pub fn font() -> TextStyle<'static> {
    // The family by name, not by a string plotters would lower-case (and pull Unicode's case
    // tables into the browser's bundle for).
    (plotters::style::FontFamily::SansSerif, TEXT * 1.24)
        .into_font()
        .color(&INK)
}

/// Width of `text` in SVG units at [`TEXT`] size, estimated from its characters on the wide
/// side (DejaVu Sans, the widest common sans-serif), so estimated boxes that do not touch never
/// touch on screen.
pub fn text_width(text: &str) -> i32 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            ' ' | '\u{a0}' | '\u{2009}' => 0.32,
            '.' | ',' | ':' | ';' | '(' | ')' | '\'' | '|' | 'i' | 'j' | 'l' | '!' => 0.36,
            'f' | 't' | 'r' | 'I' => 0.45,
            'm' | 'w' | 'M' | 'W' | '%' | '—' => 1.0,
            c if c.is_ascii_uppercase() => 0.74,
            c if c.is_ascii_digit() || c == '$' => 0.64,
            _ => 0.62,
        })
        .sum();
    (ems * TEXT).ceil() as i32
}

/// Makes the SVG scale with its container (plotters writes a fixed width and height; it
/// already writes the viewBox) and adds `overlay` on top of what plotters drew. The text size
/// is already the one meant ([`backend`] writes `15`, not plotters' `15.000000000000002`).
pub fn responsive(svg: String, title: &str, overlay: &Overlay) -> String {
    let Some(open) = svg.find("<svg ") else {
        return svg;
    };
    let Some(view_box) = svg[open..].find(" viewBox=").map(|i| i + open) else {
        return svg;
    };
    let mut out = String::with_capacity(svg.len() + overlay.markup.len() + 160);
    out.push_str(&svg[..open]);
    out.push_str(&format!(
        r#"<svg preserveAspectRatio="xMidYMid meet" role="img" aria-label="{}""#,
        crate::escape_html(title)
    ));
    let body = &svg[view_box..];
    match body.rfind("</svg>") {
        Some(close) => {
            out.push_str(&body[..close]);
            out.push_str(&overlay.markup);
            out.push_str(&body[close..]);
        }
        None => out.push_str(body),
    }
    out
}

/// What a drawing returns: what to lay over plotters' drawing, or plotters' error (which
/// borrows the SVG string it writes to).
pub type Drawn<'a> = Result<Overlay, Box<dyn std::error::Error + 'a>>;

/// Runs `draw` into an SVG string made responsive; a drawing that fails, or draws nothing,
/// gives an empty string (the figure then shows only its numbers, which are always there).
pub fn render(title: &str, draw: impl FnOnce(&mut String) -> Drawn<'_>) -> String {
    crate::browser::measure("servecost:chart", || {
        let mut svg = String::new();
        let overlay = match draw(&mut svg) {
            Ok(overlay) => overlay,
            Err(_) => return String::new(),
        };
        if svg.is_empty() {
            return String::new();
        }
        responsive(svg, title, &overlay)
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
    /// A dashed line of this colour and width.
    Dashed(RGBColor, u32),
    /// A filled block of this colour.
    Block(RGBColor),
}

/// `#0072B2` for an SVG attribute.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The bands above the plot, where nothing is plotted: the legend, in rows that wrap at the
/// chart's width, then one row per mark label (the labels of vertical marks such as "your
/// volume", each set above its line, in a row of its own when it would touch another).
pub struct Frame {
    /// Legend entries: the lines of the label, the swatch, the left edge and the first row.
    legend: Vec<(Vec<String>, Swatch, i32, i32)>,
    legend_rows: i32,
    mark_rows: i32,
    body: u32,
}

/// `text` broken at spaces into lines at most `width` units wide (a word wider than that
/// stays whole on its own line).
fn wrap(text: &str, width: i32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_width(&candidate) > width {
            lines.push(std::mem::replace(&mut line, word.to_owned()));
        } else {
            line = candidate;
        }
    }
    lines.push(line);
    lines
}

impl Frame {
    /// A frame for `entries`, with room for `marks` labels above the plot, over a plot `body`
    /// units high. Entries flow in rows; one too long for a row wraps onto several.
    pub fn new(entries: &[(&str, Swatch)], marks: usize, body: u32) -> Frame {
        let right = WIDTH as i32 - PAD;
        let (mut x, mut row, mut next) = (PAD, 0, 1);
        let mut legend = Vec::with_capacity(entries.len());
        for (text, swatch) in entries {
            let w = SWATCH + text_width(text);
            if x > PAD && x + w > right {
                x = PAD;
                row = next;
            }
            let lines = wrap(text, right - x - SWATCH);
            let rows = lines.len() as i32;
            let width = SWATCH + lines.iter().map(|l| text_width(l)).max().unwrap_or(0);
            legend.push((lines, *swatch, x, row));
            next = next.max(row + rows);
            if rows > 1 {
                // A wrapped entry takes its rows whole.
                x = PAD;
                row = next;
            } else {
                x += width + 18;
            }
        }
        let legend_rows = if entries.is_empty() { 0 } else { next };
        // A legend past two rows takes its room from the plot, up to two rows' worth, so the
        // chart keeps its proportions (and its text size where its height is capped).
        let taken = (ROW * (legend_rows - 2).clamp(0, 2)) as u32;
        Frame {
            legend_rows,
            legend,
            mark_rows: marks as i32,
            body: body.saturating_sub(taken).max(body / 2),
        }
    }

    /// Height of the bands above the plot.
    pub fn top(&self) -> u32 {
        (PAD / 2 + ROW * (self.legend_rows + self.mark_rows)) as u32
    }

    /// The whole chart's size.
    pub fn size(&self) -> (u32, u32) {
        (WIDTH, self.top() + self.body)
    }

    /// A white drawing of the chart's size into `out`, and the area below the bands to plot in.
    pub fn plot_area<'o>(
        &self,
        out: &'o mut String,
    ) -> Result<
        plotters::drawing::DrawingArea<backend::Svg<'o>, plotters::coord::Shift>,
        plotters::drawing::DrawingAreaErrorKind<backend::Never>,
    > {
        use plotters::prelude::{IntoDrawingArea, WHITE};
        let root = backend::Svg::with_string(out, self.size()).into_drawing_area();
        root.fill(&WHITE)?;
        Ok(root.margin(self.top(), 0, 0, 0))
    }

    /// The legend as SVG, in its band.
    fn legend_markup(&self) -> String {
        let mut out = String::from(r#"<g class="chart-legend">"#);
        for (lines, swatch, x, row) in &self.legend {
            let y = PAD / 2 + ROW * row + ROW / 2;
            match swatch {
                Swatch::Line(c, w) | Swatch::Dashed(c, w) => {
                    let dash = if matches!(swatch, Swatch::Dashed(..)) {
                        r#" stroke-dasharray="6 4""#
                    } else {
                        ""
                    };
                    out.push_str(&format!(
                        r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{}" stroke-width="{w}"{dash}/>"#,
                        x + 18,
                        hex(*c)
                    ));
                }
                Swatch::Block(c) => out.push_str(&format!(
                    r#"<rect x="{}" y="{}" width="14" height="12" fill="{}"/>"#,
                    x + 2,
                    y - 6,
                    hex(*c)
                )),
            }
            for (i, line) in lines.iter().enumerate() {
                out.push_str(&text_markup(
                    x + SWATCH,
                    y + ROW * i as i32,
                    "start",
                    INK,
                    line,
                ));
            }
        }
        out.push_str("</g>");
        out
    }

    /// The baseline row (from the top of the chart) of mark label row `i`.
    fn mark_row_y(&self, i: i32) -> i32 {
        PAD / 2 + ROW * (self.legend_rows + i) + ROW / 2
    }
}

/// A text element at [`TEXT`] size, centred vertically on `y` (the family, the size and the
/// colour [`INK`] are the chart's own, [`backend::DEFAULTS`]).
fn text_markup(x: i32, y: i32, anchor: &str, colour: RGBColor, text: &str) -> String {
    let fill = if colour == INK {
        String::new()
    } else {
        format!(r#" fill="{}""#, hex(colour))
    };
    format!(
        r#"<text x="{x}" y="{y}" dy="0.35em" text-anchor="{anchor}"{fill}>{}</text>"#,
        crate::escape_html(text)
    )
}

/// What is laid over plotters' drawing: the legend, the marks' labels, and invisible shapes
/// carrying each value as an SVG `<title>` (shown on hover; see [`on_page`] for where they
/// are drawn).
#[derive(Debug, Default)]
pub struct Overlay {
    markup: String,
}

/// A dashed line through `points` (in pixels), 6 on and 4 off: one element, where plotters'
/// dashed series writes one for every dash (a chart's hybrid was 35 of them). Laid over the
/// drawing with [`Overlay::under`].
pub fn dashed(
    points: impl IntoIterator<Item = (i32, i32)>,
    colour: RGBColor,
    width: u32,
) -> String {
    let mut out = String::with_capacity(512);
    let colour = plotters_backend::BackendColor {
        alpha: 1.0,
        rgb: (colour.0, colour.1, colour.2),
    };
    backend::polyline(&mut out, points, colour, width, Some("6 4"));
    out
}

/// Labels of vertical marks, set above the plot: `(x in pixels, label, colour)`.
pub type Marks = Vec<(i32, String, RGBColor)>;

/// A hover target: a rectangle in pixels and what it says.
pub struct Hover {
    /// Left, top, right, bottom, in pixels.
    pub rect: (i32, i32, i32, i32),
    /// The values it carries.
    pub title: String,
}

impl Hover {
    /// A target over the box between two corners in pixels (in any order), at least
    /// `min_width` wide so a bar of no width can still be found.
    pub fn spanning(a: (i32, i32), b: (i32, i32), min_width: i32, title: String) -> Hover {
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
        let grow = (min_width - (x1 - x0)).max(0);
        Hover {
            rect: (
                x0 - grow / 2,
                a.1.min(b.1),
                x1 + grow - grow / 2,
                a.1.max(b.1),
            ),
            title,
        }
    }
}

impl Overlay {
    /// The overlay of a chart drawn in `frame`: the legend, the marks' labels (in rows, none touching another, none past the chart's
    /// edges) and the hover targets.
    pub fn new(frame: &Frame, marks: Marks, hovers: &[Hover]) -> Overlay {
        let mut markup = frame.legend_markup();
        let mut marks = marks;
        marks.sort_by_key(|m| m.0);
        let mut rows: Vec<i32> = Vec::new();
        markup.push_str(r#"<g class="chart-marks">"#);
        for (x, label, colour) in marks {
            let w = text_width(&label);
            // Within the chart's edges; a label wider than the chart starts at its left edge.
            let left = (x - w / 2).min(WIDTH as i32 - PAD - w).max(PAD);
            let row = rows
                .iter()
                .position(|end| *end + 8 <= left)
                .unwrap_or(rows.len());
            let row = row.min(frame.mark_rows.max(1) as usize - 1);
            if row == rows.len() {
                rows.push(left + w);
            } else {
                rows[row] = left + w;
            }
            let y = frame.mark_row_y(row as i32);
            markup.push_str(&text_markup(left, y, "start", colour, &label));
        }
        markup.push_str("</g>");
        if hovers.is_empty() {
            return Overlay { markup };
        }
        markup.push_str(r#"<g class="chart-hover" fill="transparent">"#);
        for h in hovers {
            let (x0, y0, x1, y1) = h.rect;
            let int = |out: &mut String, n: i32| backend::push_int(out, i64::from(n));
            markup.push_str(r#"<rect x=""#);
            int(&mut markup, x0);
            markup.push_str(r#"" y=""#);
            int(&mut markup, y0);
            markup.push_str(r#"" width=""#);
            int(&mut markup, (x1 - x0).max(1));
            markup.push_str(r#"" height=""#);
            int(&mut markup, (y1 - y0).max(1));
            markup.push_str(r#""><title>"#);
            crate::push_escaped_html(&mut markup, &h.title);
            markup.push_str("</title></rect>");
        }
        markup.push_str("</g>");
        Overlay { markup }
    }

    /// The overlay with `lines` ([`dashed`]) drawn first, over plotters' drawing and under
    /// the legend, the marks' labels and the hover targets.
    pub fn under(self, lines: &str) -> Overlay {
        Overlay {
            markup: format!("{lines}{}", self.markup),
        }
    }
}

/// Hover targets for values along x: one vertical strip per point, from halfway to the
/// previous point to halfway to the next, the plot's height tall.
pub fn strips(xs: &[i32], plot_y: std::ops::Range<i32>, titles: Vec<String>) -> Vec<Hover> {
    let mut out = Vec::with_capacity(xs.len());
    for (i, (x, title)) in xs.iter().zip(titles).enumerate() {
        let left = if i == 0 { *x - 6 } else { (xs[i - 1] + x) / 2 };
        let right = xs.get(i + 1).map_or(*x + 6, |next| (x + next) / 2);
        out.push(Hover {
            rect: (left, plot_y.start, right.max(left + 1), plot_y.end),
            title,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use servecost::series::{CostVsVolume, CurveSeries, TpsPoint, VolumePoint};

    #[test]
    fn y_labels_stand_apart_in_every_plot_height() {
        for body in 0..=400u32 {
            let n = y_label_count(body);
            assert!((2..=5).contains(&n), "{body}: {n}");
            let axis = f64::from(body.saturating_sub(X_AXIS)) - 2.0 * f64::from(PAD);
            if n > 2 {
                assert!(
                    (n - 1) as f64 * 1.6 * TEXT <= axis + 1e-9,
                    "{body}: {n} labels in {axis}"
                );
            }
        }
        assert_eq!(y_label_count(COMPACT_BODY), 2, "an embed's short chart");
        assert_eq!(
            y_label_count(DECISION_BODY),
            5,
            "the page's charts keep five"
        );
    }

    #[test]
    fn round_figures_are_one_two_or_five_times_a_power_of_ten_at_most_two_and_a_half_times_up() {
        for v in [1.0, 1.5, 3.0, 4.3e6, 9.99e6, 1.0e7, 2.5e-3, 123_456.0] {
            let r = round_up(v);
            assert!(r >= v && r <= 2.5 * v, "{v} -> {r}");
            let m = r / 10f64.powf(r.log10().floor());
            assert!(
                [1.0, 2.0, 5.0].iter().any(|k| (m - k).abs() < 1e-9),
                "{v} -> {r}"
            );
        }
    }

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
                bands: vec![servecost::decision::Band {
                    from: a,
                    to: b,
                    best: servecost::decision::Strategy::SelfHost,
                    ties: Vec::new(),
                }],
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
