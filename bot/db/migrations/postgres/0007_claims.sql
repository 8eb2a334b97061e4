-- 0007_claims: which bot process posts a message and runs a game's background work.
--
-- Why, and what each column means: see ../0007_claims.sql.
ALTER TABLE outbox ADD COLUMN claimed_by text;
ALTER TABLE outbox ADD COLUMN lease_until timestamptz;
ALTER TABLE games ADD COLUMN claimed_by text;
ALTER TABLE games ADD COLUMN lease_until timestamptz;
