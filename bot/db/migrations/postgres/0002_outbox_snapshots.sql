-- 0002_outbox_snapshots: outbox snapshots move to their own table, deleted once sent.
--
-- Why: see ../0002_outbox_snapshots.sql. PostgreSQL drops a column in place, so the outbox
-- keeps its rows and its id sequence; only the unsent snapshots move.

CREATE TABLE outbox_snapshots (
    outbox_id bigint PRIMARY KEY REFERENCES outbox (id),
    snapshot  text   NOT NULL
);

INSERT INTO outbox_snapshots (outbox_id, snapshot)
SELECT id, snapshot FROM outbox WHERE snapshot IS NOT NULL AND sent_at IS NULL ORDER BY id;

ALTER TABLE outbox DROP COLUMN snapshot;
