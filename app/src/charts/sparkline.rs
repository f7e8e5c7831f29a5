//! The week's load profile as a small line: 168 hourly weights, Monday first.

/// An inline SVG sparkline of `weights` (any positive scale).
pub fn sparkline(weights: &[f64]) -> String {
    let peak = weights.iter().copied().fold(0.0, f64::max);
    if weights.len() < 2 || !(peak > 0.0) {
        return String::new();
    }
    let (w, h) = (168.0, 28.0);
    let step = w / (weights.len() - 1) as f64;
    let points: Vec<String> = weights
        .iter()
        .enumerate()
        .map(|(i, v)| {
            format!(
                "{:.1},{:.1}",
                i as f64 * step,
                h - 1.0 - v / peak * (h - 2.0)
            )
        })
        .collect();
    format!(
        r##"<svg viewBox="0 0 {w} {h}" class="sparkline" role="img" aria-label="Load over the week, Monday to Sunday, peak {} times the average"><polyline fill="none" stroke="currentColor" stroke-width="1.5" points="{}"/></svg>"##,
        crate::format::significant(peak, 3),
        points.join(" ")
    )
}
