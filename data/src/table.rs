//! Each dataset table described once: its name, its kind and key, its columns, the order it is
//! read in and how a row binds to its INSERT. Reading the rows in force at a revision, writing
//! a revision and listing what each revision brought are written once for every table.

use sqlx::any::{AnyArguments, AnyRow};
use sqlx::query::Query;
use sqlx::{Any, FromRow};

use crate::rows::{
    ChipRow, CurveRow, HeadlineRow, Keyed, ModelRow, OfferRow, PointRow, SourceRow, TierRow,
    WeightsRow,
};

/// The order a table's rows are read in.
pub enum Order {
    /// By these columns.
    Columns(&'static str),
    /// By the revision that first brought each id, then by id: the first model is the
    /// calculator's default, the first offer or curve of a model is its default, and a later
    /// revision must not move a row (nor make a newly imported model or curve the default).
    Introduced,
}

/// A dataset table and the row type it stores.
pub trait Table: Keyed + Sized + Send + Unpin + for<'r> FromRow<'r, AnyRow> {
    /// Its name in the schema.
    const TABLE: &'static str;
    /// The columns that key a row (with `revision`, its primary key).
    const KEYS: &'static [&'static str];
    /// Every other column, in the order [`Table::bind`] binds them after the keys.
    const COLUMNS: &'static [&'static str];
    /// The boolean columns among them, read through [`flag`].
    const FLAGS: &'static [&'static str];
    /// The order its rows are read in.
    const ORDER: Order;
    /// Columns a later migration added: a published revision's SQL writes them only where a
    /// row sets them, so the SQL of a revision written before them stays what it was (and
    /// runs over the schema it was written for).
    const LATER: &'static [&'static str] = &[];

    /// Binds the row's keys, then its columns.
    fn bind<'q>(&'q self, q: Query<'q, Any, AnyArguments<'q>>) -> Query<'q, Any, AnyArguments<'q>>;

    /// The row's keys, then its columns, as SQL literals both SQLite and PostgreSQL read back
    /// to the same values (a migration that writes a published revision).
    fn literals(&self) -> Vec<String>;

    /// The INSERT of this row as revision `revision`, as SQL text.
    fn insert_sql(&self, revision: i64) -> String {
        let (mut columns, mut values): (Vec<&str>, Vec<String>) = Self::KEYS
            .iter()
            .chain(Self::COLUMNS)
            .copied()
            .zip(self.literals())
            .filter(|(c, v)| !(Self::LATER.contains(c) && (v == "NULL" || v == "FALSE")))
            .unzip();
        columns.push("revision");
        values.push(revision.to_string());
        format!(
            "INSERT INTO {} ({}) VALUES ({});",
            Self::TABLE,
            columns.join(", "),
            values.join(", ")
        )
    }

    /// The columns to select, its booleans through [`flag`].
    fn select() -> String {
        Self::KEYS
            .iter()
            .chain(&["revision"])
            .chain(Self::COLUMNS)
            .map(|c| {
                if Self::FLAGS.contains(c) {
                    flag(c)
                } else {
                    format!("t.{c}")
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The rows whose revision is the newest not above `$1` for their key, in order.
    fn newest() -> String {
        let (table, keys) = (Self::TABLE, Self::KEYS);
        let matches: Vec<String> = keys.iter().map(|k| format!("t2.{k} = t.{k}")).collect();
        let order = match Self::ORDER {
            Order::Columns(columns) => columns.to_owned(),
            Order::Introduced => {
                format!("(SELECT MIN(t3.revision) FROM {table} t3 WHERE t3.id = t.id), t.id")
            }
        };
        format!(
            "SELECT {} FROM {table} t WHERE t.revision = (SELECT MAX(t2.revision) FROM {table} \
             t2 WHERE {} AND t2.revision <= $1) ORDER BY {order}",
            Self::select(),
            matches.join(" AND ")
        )
    }

    /// The INSERT of one row: its keys, its columns, then the revision.
    fn insert() -> String {
        let columns: Vec<&str> = Self::KEYS
            .iter()
            .chain(Self::COLUMNS)
            .chain(&["revision"])
            .copied()
            .collect();
        // SQL parameters `$1`, `$2`…
        let values: Vec<String> = (1..=columns.len())
            .map(|i| ["$", &i.to_string()].concat())
            .collect();
        format!(
            "INSERT INTO {} ({}) VALUES ({})",
            Self::TABLE,
            columns.join(", "),
            values.join(", ")
        )
    }

    /// Every row ever written as (revision, kind, key), the key as [`Keyed`] writes it.
    fn brought() -> String {
        format!(
            "SELECT revision, '{}', {} FROM {}",
            Self::KIND,
            Self::KEYS.join(" || '/' || "),
            Self::TABLE
        )
    }
}

/// A value as an SQL literal.
pub trait Literal {
    /// The literal: numbers in Rust's shortest round-trip form (never an exponent, so both
    /// engines parse it to the same double), text quoted, booleans as TRUE or FALSE.
    fn literal(&self) -> String;
}

impl Literal for String {
    fn literal(&self) -> String {
        format!("'{}'", self.replace('\'', "''"))
    }
}

impl Literal for f64 {
    fn literal(&self) -> String {
        format!("{self}")
    }
}

impl Literal for i64 {
    fn literal(&self) -> String {
        self.to_string()
    }
}

impl Literal for bool {
    fn literal(&self) -> String {
        if *self { "TRUE" } else { "FALSE" }.to_owned()
    }
}

impl<T: Literal> Literal for Option<T> {
    fn literal(&self) -> String {
        self.as_ref()
            .map_or_else(|| "NULL".to_owned(), Literal::literal)
    }
}

/// A boolean column as 1 or 0: sqlx's `Any` driver cannot read SQLite's BOOLEAN columns, and
/// both engines agree on this expression.
pub(crate) fn flag(column: &str) -> String {
    format!("CASE WHEN t.{column} THEN 1 ELSE 0 END AS {column}")
}

macro_rules! table {
    ($row:ty, $table:literal, [$($key:ident),+], [$($column:ident),*], flags [$($flag:ident),*],
     $order:expr) => {
        table!($row, $table, [$($key),+], [$($column),*], flags [$($flag),*], $order, later []);
    };
    ($row:ty, $table:literal, [$($key:ident),+], [$($column:ident),*], flags [$($flag:ident),*],
     $order:expr, later [$($later:ident),*]) => {
        impl Table for $row {
            const TABLE: &'static str = $table;
            const KEYS: &'static [&'static str] = &[$(stringify!($key)),+];
            const COLUMNS: &'static [&'static str] = &[$(stringify!($column)),*];
            const FLAGS: &'static [&'static str] = &[$(stringify!($flag)),*];
            const ORDER: Order = $order;
            const LATER: &'static [&'static str] = &[$(stringify!($later)),*];

            fn bind<'q>(
                &'q self,
                q: Query<'q, Any, AnyArguments<'q>>,
            ) -> Query<'q, Any, AnyArguments<'q>> {
                q$(.bind(&self.$key))+$(.bind(&self.$column))*
            }

            fn literals(&self) -> Vec<String> {
                vec![$(self.$key.literal()),+ $(, self.$column.literal())*]
            }
        }
    };
}

