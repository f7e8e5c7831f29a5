//! The dataset the page prices from, sent with the first render so the browser recomputes
//! without asking the server again.

use leptos::prelude::*;
use servecost::Dataset;

/// The newest dataset revision.
#[server(GetDataset, "/api/internal")]
pub async fn get_dataset() -> Result<Dataset, ServerFnError> {
    let store = expect_context::<crate::db::Store>();
    Ok((*store.current()).clone())
}
