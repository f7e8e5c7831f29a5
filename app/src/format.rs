//! Numbers as people read them: the engine's one formatter ([`servecost::format`]), under the
//! name the app has always used.

pub use servecost::format::*;
