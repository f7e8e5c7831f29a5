//! Anthropic's Messages usage report (`GET /v1/organizations/usage_report/messages`):
//! `{"data": [{"starting_at", "ending_at", "results": […]}]}`, or a JSON array of such pages.
//! Cache writes are input not yet cached: they count as uncached input. A `service_tier` of
//! `batch` is batch traffic.

use serde::Deserialize;
use servecost::usage::Bucket;
use servecost::Problem;

use super::time::parse;
use super::{json_problem, tokens, Row};

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
pub fn read(text: &str) -> Result<Vec<Row>, Problem> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let reports: Vec<Report> = if text.starts_with('[') {
        serde_path_to_error::deserialize(&mut *de).map_err(json_problem)?
    } else {
        vec![serde_path_to_error::deserialize(&mut *de).map_err(json_problem)?]
    };
    // One value: a second page appended to the file, or anything else after it, is refused.
    de.end().map_err(|e| {
        Problem::new(
            "body",
            "",
            format!(
                "more after the export's end (line {}): send one page, or a JSON array of pages",
                servecost::format::thousands(e.line() as f64)
            ),
        )
    })?;
    let mut rows = Vec::new();
    for (p, report) in reports.iter().enumerate() {
        let at = |rest: &str| {
            if text.starts_with('[') {
                format!("[{p}].{rest}")
            } else {
                rest.to_owned()
            }
        };
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
                    model: r.model.clone(),
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
