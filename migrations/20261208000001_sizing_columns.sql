-- Columns the sizing revision needs; no revision changes and every shipped row keeps NULL in
-- them, so saved links keep their numbers.
--
-- curves.prefill: the prefill rate P (uncached input tokens/s per GPU) the curve holds: the
--   one its own measurement leaves decode time at, as the revision that brought it worked it
--   out (its note says how). A link that gives no `prefill` prices the curve with it; NULL:
--   servecost's general assumption, as before.
-- curves.replica_basis: where the replica's size comes from (a submitter's configuration, a
--   run's name, or servecost's rule of the least power of two that holds the weights and the KV
--   reserve), in a sentence; NULL: the measured system as a whole (revisions 1 to 4).
-- curves.batch_tokens_per_s_per_gpu: tokens/s per GPU at the curve's mix without a latency
--   bound (MLPerf's Offline scenario): the rate batch traffic, which waits, is served at; NULL:
--   not measured.
-- curves.is_default: the model's default curve (the most trusted, median-throughput one); where
--   no curve of a model has it, the first curve of the model is its default, as before.
-- chips.dense_tflops_fp4/fp8/bf16: dense (not sparse) tensor throughput per GPU at each
--   precision, TFLOPS, and chips.memory_tb_s its memory bandwidth, TB/s, from the vendor's data
--   sheet (chips.compute_source); NULL: not recorded.
ALTER TABLE curves ADD COLUMN prefill DOUBLE PRECISION
    CHECK (prefill IS NULL OR (prefill >= 1 AND prefill <= 100000000));
ALTER TABLE curves ADD COLUMN replica_basis TEXT;
ALTER TABLE curves ADD COLUMN batch_tokens_per_s_per_gpu DOUBLE PRECISION
    CHECK (batch_tokens_per_s_per_gpu IS NULL OR batch_tokens_per_s_per_gpu > 0);
ALTER TABLE curves ADD COLUMN is_default BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE chips ADD COLUMN dense_tflops_fp4 DOUBLE PRECISION
    CHECK (dense_tflops_fp4 IS NULL OR dense_tflops_fp4 > 0);
ALTER TABLE chips ADD COLUMN dense_tflops_fp8 DOUBLE PRECISION
    CHECK (dense_tflops_fp8 IS NULL OR dense_tflops_fp8 > 0);
ALTER TABLE chips ADD COLUMN dense_tflops_bf16 DOUBLE PRECISION
    CHECK (dense_tflops_bf16 IS NULL OR dense_tflops_bf16 > 0);
ALTER TABLE chips ADD COLUMN memory_tb_s DOUBLE PRECISION
    CHECK (memory_tb_s IS NULL OR memory_tb_s > 0);
ALTER TABLE chips ADD COLUMN compute_source TEXT;
