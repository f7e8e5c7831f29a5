-- Revision 2: every GPU-hour price says what commitment it is, and three corrections of
-- revision 1. Revision 1's rows are not touched: links pinned to it keep their numbers (its
-- tiers have no kind, which the engine reads as "commitment not stated").
--
-- Commitment kinds (price_tiers.kind):
--   on_demand   rented by the hour, stoppable at any hour;
--   spot        rented by the hour, interruptible;
--   reserved    rented for a term (term_months), a share paid upfront (upfront_share): the
--               whole fleet is billed every hour of the term, used or not;
--   owner_cost  what an operator pays to own the GPU at scale: a floor, not an offer.
-- Only on_demand and spot prices may scale hour by hour. The default tier of a chip is the
-- cheapest of a rentable kind (on_demand, spot, reserved) in its newest price survey. A tier
-- whose source does not say (the April 2026 neocloud price) keeps no kind: the page says the
-- commitment is not stated.
--
-- Corrections:
--   the SGLang TP8 EP8 run is two 4-GPU nodes: 8 GPUs per replica, not 16;
--   OrcaRouter publishes no cache discount: it is marked as not stated (priced at 0, with a
--   warning giving the answer if the provider's 88 % passed through);
--   each chip's power figure says what it measures: AgentPerf's accelerator power (GPU, die and
--   HBM), a data sheet's board power, and the all-in IT power per GPU at the wall (host and
--   network share, no cooling: PUE applies to it once).

ALTER TABLE price_tiers ADD COLUMN kind TEXT
    CHECK (kind IS NULL OR kind IN ('on_demand', 'spot', 'reserved', 'owner_cost'));
ALTER TABLE price_tiers ADD COLUMN term_months DOUBLE PRECISION CHECK (term_months IS NULL OR term_months > 0);
ALTER TABLE price_tiers ADD COLUMN upfront_share DOUBLE PRECISION
    CHECK (upfront_share IS NULL OR (upfront_share >= 0 AND upfront_share <= 1));
ALTER TABLE api_offers ADD COLUMN cache_discount_stated BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE chips ADD COLUMN accelerator_kw_measure TEXT
    CHECK (accelerator_kw_measure IS NULL OR accelerator_kw_measure IN ('accelerator', 'board'));
ALTER TABLE chips ADD COLUMN power_caveat TEXT;

INSERT INTO dataset_revisions (id, created_at, description, source_files) VALUES
(2, '2026-12-01T00:00:00Z', 'Commitment kinds for every GPU-hour price; SGLang TP8 EP8 replica of 8 GPUs; router cache discount not published; power figures say what they measure', 'published-figures.md; inferencex-samples/README.md');

INSERT INTO sources (key, revision, publisher, title, url, date, trust, caveat) VALUES
('semianalysis-tco-2026-07', 2, 'SemiAnalysis', 'AI Cloud TCO Model: cost per GPU-hour, July 2026 survey (costh: hyperscaler-owned; costr: 3-year rental with 25 % upfront)', NULL, '2026-07', 'independent',
 'costh is what a hyperscaler pays to own and run the GPU (an owner''s cost: a floor, not a price anyone rents at); costr is a 3-year reserved rental with 25 % paid upfront, billed every hour of the term. Published costs depend on the table live on the day.'),
('semianalysis-tco-2026-04', 2, 'SemiAnalysis', 'AI Cloud TCO Model: April 2026 table, with all-in power per GPU', NULL, '2026-04', 'independent',
 'Superseded for prices by the July 2026 survey; kept for its all-in power per GPU (IT power at the wall: GPU with its share of host and network, cooling not included). The neocloud price does not state its commitment.'),
('orcarouter', 2, 'OrcaRouter', 'Router listing of hosted Muse Spark checkpoints', NULL, '2026-10', 'vendor',
 'Serves Muse Spark 1.1 and 1.2, the hosted checkpoints, not the open weights. Publishes no cache discount. OrcaRouter published the article these figures were gathered from.'),
('sglang-cookbook', 2, 'SGLang project', 'Cookbook pull request: five GB300 deployments picked from 43 measured configurations on the AgentPerf coding-agent scenario (merged 2026-10-22)', NULL, '2026-10-22', 'vendor',
 'A framework showing its own stack: a tuned best case. Only four of the five points are described in enough detail to use. The TP8 EP8 run spans two 4-GPU nodes: 8 GPUs.');

