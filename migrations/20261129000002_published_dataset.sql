-- Revision 1: every figure of shared/reference/published-figures.md (October 2026, Muse Spark Open)
-- and the SemiAnalysis per-GPU-hour tiers of shared/reference/inferencex-samples/README.md, each row
-- tied to its source.

INSERT INTO dataset_revisions (id, created_at, description, source_files) VALUES
(1, '2026-11-29T00:00:00Z', 'Published figures for Muse Spark Open, October 2026', 'published-figures.md; inferencex-samples/README.md');

INSERT INTO sources (key, revision, publisher, title, url, date, trust, caveat) VALUES
('aa-agentperf', 1, 'Artificial Analysis', 'AA-AgentPerf leaderboard update for Muse Spark Open', NULL, '2026-10-23', 'independent',
 'Headlines are ceilings: concurrency is searched up to the lowest per-agent speed the interactivity target allows (p25 output speed, p95 time to first token over a steady-state window). Power is accelerator power (GPU, die and HBM), not wall power or TDP. The MI355X configuration was built by Artificial Analysis, not submitted by AMD: treat it as a floor; the MI35x accuracy gate of the ROCm path has not run on hardware and one of its thresholds is a placeholder.'),
('aa-model-page', 1, 'Artificial Analysis', 'Muse Spark Open model listing: price, speed, Intelligence Index', NULL, '2026-10-15', 'independent',
 'Listed since launch. The $0.78 blended price weighs 7 cached : 2 uncached : 1 output tokens.'),
('sglang-cookbook', 1, 'SGLang project', 'Cookbook pull request: five GB300 deployments picked from 43 measured configurations on the AgentPerf coding-agent scenario (merged 2026-10-22)', NULL, '2026-10-22', 'vendor',
 'A framework showing its own stack: a tuned best case. Only four of the five points are described in enough detail to use.'),
('inferencex', 1, 'SemiAnalysis InferenceX', 'Cost per million tokens for Muse Spark Open at FP4', NULL, '2026-10', 'independent',
 'Points interpolated on the chart from measured runs. Costs count all tokens (mostly cached input in an agent trace); the workload mix is not stated, and servecost assumes an agent trace. Priced at the costh tier: $2.26 per B300-hour, $1.50 per MI355X-hour.'),
('meta-license', 1, 'Meta', 'Muse Model License', NULL, '2026-10-15', 'licensor', NULL),
('meta-release', 1, 'Meta', 'Muse Spark Open release: checkpoints and local demo', NULL, '2026-10-15', 'licensor',
 'The two-M5-Ultra-Mac-Studio run is a demo, not a serving plan.'),
('orcarouter', 1, 'OrcaRouter', 'Router listing of hosted Muse Spark checkpoints', NULL, '2026-10', 'vendor',
 'Serves Muse Spark 1.1 and 1.2, not the open checkpoint. OrcaRouter published the article these figures were gathered from.'),
('semianalysis-tco-2026-07', 1, 'SemiAnalysis', 'AI Cloud TCO Model: cost per GPU-hour, July 2026 survey (costh: hyperscaler-owned; costr: 3-year rental with 25 % upfront)', NULL, '2026-07', 'independent',
 'Published costs depend on the table live on the day.'),
('semianalysis-tco-2026-04', 1, 'SemiAnalysis', 'AI Cloud TCO Model: April 2026 table, with all-in power per GPU', NULL, '2026-04', 'independent',
 'Superseded for prices by the July 2026 survey; kept for its all-in power per GPU.'),
('vendor-specs', 1, 'NVIDIA and AMD', 'GPU data sheets: memory per GPU; AMD Instinct MI355X total board power', NULL, '2025', 'vendor',
 'Specifications as marketed, not measurements; not part of the published Muse Spark Open figures.'),
