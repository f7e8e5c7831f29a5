//! Pages, one per file.

mod calculator;
mod not_found;

pub use calculator::Calculator;
pub use not_found::NotFound;
