//! plotters' drawing backend for the charts: the SVG plotters' own `SVGBackend` writes, element
//! for element, written straight into the string. plotters' backend formats every attribute
//! into a string of its own first (each coordinate, each colour, each opacity); a page draws
//! six charts of a few hundred elements on every request, on the server and in the browser
//! after every edit, and that formatting was most of their cost. The only difference in the
//! markup: the text size is written as the chart asks for it (`15`), not as plotters' division
//! leaves it (`15.000000000000002`), which [`super::responsive`] used to mend afterwards.
//!
//! It also writes less than plotters does, with the same drawing: the text's house family,
//! size and colour once on the root ([`DEFAULTS`]) instead of on every label, no
//! `opacity="1"` (the default), no empty labels, no line breaks between elements. A chart is
//! a third smaller, and the page with it (tested against plotters' own markup in `tests`).

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontStyle, FontTransform,
};

/// Writes SVG into a string, as `plotters::backend::SVGBackend::with_string` does.
pub struct Svg<'a> {
    out: &'a mut String,
    size: (u32, u32),
    closed: bool,
}

/// What the root of every chart sets for the text inside it: the house family, size and
/// colour (`super::font()`, `super::TEXT`, `super::INK`), written on a label only where it
/// differs.
pub const DEFAULTS: &str = r##" font-family="sans-serif" font-size="15" fill="#222222""##;
const DEFAULT_FAMILY: &str = "sans-serif";
const DEFAULT_SIZE: f64 = 15.0;
const DEFAULT_FILL: (u8, u8, u8) = (0x22, 0x22, 0x22);

/// Never made: writing into a string cannot fail.
pub type Never = std::io::Error;

type Drawn = Result<(), DrawingErrorKind<Never>>;

impl<'a> Svg<'a> {
    /// A backend drawing a chart of `size` into `out`.
    pub fn with_string(out: &'a mut String, size: (u32, u32)) -> Self {
        out.reserve(8 * 1024);
        out.push_str("<svg width=\"");
        int(out, size.0 as i64);
        out.push_str("\" height=\"");
        int(out, size.1 as i64);
        out.push_str("\" viewBox=\"0 0 ");
        int(out, size.0 as i64);
        out.push(' ');
        int(out, size.1 as i64);
        out.push_str("\" xmlns=\"http://www.w3.org/2000/svg\"");
        out.push_str(DEFAULTS);
        out.push('>');
        Self {
            out,
            size,
            closed: false,
        }
    }
}

/// `n` in decimal, written at the end of `out`.
pub fn push_int(out: &mut String, n: i64) {
    int(out, n);
}

/// `n` in decimal.
fn int(out: &mut String, n: i64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut rest = n.unsigned_abs();
    loop {
        i -= 1;
        digits[i] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if n < 0 {
        out.push('-');
    }
    for d in &digits[i..] {
        out.push(char::from(*d));
    }
}

/// ` name="value"` for a whole number.
fn attr_int(out: &mut String, name: &str, n: i64) {
    out.push(' ');
    out.push_str(name);
    out.push_str("=\"");
    int(out, n);
    out.push('"');
}

/// ` opacity="…"` as plotters writes it (the shortest form of the number: `0.4`), nothing
/// for an opaque colour.
fn opacity(out: &mut String, c: BackendColor) {
    if c.alpha == 1.0 {
        return;
    }
    out.push_str(" opacity=\"");
    out.push_str(&c.alpha.to_string());
    out.push('"');
}

/// ` name="#RRGGBB"`.
fn colour(out: &mut String, name: &str, c: BackendColor) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push(' ');
    out.push_str(name);
    out.push_str("=\"#");
    for v in [c.rgb.0, c.rgb.1, c.rgb.2] {
        out.push(char::from(HEX[usize::from(v >> 4)]));
        out.push(char::from(HEX[usize::from(v & 15)]));
    }
    out.push('"');
}

