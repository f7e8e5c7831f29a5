//! The dataset the calculator prices from. It travels inside the first render (decoded in the
//! browser by `JSON.parse` and serde-wasm-bindgen, which keeps serde_json out of the bundle), so
//! the browser recomputes without ever asking the server again.

use leptos::prelude::*;
use leptos::server::codee::string::JsonSerdeWasmCodec;
use servecost::Dataset;

/// The resource holding the newest dataset.
pub type DatasetResource = OnceResource<Result<Dataset, String>, JsonSerdeWasmCodec>;

/// The newest dataset revision as far as the page for `scenario` draws it
/// ([`Dataset::for_page`]: its model's curves, at most [`servecost::dataset::PAGE_OFFERS`] of
/// its API offers), as a resource resolved on the server and hydrated in the browser: the page
/// carries what it draws, not every curve of every model nor every offer of its model.
pub fn dataset_resource(scenario: servecost::Scenario) -> DatasetResource {
    OnceResource::new_serde_wb(load(scenario))
}

/// On the server: the store's newest dataset.
#[cfg(feature = "ssr")]
fn load(
    scenario: servecost::Scenario,
) -> impl std::future::Future<Output = Result<Dataset, String>> + Send + 'static {
    let store = use_context::<crate::db::Store>();
    async move {
        store
            .map(|s| s.current().for_page(&scenario))
            .ok_or_else(|| "the dataset store is not available".to_owned())
    }
}

/// In the browser the value always comes with the page; this future is never awaited there.
#[cfg(not(feature = "ssr"))]
async fn load(_scenario: servecost::Scenario) -> Result<Dataset, String> {
    Err("the dataset comes with the page".to_owned())
}
