//! Components, one per file.

mod chart_figure;
mod charts_set;
mod choice;
mod class_table;
mod decoder;
mod field;
mod findings;
mod in_force;
pub mod inputs;
mod options;
mod problems;
mod share;
mod site_nav;
mod sources;
mod totals;
pub mod verdict;
mod volume_chart;
mod years;

pub use chart_figure::ChartFigure;
pub use charts_set::{BreakdownChart, ClassChart, TornadoChart, TpsChart};
pub use choice::Choice;
pub use class_table::ClassTable;
pub use decoder::Decoder;
pub use field::Field;
pub use findings::{BreakEven, VolumeBands, Warnings};
pub use in_force::InputsInForce;
pub use inputs::Inputs;
pub use options::OptionsTable;
pub use problems::{no_answer, Problems};
pub use share::Share;
pub use site_nav::SiteNav;
pub use sources::{cited_sources, Sources};
pub use totals::Totals;
pub use verdict::{preview_text, sentences, Verdict};
pub use volume_chart::VolumeChart;
pub use years::Years;
