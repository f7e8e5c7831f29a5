-- Columns the open models' revision needs; no revision changes and every shipped row keeps NULL
-- in them, so saved links keep their numbers.
--
-- curves.tier: how far the measurement can be trusted, shown wherever the curve is named:
--   audited       an MLPerf result, reviewed by the other submitters before publication;
--   vendor        a framework or chip maker measuring its own stack;
--   experimental  development runs (the curve's note says what makes them so).
--   NULL: not stated (revisions 1 to 3, whose sources say what they are).
-- curves.setup: what tells the curve apart from the model's others on its chip (an MLPerf
--   submitter and system, a run's input length), named with it; NULL: nothing more to say.
-- curve_points.power_w_per_gpu: mean power per GPU measured while the point ran (W), where the
--   benchmark sampled it; the chip's all-in figure stays the one the bill uses.
-- api_offers.provider, price_tiers.provider: who sells it, one spelling per provider across the
--   price tables, so offers of one model from one provider in two tables can be compared.
ALTER TABLE curves ADD COLUMN tier TEXT
    CHECK (tier IS NULL OR tier IN ('audited', 'vendor', 'experimental'));
ALTER TABLE curves ADD COLUMN setup TEXT;
ALTER TABLE curve_points ADD COLUMN power_w_per_gpu DOUBLE PRECISION
    CHECK (power_w_per_gpu IS NULL OR power_w_per_gpu > 0);
ALTER TABLE api_offers ADD COLUMN provider TEXT;
ALTER TABLE price_tiers ADD COLUMN provider TEXT;
