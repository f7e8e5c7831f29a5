//! The JSON API under `/api/v1/`, one handler per file.

mod dataset;
mod error;
pub mod evaluate;
mod export;
mod oembed;
pub mod scenarios;

pub use dataset::dataset;
pub use error::ApiError;
pub use evaluate::evaluate;
pub use export::{chart, csv};
pub use oembed::oembed;
