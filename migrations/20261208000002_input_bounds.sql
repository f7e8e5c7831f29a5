-- Columns for a curve whose sources bound its input rather than state it (MLPerf publishes
-- each benchmark's longest prompt and its mean output, not its mean input); no revision
-- changes and every shipped row keeps NULL in them, so saved links keep their numbers.
--
-- curves.input_share_low / input_share_high: the least and greatest uncached-input share of
--   the curve's mix its sources allow, output the rest; the curve's mix is servecost's
--   assumption inside them and the judgement draws it across them. NULL: the mix is stated,
--   or assumed without bounds.
ALTER TABLE curves ADD COLUMN input_share_low DOUBLE PRECISION
    CHECK (input_share_low IS NULL OR (input_share_low >= 0 AND input_share_low < 1));
ALTER TABLE curves ADD COLUMN input_share_high DOUBLE PRECISION
    CHECK (input_share_high IS NULL OR (input_share_high > 0 AND input_share_high < 1));
