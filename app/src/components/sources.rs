//! The sources a result rests on: publisher, title, date, independent or vendor, caveat.

use leptos::prelude::*;
use servecost::dataset::{Source, Trust};
use servecost::Dataset;

/// The sources of `keys` in `data`, in citation order.
pub fn cited_sources(keys: &[String], data: &Dataset) -> Vec<Source> {
    keys.iter()
        .filter_map(|k| data.source(k).cloned())
        .collect()
}

/// A numbered list of sources with anchors the footnote markers link to.
#[component]
pub fn Sources(
    /// The sources, in citation order.
    sources: Vec<Source>,
) -> impl IntoView {
    let items = {
        sources
            .into_iter()
            .map(|s| {
                let trust = match s.trust {
                    Trust::Independent => "independent",
                    Trust::Vendor => "vendor: sells what it measured",
                    Trust::Licensor => "licensor",
                    Trust::Assumption => "servecost's assumption, not a publication",
                };
                view! {
                    <li id=format!("src-{}", s.key)>
                        <strong>{s.publisher.clone()}</strong> ", " <cite>{s.title.clone()}</cite> ", " {s.date.clone()}
                        " (" <span class=format!("trust {}", trust.split(':').next().unwrap_or_default())>{trust}</span> ")"
                        {s.url.clone().map(|u| view! { " " <a href=u.clone()>{u.clone()}</a> })}
                        {s.caveat.clone().map(|c| view! { <br/><span class="caveat">{c}</span> })}
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <section class="sources" aria-labelledby="sources-title">
            <h2 id="sources-title">"Sources"</h2>
            <ol>{items}</ol>
            <p><a href="/data" rel="external">"Every figure in the dataset"</a> " · " <a href="/method" rel="external">"How the calculation works"</a></p>
        </section>
    }
}
