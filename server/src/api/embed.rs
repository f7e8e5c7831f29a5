//! `/embed` and `/embed/s/{id}`: the compact views a wiki frames, rendered outside the app's
//! router (see [`app::static_document`]): a framed page is asked for far more often than the
//! calculator, and nothing in it hydrates. A wiki page shows the same link to every reader, so
//! the documents last rendered are kept ([`Rendered`]) under everything that decides them.

use std::sync::{Mutex, PoisonError};

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use hashlink::LruCache;

use app::pages::EmbedMissing;

use crate::AppState;

/// Bytes of rendered embeds kept: about 400 documents of 20 KB.
pub const RENDERED_BYTES: usize = 8 * 1024 * 1024;

/// What decides an embed's document besides the server's build: which view (`/embed`, or the
/// saved scenario's id), the link's whole query, and the data it is judged with (the newest
/// revision, and the days prices are judged on: the dataset's and the store's).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    /// `""` for `/embed`, the saved scenario's id for `/embed/s/{id}`.
    pub saved: String,
    /// The query string as asked for.
    pub query: String,
    /// The newest dataset revision.
    pub revision: i64,
    /// The day the newest dataset's prices are judged on.
    pub as_of: Option<String>,
    /// The day an earlier revision's prices are judged on (a saved scenario's pinned data).
    pub today: String,
}

impl Key {
    fn bytes(&self) -> usize {
        self.saved.len() + self.query.len() + self.today.len() + 64
    }
}

/// The embed documents last rendered, least recently asked for dropped first, at most
/// `budget` bytes of them. Only whole answers (`200` with the compact view) are kept: a missing
/// or failing saved scenario is asked for again. Saved scenarios are never changed, so a saved
/// embed stays right for its key.
pub struct Rendered {
    budget: usize,
    kept: Mutex<(LruCache<Key, Bytes>, usize)>,
}

impl Rendered {
    /// An empty store of at most `budget` bytes.
    pub fn new(budget: usize) -> Self {
        Self {
            budget,
            kept: Mutex::new((LruCache::new_unbounded(), 0)),
        }
    }

    /// The document kept for `key`, now the most recently asked for.
    pub fn get(&self, key: &Key) -> Option<Bytes> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.0.get(key).cloned()
    }

    /// Keeps `html` for `key`, dropping the least recently asked for until the budget holds
    /// (a document over the whole budget is not kept).
    pub fn put(&self, key: Key, html: Bytes) {
        let size = key.bytes() + html.len();
        if size > self.budget {
            return;
        }
        let mut guard = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let (cache, used) = &mut *guard;
        if let Some(old) = cache.remove(&key) {
            *used -= key.bytes() + old.len();
        }
        while *used + size > self.budget {
            match cache.remove_lru() {
                Some((k, v)) => *used -= k.bytes() + v.len(),
                None => break,
            }
        }
        cache.insert(key, html);
        *used += size;
    }

    /// Documents kept, and their bytes with their keys'.
    pub fn usage(&self) -> (usize, usize) {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        (kept.0.len(), kept.1)
    }
}

impl Default for Rendered {
    fn default() -> Self {
        Self::new(RENDERED_BYTES)
    }
}

impl Key {
    /// The key of the view `saved` (`""` for `/embed`) of `query`, rendered with `data` and
    /// judging an earlier revision's prices on `today`.
    pub fn new(saved: &str, query: &str, data: &servecost::Dataset, today: String) -> Self {
        Key {
            saved: saved.to_owned(),
            query: query.to_owned(),
            revision: data.revision,
            as_of: data.as_of.clone(),
            today,
        }
    }
}

/// A rendered document as kept: its buffer no larger than its text, so that the budget counts
/// what is held (a `format!`ed page can hold twice its length).
fn kept(mut html: String) -> Bytes {
    html.shrink_to_fit();
    Bytes::from(html)
}

/// `GET /embed?…`: the compact view of the link's scenario, with the newest data.
pub async fn page(State(state): State<AppState>, RawQuery(query): RawQuery) -> Html<Bytes> {
    let query = query.unwrap_or_default();
    let data = state.store.current();
    let key = Key::new("", &query, &data, state.store.today());
    if let Some(html) = state.embeds.get(&key) {
        return Html(html);
    }
    let html = kept(app::pages::embed_document(
        &query,
        &data,
        &state.stylesheet.0,
    ));
    state.embeds.put(key, html.clone());
    Html(html)
}

