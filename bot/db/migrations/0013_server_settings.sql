-- 0013_server_settings: a server's own settings, and the call for players a new lobby makes.
--
-- Why: many tables in one channel's server. An admin may name a role that wants to hear of
-- open tables, and a server may play its games in threads by default.
-- * server_settings: one row per server that changed a setting; a missing row means the
--   defaults (no role, no threads).
--   * lobby_role_id: the role a new lobby with free seats mentions once (NULL: none).
--   * threads: 1 when `/cascadia new` opens its table in a thread by default.
-- * games.lobby_pinged_role: the role a lobby mentioned when it opened (NULL: none), so that
--   no restart, edit or refresh of its message mentions it again.
-- * games.lobby_warned: 1 once the lobby's channel was told, a day before, that it closes.
-- A lobby nobody starts closes after a few days, told from games.created_at: the index lists a
-- server's open lobbies, newest first, and finds the old ones.
CREATE TABLE server_settings (
    guild_id      BIGINT  PRIMARY KEY,
    lobby_role_id BIGINT,
    threads       INTEGER NOT NULL DEFAULT 0 CHECK (threads IN (0, 1))
);

ALTER TABLE games ADD COLUMN lobby_pinged_role BIGINT;

ALTER TABLE games ADD COLUMN lobby_warned INTEGER NOT NULL DEFAULT 0 CHECK (lobby_warned IN (0, 1));

CREATE INDEX games_open_lobbies ON games (guild_id, created_at) WHERE status = 'lobby';