/// ` stroke-width="…"`.
fn stroke_width(out: &mut String, width: u32) {
    attr_int(out, "stroke-width", i64::from(width));
}

/// `points="x,y x,y "`.
fn points(out: &mut String, path: impl IntoIterator<Item = BackendCoord>) {
    out.push_str(" points=\"");
    for (i, (x, y)) in path.into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        int(out, i64::from(x));
        out.push(',');
        int(out, i64::from(y));
    }
    out.push('"');
}

/// `<polyline>` through `path`, stroked in `c` at `width`, as plotters writes a path; dashed by
/// `dasharray` (`"6 4"`) when given, which plotters does not do (see [`super::dashed`]).
pub(crate) fn polyline(
    out: &mut String,
    path: impl IntoIterator<Item = BackendCoord>,
    c: BackendColor,
    width: u32,
    dasharray: Option<&str>,
) {
    out.push_str("<polyline fill=\"none\"");
    opacity(out, c);
    colour(out, "stroke", c);
    stroke_width(out, width);
    if let Some(dashes) = dasharray {
        out.push_str(" stroke-dasharray=\"");
        out.push_str(dashes);
        out.push('"');
    }
    points(out, path);
    out.push_str("/>");
}

/// Text escaped as plotters escapes it (quotes and apostrophes too).
fn escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            other => out.push(other),
        }
    }
}

impl Drop for Svg<'_> {
    fn drop(&mut self) {
        // As plotters' backend does: a drawing not presented is closed when dropped.
        if !self.closed {
            self.out.push_str("</svg>");
        }
    }
}

impl Svg<'_> {
    /// Opens element `tag`, unless colour `c` is fully transparent (then there is nothing to
    /// draw): the text to write its attributes to.
    fn element(&mut self, tag: &str, c: BackendColor) -> Option<&mut String> {
        if c.alpha == 0.0 {
            return None;
        }
        let out = &mut *self.out;
        out.push('<');
        out.push_str(tag);
        Some(out)
    }
}

/// A shape's opacity and colour: filled without a stroke, or stroked without a fill.
fn paint(out: &mut String, c: BackendColor, fill: bool) {
    opacity(out, c);
    if fill {
        colour(out, "fill", c);
        out.push_str(" stroke=\"none\"");
    } else {
        out.push_str(" fill=\"none\"");
        colour(out, "stroke", c);
    }
}

