//! What `/data` shows of each table: the rows matching its search, [`ROWS`] at a time, with
//! links to the pages before and after. The page's size stays the same whatever the dataset
//! holds; every row stays reachable by search or by paging, without JavaScript.

use leptos::prelude::*;
use servecost::codec::decode;

use crate::query;

/// Most rows of one table a page of `/data` shows.
pub const ROWS: usize = 50;

/// What the address of `/data` asks for.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The query string as given.
    pub raw: String,
    /// Search text: rows whose words contain it (ignoring case).
    pub search: String,
    /// Only this model's offers and curves.
    pub model: Option<String>,
    /// The calculator link the page was opened from, which an offer opens back with.
    pub back: Option<String>,
    /// The table the person came for (`offers`, `tiers`): a search lands on it.
    pub show: Option<&'static str>,
}

/// The tables a search can land on.
pub const SECTIONS: [&str; 9] = [
    "models",
    "chips",
    "tiers",
    "offers",
    "curves",
    "headlines",
    "facts",
    "revisions",
    "sources",
];

impl View {
    /// Reads `/data`'s query string; anything unreadable is ignored.
    pub fn read(raw: &str) -> Self {
        let raw = raw.trim_start_matches('?').to_owned();
        let get = |name: &str| query::get(&raw, name).map(|v| decode(&v.replace('+', " ")));
        let bounded = |v: String, max: usize| v.chars().take(max).collect::<String>();
        Self {
            search: get("q")
                .map(|q| bounded(q.trim().to_owned(), 200))
                .unwrap_or_default(),
            model: get("model")
                .filter(|m| !m.is_empty())
                .map(|m| bounded(m, 64)),
            back: get("for").filter(|f| f.len() <= 8 * 1024),
            show: get("show").and_then(|s| SECTIONS.iter().copied().find(|t| *t == s)),
            raw,
        }
    }

    /// True for a row whose words match the search (every row when there is none).
    pub fn matches(&self, words: &[&str]) -> bool {
        if self.search.is_empty() {
            return true;
        }
        let needle = self.search.to_lowercase();
        words.iter().any(|w| w.to_lowercase().contains(&needle))
    }

    /// True for a row of `model` when the page shows one model's rows.
    pub fn of_model(&self, model: &str) -> bool {
        self.model.as_deref().is_none_or(|m| m == model)
    }

    /// The page of `table` asked for, from 1.
    fn page(&self, table: &str) -> usize {
        query::get(&self.raw, table)
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|p| *p >= 1)
            .unwrap_or(1)
    }

    /// `rows`' page for `table`, and the line saying which rows it shows with links to the
    /// pages around it (nothing when all fit on one page).
    pub fn slice<T>(&self, table: &'static str, rows: Vec<T>) -> (Vec<T>, Option<AnyView>) {
        let total = rows.len();
        if total <= ROWS {
            return (rows, None);
        }
        let pages = total.div_ceil(ROWS);
        let page = self.page(table).min(pages);
        let from = (page - 1) * ROWS;
        let shown: Vec<T> = rows.into_iter().skip(from).take(ROWS).collect();
        let n = |v: usize| crate::format::number(v as f64);
        let link = |to: usize, text: String| {
            let href = format!(
                "/data?{}#{table}",
                query::edit(&self.raw, &[(table, &to.to_string())], &[])
            );
            view! { <a href=href rel="external">{text}</a> }
        };
        let previous = (page > 1).then(|| link(page - 1, format!("← Previous {ROWS}")));
        let next = (page < pages).then(|| {
            let count = ROWS.min(total - page * ROWS);
            link(page + 1, format!("Next {count} →"))
        });
        let line = view! {
            <p class="pager" data-testid=format!("pager-{table}")>
                {format!("Rows {} to {} of {}. ", n(from + 1), n(from + shown.len()), n(total))}
                {previous} " " {next}
            </p>
        }
        .into_any();
        (shown, Some(line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_reads_search_model_and_the_calculator_link() {
        let v =
            View::read("?q=deep+seek&model=m1&for=requests%3D20M%26tps%3D30&offers=3&show=offers");
        assert_eq!(v.show, Some("offers"));
        assert_eq!(View::read("show=%3Cscript%3E").show, None);
        assert_eq!(v.search, "deep seek");
        assert_eq!(v.model.as_deref(), Some("m1"));
        assert_eq!(v.back.as_deref(), Some("requests=20M&tps=30"));
        assert_eq!(v.page("offers"), 3);
        assert_eq!(v.page("chips"), 1);
        assert!(v.matches(&["DeepSeek", "Deep Seek R1"]));
        assert!(!v.matches(&["Llama"]));
        assert!(v.of_model("m1") && !v.of_model("m2"));
    }

    #[test]
    fn a_page_past_the_last_shows_the_last() {
        let v = View::read("offers=99");
        let (rows, line) = v.slice("offers", (0..120).collect::<Vec<_>>());
        assert_eq!(rows, (100..120).collect::<Vec<_>>());
        assert!(line.is_some());
        let (rows, line) = View::default().slice("offers", (0..50).collect::<Vec<_>>());
        assert_eq!(rows.len(), 50);
        assert!(line.is_none());
    }
}
