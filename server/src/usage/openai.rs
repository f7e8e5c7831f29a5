//! OpenAI's completions usage (`GET /v1/organization/usage/completions`): a page
//! `{"object": "page", "data": [bucket, …]}`, or a JSON array of pages. A bucket's `results`
//! are grouped by model and batch when the request asked for it; `input_tokens` includes the
//! cached ones.

use serde::Deserialize;
use servecost::usage::Bucket;
use servecost::Problem;

use super::{pages, tokens, Names, Row};

#[derive(Deserialize)]
struct Page {
    object: String,
    data: Vec<PageBucket>,
}

#[derive(Deserialize)]
struct PageBucket {
    start_time: i64,
    end_time: i64,
    results: Vec<Completions>,
}

#[derive(Deserialize)]
struct Completions {
    input_tokens: f64,
    #[serde(default)]
    input_cached_tokens: f64,
    output_tokens: f64,
    #[serde(default)]
    num_model_requests: Option<f64>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    batch: Option<bool>,
}

/// The export's buckets, one row a result (an empty bucket as a row of no model and no
/// tokens, so that the period keeps its quiet hours).
pub fn read(source: impl std::io::Read, array: bool) -> Result<Vec<Row>, Problem> {
    let mut rows = Vec::new();
    let mut names = Names::default();
    for (within, page) in pages::<Page>(source, array)? {
        let at = |rest: &str| within.at(rest);
        if page.object != "page" {
            return Err(Problem::new(
                &at("object"),
                &page.object,
                "expected \"page\": an OpenAI completions usage page",
            ));
        }
        for (b, bucket) in page.data.iter().enumerate() {
            let span = |r: Option<&Completions>, uncached, cached, output| Bucket {
                start: bucket.start_time,
                end: bucket.end_time,
                uncached,
                cached,
                output,
                // No result: no request. A result without its count: not known.
                requests: match r {
                    Some(r) => r.num_model_requests,
                    None => Some(0.0),
                },
                batch: r.and_then(|r| r.batch).unwrap_or(false),
            };
            if bucket.results.is_empty() {
                rows.push(Row {
                    model: None,
                    bucket: span(None, 0.0, 0.0, 0.0),
                });
            }
            for (i, r) in bucket.results.iter().enumerate() {
                let field = |name: &str| at(&format!("data[{b}].results[{i}].{name}"));
                let input = tokens(&field("input_tokens"), r.input_tokens)?;
                let cached = tokens(&field("input_cached_tokens"), r.input_cached_tokens)?;
                let output = tokens(&field("output_tokens"), r.output_tokens)?;
                if cached > input {
                    return Err(Problem::new(
                        &field("input_cached_tokens"),
                        servecost::format::exact(cached, false),
                        "more than input_tokens, which counts the cached tokens too",
                    ));
                }
                rows.push(Row {
                    model: r.model.as_deref().map(|m| names.get(m)),
                    bucket: span(Some(r), input - cached, cached, output),
                });
            }
        }
    }
    Ok(rows)
}