('servecost-assumptions', 1, 'servecost', 'Default assumptions of the calculator: prefill rate, cache-hit cost, utilisation, operations, owned-hardware defaults, chat / RAG / batch shapes, replica sizes not stated by a curve''s publisher', NULL, '2026-11', 'assumption',
 'No publication stands behind these defaults: replace them with your own figures.');

INSERT INTO models (id, revision, name, licence, licence_revenue_threshold_usd, licence_source) VALUES
('muse-spark-open', 1, 'Muse Spark Open',
 'Muse Model License: free for most uses; companies with more than $20 M annual gross revenue need an agreement with Meta to offer it as a service; products must show "Built with Muse Spark Open".',
 20000000, 'meta-license');

INSERT INTO model_weights (model, precision, revision, gigabytes, source) VALUES
('muse-spark-open', 'bf16', 1, 1650, 'meta-release'),
('muse-spark-open', 'fp4', 1, 537, 'meta-release');

INSERT INTO chips (id, revision, name, memory_gb, memory_source, accelerator_kw, accelerator_kw_source, all_in_kw, all_in_kw_source) VALUES
('b300', 1, 'NVIDIA B300', 288, 'vendor-specs', 1.375, 'aa-agentperf', 2.17, 'semianalysis-tco-2026-04'),
('gb300', 1, 'NVIDIA GB300', 288, 'vendor-specs', 1.375, 'aa-agentperf', 2.1, 'semianalysis-tco-2026-04'),
('mi355x', 1, 'AMD Instinct MI355X', 288, 'vendor-specs', 1.4, 'vendor-specs', 2.65, 'semianalysis-tco-2026-04'),
('h100', 1, 'NVIDIA H100', 80, 'vendor-specs', NULL, NULL, NULL, NULL),
('h200', 1, 'NVIDIA H200', 141, 'vendor-specs', NULL, NULL, NULL, NULL),
('b200', 1, 'NVIDIA B200', 180, 'vendor-specs', NULL, NULL, NULL, NULL),
('gb200', 1, 'NVIDIA GB200', 186, 'vendor-specs', NULL, NULL, NULL, NULL),
('mi300x', 1, 'AMD Instinct MI300X', 192, 'vendor-specs', NULL, NULL, NULL, NULL),
('mi325x', 1, 'AMD Instinct MI325X', 256, 'vendor-specs', NULL, NULL, NULL, NULL);

INSERT INTO price_tiers (chip, tier, revision, label, usd_per_gpu_hour, source, is_default) VALUES
('h100', 'costh', 1, 'Hyperscaler-owned (July 2026)', 1.17, 'semianalysis-tco-2026-07', TRUE),
('h100', 'costr', 1, '3-year rental, 25 % upfront (July 2026)', 2.00, 'semianalysis-tco-2026-07', FALSE),
('h200', 'costh', 1, 'Hyperscaler-owned (July 2026)', 1.22, 'semianalysis-tco-2026-07', TRUE),
('h200', 'costr', 1, '3-year rental, 25 % upfront (July 2026)', 2.90, 'semianalysis-tco-2026-07', FALSE),
('b200', 'costh', 1, 'Hyperscaler-owned (July 2026)', 1.73, 'semianalysis-tco-2026-07', TRUE),
('b200', 'costr', 1, '3-year rental, 25 % upfront (July 2026)', 3.70, 'semianalysis-tco-2026-07', FALSE),
('b300', 'costh', 1, 'Hyperscaler-owned (July 2026)', 2.26, 'semianalysis-tco-2026-07', TRUE),
('b300', 'costr', 1, '3-year rental, 25 % upfront (July 2026)', 4.25, 'semianalysis-tco-2026-07', FALSE),
('gb200', 'costh', 1, 'Hyperscaler-owned (July 2026)', 1.86, 'semianalysis-tco-2026-07', TRUE),
('gb200', 'costr', 1, '3-year rental, 25 % upfront (July 2026)', 4.00, 'semianalysis-tco-2026-07', FALSE),
('gb300', 'costh', 1, 'Hyperscaler-owned (July 2026)', 2.31, 'semianalysis-tco-2026-07', TRUE),
('gb300', 'costr', 1, '3-year rental, 25 % upfront (July 2026)', 5.00, 'semianalysis-tco-2026-07', FALSE),
('mi300x', 'costh', 1, 'Hyperscaler-owned (July 2026)', 0.95, 'semianalysis-tco-2026-07', TRUE),
('mi300x', 'costr', 1, '3-year rental, 25 % upfront (July 2026)', 1.30, 'semianalysis-tco-2026-07', FALSE),
('mi325x', 'costh', 1, 'Hyperscaler-owned (July 2026)', 1.10, 'semianalysis-tco-2026-07', TRUE),
('mi325x', 'costr', 1, '3-year rental, 25 % upfront (July 2026)', 1.60, 'semianalysis-tco-2026-07', FALSE),
('mi355x', 'costh', 1, 'Hyperscaler-owned (July 2026)', 1.50, 'semianalysis-tco-2026-07', TRUE),
('mi355x', 'costr', 1, '3-year rental, 25 % upfront (July 2026)', 2.90, 'semianalysis-tco-2026-07', FALSE),
('mi355x', 'costh-2026-04', 1, 'Hyperscaler-owned (April 2026)', 1.48, 'semianalysis-tco-2026-04', FALSE),
('mi355x', 'neocloud-2026-04', 1, 'Neocloud (April 2026)', 1.90, 'semianalysis-tco-2026-04', FALSE),
('mi355x', 'costr-2026-04', 1, '3-year rental (April 2026)', 2.10, 'semianalysis-tco-2026-04', FALSE);

