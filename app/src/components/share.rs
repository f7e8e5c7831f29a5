//! Share and export: the link, the CSV, the JSON report, each chart as SVG, and the iframe
//! snippet for a wiki.

use leptos::prelude::*;

use crate::browser::{copy_address, origin};
use crate::charts::NAMES;

/// The share and export links for the report on screen.
#[component]
pub fn Share(
    /// The report on screen.
    report: Memo<Option<crate::query::Answer>>,
) -> impl IntoView {
    // The copy button needs JavaScript: it appears once the page is live.
    let live = RwSignal::new(false);
    Effect::new(move |_| live.set(true));
    let status = RwSignal::new(String::new());
    let copy = move |_| {
        status.set(if copy_address() {
            "Link copied.".to_owned()
        } else {
            "Copy the address bar to share this scenario.".to_owned()
        });
    };
    move || {
        report.with(|r| {
            r.as_ref().map(|r| {
                let suffix = if r.query == "v=1" { String::new() } else { format!("?{}", r.query) };
                let snippet = format!(
                    r#"<iframe src="{}/embed{suffix}" width="600" height="400" style="border:0" loading="lazy" title="servecost scenario"></iframe>"#,
                    origin()
                );
                let snippet_value = snippet.clone();
                let charts = NAMES
                    .iter()
                    .map(|name| {
                        view! { " " <a href=format!("/api/v1/charts/{name}.svg{suffix}") rel="external" download=format!("servecost-{name}.svg")>{name.key()}</a> }
                    })
                    .collect_view();
                view! {
                    <section class="share" aria-labelledby="share-title">
                        <h2 id="share-title">"Share and export"</h2>
                        <p>
                            "The address of this page holds the whole scenario: share it as it is, or this "
                            <a href=format!("/{suffix}") data-testid="scenario-link">"link to the scenario"</a>
                            ". "
                            {move || live.get().then(|| view! { <button type="button" class="copy" on:click=copy>"Copy link"</button> })}
                            " " <span role="status" data-testid="copy-status">{move || status.get()}</span>
                        </p>
                        <ul>
                            <li><a href=format!("/api/v1/export.csv{suffix}") rel="external" download="servecost.csv">"Inputs, bill and per-class costs (CSV)"</a></li>
                            <li><a href=format!("/api/v1/evaluate{suffix}") rel="external">"The whole report (JSON)"</a></li>
                            <li>"Charts as SVG:" {charts}</li>
                            <li><a href=format!("/embed{suffix}") rel="external">"Compact view for embedding"</a></li>
                            <li><a href=format!("/compare?a={}", crate::query::encode(&r.query)) rel="external" data-testid="compare-link">"Compare with another scenario…"</a></li>
                        </ul>
                        <form method="post" action="/s" class="save-form" aria-labelledby="save-title">
                            <h3 id="save-title">"Save with a short link"</h3>
                            <p class="hint">"A saved link keeps today's dataset, so it shows the same numbers later."</p>
                            <input type="hidden" name="query" value=r.query.clone()/>
                            <div class="field">
                                <label for="save-name">"Name"</label>
                                <input id="save-name" name="name" type="text" required maxlength="120"/>
                            </div>
                            <div class="field">
                                <label for="save-note">"Note"</label>
                                <textarea id="save-note" name="note" maxlength="2000" rows="2"></textarea>
                            </div>
                            <button type="submit">"Save"</button>
                        </form>
                        <label for="embed-code">"Embed in a wiki (iframe). It follows live data: its numbers change when the dataset does. Save the scenario for an embed whose numbers stay."</label>
                        // The text is the snippet without JavaScript; once live, an edit changes the
                        // text node, which a textarea's value does not follow: the value is set.
                        <textarea id="embed-code" readonly rows="3" prop:value=snippet_value>{crate::textarea_text(&snippet)}</textarea>
                    </section>
                }
            })
        })
    }
}
