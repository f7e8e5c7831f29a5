//! The dataset the calculator prices from. It travels inside the first render (decoded in the
//! browser by `JSON.parse` and serde-wasm-bindgen, which keeps serde_json out of the bundle), so
//! the browser recomputes without ever asking the server again.

use leptos::prelude::*;
use leptos::server::codee::string::JsonSerdeWasmCodec;
use servecost::Dataset;

/// The resource holding the newest dataset.
pub type DatasetResource = OnceResource<Result<Dataset, String>, JsonSerdeWasmCodec>;

/// The newest dataset revision as far as a scenario of `model` can reach it
/// ([`Dataset::for_model`]), as a resource resolved on the server and hydrated in the browser:
/// the page carries what it draws, not every curve of every model.
pub fn dataset_resource(model: Option<String>) -> DatasetResource {
    OnceResource::new_serde_wb(load(model))
}

/// On the server: the store's newest dataset.
#[cfg(feature = "ssr")]
fn load(
    model: Option<String>,
) -> impl std::future::Future<Output = Result<Dataset, String>> + Send + 'static {
    let store = use_context::<crate::db::Store>();
    async move {
        store
            .map(|s| s.current().for_model(model.as_deref()))
            .ok_or_else(|| "the dataset store is not available".to_owned())
    }
}

/// In the browser the value always comes with the page; this future is never awaited there.
#[cfg(not(feature = "ssr"))]
async fn load(_model: Option<String>) -> Result<Dataset, String> {
    Err("the dataset comes with the page".to_owned())
}
