//! What one import may bring: rows per table and the length of every text field. The pages
//! carry at most what they draw whatever the dataset holds (see `Dataset::for_page`); these
//! limits keep one import from bringing more than a person could check, and are named in the
//! problem when a file passes them.

use crate::rows::Rows;

use super::ImportProblem;

/// Most rows of one table (sources, models, chips, price tiers, API offers, curves,
/// headlines) one import brings: room for the public tables whole (LiteLLM's full table gives
/// 2,497 offers of one model with `--model`, genai-prices' a few hundred), which pages carry
/// only in part (`Dataset::for_page`).
pub const MAX_ROWS: usize = 20_000;
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
pub const MAX_NOTE: usize = 1_000;
/// Longest address, in characters.
pub const MAX_URL: usize = 500;

/// What the dataset may hold after an import, of the tables a page carries whole: its models
/// (for the model choice), chips (for the chip choice), headlines and sources, and one model's
/// curves and their points. With [`MAX_NOTE`] and the others, a page's dataset stays near
/// 3 MB at the very worst, under the 4 MiB a rendered page may take; real data is a few
/// dozen rows of each.
pub const MAX_MODELS: usize = 100;
/// Chips the dataset may hold.
pub const MAX_CHIPS: usize = 100;
/// Power headlines the dataset may hold.
pub const MAX_HEADLINES: usize = 100;
/// Sources the dataset may hold.
pub const MAX_SOURCES: usize = 300;
/// Curves one model may have.
pub const MAX_CURVES_PER_MODEL: usize = 100;
/// Points one model's curves may have together.
pub const MAX_POINTS_PER_MODEL: usize = 20_000;

/// A problem for every table the dataset would hold over its limit once `incoming` is written
/// over `current`.
pub fn dataset(current: &Rows, incoming: &Rows) -> Vec<ImportProblem> {
    let after = current.overlaid(incoming);
    let show = |v: usize| servecost::format::exact(v as f64, false);
    let over = |table: &str, n: usize, max: usize, what: &str| {
        ImportProblem::new(
            "import",
            table,
            "",
            format!(
                "the dataset would hold {} {what}; it holds at most {}, so that every page \
                 stays the size of what it shows",
                show(n),
                show(max)
            ),
        )
    };
    let mut problems = Vec::new();
    for (table, n, max, what) in [
        ("models", after.models.len(), MAX_MODELS, "models"),
        ("chips", after.chips.len(), MAX_CHIPS, "chips"),
        (
            "headlines",
            after.headlines.len(),
            MAX_HEADLINES,
            "headlines",
        ),
        ("sources", after.sources.len(), MAX_SOURCES, "sources"),
    ] {
        if n > max {
            problems.push(over(table, n, max, what));
        }
    }
    for model in &after.models {
        let curves: std::collections::BTreeSet<&str> = after
            .curves
            .iter()
            .filter(|c| c.model == model.id)
            .map(|c| c.id.as_str())
            .collect();
        let points = after
            .points
            .iter()
            .filter(|p| curves.contains(p.curve.as_str()))
            .count();
        if curves.len() > MAX_CURVES_PER_MODEL {
            let what = format!("curves of model {}", model.id);
            problems.push(over("curves", curves.len(), MAX_CURVES_PER_MODEL, &what));
        }
        if points > MAX_POINTS_PER_MODEL {
            let what = format!("curve points of model {}", model.id);
            problems.push(over("curve_points", points, MAX_POINTS_PER_MODEL, &what));
        }
    }
    problems
}

/// A problem for each kind of entry `read` holds more of than one import brings rows, counted
/// as the files are read and before any entry is made into a row (price entries are offers,
/// rental rows price tiers, MLPerf rows curve points), so an import over them is refused in
/// time proportional to its files.
pub fn entries(read: &super::Read) -> Vec<ImportProblem> {
    let show = |v: usize| servecost::format::exact(v as f64, false);
    [
        (
            "price entries",
            "api_offers",
            read.prices.len() + read.rows.offers.len(),
        ),
        (
            "GPU rental rows",
            "price_tiers",
            read.rentals.len() + read.rows.tiers.len(),
        ),
        ("MLPerf rows", "curve_points", read.mlperf.len()),
    ]
    .into_iter()
    .filter(|(_, table, n)| {
        *n > if *table == "curve_points" {
            MAX_POINTS
        } else {
            MAX_ROWS
        }
    })
    .map(|(what, table, n)| {
        let max = if table == "curve_points" {
            MAX_POINTS
        } else {
            MAX_ROWS
        };
        ImportProblem::new(
            "import",
            table,
            "",
            format!(
                "{} {what}; one import brings at most {} rows of {table}: split the files and \
                 import them in several runs",
                show(n),
                show(max)
            ),
        )
    })
    .collect()
}

/// A problem for every table of `incoming` over its row limit.
pub fn rows(incoming: &Rows) -> Vec<ImportProblem> {
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
            ImportProblem::new(
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