INSERT INTO price_tiers (chip, tier, revision, label, usd_per_gpu_hour, source, is_default, kind, term_months, upfront_share) VALUES
('h100', 'costh', 2, 'Hyperscaler-owned cost (July 2026)', 1.17, 'semianalysis-tco-2026-07', FALSE, 'owner_cost', NULL, NULL),
('h100', 'costr', 2, '3-year rental, 25 % upfront (July 2026)', 2.00, 'semianalysis-tco-2026-07', TRUE, 'reserved', 36, 0.25),
('h200', 'costh', 2, 'Hyperscaler-owned cost (July 2026)', 1.22, 'semianalysis-tco-2026-07', FALSE, 'owner_cost', NULL, NULL),
('h200', 'costr', 2, '3-year rental, 25 % upfront (July 2026)', 2.90, 'semianalysis-tco-2026-07', TRUE, 'reserved', 36, 0.25),
('b200', 'costh', 2, 'Hyperscaler-owned cost (July 2026)', 1.73, 'semianalysis-tco-2026-07', FALSE, 'owner_cost', NULL, NULL),
('b200', 'costr', 2, '3-year rental, 25 % upfront (July 2026)', 3.70, 'semianalysis-tco-2026-07', TRUE, 'reserved', 36, 0.25),
('b300', 'costh', 2, 'Hyperscaler-owned cost (July 2026)', 2.26, 'semianalysis-tco-2026-07', FALSE, 'owner_cost', NULL, NULL),
('b300', 'costr', 2, '3-year rental, 25 % upfront (July 2026)', 4.25, 'semianalysis-tco-2026-07', TRUE, 'reserved', 36, 0.25),
('gb200', 'costh', 2, 'Hyperscaler-owned cost (July 2026)', 1.86, 'semianalysis-tco-2026-07', FALSE, 'owner_cost', NULL, NULL),
('gb200', 'costr', 2, '3-year rental, 25 % upfront (July 2026)', 4.00, 'semianalysis-tco-2026-07', TRUE, 'reserved', 36, 0.25),
('gb300', 'costh', 2, 'Hyperscaler-owned cost (July 2026)', 2.31, 'semianalysis-tco-2026-07', FALSE, 'owner_cost', NULL, NULL),
('gb300', 'costr', 2, '3-year rental, 25 % upfront (July 2026)', 5.00, 'semianalysis-tco-2026-07', TRUE, 'reserved', 36, 0.25),
('mi300x', 'costh', 2, 'Hyperscaler-owned cost (July 2026)', 0.95, 'semianalysis-tco-2026-07', FALSE, 'owner_cost', NULL, NULL),
('mi300x', 'costr', 2, '3-year rental, 25 % upfront (July 2026)', 1.30, 'semianalysis-tco-2026-07', TRUE, 'reserved', 36, 0.25),
('mi325x', 'costh', 2, 'Hyperscaler-owned cost (July 2026)', 1.10, 'semianalysis-tco-2026-07', FALSE, 'owner_cost', NULL, NULL),
('mi325x', 'costr', 2, '3-year rental, 25 % upfront (July 2026)', 1.60, 'semianalysis-tco-2026-07', TRUE, 'reserved', 36, 0.25),
('mi355x', 'costh', 2, 'Hyperscaler-owned cost (July 2026)', 1.50, 'semianalysis-tco-2026-07', FALSE, 'owner_cost', NULL, NULL),
('mi355x', 'costr', 2, '3-year rental, 25 % upfront (July 2026)', 2.90, 'semianalysis-tco-2026-07', TRUE, 'reserved', 36, 0.25),
('mi355x', 'costh-2026-04', 2, 'Hyperscaler-owned cost (April 2026)', 1.48, 'semianalysis-tco-2026-04', FALSE, 'owner_cost', NULL, NULL),
('mi355x', 'neocloud-2026-04', 2, 'Neocloud, commitment not stated (April 2026)', 1.90, 'semianalysis-tco-2026-04', FALSE, NULL, NULL, NULL),
('mi355x', 'costr-2026-04', 2, '3-year rental (April 2026)', 2.10, 'semianalysis-tco-2026-04', FALSE, 'reserved', 36, NULL);

INSERT INTO api_offers (id, revision, model, name, price_in, price_out, cache_discount, markup, speed_tps, source, note, cache_discount_stated) VALUES
('orcarouter-muse-spark', 2, 'muse-spark-open', 'OrcaRouter: hosted Muse Spark 1.1 / 1.2', 1.25, 4.25, 0, 0, NULL, 'orcarouter',
 'Same list price as the open model''s API, 0 % markup. Serves the hosted checkpoints Muse Spark 1.1 and 1.2, not the open weights. The router publishes no cache discount: priced at none.', FALSE);

INSERT INTO curves (id, revision, model, chip, precision, framework, replica_gpus, mix_uncached, mix_cached, mix_output, mix_stated, price_basis_usd, source, note) VALUES
('sglang-gb300-tp8ep8', 2, 'muse-spark-open', 'gb300', 'fp4', 'SGLang, TP8 EP8 over two nodes', 8, 5524.35, 178620.65, 1237, TRUE, NULL, 'sglang-cookbook',
 'The single-user point: two 4-GPU nodes (8 GPUs), concurrency 1, p95 time to first token 0.10 s. Same AgentPerf trace as the TP4 points.');

INSERT INTO curve_points (curve, revision, idx, tps, tokens_per_s_per_gpu, usd_per_mtok, note) VALUES
('sglang-gb300-tp8ep8', 2, 0, 485.8, 2514, NULL, 'concurrency 1; p95 time to first token 0.10 s');

INSERT INTO chips (id, revision, name, memory_gb, memory_source, accelerator_kw, accelerator_kw_source, all_in_kw, all_in_kw_source, accelerator_kw_measure, power_caveat) VALUES
('b300', 2, 'NVIDIA B300', 288, 'vendor-specs', 1.375, 'aa-agentperf', 2.17, 'semianalysis-tco-2026-04', 'accelerator',
 'Accelerator power borrowed from the GB300 arithmetic (5 to 6 kW per 4 GPUs): AgentPerf publishes no B300 figure of its own.'),
('gb300', 2, 'NVIDIA GB300', 288, 'vendor-specs', 1.375, 'aa-agentperf', 2.1, 'semianalysis-tco-2026-04', 'accelerator',
 'Accelerator power from AgentPerf''s 5 to 6 kW per 4 GPUs (midpoint).'),
('mi355x', 2, 'AMD Instinct MI355X', 288, 'vendor-specs', 1.4, 'vendor-specs', 2.65, 'semianalysis-tco-2026-04', 'board',
 'Total board power from AMD''s data sheet, not AgentPerf''s measured accelerator power (GPU, die and HBM): per-MW figures decoded with it are low.');
