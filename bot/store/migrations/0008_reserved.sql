-- 0008_reserved: no change; the number belongs to the per-round scores kept at game end.
--
-- Why: migrations are numbered without gaps, and 0009 (the standings) must not take 0008's
-- place. The file holding the round scores replaces this one.
SELECT 1;
