//! The migrations are embedded by `sqlx::migrate!` (src/lib.rs): a new or changed file in
//! `migrations/` must rebuild this crate.

fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
