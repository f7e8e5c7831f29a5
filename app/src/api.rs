//! Server functions, one per file: read context, call the store or the engine, map the error.

mod dataset;

pub use dataset::{get_dataset, GetDataset};