INSERT INTO api_offers (id, revision, model, name, price_in, price_out, cache_discount, markup, speed_tps, source, note) VALUES
('muse-spark-open-api', 1, 'muse-spark-open', 'Muse Spark Open API (list price)', 1.25, 4.25, 0.88, 0, 142.9, 'aa-model-page',
 'Cached input at $0.15 per million (88 % off). Output speed 142.9 tokens/s (median of comparable open-weight models: 75.4); time to first token 0.76 s.'),
('orcarouter-muse-spark', 1, 'muse-spark-open', 'OrcaRouter: hosted Muse Spark 1.1 / 1.2', 1.25, 4.25, 0, 0, NULL, 'orcarouter',
 'Same list price as the open model''s API, 0 % markup. Serves Muse Spark 1.1 and 1.2, not the open checkpoint. The router publishes no cache discount: none is assumed.');

INSERT INTO curves (id, revision, model, chip, precision, framework, replica_gpus, mix_uncached, mix_cached, mix_output, mix_stated, price_basis_usd, source, note) VALUES
('inferencex-b300-fp4', 1, 'muse-spark-open', 'b300', 'fp4', 'not stated', 4, 810, 26190, 180, FALSE, 2.26, 'inferencex',
 'Mix assumed: the AgentPerf agent trace (27,000 input tokens per request, 97 % cached, 180 output). Replica of four B300, the configuration behind the AgentPerf figures (aa-agentperf).'),
('inferencex-mi355x-fp4', 1, 'muse-spark-open', 'mi355x', 'fp4', 'not stated', 8, 810, 26190, 180, FALSE, 1.50, 'inferencex',
 'Mix assumed: the AgentPerf agent trace. Replica size not published: one 8-GPU MI355X node assumed (servecost-assumptions).'),
('sglang-gb300-tp4', 1, 'muse-spark-open', 'gb300', 'fp4', 'SGLang, TP4 EP4', 4, 5524.35, 178620.65, 1237, TRUE, NULL, 'sglang-cookbook',
 'Mix from the 160-concurrency run: 1,237 of 185,382 tokens/s per GPU are output, and 97 % of input is served from cache (96.8 % to 97.6 % across the runs).'),
