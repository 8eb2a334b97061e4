-- 0002_outbox_snapshots: outbox snapshots move to their own table, deleted once sent.
--
-- Why: a snapshot (the state to draw a message's pictures from) is a few KiB, so in 0001 each
-- outbox row filled most of a page; clearing the snapshot after sending left those pages
-- nearly empty for good, about 4 KiB per message and 150 KiB per finished game. Kept apart,
-- the outbox rows (text, mentions, bookkeeping) pack densely, and a sent message's snapshot
-- row is deleted, so its pages are reused or given back (bot/store.py turns on incremental
-- auto-vacuum).
--
-- The outbox is rebuilt to drop its snapshot column and pack its rows; every row and id is
-- kept, and the AUTOINCREMENT counter carries over, so an id (a Discord nonce) is never
-- reused. The unsent snapshots move to the new table.

CREATE TABLE outbox_new (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    channel_id INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    payload    TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error TEXT,
    sent_at    TEXT,
    message_id INTEGER
);

INSERT INTO outbox_new (
    id, game_id, channel_id, kind, payload, created_at, attempts, last_error, sent_at, message_id
)
SELECT id, game_id, channel_id, kind, payload, created_at, attempts, last_error, sent_at,
       message_id
FROM outbox ORDER BY id;

UPDATE sqlite_sequence
SET seq = (SELECT seq FROM sqlite_sequence WHERE name = 'outbox')
WHERE name = 'outbox_new' AND EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'outbox');

CREATE TABLE outbox_snapshots_moving (outbox_id INTEGER PRIMARY KEY, snapshot TEXT NOT NULL);

INSERT INTO outbox_snapshots_moving (outbox_id, snapshot)
SELECT id, snapshot FROM outbox WHERE snapshot IS NOT NULL AND sent_at IS NULL;

DROP TABLE outbox;

ALTER TABLE outbox_new RENAME TO outbox;

CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL;

-- What is needed to draw an unsent message's pictures; the row goes when the message is sent.
CREATE TABLE outbox_snapshots (
    outbox_id INTEGER PRIMARY KEY REFERENCES outbox (id),
    snapshot  TEXT    NOT NULL
);

INSERT INTO outbox_snapshots (outbox_id, snapshot)
SELECT outbox_id, snapshot FROM outbox_snapshots_moving ORDER BY outbox_id;

DROP TABLE outbox_snapshots_moving;
