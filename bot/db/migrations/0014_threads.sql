-- 0014_threads: a game may live in a thread of its own under a channel, and a game may continue
-- one that finished (Play again).
--
-- Why: a server plays many tables in one channel, each in its thread. The thread is the game's
-- channel_id as before (Discord's threads are channels), so every query by channel holds.
-- * parent_id: the channel the game's thread hangs from; NULL for a game in a channel (or a
--   direct message) of its own. The channel gets one line when the table opens and when it ends.
-- * continues: the finished game whose players pressed Play again to open this one.
ALTER TABLE games ADD COLUMN parent_id INTEGER;
ALTER TABLE games ADD COLUMN continues INTEGER REFERENCES games (id);

CREATE INDEX games_continuing ON games (continues) WHERE continues IS NOT NULL;