('sglang-gb300-tp8ep8', 1, 'muse-spark-open', 'gb300', 'fp4', 'SGLang, TP8 EP8 over two nodes', 16, 5524.35, 178620.65, 1237, TRUE, NULL, 'sglang-cookbook',
 'The single-user point: two nodes, concurrency 1, p95 time to first token 0.10 s. Same AgentPerf trace as the TP4 points.');

INSERT INTO curve_points (curve, revision, idx, tps, tokens_per_s_per_gpu, usd_per_mtok, note) VALUES
('inferencex-b300-fp4', 1, 0, 128, NULL, 0.019, NULL),
('inferencex-b300-fp4', 1, 1, 191, NULL, 0.027, NULL),
('inferencex-b300-fp4', 1, 2, 254, NULL, 0.046, NULL),
('inferencex-mi355x-fp4', 1, 0, 128, NULL, 0.024, NULL),
('inferencex-mi355x-fp4', 1, 1, 191, NULL, 0.044, NULL),
('inferencex-mi355x-fp4', 1, 2, 254, NULL, 0.076, NULL),
('sglang-gb300-tp4', 1, 0, 208.7, 49646, NULL, 'concurrency 16'),
('sglang-gb300-tp4', 1, 1, 97.1, 114342, NULL, 'concurrency 64'),
('sglang-gb300-tp4', 1, 2, 40.9, 185382, NULL, 'concurrency 160, with HiCache; 1,237 tokens/s of it generated output'),
('sglang-gb300-tp8ep8', 1, 0, 485.8, 2514, NULL, 'concurrency 1; p95 time to first token 0.10 s');

INSERT INTO headlines (id, revision, chip, label, tokens_per_s_per_mw, agents_per_mw, is_floor, source) VALUES
('agentperf-gb300', 1, 'gb300', 'AgentPerf: up to ~150 M tokens/s per MW on 4x GB300', 150000000, NULL, FALSE, 'aa-agentperf'),
('agentperf-b300', 1, 'b300', 'AgentPerf: up to ~150 M tokens/s per MW on 4x B300', 150000000, NULL, FALSE, 'aa-agentperf'),
('agentperf-mi355x', 1, 'mi355x', 'AgentPerf: ~70 M tokens/s per MW on MI355X', 70000000, NULL, TRUE, 'aa-agentperf'),
('agentperf-deepseek-gb300-nvl72', 1, 'gb300', 'AgentPerf (June launch): ~91,500 agents per MW, GB300 NVL72, DeepSeek V4 Pro, 20 tokens/s tier', NULL, 91500, FALSE, 'aa-agentperf');

