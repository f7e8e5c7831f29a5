//! Server functions, one per file: read context, call the store or the engine, map the error.

mod dataset;
mod facts;

pub use dataset::{get_dataset, GetDataset};
pub use facts::{get_facts, Fact, GetFacts};
