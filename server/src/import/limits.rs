//! What one import may bring: rows per table and the length of every text field. The pages
//! carry at most what they draw whatever the dataset holds (see `Dataset::for_page`); these
//! limits keep one import from bringing more than a person could check, and are named in the
//! problem when a file passes them.

use app::db::import::Rows;

use super::Problem;

/// Most rows of one table (sources, models, chips, price tiers, API offers, curves,
/// headlines) one import brings.
pub const MAX_ROWS: usize = 2_000;
/// Most curve points one import brings (its curves at [`super::MAX_POINTS_PER_CURVE`] each
/// would be more).
pub const MAX_POINTS: usize = 50_000;
/// Longest id, in characters: the longest a link's `model`, `api`, `curve`, `chip` or
/// `gpu_tier` takes.
pub const MAX_ID: usize = 64;
/// Longest one-word text (a precision, a chip family), in characters.
pub const MAX_WORD: usize = 64;
/// Longest name, label or publisher, in characters.
pub const MAX_NAME: usize = 200;
/// Longest source title, in characters.
pub const MAX_TITLE: usize = 500;
/// Longest note or caveat, in characters.
pub const MAX_NOTE: usize = 2_000;
/// Longest address, in characters.
pub const MAX_URL: usize = 2_000;

/// A problem for every table of `incoming` over its row limit.
pub fn rows(incoming: &Rows) -> Vec<Problem> {
    let counts = [
        ("sources", incoming.sources.len(), MAX_ROWS),
        ("models", incoming.models.len(), MAX_ROWS),
        ("model_weights", incoming.weights.len(), MAX_ROWS),
        ("chips", incoming.chips.len(), MAX_ROWS),
        ("price_tiers", incoming.tiers.len(), MAX_ROWS),
        ("api_offers", incoming.offers.len(), MAX_ROWS),
        ("curves", incoming.curves.len(), MAX_ROWS),
        ("curve_points", incoming.points.len(), MAX_POINTS),
        ("headlines", incoming.headlines.len(), MAX_ROWS),
    ];
    counts
        .into_iter()
        .filter(|(_, n, max)| n > max)
        .map(|(table, n, max)| {
            let show = |v: usize| servecost::format::exact(v as f64, false);
            Problem::new(
                "import",
                table,
                "",
                format!(
                    "{} rows; one import brings at most {} rows of {table}: split the file and \
                     import it in several runs",
                    show(n),
                    show(max)
                ),
            )
        })
        .collect()
}
