//! A chart: the SVG, a caption, and its numbers as a table for screen readers and print.

use leptos::prelude::*;

use crate::charts::Drawing;

/// A figure holding an SVG chart and its text alternative.
///
/// The server draws the chart as it renders the page ([`crate::charts::on_page`]: the
/// calculator without its hover targets). The browser draws a chart of the calculator's report
/// only when it is wanted, with its targets ([`crate::charts::draw_in_browser`], whose code
/// arrives apart the first time): a chart the page was served with stays as served until a
/// pointer first comes over it (or a finger touches it); a chart made after an edit is drawn
/// at once.
#[component]
pub fn ChartFigure(
    /// What the figure shows.
    drawing: Drawing,
    /// The caption.
    caption: &'static str,
    /// Test id of the figure.
    testid: &'static str,
    /// The numbers behind the chart.
    children: Children,
) -> impl IntoView {
    let drawn = NodeRef::<leptos::html::Div>::new();
    let svg = drawing.served();
    #[cfg(feature = "hydrate")]
    let draw = {
        // A chart made once the page is live follows an edit: it is drawn as soon as it is
        // mounted. One made while the page hydrates keeps what the server sent until wanted.
        let at_once = use_context::<crate::pages::Hydrated>().is_some_and(|h| h.0.get_untracked());
        let wanted = StoredValue::new(drawing.in_browser());
        let draw = move || {
            let Some((chart, report)) = wanted.try_update_value(Option::take).flatten() else {
                return;
            };
            let Some(div) = drawn.get_untracked() else {
                return;
            };
            // The element may be the one an earlier report drew into (the page updates it in
            // place): until this drawing is in, it is not this report's.
            if at_once {
                let _ = div.remove_attribute("data-drawn");
            }
            leptos::task::spawn_local(async move {
                match crate::charts::draw_in_browser(chart, report.clone()).await {
                    Ok(svg) => {
                        div.set_inner_html(&svg);
                        let _ = div.set_attribute("data-drawn", "browser");
                    }
                    // The charts' code did not arrive: a chart following an edit says so in
                    // place of the last inputs' drawing; a chart as served (these inputs')
                    // stays. The next pointer over it tries again.
                    Err(_) => {
                        if at_once {
                            div.set_text_content(Some(
                                "The chart could not be drawn: its code did not arrive (the network, or a newer servecost: reload the page). Its numbers are below; point at it to try again.",
                            ));
                        }
                        wanted.set_value(Some((chart, report)));
                    }
                }
            });
        };
        if at_once {
            Effect::new(move |_| {
                if drawn.get().is_some() {
                    draw();
                }
            });
        }
        draw
    };
    let hover = move |_| {
        #[cfg(feature = "hydrate")]
        draw();
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