/// `GET /embed/s/{id}?chart=…`: the compact view of a saved scenario at its pinned revision;
/// in the same frame, 404 when no saved scenario has the id, 503 with `Retry-After` when the
/// database failed (the link may work again), and the problems of a saved scenario that no longer evaluates.
pub async fn saved(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let query = query.unwrap_or_default();
    // Before the saved scenario is read: a new revision or day meanwhile only leaves this
    // document under a key no later request has.
    let key = Key::new(&id, &query, &state.store.current(), state.store.today());
    if let Some(html) = state.embeds.get(&key) {
        return Html(html).into_response();
    }
    match app::pages::embed_saved_document(&state.store, &id, &query, &state.stylesheet.0).await {
        Ok(html) => {
            let html = kept(html);
            state.embeds.put(key, html.clone());
            Html(html).into_response()
        }
        Err((why, html)) => {
            let status = match why {
                EmbedMissing::NotFound => StatusCode::NOT_FOUND,
                EmbedMissing::Problems => StatusCode::OK,
                EmbedMissing::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            };
            let mut response = (status, Html(html)).into_response();
            if why == EmbedMissing::Unavailable {
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            }
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(query: &str) -> Key {
        Key {
            saved: String::new(),
            query: query.to_owned(),
            revision: 3,
            as_of: Some("2026-12-01".to_owned()),
            today: "2026-12-01".to_owned(),
        }
    }

    fn doc(fill: u8, len: usize) -> Bytes {
        Bytes::from(vec![fill; len])
    }

    #[test]
    fn the_least_recently_asked_for_goes_first_and_the_budget_holds() {
        let each = key("a").bytes() + 1_000;
        let kept = Rendered::new(3 * each);
        for q in ["a", "b", "c"] {
            kept.put(key(q), doc(q.as_bytes()[0], 1_000));
        }
        assert_eq!(kept.usage(), (3, 3 * each));
        // Asking for "a" makes "b" the least recently asked for.
        assert_eq!(kept.get(&key("a")), Some(doc(b'a', 1_000)));
        kept.put(key("d"), doc(b'd', 1_000));
        assert_eq!(kept.get(&key("b")), None);
        for q in ["a", "c", "d"] {
            assert_eq!(kept.get(&key(q)), Some(doc(q.as_bytes()[0], 1_000)), "{q}");
        }
        assert_eq!(kept.usage(), (3, 3 * each));
        // A document as large as the whole budget pushes out all of the others.
        kept.put(key("e"), doc(b'e', 3 * each - key("e").bytes()));
        assert_eq!(kept.usage(), (1, 3 * each));
    }

    #[test]
    fn a_key_put_again_is_counted_once_and_an_oversized_document_is_not_kept() {
        let kept = Rendered::new(10_000);
        kept.put(key("a"), doc(b'a', 1_000));
        kept.put(key("a"), doc(b'b', 2_000));
        assert_eq!(kept.usage(), (1, key("a").bytes() + 2_000));
        assert_eq!(kept.get(&key("a")), Some(doc(b'b', 2_000)));
        kept.put(key("big"), doc(b'x', 10_000));
        assert_eq!(kept.get(&key("big")), None);
        assert_eq!(kept.usage(), (1, key("a").bytes() + 2_000));
    }

    #[test]
    fn every_part_of_the_key_tells_documents_apart() {
        let kept = Rendered::new(1 << 20);
        let base = key("requests=40M");
        kept.put(base.clone(), doc(b'a', 10));
        let others = [
            Key {
                saved: "abcdefghijkl".to_owned(),
                ..base.clone()
            },
            Key {
                query: "requests=41M".to_owned(),
                ..base.clone()
            },
            Key {
                revision: 4,
                ..base.clone()
            },
            Key {
                as_of: Some("2026-12-02".to_owned()),
                ..base.clone()
            },
            Key {
                today: "2026-12-02".to_owned(),
                ..base.clone()
            },
        ];
        for other in others {
            assert_eq!(kept.get(&other), None, "{other:?}");
        }
        assert_eq!(kept.get(&base), Some(doc(b'a', 10)));
    }
}
