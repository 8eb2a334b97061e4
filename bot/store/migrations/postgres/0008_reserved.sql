-- 0008_reserved: no change; see ../0008_reserved.sql.
SELECT 1;
