//! The week's load profile as a small line: 168 hourly weights, Monday first, against the
//! capacity the fleet holds for it.

/// The lines of the week's chart, each in units of the average hour of the week the fleet serves.
pub struct Week<'a> {
    /// The interactive traffic's load in each hour, in units of the average hour of the week
    /// the fleet serves (mean 1 without batch traffic).
    pub load: &'a [f64],
    /// The week with the batch work in its quiet hours, mean 1, when there is batch traffic.
    pub served: Option<&'a [f64]>,
    /// GPUs held over GPUs busy on average (a fixed fleet's capacity, in the same units).
    pub capacity: Option<f64>,
}

/// An inline SVG sparkline of the week: the load, the week with batch work (dashed) and the
/// capacity held (a level line).
pub fn sparkline(week: &Week) -> String {
    let peak = week.load.iter().copied().fold(0.0, f64::max);
    if week.load.len() < 2 || !(peak > 0.0) {
        return String::new();
    }
    let mean = week.load.iter().sum::<f64>() / week.load.len() as f64;
    let busiest = week
        .served
        .map_or(0.0, |s| s.iter().copied().fold(0.0, f64::max))
        .max(peak);
    // A capacity far above the load (a small workload on a whole replica) would flatten the
    // week into its floor: above three times the busiest hour, the level line is drawn at the
    // top edge, and the sentence beside the chart gives its figure.
    let capacity = week.capacity.filter(|c| *c > 0.0);
    let top = match capacity {
        Some(c) if c <= 3.0 * busiest => c.max(busiest),
        Some(_) => 3.0 * busiest,
        None => busiest,
    };
    let (w, h) = (168.0, 36.0);
    let y = |v: f64| h - 1.0 - v / top * (h - 3.0);
    let line = |values: &mut dyn Iterator<Item = f64>, n: usize| -> String {
        let step = w / (n - 1) as f64;
        values
            .enumerate()
            .map(|(i, v)| format!("{:.1},{:.1}", i as f64 * step, y(v)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let load = line(&mut week.load.iter().copied(), week.load.len());
    let served = week
        .served
        .filter(|s| s.len() >= 2)
        .map_or(String::new(), |s| {
            format!(
                r#"<polyline class="served" fill="none" stroke="currentColor" stroke-width="1" stroke-dasharray="2 2" points="{}"/>"#,
                line(&mut s.iter().copied(), s.len())
            )
        });
    // Off the scale, the level line sits at the top with its figure and an arrow: a fleet 60
    // times the load never reads as one just above it.
    let capacity_line = capacity.map_or(String::new(), |c| {
        let off = if c > top {
            format!(
                r#"<text class="capacity-off" x="{w}" y="7" text-anchor="end" font-size="7">↑ {}×</text>"#,
                crate::format::significant(c, 3)
            )
        } else {
            String::new()
        };
        format!(
            r#"<line class="capacity" x1="0" x2="{}" y1="{1:.1}" y2="{1:.1}" stroke-width="1"/>{off}"#,
            if c > top { w - 34.0 } else { w },
            y(c.min(top))
        )
    });
    // A faint tick at each midnight: the seven days read Monday to Sunday.
    let days: String = (1..7)
        .map(|d| {
            let x = w * d as f64 / 7.0;
            format!(r#"<line class="day" x1="{x:.1}" x2="{x:.1}" y1="{:.1}" y2="{h}" stroke-width="0.5"/>"#, h - 4.0)
        })
        .collect();
    let held = week.capacity.map_or(String::new(), |c| {
        format!(
            ", capacity held {} times the average",
            crate::format::significant(c, 3)
        )
    });
    format!(
        r##"<svg viewBox="0 0 {w} {h}" class="sparkline" role="img" aria-label="Load over the week, Monday to Sunday, peak {} times the average{held}">{days}{capacity_line}{served}<polyline fill="none" stroke="currentColor" stroke-width="1.5" points="{load}"/></svg>"##,
        crate::format::significant(peak / mean, 3),
    )
}
