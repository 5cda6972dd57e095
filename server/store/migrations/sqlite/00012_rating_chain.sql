-- The order of each player's rating updates in a pool: n is the update's
-- place in the player's chain (1 for the first rated game), set when the
-- update is written (SQLite takes one writer at a time), so that the
-- history is read in the order the updates were applied (each one's start
-- the rating the one before left), not by the games' end times, which are
-- equal for games ending at once.
--
-- The updates written before are numbered by their time, and, within one
-- millisecond, by their rowid (the order they were written in).

-- +goose Up
ALTER TABLE rating_history ADD COLUMN n INTEGER NOT NULL DEFAULT 0;
UPDATE rating_history SET n = o.n
    FROM (SELECT rowid AS r,
                 row_number() OVER (PARTITION BY account_id, pool ORDER BY at_ms, rowid) AS n
          FROM rating_history) o
    WHERE rating_history.rowid = o.r;
CREATE UNIQUE INDEX rating_history_chain ON rating_history (account_id, pool, n);
DROP INDEX rating_history_account;

-- +goose Down
CREATE INDEX rating_history_account ON rating_history (account_id, pool, at_ms);
DROP INDEX rating_history_chain;
ALTER TABLE rating_history DROP COLUMN n;
