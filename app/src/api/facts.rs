//! Every published figure, including those the engine does not compute with, for `/data`.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// One published figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(sqlx::FromRow, utoipa::ToSchema))]
pub struct Fact {
    /// Stable key.
    pub key: String,
    /// What it is about (a publication or topic).
    pub subject: String,
    /// What it says.
    pub label: String,
    /// The number, when it is one.
    pub value: Option<f64>,
    /// Its unit.
    pub unit: Option<String>,
    /// The words, when it is not a number (or as well).
    pub value_text: Option<String>,
    /// Source key.
    pub source: String,
}

/// The facts of the newest dataset revision.
#[server(GetFacts, "/api/internal")]
pub async fn get_facts() -> Result<Vec<Fact>, ServerFnError> {
    let store = expect_context::<crate::db::Store>();
    let revision = store.current().revision;
    crate::db::load_facts(&store.pool, revision)
        .await
        .map_err(|e| ServerFnError::new(format!("loading facts: {e}")))
}