impl DrawingBackend for Svg<'_> {
    type ErrorType = Never;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Drawn {
        Ok(())
    }

    fn present(&mut self) -> Drawn {
        if !self.closed {
            self.out.push_str("</svg>");
            self.closed = true;
        }
        Ok(())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn {
        if color.alpha == 0.0 {
            return Ok(());
        }
        let out = &mut *self.out;
        out.push_str("<rect");
        attr_int(out, "x", i64::from(point.0));
        attr_int(out, "y", i64::from(point.1));
        out.push_str(" width=\"1\" height=\"1\" stroke=\"none\"");
        opacity(out, color);
        colour(out, "fill", color);
        out.push_str("/>");
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn {
        let c = style.color();
        let Some(out) = self.element("line", c) else {
            return Ok(());
        };
        opacity(out, c);
        colour(out, "stroke", c);
        stroke_width(out, style.stroke_width());
        attr_int(out, "x1", i64::from(from.0));
        attr_int(out, "y1", i64::from(from.1));
        attr_int(out, "x2", i64::from(to.0));
        attr_int(out, "y2", i64::from(to.1));
        out.push_str("/>");
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        let c = style.color();
        let Some(out) = self.element("rect", c) else {
            return Ok(());
        };
        attr_int(out, "x", i64::from(upper_left.0));
        attr_int(out, "y", i64::from(upper_left.1));
        attr_int(out, "width", i64::from(bottom_right.0 - upper_left.0));
        attr_int(out, "height", i64::from(bottom_right.1 - upper_left.1));
        paint(out, c, fill);
        out.push_str("/>");
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        polyline(self.out, path, c, style.stroke_width(), None);
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        let c = style.color();
        let Some(out) = self.element("polygon", c) else {
            return Ok(());
        };
        opacity(out, c);
        colour(out, "fill", c);
        points(out, path);
        out.push_str("/>");
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn {
        let c = style.color();
        let Some(out) = self.element("circle", c) else {
            return Ok(());
        };
        attr_int(out, "cx", i64::from(center.0));
        attr_int(out, "cy", i64::from(center.1));
        attr_int(out, "r", i64::from(radius));
        paint(out, c, fill);
        stroke_width(out, style.stroke_width());
        out.push_str("/>");
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Drawn {
        let c = style.color();
        // An empty label (plotters writes one between categories) draws nothing.
        if c.alpha == 0.0 || text.trim().is_empty() {
            return Ok(());
        }
        let anchor = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "middle",
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => "0.76em",
            VPos::Center => "0.5ex",
            VPos::Bottom => "-0.5ex",
        };
        let out = &mut *self.out;
        out.push_str("<text");
        attr_int(out, "x", i64::from(pos.0));
        attr_int(out, "y", i64::from(pos.1));
        out.push_str(" dy=\"");
        out.push_str(dy);
        out.push_str("\" text-anchor=\"");
        out.push_str(anchor);
        out.push('"');
        let family = style.family();
        if family.as_str() != DEFAULT_FAMILY {
            out.push_str(" font-family=\"");
            escaped(out, family.as_str());
            out.push('"');
        }
        // plotters asks for its size times 1.24 and writes it divided back: the size meant.
        let size = style.size() / 1.24;
        if (size - DEFAULT_SIZE).abs() >= 1e-9 {
            out.push_str(" font-size=\"");
            if (size - size.round()).abs() < 1e-9 {
                int(out, size.round() as i64);
            } else {
                out.push_str(&size.to_string());
            }
            out.push('"');
        }
        opacity(out, c);
        if c.rgb != DEFAULT_FILL {
            colour(out, "fill", c);
        }
        match style.style() {
            FontStyle::Normal => {}
            FontStyle::Bold => out.push_str(" font-weight=\"bold\""),
            other => {
                out.push_str(" font-style=\"");
                out.push_str(other.as_str());
                out.push('"');
            }
        }
        let degrees = match style.transform() {
            FontTransform::Rotate90 => Some(90),
            FontTransform::Rotate180 => Some(180),
            FontTransform::Rotate270 => Some(270),
            FontTransform::None => None,
        };
        if let Some(d) = degrees {
            out.push_str(" transform=\"rotate(");
            int(out, d);
            out.push_str(", ");
            int(out, i64::from(pos.0));
            out.push_str(", ");
            int(out, i64::from(pos.1));
            out.push_str(")\"");
        }
        out.push('>');
        escaped(out, text);
        out.push_str("</text>");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Svg;
    use plotters::prelude::*;

    /// A chart of every element the charts draw, by plotters' backend and by this one: the same
    /// markup, but for the text size plotters leaves with its float noise.
    fn draw<DB: DrawingBackend>(root: DrawingArea<DB, plotters::coord::Shift>) {
        root.fill(&WHITE).expect("fill");
        let mut chart = ChartBuilder::on(&root)
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(40)
            .caption("It's <a> \"chart\" & more", ("sans-serif", 15.0 * 1.24))
            .build_cartesian_2d((1.0f64..1e6).log_scale(), -3.0f64..40.5)
            .expect("chart");
        chart
            .configure_mesh()
            .light_line_style(RGBColor(0xDD, 0xDD, 0xDD).mix(0.4))
            .x_desc("Tokens")
            .y_desc("$")
            .label_style(("sans-serif", 15.0 * 1.24).into_font().color(&BLACK))
            .draw()
            .expect("mesh");
        chart
            .draw_series(LineSeries::new(
                [(1.0, -3.0), (10.0, 4.5), (1e5, 40.0)],
                RGBColor(0, 0x72, 0xB2).stroke_width(3),
            ))
            .expect("line");
        chart
            .draw_series(DashedLineSeries::new(
                [(1.0, 1.0), (1e6, 2.0)],
                6,
                4,
                RGBColor(0xD5, 0x5E, 0).stroke_width(2),
            ))
            .expect("dashes");
        chart
            .draw_series([Rectangle::new([(10.0, 0.0), (100.0, 5.0)], RED.filled())])
            .expect("bar");
        chart
            .draw_series([Rectangle::new([(10.0, 0.0), (100.0, 5.0)], BLUE.mix(0.5))])
            .expect("outline");
        chart
            .draw_series([Circle::new((1e3, 7.0), 4, GREEN.filled())])
            .expect("dot");
        chart
            .draw_series([Circle::new((1e3, 9.0), 4, GREEN.stroke_width(2))])
            .expect("ring");
        chart
            .draw_series([Cross::new((1e4, 10.0), 5, BLACK.stroke_width(2))])
            .expect("cross");
        chart
            .draw_series([Polygon::new(
                vec![(1.0, 0.0), (10.0, 9.0), (100.0, 0.0)],
                CYAN.mix(0.3),
            )])
            .expect("polygon");
        root.present().expect("present");
    }

    /// plotters' markup written as this backend writes it: the house text attributes on the
    /// root instead of each label, no `opacity="1"`, no empty label, no line breaks, no space
    /// after the last point.
    fn compacted(theirs: &str) -> String {
        let mut s = theirs
            .replace(
                &format!("font-size=\"{}\"", 15.0 * 1.24 / 1.24),
                "font-size=\"15\"",
            )
            .replace(" opacity=\"1\"", "")
            .replace(" font-family=\"sans-serif\"", "")
            .replace(" font-size=\"15\"", "")
            .replace(" \"/>", "\"/>")
            .replace("\n</text>", "</text>")
            .replace(">\n", ">")
            .replace(
                "xmlns=\"http://www.w3.org/2000/svg\">",
                &format!("xmlns=\"http://www.w3.org/2000/svg\"{}>", super::DEFAULTS),
            );
        while let Some(end) = s.find("></text>") {
            let start = s[..end].rfind("<text").expect("an opened label");
            s.replace_range(start..end + "></text>".len(), "");
        }
        s
    }

    /// The text defaults on every chart's root are the house style's, so a label that leaves
    /// them out reads as the chart asked for.
    #[test]
    fn the_root_defaults_are_the_house_style() {
        use crate::charts::{INK, TEXT};
        assert_eq!(super::DEFAULT_FILL, (INK.0, INK.1, INK.2));
        assert_eq!(super::DEFAULT_SIZE, TEXT);
        for attr in [
            format!(r#"font-size="{TEXT}""#),
            format!(r##"fill="#{:02X}{:02X}{:02X}""##, INK.0, INK.1, INK.2),
            format!(r#"font-family="{}""#, super::DEFAULT_FAMILY),
        ] {
            assert!(super::DEFAULTS.contains(&attr), "{attr}");
        }
    }

    #[test]
    fn draws_what_plotters_draws_in_fewer_bytes() {
        let mut theirs = String::new();
        draw(SVGBackend::with_string(&mut theirs, (440, 300)).into_drawing_area());
        let mut ours = String::new();
        draw(Svg::with_string(&mut ours, (440, 300)).into_drawing_area());
        assert!(theirs.len() > 2_000, "{theirs}");
        let expected = compacted(&theirs);
        assert!(
            expected.len() * 20 < theirs.len() * 19,
            "{} of {}",
            expected.len(),
            theirs.len()
        );
        for (a, b) in expected.split("/>").zip(ours.split("/>")) {
            assert_eq!(a, b);
        }
        assert_eq!(expected, ours);
    }
}
