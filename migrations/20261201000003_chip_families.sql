-- Revision 3: each chip names its family, so that curves of one model on chips of one family
-- can be compared. Independent measurements of the same model on the same family (InferenceX's
-- B300 runs and SGLang's GB300 runs, both Blackwell Ultra) disagree by 2.5 to 3.5 times at every
-- speed; the sureness figures draw over that spread. Revisions 1 and 2 are not touched: links
-- pinned to them keep their numbers (their chips name no family, so they are compared with none).
--
-- Families (NVIDIA and AMD product pages, vendor-specs):
--   blackwell-ultra   NVIDIA B300 (HGX) and GB300 (Grace Blackwell NVL72);
--   cdna4             AMD Instinct MI355X.

ALTER TABLE chips ADD COLUMN family TEXT;

INSERT INTO dataset_revisions (id, created_at, description, source_files) VALUES
(3, '2026-12-01T12:00:00Z', 'Chip families: B300 and GB300 are Blackwell Ultra, MI355X is CDNA 4; curves of one model on one family are compared for the sureness figures', 'vendor-specs');

INSERT INTO chips (id, revision, name, memory_gb, memory_source, accelerator_kw, accelerator_kw_source, all_in_kw, all_in_kw_source, accelerator_kw_measure, power_caveat, family) VALUES
('b300', 3, 'NVIDIA B300', 288, 'vendor-specs', 1.375, 'aa-agentperf', 2.17, 'semianalysis-tco-2026-04', 'accelerator',
 'Accelerator power borrowed from the GB300 arithmetic (5 to 6 kW per 4 GPUs): AgentPerf publishes no B300 figure of its own.', 'blackwell-ultra'),
('gb300', 3, 'NVIDIA GB300', 288, 'vendor-specs', 1.375, 'aa-agentperf', 2.1, 'semianalysis-tco-2026-04', 'accelerator',
 'Accelerator power from AgentPerf''s 5 to 6 kW per 4 GPUs (midpoint).', 'blackwell-ultra'),
('mi355x', 3, 'AMD Instinct MI355X', 288, 'vendor-specs', 1.4, 'vendor-specs', 2.65, 'semianalysis-tco-2026-04', 'board',
 'Total board power from AMD''s data sheet, not AgentPerf''s measured accelerator power (GPU, die and HBM): per-MW figures decoded with it are low.', 'cdna4');
