-- 0014_threads: a game in a thread of its own, and Play again. Why, and what each column means:
-- see ../0014_threads.sql.
ALTER TABLE games ADD COLUMN parent_id bigint;
ALTER TABLE games ADD COLUMN continues bigint REFERENCES games (id);

CREATE INDEX games_continuing ON games (continues) WHERE continues IS NOT NULL;
