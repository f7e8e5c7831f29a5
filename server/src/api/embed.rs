//! `/embed` and `/embed/s/{id}`: the compact views a wiki frames, rendered outside the app's
//! router (see [`app::static_document`]): a framed page is asked for far more often than the
//! calculator, and nothing in it hydrates. A wiki page shows the same link to every reader, so
//! the documents last rendered are kept ([`Rendered`]) under everything that decides them.

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use hashlink::LruCache;

use app::pages::EmbedMissing;

use crate::AppState;

/// Bytes of rendered embeds kept, counting each as twice its text (its compressed copies): about
/// 240 embeds of 17 KB.
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

/// A kept document, with its brotli and gzip copies made the first time a reader accepts
/// them: a wiki's readers' browsers ask for one of those, and compressing the page on every
/// request cost more than rendering it. A copy is kept only when it is at most half the text
/// (otherwise the text is sent, for the layer outside to encode as it would any page), so a
/// document with both copies holds at most twice its text.
pub struct Doc {
    html: Bytes,
    br: OnceLock<Option<Bytes>>,
    gzip: OnceLock<Option<Bytes>>,
}

impl Doc {
    /// The document `html`, no copy made yet.
    pub fn new(html: Bytes) -> Self {
        Self {
            html,
            br: OnceLock::new(),
            gzip: OnceLock::new(),
        }
    }

    /// The HTML.
    pub fn html(&self) -> &Bytes {
        &self.html
    }

    /// The copy in `coding` made so far (none for the text, or when it was not worth keeping).
    pub fn made(&self, coding: Coding) -> Option<Bytes> {
        match coding {
            Coding::Br => self.br.get().cloned().flatten(),
            Coding::Gzip => self.gzip.get().cloned().flatten(),
            Coding::Identity => None,
        }
    }

    /// What the document may hold: its text and, at most, as much again in copies.
    fn bytes(&self) -> usize {
        2 * self.html.len()
    }

    /// The document for a request with these headers: the brotli or gzip copy when the client
    /// accepts it (the one it prefers, brotli on a tie), the text otherwise.
    pub fn respond(&self, headers: &HeaderMap) -> Response {
        let copy = match accepted(headers) {
            Coding::Br => self
                .br
                .get_or_init(|| small(&self.html, brotli_of(&self.html)))
                .as_ref()
                .map(|b| ("br", b)),
            Coding::Gzip => self
                .gzip
                .get_or_init(|| small(&self.html, gzip_of(&self.html)))
                .as_ref()
                .map(|b| ("gzip", b)),
            Coding::Identity => None,
        };
        match copy {
            Some((coding, body)) => (
                [
                    (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                    (header::CONTENT_ENCODING, coding),
                    (header::VARY, "accept-encoding"),
                ],
                body.clone(),
            )
                .into_response(),
            None => Html(self.html.clone()).into_response(),
        }
    }
}

/// `copy` when it is at most half of `text`, its buffer no larger than it.
fn small(text: &[u8], copy: Option<Vec<u8>>) -> Option<Bytes> {
    copy.filter(|c| 2 * c.len() <= text.len()).map(|mut c| {
        c.shrink_to_fit();
        Bytes::from(c)
    })
}

/// Brotli at quality 5 with a 512 KB window: made once for every reader of the link.
fn brotli_of(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 3);
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 19);
        w.write_all(text).ok()?;
        w.flush().ok()?;
    }
    Some(out)
}

/// Gzip at zlib's default level.
fn gzip_of(text: &[u8]) -> Option<Vec<u8>> {
    let mut w = flate2::write::GzEncoder::new(
        Vec::with_capacity(text.len() / 3),
        flate2::Compression::default(),
    );
    w.write_all(text).ok()?;
    w.finish().ok()
}

/// A content coding the kept copies come in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    /// `br`.
    Br,
    /// `gzip` (or `x-gzip`).
    Gzip,
    /// Neither: the text.
    Identity,
}

