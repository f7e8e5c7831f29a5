//! A chart: the SVG, a caption, and its numbers as a table for screen readers and print.

use leptos::prelude::*;

/// A figure holding an SVG chart and its text alternative.
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
    view! {
        <figure class="chart" data-testid=testid>
            <div class="svg" inner_html=svg></div>
            <figcaption>{caption}</figcaption>
            <details class="numbers">
                <summary>"The numbers"</summary>
                {children()}
            </details>
        </figure>
    }
}
