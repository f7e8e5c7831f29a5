//! Paging of the lists the API answers (`/api/v1/options`, `/api/v1/options.csv`,
//! `/api/v1/dataset`): `limit` rows at most (default [`DEFAULT_LIMIT`], at most [`MAX_LIMIT`]),
//! from `cursor`, the `next_cursor` of the page before. An answer stays bounded however large
//! the dataset.

use serde::Serialize;
use servecost::Problem;

use crate::api::ApiError;

/// Rows of each list a page holds when `limit` is not given.
pub const DEFAULT_LIMIT: usize = 100;
/// Most rows of each list one page holds.
pub const MAX_LIMIT: usize = 500;
/// The paging parameters.
pub const PARAMS: [&str; 2] = ["limit", "cursor"];
/// The syntax of a cursor (an offset, as `next_cursor` gives it).
pub const CURSOR_SYNTAX: &str = "^[0-9]{1,9}$";

/// Which rows a request asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paging {
    /// Most rows of each list.
    pub limit: usize,
    /// Rows skipped.
    pub offset: usize,
}

/// Where a page sits in its lists.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Page {
    /// Most rows of each list this page holds.
    pub limit: usize,
    /// The cursor this page starts at (`0` for the first).
    pub cursor: String,
    /// The cursor of the next page, absent on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Rows of the longest list, over every page.
    pub total: usize,
}

impl Paging {
    /// The page of lists whose longest has `total` rows.
    pub fn page(&self, total: usize) -> Page {
        let end = self.offset.saturating_add(self.limit);
        Page {
            limit: self.limit,
            cursor: self.offset.to_string(),
            next_cursor: (end < total).then(|| end.to_string()),
            total,
        }
    }

    /// This page's rows of `rows`.
    pub fn slice<T>(&self, rows: Vec<T>) -> Vec<T> {
        rows.into_iter()
            .skip(self.offset)
            .take(self.limit)
            .collect()
    }

    /// This page's rows of `rows`, copied.
    pub fn copy<T: Clone>(&self, rows: &[T]) -> Vec<T> {
        rows.iter()
            .skip(self.offset)
            .take(self.limit)
            .cloned()
            .collect()
    }
}

/// Splits a raw query into the paging it asks for and the rest (the scenario), or a 400 naming
/// the paging parameter that cannot be read.
pub fn split(query: Option<&str>) -> Result<(Paging, String), ApiError> {
    let mut paging = Paging {
        limit: DEFAULT_LIMIT,
        offset: 0,
    };
    let mut rest = Vec::new();
    let mut problems = Vec::new();
    let number = |n: usize| servecost::format::exact(n as f64, false);
    for pair in query
        .unwrap_or_default()
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match key {
            "limit" if value.is_empty() => {}
            "limit" => match value.parse::<usize>() {
                Ok(n)
                    if (1..=MAX_LIMIT).contains(&n)
                        && value.len() <= 9
                        && value.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    paging.limit = n
                }
                _ => problems.push(Problem::new(
                    "limit",
                    value.chars().take(80).collect::<String>(),
                    format!("must be a whole number from 1 to {}", number(MAX_LIMIT)),
                )),
            },
            "cursor" if value.is_empty() => {}
            "cursor" => match value.parse::<usize>() {
                Ok(n) if value.len() <= 9 && value.bytes().all(|b| b.is_ascii_digit()) => {
                    paging.offset = n;
                }
                _ => problems.push(Problem::new(
                    "cursor",
                    value.chars().take(80).collect::<String>(),
                    "must be the next_cursor of an earlier page (digits only)",
                )),
            },
            _ => rest.push(pair),
        }
    }
    if problems.is_empty() {
        Ok((paging, rest.join("&")))
    } else {
        Err(ApiError::BadRequest(problems))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paging_is_read_apart_from_the_scenario() {
        let (p, rest) = split(Some("requests=20M&limit=5&cursor=10&tps=30")).expect("reads");
        assert_eq!(
            p,
            Paging {
                limit: 5,
                offset: 10
            }
        );
        assert_eq!(rest, "requests=20M&tps=30");
        let page = p.page(12);
        assert_eq!(page.next_cursor, None);
        assert_eq!(p.page(16).next_cursor.as_deref(), Some("15"));
        assert_eq!(p.slice((0..20).collect()), (10..15).collect::<Vec<_>>());
        for bad in [
            "limit=0",
            "limit=501",
            "limit=x",
            "limit=+5",
            "cursor=-1",
            "cursor=1e3",
            "cursor=+1",
        ] {
            assert!(split(Some(bad)).is_err(), "{bad}");
        }
        let (p, _) = split(Some("limit=&cursor=")).expect("empty is the default");
        assert_eq!(
            p,
            Paging {
                limit: DEFAULT_LIMIT,
                offset: 0
            }
        );
    }
}