/// Which kept copy `Accept-Encoding` asks for (RFC 9110, 12.5.3): the coding of brotli and
/// gzip with the highest weight above 0, brotli on a tie; `*` weighs a coding not named. An
/// item whose weight cannot be read is left out.
pub fn accepted(headers: &HeaderMap) -> Coding {
    let (mut br, mut gzip, mut any) = (None, None, None);
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let mut weight = Some(1.0);
            for param in parts {
                if let Some((k, v)) = param.split_once('=') {
                    if k.trim().eq_ignore_ascii_case("q") {
                        weight = v
                            .trim()
                            .parse::<f64>()
                            .ok()
                            .filter(|q| (0.0..=1.0).contains(q));
                    }
                }
            }
            let Some(weight) = weight else { continue };
            match name.as_str() {
                "br" => br = Some(weight),
                "gzip" | "x-gzip" => gzip = Some(weight),
                "*" => any = Some(weight),
                _ => {}
            }
        }
    }
    let br = br.or(any).unwrap_or(0.0);
    let gzip = gzip.or(any).unwrap_or(0.0);
    if br > 0.0 && br >= gzip {
        Coding::Br
    } else if gzip > 0.0 {
        Coding::Gzip
    } else {
        Coding::Identity
    }
}

/// The embed documents last rendered, least recently asked for dropped first, at most
/// `budget` bytes of them with their copies and keys. Only whole answers (`200` with the
/// compact view) are kept: a missing or failing saved scenario is asked for again. Saved
/// scenarios are never changed, so a saved embed stays right for its key.
pub struct Rendered {
    budget: usize,
    kept: Mutex<(LruCache<Key, Arc<Doc>>, usize)>,
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
    pub fn get(&self, key: &Key) -> Option<Arc<Doc>> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.0.get(key).cloned()
    }

    /// Keeps `html` for `key`, dropping the least recently asked for until the budget holds
    /// (a document over the whole budget is not kept); the document as kept.
    pub fn put(&self, key: Key, html: Bytes) -> Arc<Doc> {
        let doc = Arc::new(Doc::new(html));
        let size = key.bytes() + doc.bytes();
        if size > self.budget {
            return doc;
        }
        let mut guard = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let (cache, used) = &mut *guard;
        if let Some(old) = cache.remove(&key) {
            *used -= key.bytes() + old.bytes();
        }
        while *used + size > self.budget {
            match cache.remove_lru() {
                Some((k, v)) => *used -= k.bytes() + v.bytes(),
                None => break,
            }
        }
        cache.insert(key, Arc::clone(&doc));
        *used += size;
        doc
    }

    /// Documents kept, and the bytes they may hold with their keys'.
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
pub async fn page(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let query = query.unwrap_or_default();
    let data = state.store.current();
    let key = Key::new("", &query, &data, state.store.today());
    let doc = match state.embeds.get(&key) {
        Some(doc) => doc,
        None => {
            let html = kept(app::pages::embed_document(
                &query,
                &data,
                &state.stylesheet.0,
            ));
            state.embeds.put(key, html)
        }
    };
    doc.respond(&headers)
}

