//! Pages, one per file.

mod calculator;
mod data;
mod method;
mod not_found;

pub use calculator::Calculator;
pub use data::Data;
pub use method::Method;
pub use not_found::NotFound;
