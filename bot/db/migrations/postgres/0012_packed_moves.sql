-- 0012_packed_moves: a finished game's move log packed into one row after a week.
--
-- Why, and what each column means: see ../0012_packed_moves.sql. The state text stays text
-- here: PostgreSQL compresses long text by itself (TOAST).
CREATE TABLE packed_moves (
    game_id bigint  PRIMARY KEY REFERENCES games (id),
    moves   integer NOT NULL CHECK (moves >= 0),
    packed  bytea   NOT NULL
);

-- A game's move rows may go once its packed log holds them; they are still never edited.
CREATE FUNCTION moves_delete_packed_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM packed_moves p WHERE p.game_id = OLD.game_id) THEN
        RAISE EXCEPTION 'moves are append-only' USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN OLD;
END;
$$;

DROP TRIGGER moves_no_delete ON moves;

CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
    FOR EACH ROW EXECUTE FUNCTION moves_delete_packed_only();