/// `GET /embed/s/{id}?chart=…`: the compact view of a saved scenario at its pinned revision;
/// in the same frame, 404 when no saved scenario has the id, 503 with `Retry-After` when the
/// database failed (the link may work again), and the problems of a saved scenario that no longer evaluates.
pub async fn saved(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let query = query.unwrap_or_default();
    // Before the saved scenario is read: a new revision or day meanwhile only leaves this
    // document under a key no later request has.
    let key = Key::new(&id, &query, &state.store.current(), state.store.today());
    if let Some(doc) = state.embeds.get(&key) {
        return doc.respond(&headers);
    }
    match app::pages::embed_saved_document(&state.store, &id, &query, &state.stylesheet.0).await {
        Ok(html) => state.embeds.put(key, kept(html)).respond(&headers),
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

    fn html_of(kept: &Rendered, key: &Key) -> Option<Bytes> {
        kept.get(key).map(|d| d.html().clone())
    }

    #[test]
    fn the_least_recently_asked_for_goes_first_and_the_budget_holds() {
        // A document may hold its text and as much again in copies.
        let each = key("a").bytes() + 2_000;
        let kept = Rendered::new(3 * each);
        for q in ["a", "b", "c"] {
            kept.put(key(q), doc(q.as_bytes()[0], 1_000));
        }
        assert_eq!(kept.usage(), (3, 3 * each));
        // Asking for "a" makes "b" the least recently asked for.
        assert_eq!(html_of(&kept, &key("a")), Some(doc(b'a', 1_000)));
        kept.put(key("d"), doc(b'd', 1_000));
        assert_eq!(html_of(&kept, &key("b")), None);
        for q in ["a", "c", "d"] {
            assert_eq!(
                html_of(&kept, &key(q)),
                Some(doc(q.as_bytes()[0], 1_000)),
                "{q}"
            );
        }
        assert_eq!(kept.usage(), (3, 3 * each));
        // A document as large as the whole budget pushes out all of the others.
        kept.put(key("e"), doc(b'e', (3 * each - key("e").bytes()) / 2));
        assert_eq!(kept.usage(), (1, 3 * each));
    }

    #[test]
    fn a_key_put_again_is_counted_once_and_an_oversized_document_is_not_kept() {
        let kept = Rendered::new(10_000);
        kept.put(key("a"), doc(b'a', 1_000));
        kept.put(key("a"), doc(b'b', 2_000));
        assert_eq!(kept.usage(), (1, key("a").bytes() + 4_000));
        assert_eq!(html_of(&kept, &key("a")), Some(doc(b'b', 2_000)));
        kept.put(key("big"), doc(b'x', 5_000));
        assert_eq!(html_of(&kept, &key("big")), None);
        assert_eq!(kept.usage(), (1, key("a").bytes() + 4_000));
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
            assert_eq!(html_of(&kept, &other), None, "{other:?}");
        }
        assert_eq!(html_of(&kept, &base), Some(doc(b'a', 10)));
    }
}

#[cfg(test)]
mod coding_tests {
    use super::*;

    fn asking(values: &[&str]) -> Coding {
        let mut headers = HeaderMap::new();
        for v in values {
            headers.append(
                header::ACCEPT_ENCODING,
                HeaderValue::from_str(v).expect("value"),
            );
        }
        accepted(&headers)
    }

    #[test]
    fn the_coding_is_the_one_the_client_weighs_most() {
        assert_eq!(asking(&[]), Coding::Identity);
        assert_eq!(asking(&["gzip, deflate, br, zstd"]), Coding::Br);
        assert_eq!(asking(&["gzip, deflate"]), Coding::Gzip);
        assert_eq!(asking(&["br;q=0, gzip"]), Coding::Gzip);
        assert_eq!(asking(&["br;q=0.5, gzip;q=0.8"]), Coding::Gzip);
        assert_eq!(asking(&["BR ; Q=1.0"]), Coding::Br);
        assert_eq!(asking(&["x-gzip"]), Coding::Gzip);
        assert_eq!(asking(&["*"]), Coding::Br);
        assert_eq!(asking(&["*;q=0.5, br;q=0"]), Coding::Gzip);
        assert_eq!(asking(&["*;q=0"]), Coding::Identity);
        assert_eq!(asking(&["identity", "deflate"]), Coding::Identity);
        assert_eq!(asking(&["deflate", "gzip;q=0.1"]), Coding::Gzip);
        // A weight that cannot be read leaves its item out.
        assert_eq!(asking(&["br;q=2, gzip"]), Coding::Gzip);
        assert_eq!(asking(&["br;q=nan"]), Coding::Identity);
    }

    #[test]
    fn copies_are_the_text_compressed_and_kept_only_when_small() {
        let text = "<p>the same words again and again</p>".repeat(400);
        let br = brotli_of(text.as_bytes()).expect("brotli");
        let mut back = Vec::new();
        brotli::BrotliDecompress(&mut &br[..], &mut back).expect("decompress");
        assert_eq!(back, text.as_bytes());
        let gz = gzip_of(text.as_bytes()).expect("gzip");
        let mut back = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut back)
            .expect("gunzip");
        assert_eq!(back, text);
        assert!(small(text.as_bytes(), Some(br)).is_some());
        // Noise does not compress to half: the text is sent.
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let noise: Vec<u8> = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 56) as u8
            })
            .collect();
        assert_eq!(small(&noise, brotli_of(&noise)), None);
    }
}