INSERT INTO facts (key, revision, subject, label, value, unit, value_text, source) VALUES
('agentperf-unit', 1, 'AA-AgentPerf', 'Headline unit', NULL, NULL, 'Total input plus output tokens/s per MW of accelerator power, measured at GPU, die and HBM', 'aa-agentperf'),
('agentperf-input-mean', 1, 'AA-AgentPerf', 'Mean input per request', 27000, 'tokens', NULL, 'aa-agentperf'),
('agentperf-input-min', 1, 'AA-AgentPerf', 'Input per request, low end of range', 5000, 'tokens', NULL, 'aa-agentperf'),
('agentperf-input-max', 1, 'AA-AgentPerf', 'Input per request, high end of range', 131000, 'tokens', NULL, 'aa-agentperf'),
('agentperf-output-median', 1, 'AA-AgentPerf', 'Median output per request', 150, 'tokens', NULL, 'aa-agentperf'),
('agentperf-session-turns', 1, 'AA-AgentPerf', 'Turns per session', 200, 'turns', NULL, 'aa-agentperf'),
('agentperf-active-window', 1, 'AA-AgentPerf', 'Minimum activity of every agent in the steady-state window', 30, 's', NULL, 'aa-agentperf'),
('agentperf-ceiling-gb300-b300', 1, 'AA-AgentPerf', 'Throughput ceiling, 4x GB300 or B300', 150000000, 'tokens/s per MW', NULL, 'aa-agentperf'),
('agentperf-mi355x', 1, 'AA-AgentPerf', 'Throughput, AMD MI355X', 70000000, 'tokens/s per MW', NULL, 'aa-agentperf'),
('agentperf-gb300-vs-b300', 1, 'AA-AgentPerf', 'GB300 vs B300', NULL, NULL, 'GB300 pulls ahead as output speed rises', 'aa-agentperf'),
('agentperf-mi355x-floor', 1, 'AA-AgentPerf', 'Caveat on MI355X', NULL, NULL, 'Configuration built in house by Artificial Analysis, not submitted by AMD; may have more headroom: treat it as a floor', 'aa-agentperf'),
('agentperf-mi35x-accuracy', 1, 'AA-AgentPerf', 'Caveat on the MI35x accuracy gate', NULL, NULL, 'The accuracy gate for the ROCm path has not run on hardware; one of its two pass/fail thresholds is a placeholder', 'aa-agentperf'),
('agentperf-deepseek-agents', 1, 'AA-AgentPerf', 'Agents per MW, GB300 NVL72, DeepSeek V4 Pro, 20 tokens/s tier (June launch)', 91500, 'agents per MW', NULL, 'aa-agentperf'),
('agentperf-gb300-node-kw-low', 1, 'AA-AgentPerf', 'Accelerator power of 4x GB300, low', 5, 'kW', NULL, 'aa-agentperf'),
('agentperf-gb300-node-kw-high', 1, 'AA-AgentPerf', 'Accelerator power of 4x GB300, high', 6, 'kW', NULL, 'aa-agentperf'),
('agentperf-node-tps-low', 1, 'AA-AgentPerf', '150 M/MW per 4x GB300 node, low (arithmetic)', 750000, 'tokens/s per node', NULL, 'aa-agentperf'),
('agentperf-node-tps-high', 1, 'AA-AgentPerf', '150 M/MW per 4x GB300 node, high (arithmetic)', 900000, 'tokens/s per node', NULL, 'aa-agentperf'),
('agentperf-gpu-tps-low', 1, 'AA-AgentPerf', '150 M/MW per GPU, low (arithmetic)', 190000, 'tokens/s per GPU', NULL, 'aa-agentperf'),
('agentperf-gpu-tps-high', 1, 'AA-AgentPerf', '150 M/MW per GPU, high (arithmetic)', 225000, 'tokens/s per GPU', NULL, 'aa-agentperf'),
('aa-output-speed', 1, 'Hosted model listing', 'Output speed', 142.9, 'tokens/s', NULL, 'aa-model-page'),
('aa-output-speed-median', 1, 'Hosted model listing', 'Median output speed of comparable open-weight models', 75.4, 'tokens/s', NULL, 'aa-model-page'),
('aa-ttft', 1, 'Hosted model listing', 'Time to first token', 0.76, 's', NULL, 'aa-model-page'),
('aa-intelligence-index', 1, 'Hosted model listing', 'Intelligence Index', 39, 'points', NULL, 'aa-model-page'),
('aa-intelligence-index-median', 1, 'Hosted model listing', 'Median Intelligence Index of open-weight models of similar size', 19, 'points', NULL, 'aa-model-page'),
('aa-price-in', 1, 'Hosted model listing', 'Input price', 1.25, '$ per million tokens', NULL, 'aa-model-page'),
('aa-price-out', 1, 'Hosted model listing', 'Output price', 4.25, '$ per million tokens', NULL, 'aa-model-page'),
('aa-cache-discount', 1, 'Hosted model listing', 'Cache discount on input', 0.88, 'fraction', NULL, 'aa-model-page'),
('aa-price-cached', 1, 'Hosted model listing', 'Cached input price', 0.15, '$ per million tokens', NULL, 'aa-model-page'),
('aa-price-blended', 1, 'Hosted model listing', 'Blended price at 7 cached : 2 uncached : 1 output', 0.78, '$ per million tokens', NULL, 'aa-model-page'),
('aa-cost-per-task', 1, 'Hosted model listing', 'Cost per Intelligence Index task', 0.84, '$', NULL, 'aa-model-page'),
('sglang-configurations', 1, 'SGLang cookbook', 'Configurations measured', 43, 'configurations', NULL, 'sglang-cookbook'),
('sglang-deployments', 1, 'SGLang cookbook', 'Deployments picked', 5, 'deployments', NULL, 'sglang-cookbook'),
('sglang-frontier-area', 1, 'SGLang cookbook', 'Share of the latency-throughput frontier area covered', 0.81, 'fraction', NULL, 'sglang-cookbook'),
('sglang-c1-concurrency', 1, 'SGLang cookbook', 'Point 1: concurrency', 1, 'users', 'two nodes, TP8 EP8', 'sglang-cookbook'),
('sglang-c1-tps', 1, 'SGLang cookbook', 'Point 1: output tokens/s per user', 485.8, 'tokens/s', NULL, 'sglang-cookbook'),
('sglang-c1-total', 1, 'SGLang cookbook', 'Point 1: total tokens/s per GPU', 2514, 'tokens/s per GPU', NULL, 'sglang-cookbook'),
('sglang-c1-ttft-p95', 1, 'SGLang cookbook', 'Point 1: p95 time to first token', 0.10, 's', NULL, 'sglang-cookbook'),
('sglang-c16-concurrency', 1, 'SGLang cookbook', 'Point 2: concurrency', 16, 'users', 'four GPUs, TP4 EP4', 'sglang-cookbook'),
('sglang-c16-tps', 1, 'SGLang cookbook', 'Point 2: output tokens/s per user', 208.7, 'tokens/s', NULL, 'sglang-cookbook'),
('sglang-c16-total', 1, 'SGLang cookbook', 'Point 2: total tokens/s per GPU', 49646, 'tokens/s per GPU', NULL, 'sglang-cookbook'),
('sglang-c64-concurrency', 1, 'SGLang cookbook', 'Point 3: concurrency', 64, 'users', NULL, 'sglang-cookbook'),
('sglang-c64-tps', 1, 'SGLang cookbook', 'Point 3: output tokens/s per user', 97.1, 'tokens/s', NULL, 'sglang-cookbook'),
('sglang-c64-total', 1, 'SGLang cookbook', 'Point 3: total tokens/s per GPU', 114342, 'tokens/s per GPU', NULL, 'sglang-cookbook'),
('sglang-c160-concurrency', 1, 'SGLang cookbook', 'Point 4: concurrency', 160, 'users', 'with HiCache', 'sglang-cookbook'),
('sglang-c160-tps', 1, 'SGLang cookbook', 'Point 4: output tokens/s per user', 40.9, 'tokens/s', NULL, 'sglang-cookbook'),
('sglang-c160-total', 1, 'SGLang cookbook', 'Point 4: total tokens/s per GPU', 185382, 'tokens/s per GPU', NULL, 'sglang-cookbook'),
('sglang-c160-output', 1, 'SGLang cookbook', 'Point 4: generated output tokens/s per GPU', 1237, 'tokens/s per GPU', NULL, 'sglang-cookbook'),
('sglang-cache-hit-low', 1, 'SGLang cookbook', 'Prefix-cache hit rate across the runs, low', 0.968, 'fraction', NULL, 'sglang-cookbook'),
('sglang-cache-hit-high', 1, 'SGLang cookbook', 'Prefix-cache hit rate across the runs, high', 0.976, 'fraction', NULL, 'sglang-cookbook'),
('sglang-output-share', 1, 'SGLang cookbook', 'Output share of counted tokens at the top of the curve', 0.007, 'fraction', NULL, 'sglang-cookbook'),
('sglang-cached-share-of-input', 1, 'SGLang cookbook', 'Share of input served from cache at the top of the curve', 0.97, 'fraction', NULL, 'sglang-cookbook'),
('sglang-usable-points', 1, 'SGLang cookbook', 'Points described in enough detail to use', 4, 'points', NULL, 'sglang-cookbook'),
('inferencex-b300-price', 1, 'InferenceX', 'B300 chip-hour price behind the curve', 2.26, '$ per GPU-hour', NULL, 'inferencex'),
('inferencex-mi355x-price', 1, 'InferenceX', 'MI355X chip-hour price behind the curve', 1.50, '$ per GPU-hour', NULL, 'inferencex'),
('inferencex-b300-128', 1, 'InferenceX', 'B300 cost at 128 tokens/s per user', 0.019, '$ per million tokens', NULL, 'inferencex'),
('inferencex-b300-191', 1, 'InferenceX', 'B300 cost at 191 tokens/s per user', 0.027, '$ per million tokens', NULL, 'inferencex'),
('inferencex-b300-254', 1, 'InferenceX', 'B300 cost at 254 tokens/s per user', 0.046, '$ per million tokens', NULL, 'inferencex'),
('inferencex-mi355x-128', 1, 'InferenceX', 'MI355X cost at 128 tokens/s per user', 0.024, '$ per million tokens', NULL, 'inferencex'),
('inferencex-mi355x-191', 1, 'InferenceX', 'MI355X cost at 191 tokens/s per user', 0.044, '$ per million tokens', NULL, 'inferencex'),
('inferencex-mi355x-254', 1, 'InferenceX', 'MI355X cost at 254 tokens/s per user', 0.076, '$ per million tokens', NULL, 'inferencex'),
('weights-bf16', 1, 'Deployment', 'BF16 checkpoint', 1650, 'GB', NULL, 'meta-release'),
('weights-nvfp4', 1, 'Deployment', 'NVFP4 build', 537, 'GB', NULL, 'meta-release'),
('smallest-node', 1, 'Deployment', 'Smallest sensible node', 4, 'GPUs', 'four Blackwell Ultra GPUs, the configuration behind the throughput figures', 'aa-agentperf'),
('workstation-demo', 1, 'Deployment', 'Workstation demo', 2, 'M5 Ultra Mac Studios', 'ran locally: a demo, not a serving plan', 'meta-release'),
('licence-threshold', 1, 'Deployment', 'Annual gross revenue above which offering the model as a service needs an agreement with Meta', 20000000, '$', NULL, 'meta-license'),
('licence-attribution', 1, 'Deployment', 'Attribution', NULL, NULL, 'Products must show "Built with Muse Spark Open"', 'meta-license'),
('router-checkpoints', 1, 'Router', 'Hosted checkpoints', NULL, NULL, 'Muse Spark 1.1 and Muse Spark 1.2 (the router does not serve the open checkpoint)', 'orcarouter'),
('router-price-in', 1, 'Router', 'Hosted input price', 1.25, '$ per million tokens', NULL, 'orcarouter'),
('router-price-out', 1, 'Router', 'Hosted output price', 4.25, '$ per million tokens', NULL, 'orcarouter'),
('router-markup', 1, 'Router', 'Markup on the provider''s list price', 0, 'fraction', NULL, 'orcarouter'),
('router-features', 1, 'Router', 'Features', NULL, NULL, 'Automatic failover, a routing DSL, model fusion (compare answers across a panel)', 'orcarouter'),
('tco-b300-allin-kw', 1, 'SemiAnalysis TCO', 'All-in power per B300 (April 2026)', 2.17, 'kW', NULL, 'semianalysis-tco-2026-04'),
('tco-gb300-allin-kw', 1, 'SemiAnalysis TCO', 'All-in power per GB300 (April 2026)', 2.1, 'kW', NULL, 'semianalysis-tco-2026-04'),
('tco-mi355x-allin-kw', 1, 'SemiAnalysis TCO', 'All-in power per MI355X (April 2026)', 2.65, 'kW', NULL, 'semianalysis-tco-2026-04');
