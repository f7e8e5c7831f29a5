//! The server's integration tests, one binary: the router in process against a fresh SQLite with
//! the migrations applied. Kept in one binary so the whole app is linked once, not once per file.

mod bounded;
mod caching;
mod common;
mod compare;
mod decision;
mod fuzz;
mod hardening;
mod import;
mod open_models;
mod openapi;
mod options;
mod plan;
mod price_tables;
mod published_revision;
mod ranges;
mod readers;
mod redirects;
mod refusals;
mod router;
mod saved;
mod seed;
mod share;
mod sizing;
mod speed;
mod switch;
mod usage;
