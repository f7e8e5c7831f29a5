//! The text a field shows when the link leaves its parameter out: the engine's
//! [`servecost::in_force::link_text`].

pub use servecost::in_force::link_text as in_force;