table!(SourceRow, "sources", [key],
    [publisher, title, url, date, trust, caveat],
    flags [], Order::Columns("t.key"));
table!(ModelRow, "models", [id],
    [name, licence, licence_revenue_threshold_usd, licence_source],
    flags [], Order::Introduced);
table!(WeightsRow, "model_weights", [model, precision],
    [gigabytes, source],
    flags [], Order::Columns("t.model, t.precision"));
table!(ChipRow, "chips", [id],
    [name, memory_gb, memory_source, accelerator_kw, accelerator_kw_source, all_in_kw,
     all_in_kw_source, accelerator_kw_measure, power_caveat, family, dense_tflops_fp4,
     dense_tflops_fp8, dense_tflops_bf16, memory_tb_s, compute_source],
    flags [], Order::Columns("t.id"),
    later [dense_tflops_fp4, dense_tflops_fp8, dense_tflops_bf16, memory_tb_s, compute_source]);
table!(
    TierRow,
    "price_tiers",
    [chip, tier],
    [
        label,
        usd_per_gpu_hour,
        source,
        is_default,
        kind,
        term_months,
        upfront_share,
        provider
    ],
    flags[is_default],
    Order::Columns("t.chip, t.usd_per_gpu_hour")
);
table!(
    OfferRow,
    "api_offers",
    [id],
    [
        model,
        name,
        price_in,
        price_out,
        cache_discount,
        markup,
        speed_tps,
        source,
        note,
        cache_discount_stated,
        batch_discount,
        provider
    ],
    flags[cache_discount_stated],
    Order::Introduced
);
table!(
    CurveRow,
    "curves",
    [id],
    [
        model,
        chip,
        precision,
        framework,
        replica_gpus,
        mix_uncached,
        mix_cached,
        mix_output,
        mix_stated,
        price_basis_usd,
        source,
        note,
        tier,
        setup,
        prefill,
        replica_basis,
        batch_tokens_per_s_per_gpu,
        is_default,
        input_share_low,
        input_share_high
    ],
    flags[mix_stated, is_default],
    Order::Introduced,
    later[
        prefill,
        replica_basis,
        batch_tokens_per_s_per_gpu,
        is_default,
        input_share_low,
        input_share_high
    ]
);
table!(PointRow, "curve_points", [curve, idx],
    [tps, tokens_per_s_per_gpu, usd_per_mtok, note, power_w_per_gpu],
    flags [], Order::Columns("t.curve, t.idx"));
table!(
    HeadlineRow,
    "headlines",
    [id],
    [
        chip,
        label,
        tokens_per_s_per_mw,
        agents_per_mw,
        is_floor,
        source
    ],
    flags[is_floor],
    Order::Columns("t.id")
);
