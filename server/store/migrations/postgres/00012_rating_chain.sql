-- The order of each player's rating updates in a pool: n is the update's
-- place in the player's chain (1 for the first rated game), set when the
-- update is written, under the lock of the player's rating row, so that
-- the history is read in the order the updates were applied (each one's
-- start the rating the one before left), not by the games' end times,
-- which are equal for games ending at once.
--
-- The updates written before are numbered by their time, and, within one
-- millisecond, by their place in the table: the order they were written
-- in, as the table's rows are never updated or deleted (only the space of
-- an insert rolled back, reused once vacuumed, could put a later update
-- before an earlier one of the same millisecond).

-- +goose Up
ALTER TABLE rating_history ADD COLUMN n BIGINT NOT NULL DEFAULT 0;
UPDATE rating_history h SET n = o.n
    FROM (SELECT game_id, account_id,
                 row_number() OVER (PARTITION BY account_id, pool ORDER BY at_ms, ctid) AS n
          FROM rating_history) o
    WHERE h.game_id = o.game_id AND h.account_id = o.account_id;
CREATE UNIQUE INDEX rating_history_chain ON rating_history (account_id, pool, n);
DROP INDEX rating_history_account;

-- +goose Down
CREATE INDEX rating_history_account ON rating_history (account_id, pool, at_ms);
DROP INDEX rating_history_chain;
ALTER TABLE rating_history DROP COLUMN n;
