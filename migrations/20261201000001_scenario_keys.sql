-- Saves are idempotent under concurrency: each saved content (revision, query, name, note) has
-- one key, the SHA-256 of the four, and the key's row names the id every identical save gets.
-- The key is inserted first (ON CONFLICT DO NOTHING): of two identical saves at once, one
-- writes the key and its scenario, the other finds the key and answers with its id. Saves made
-- before this migration have no key; the first identical save after it finds them by content
-- (the index of 20261130000001) and records their id under the key.
CREATE TABLE scenario_keys (
    key TEXT PRIMARY KEY,
    id TEXT NOT NULL
);
