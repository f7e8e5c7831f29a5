//! The JSON API under `/api/v1/`, one handler per file.

mod dataset;
mod error;
mod evaluate;

pub use dataset::dataset;
pub use error::ApiError;
pub use evaluate::evaluate;
