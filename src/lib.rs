#![doc = include_str!("README.md")]
#![forbid(unsafe_code)]

pub mod batch;
pub mod break_even;
pub mod codec;
pub mod costing;
pub mod curve;
pub mod dataset;
pub mod decision;
pub mod error;
pub mod evaluate;
pub mod export;
pub mod finite;
pub mod fleet;
pub mod format;
pub mod freshness;
pub mod gpu_price;
pub mod gpu_time;
pub mod in_force;
pub mod options;
pub mod power;
pub mod profile;
pub mod projection;
pub mod rent;
pub mod report;
pub mod resolved;
pub mod scenario;
pub mod sensitivity;
pub mod series;
pub mod units;
pub mod usage;
pub mod workload;

pub use codec::{parse, parse_lenient, to_query};
pub use dataset::Dataset;
pub use error::Problem;
pub use evaluate::evaluate;
pub use report::Report;
pub use scenario::Scenario;
