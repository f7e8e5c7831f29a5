-- servecost schema. Every dataset row says which revision brought it; the dataset "at revision N"
-- is, for each key, the row with the highest revision not above N. Saved scenarios pin a revision.
-- Written for both SQLite and PostgreSQL (DOUBLE PRECISION, BOOLEAN, TEXT).

CREATE TABLE dataset_revisions (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL,
    description TEXT NOT NULL,
    source_files TEXT NOT NULL DEFAULT ''
);

CREATE TABLE sources (
    key TEXT NOT NULL,
    revision INTEGER NOT NULL REFERENCES dataset_revisions (id),
    publisher TEXT NOT NULL,
    title TEXT NOT NULL,
    url TEXT,
    date TEXT NOT NULL,
    trust TEXT NOT NULL CHECK (trust IN ('independent', 'vendor', 'licensor', 'assumption')),
    caveat TEXT,
    PRIMARY KEY (key, revision)
);

CREATE TABLE models (
    id TEXT NOT NULL,
    revision INTEGER NOT NULL REFERENCES dataset_revisions (id),
    name TEXT NOT NULL,
    licence TEXT NOT NULL,
    licence_revenue_threshold_usd DOUBLE PRECISION,
    licence_source TEXT NOT NULL,
    PRIMARY KEY (id, revision)
);

CREATE TABLE model_weights (
    model TEXT NOT NULL,
    precision TEXT NOT NULL,
    revision INTEGER NOT NULL REFERENCES dataset_revisions (id),
    gigabytes DOUBLE PRECISION NOT NULL CHECK (gigabytes > 0),
    source TEXT NOT NULL,
    PRIMARY KEY (model, precision, revision)
);

CREATE TABLE chips (
    id TEXT NOT NULL,
    revision INTEGER NOT NULL REFERENCES dataset_revisions (id),
    name TEXT NOT NULL,
    memory_gb DOUBLE PRECISION NOT NULL CHECK (memory_gb > 0),
    memory_source TEXT NOT NULL,
    accelerator_kw DOUBLE PRECISION CHECK (accelerator_kw > 0),
    accelerator_kw_source TEXT,
    all_in_kw DOUBLE PRECISION CHECK (all_in_kw > 0),
    all_in_kw_source TEXT,
    PRIMARY KEY (id, revision)
);

CREATE TABLE price_tiers (
    chip TEXT NOT NULL,
    tier TEXT NOT NULL,
    revision INTEGER NOT NULL REFERENCES dataset_revisions (id),
    label TEXT NOT NULL,
    usd_per_gpu_hour DOUBLE PRECISION NOT NULL CHECK (usd_per_gpu_hour > 0),
    source TEXT NOT NULL,
    is_default BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (chip, tier, revision)
);

CREATE TABLE api_offers (
    id TEXT NOT NULL,
    revision INTEGER NOT NULL REFERENCES dataset_revisions (id),
    model TEXT NOT NULL,
    name TEXT NOT NULL,
    price_in DOUBLE PRECISION NOT NULL CHECK (price_in >= 0),
    price_out DOUBLE PRECISION NOT NULL CHECK (price_out >= 0),
    cache_discount DOUBLE PRECISION NOT NULL CHECK (cache_discount >= 0 AND cache_discount <= 1),
    markup DOUBLE PRECISION NOT NULL CHECK (markup >= 0),
    speed_tps DOUBLE PRECISION CHECK (speed_tps > 0),
    source TEXT NOT NULL,
    note TEXT,
    PRIMARY KEY (id, revision)
);

-- A curve's points are those of its own revision. Each point stores the figure as published:
-- a throughput, or a cost per million tokens at the curve's price_basis_usd chip-hour price.
CREATE TABLE curves (
    id TEXT NOT NULL,
    revision INTEGER NOT NULL REFERENCES dataset_revisions (id),
    model TEXT NOT NULL,
    chip TEXT NOT NULL,
    precision TEXT NOT NULL,
    framework TEXT NOT NULL,
    replica_gpus DOUBLE PRECISION NOT NULL CHECK (replica_gpus >= 1),
    mix_uncached DOUBLE PRECISION NOT NULL CHECK (mix_uncached >= 0),
    mix_cached DOUBLE PRECISION NOT NULL CHECK (mix_cached >= 0),
    mix_output DOUBLE PRECISION NOT NULL CHECK (mix_output > 0),
    mix_stated BOOLEAN NOT NULL,
    price_basis_usd DOUBLE PRECISION CHECK (price_basis_usd > 0),
    source TEXT NOT NULL,
    note TEXT,
    PRIMARY KEY (id, revision)
);

CREATE TABLE curve_points (
    curve TEXT NOT NULL,
    revision INTEGER NOT NULL REFERENCES dataset_revisions (id),
    idx INTEGER NOT NULL,
    tps DOUBLE PRECISION NOT NULL CHECK (tps > 0),
    tokens_per_s_per_gpu DOUBLE PRECISION CHECK (tokens_per_s_per_gpu > 0),
    usd_per_mtok DOUBLE PRECISION CHECK (usd_per_mtok > 0),
    note TEXT,
    PRIMARY KEY (curve, revision, idx),
    CHECK ((tokens_per_s_per_gpu IS NULL) <> (usd_per_mtok IS NULL))
);

CREATE TABLE headlines (
    id TEXT NOT NULL,
    revision INTEGER NOT NULL REFERENCES dataset_revisions (id),
    chip TEXT NOT NULL,
    label TEXT NOT NULL,
    tokens_per_s_per_mw DOUBLE PRECISION CHECK (tokens_per_s_per_mw > 0),
    agents_per_mw DOUBLE PRECISION CHECK (agents_per_mw > 0),
    is_floor BOOLEAN NOT NULL DEFAULT FALSE,
    source TEXT NOT NULL,
    PRIMARY KEY (id, revision)
);

-- Every published figure, including those the engine does not compute with, so that /data can
-- show each one beside its source.
CREATE TABLE facts (
    key TEXT NOT NULL,
    revision INTEGER NOT NULL REFERENCES dataset_revisions (id),
    subject TEXT NOT NULL,
    label TEXT NOT NULL,
    value DOUBLE PRECISION,
    unit TEXT,
    value_text TEXT,
    source TEXT NOT NULL,
    PRIMARY KEY (key, revision)
);

CREATE TABLE scenarios (
    id TEXT PRIMARY KEY,
    query TEXT NOT NULL,
    name TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    revision INTEGER NOT NULL REFERENCES dataset_revisions (id),
    created_at TEXT NOT NULL
);
