-- 0007_claims: which bot process posts a message and runs a game's background work.
--
-- Why: several bot processes may share one database, each running some of the bot's shards.
-- A process claims an unsent message (and a game's reminders, votes, pings and computer
-- turns) before acting on it, for a lease: ``claimed_by`` names the process, ``lease_until``
-- is when the claim lapses, after which another process may take the row over (its first
-- claimer died). Both NULL: never claimed.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN lease_until TEXT;
ALTER TABLE games ADD COLUMN claimed_by TEXT;
ALTER TABLE games ADD COLUMN lease_until TEXT;
