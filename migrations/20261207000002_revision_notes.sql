-- What an import said of its files, one note a line: price entries no dataset model has, points
-- left out of a frontier, and what `--skip-invalid` left out with each one's reason. Shown on
-- /data beside the revision; revisions written before it have none.
ALTER TABLE dataset_revisions ADD COLUMN notes TEXT NOT NULL DEFAULT '';
