-- 0017_languages: the language each game is told in, and each person's and server's.
--
-- Why: a public message is in its server's language and a private one in its reader's. A
-- reminder, digest or direct message is written outside any command, so the languages last
-- seen are kept.
-- * games.locale: the Discord locale the game's public messages are written in, fixed when its
--   lobby opens (the server's; for a game in direct messages, its player's). NULL: English.
-- * server_locales: a server's locale as Discord last told it (seen), and the one an admin
--   chose for its public messages instead (chosen; NULL: Discord's).
-- * person_locales: the locale each person's Discord client was last seen with, for the direct
--   messages written to them outside a command.
ALTER TABLE games ADD COLUMN locale TEXT;

CREATE TABLE server_locales (
    guild_id BIGINT NOT NULL PRIMARY KEY,
    seen     TEXT,
    chosen   TEXT
);

CREATE TABLE person_locales (
    user_id BIGINT NOT NULL PRIMARY KEY,
    locale  TEXT   NOT NULL
);
