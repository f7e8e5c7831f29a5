-- Secrets of the deployment, shared by every replica. `notice`: the key the server signs the
-- messages it writes into a link with (a usage export's or a pasted benchmark's outcome, sent
-- back by a redirect), so that the page shows only messages it wrote itself. Made at random by
-- the first server to start on the database.
CREATE TABLE server_keys (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
