//! The JSON API under `/api/v1/`, one handler per file.

mod dataset;
pub mod docs;
pub mod embed;
mod error;
pub mod evaluate;
mod export;
mod oembed;
pub mod openapi;
pub mod options;
pub mod page;
pub mod scenarios;
pub mod usage;

pub use dataset::dataset;
pub use error::{ApiError, ErrorBody};
pub use evaluate::evaluate;
pub use export::{chart, csv};
pub use oembed::oembed;
pub use options::{options, options_csv};

/// Text made safe inside HTML text and double-quoted attributes (the app's, shared with
/// `<Title>`).
pub(crate) use app::escape_html as escape;
