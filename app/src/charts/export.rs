//! A chart as a file for a slide or a document: the chart's title, the scenario in one line,
//! the chart itself, then the dataset revision and day and the sources of its figures.

use servecost::{Dataset, Report};

use crate::escape_html as escape;
use crate::format::{per_mtok, tokens, usd};

/// The title the exported chart `name` carries (`None` for no chart of that name).
pub fn title(name: impl AsRef<str>) -> Option<&'static str> {
    super::Chart::from_key(name.as_ref()).map(super::Chart::title)
}

/// The scenario in one line: volume and mix, the self-hosted plan, the API prices.
pub fn scenario_line(report: &Report) -> String {
    let i = &report.inputs;
    let v = &i.volumes;
    let total = v.total().max(f64::MIN_POSITIVE);
    let share = |x: f64| crate::format::percent(x / total);
    format!(
        "{} tokens a month ({} uncached, {} cached, {} output) at {} tokens/s per user · \
         self-hosted on {} at {}/GPU-hour ({}) · renting at {} in, {} out per million",
        tokens(v.total()),
        share(v.uncached),
        share(v.cached),
        share(v.output),
        crate::format::significant(i.tps, 4),
        i.curve_label,
        usd(i.gpu_hour_usd),
        i.gpu_hour_label,
        per_mtok(i.price_in),
        per_mtok(i.price_out),
    )
}

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `link` in lines of at most `width` characters, broken before its parameters' `&` (a single
/// parameter longer than that keeps a line of its own).
fn link_lines(link: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for (i, part) in link.split('&').enumerate() {
        let part = if i == 0 {
            part.to_owned()
        } else {
            format!("&{part}")
        };
        if !line.is_empty() && line.chars().count() + part.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        line.push_str(&part);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The width and height of an SVG's `viewBox`.
fn view_box(svg: &str) -> Option<(f64, f64)> {
    let start = svg.find("viewBox=\"")? + "viewBox=\"".len();
    let rest = &svg[start..];
    let end = rest.find('"')?;
    let parts: Vec<f64> = rest[..end]
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect();
    match parts.as_slice() {
        [_, _, w, h] if *w > 0.0 && *h > 0.0 => Some((*w, *h)),
        _ => None,
    }
}

/// The chart `name` of `report` as a self-describing SVG file: title, scenario line, chart,
/// dataset revision and day, sources, and the link that reproduces it. `None` for an unknown
/// chart name.
pub fn export(name: &str, report: &Report, data: &Dataset, link: &str) -> Option<String> {
    let title = title(name)?;
    let chart = super::by_name(name, report)?;
    let (w, h) = view_box(&chart).unwrap_or((720.0, 420.0));
    // About 6 px a character at 11 px, 5.5 at 10 px.
    let scenario = wrap(&scenario_line(report), (w / 6.0) as usize);
    let mut keys = crate::citations::cited(report, data);
    keys.dedup();
    let sources: Vec<String> = keys
        .iter()
        .filter_map(|k| data.source(k))
        .map(|s| format!("{}, {} ({})", s.publisher, s.title, s.date))
        .collect();
    let day = data
        .as_of
        .as_deref()
        .map_or(String::new(), |d| format!(", prices judged on {d}"));
    let width = (w / 5.5) as usize;
    let mut footer = vec![(
        "revision",
        format!(
            "servecost · dataset revision {}{day}",
            report.dataset_revision
        ),
    )];
    // The link on lines of its own, broken before a `&` where the chart's width ends.
    footer.extend(
        link_lines(link, width.max(20))
            .into_iter()
            .map(|l| ("link", l)),
    );
    if !sources.is_empty() {
        footer.extend(
            wrap(&format!("Sources: {}", sources.join("; ")), width)
                .into_iter()
                .map(|l| ("sources", l)),
        );
    }
    // About 9.5 units a character in 16 px bold.
    let title_lines = wrap(title, (w / 9.5) as usize);
    let top = 20.0 * title_lines.len() as f64;
    let head = top + 10.0 + 15.0 * scenario.len() as f64;
    let total = head + h + 10.0 + 14.0 * footer.len() as f64;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {total}\" width=\"{w}\" \
         height=\"{total}\" role=\"img\" aria-label=\"{}\" font-family=\"sans-serif\">\
         <title>{}</title><rect width=\"{w}\" height=\"{total}\" fill=\"#FFFFFF\"/>",
        escape(title),
        escape(title),
    );
    for (n, line) in title_lines.iter().enumerate() {
        out.push_str(&format!(
            "<text x=\"12\" y=\"{}\" font-size=\"16\" font-weight=\"bold\" fill=\"#111111\" data-part=\"title\">{}</text>",
            22.0 + 20.0 * n as f64,
            escape(line)
        ));
    }
    for (n, line) in scenario.iter().enumerate() {
        out.push_str(&format!(
            "<text x=\"12\" y=\"{}\" font-size=\"11\" fill=\"#333333\" data-part=\"scenario\">{}</text>",
            top + 20.0 + 15.0 * n as f64,
            escape(line)
        ));
    }
    let inner = chart.replacen(
        "<svg ",
        &format!("<svg x=\"0\" y=\"{head}\" width=\"{w}\" height=\"{h}\" "),
        1,
    );
    out.push_str(&inner);
    for (n, (part, line)) in footer.iter().enumerate() {
        out.push_str(&format!(
            "<text x=\"12\" y=\"{}\" font-size=\"10\" fill=\"#444444\" data-part=\"{part}\">{}</text>",
            head + h + 18.0 + 14.0 * n as f64,
            escape(line)
        ));
    }
    out.push_str("</svg>");
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_wraps_at_spaces() {
        let lines = wrap("one two three four five six", 9);
        assert_eq!(lines, ["one two", "three", "four five", "six"]);
        assert!(wrap("", 10).is_empty());
    }

    #[test]
    fn links_break_before_their_parameters() {
        assert_eq!(
            link_lines("http://h/?v=1&input=4T&curve=inferencex-b300", 24),
            ["http://h/?v=1&input=4T", "&curve=inferencex-b300"]
        );
        assert_eq!(link_lines("http://h/", 24), ["http://h/"]);
    }

    #[test]
    fn the_view_box_gives_the_size() {
        assert_eq!(
            view_box("<svg viewBox=\"0 0 720 420\">"),
            Some((720.0, 420.0))
        );
        assert_eq!(view_box("<svg>"), None);
    }
}
