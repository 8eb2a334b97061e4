-- 0006_indexes: indexes for a database of many thousands of games.
--
-- Why: see ../0006_indexes.sql.

CREATE INDEX games_playing ON games (id) WHERE status = 'active';

CREATE INDEX outbox_by_game ON outbox (game_id, id);
