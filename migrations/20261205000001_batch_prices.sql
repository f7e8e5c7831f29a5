-- API offers may state a price for batch traffic (sent asynchronously, answered within a day):
-- a discount on every class, 0 to 1, from the offer's own source. NULL: the source states no
-- batch price, and batch tokens are priced as the others. No revision changes: every shipped
-- offer keeps NULL, so saved links keep their numbers; imports fill it from price tables that
-- carry batch prices (LiteLLM's `*_cost_per_token_batches`).
ALTER TABLE api_offers ADD COLUMN batch_discount DOUBLE PRECISION
    CHECK (batch_discount IS NULL OR (batch_discount >= 0 AND batch_discount <= 1));
