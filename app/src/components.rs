//! Components, one per file.

mod chart_figure;
mod class_table;
mod field;
mod inputs;
mod problems;
mod totals;
mod verdict;
mod volume_chart;

pub use chart_figure::ChartFigure;
pub use class_table::ClassTable;
pub use field::Field;
pub use inputs::Inputs;
pub use problems::Problems;
pub use totals::Totals;
pub use verdict::Verdict;
pub use volume_chart::VolumeChart;
