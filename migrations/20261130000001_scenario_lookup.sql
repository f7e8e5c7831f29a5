-- Saves are idempotent: an identical scenario (query, name, note, revision) finds its first save.
CREATE INDEX scenarios_content ON scenarios (query, name, note, revision);
