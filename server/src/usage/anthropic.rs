//! Anthropic's Messages usage report (`GET /v1/organizations/usage_report/messages`):
//! `{"data": [{"starting_at", "ending_at", "results": […]}]}`, or a JSON array of such pages.
//! Cache writes are input not yet cached: they count as uncached input. A `service_tier` of
//! `batch` is batch traffic.

use serde::Deserialize;
use servecost::usage::Bucket;
use servecost::Problem;

use super::time::parse;
use super::{pages, tokens, Names, Row};

#[derive(Deserialize)]
struct Report {
    data: Vec<ReportBucket>,
}

#[derive(Deserialize)]
struct ReportBucket {
    starting_at: String,
    ending_at: String,
    results: Vec<Messages>,
}

#[derive(Deserialize)]
struct Messages {
    uncached_input_tokens: f64,
    #[serde(default)]
    cache_read_input_tokens: f64,
    #[serde(default)]
    cache_creation: Option<CacheCreation>,
    #[serde(default)]
    cache_creation_5m_input_tokens: f64,
    #[serde(default)]
    cache_creation_1h_input_tokens: f64,
    output_tokens: f64,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    service_tier: Option<String>,
}

#[derive(Deserialize)]
struct CacheCreation {
    #[serde(default)]
    ephemeral_5m_input_tokens: f64,
    #[serde(default)]
    ephemeral_1h_input_tokens: f64,
}

/// The report's buckets, one row a result (an empty bucket as a row of no model and no
/// tokens).
pub fn read(source: impl std::io::Read, array: bool) -> Result<Vec<Row>, Problem> {
    let mut rows = Vec::new();
    let mut names = Names::default();
    for (within, report) in pages::<Report>(source, array)? {
        let at = |rest: &str| within.at(rest);
        for (b, bucket) in report.data.iter().enumerate() {
            let start = parse(&at(&format!("data[{b}].starting_at")), &bucket.starting_at)?;
            let end = parse(&at(&format!("data[{b}].ending_at")), &bucket.ending_at)?;
            if bucket.results.is_empty() {
                rows.push(Row {
                    model: None,
                    bucket: Bucket {
                        start,
                        end,
                        uncached: 0.0,
                        cached: 0.0,
                        output: 0.0,
                        requests: None,
                        batch: false,
                    },
                });
            }
            for (i, r) in bucket.results.iter().enumerate() {
                let field = |name: &str| at(&format!("data[{b}].results[{i}].{name}"));
                // The nested object where given, else the flat fields: never both.
                let writes = match &r.cache_creation {
                    Some(c) => {
                        tokens(
                            &field("cache_creation.ephemeral_5m_input_tokens"),
                            c.ephemeral_5m_input_tokens,
                        )? + tokens(
                            &field("cache_creation.ephemeral_1h_input_tokens"),
                            c.ephemeral_1h_input_tokens,
                        )?
                    }
                    None => {
                        tokens(
                            &field("cache_creation_5m_input_tokens"),
                            r.cache_creation_5m_input_tokens,
                        )? + tokens(
                            &field("cache_creation_1h_input_tokens"),
                            r.cache_creation_1h_input_tokens,
                        )?
                    }
                };
                rows.push(Row {
                    model: r.model.as_deref().map(|m| names.get(m)),
                    bucket: Bucket {
                        start,
                        end,
                        uncached: tokens(&field("uncached_input_tokens"), r.uncached_input_tokens)?
                            + writes,
                        cached: tokens(
                            &field("cache_read_input_tokens"),
                            r.cache_read_input_tokens,
                        )?,
                        output: tokens(&field("output_tokens"), r.output_tokens)?,
                        requests: None,
                        batch: r.service_tier.as_deref() == Some("batch"),
                    },
                });
            }
        }
    }
    Ok(rows)
}
