//! A chart: the SVG, a caption, and its numbers as a table for screen readers and print.

use leptos::prelude::*;

/// A figure holding an SVG chart and its text alternative. The server sends the chart without
/// its hover targets ([`crate::charts::on_page`]); in the browser `svg` carries them, and the
/// chart takes them when a pointer first comes over it (or a finger touches it).
#[component]
pub fn ChartFigure(
    /// The SVG markup.
    svg: String,
    /// The caption.
    caption: &'static str,
    /// Test id of the figure.
    testid: &'static str,
    /// The numbers behind the chart.
    children: Children,
) -> impl IntoView {
    let drawn = NodeRef::<leptos::html::Div>::new();
    // The chart with its targets, until it has replaced the one the server sent (once).
    #[cfg(feature = "hydrate")]
    let with_targets = StoredValue::new(svg.contains("chart-hover").then(|| svg.clone()));
    let hover = move |_| {
        #[cfg(feature = "hydrate")]
        if let Some(div) = drawn.get_untracked() {
            let served = div.query_selector("g.chart-hover").ok().flatten().is_none();
            if let Some(svg) = with_targets.try_update_value(Option::take).flatten() {
                if served {
                    div.set_inner_html(&svg);
                }
            }
        }
    };
    view! {
        <figure class="chart" data-testid=testid>
            <div class="svg" node_ref=drawn inner_html=svg on:pointerenter=hover></div>
            <figcaption>{caption}</figcaption>
            <details class="numbers">
                <summary>"The numbers"</summary>
                {children()}
            </details>
        </figure>
    }
}
