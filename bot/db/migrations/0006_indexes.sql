-- 0006_indexes: indexes for a database of many thousands of games.
--
-- Why: with ten thousand finished games, every periodic check (deadlines, votes, computer
-- seats, pings owed) read the whole games table, state included, to find the thousand being
-- played; and finding a game's latest turn message read the outbox of every game backwards.

-- The games being played: what every periodic check starts from.
CREATE INDEX games_playing ON games (id) WHERE status = 'active';

-- A game's messages, newest last: its latest turn message without reading other games'.
CREATE INDEX outbox_by_game ON outbox (game_id, id);
