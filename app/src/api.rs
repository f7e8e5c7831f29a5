//! Server functions, one per file: read context, call the store or the engine, map the error.

mod dataset;
mod facts;

pub use dataset::{dataset_resource, DatasetResource};
pub use facts::{get_facts, Fact, GetFacts};
