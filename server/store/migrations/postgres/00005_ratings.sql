-- Ratings: each account's Glicko-2 rating in each pool (one
-- pool a preset), the history of every rated game's update (for the
-- profile's chart and a game's rating changes), and on each game whether
-- it is rated and each seat's rating when the seat was taken. Times are
-- milliseconds since 1970 (UTC).

-- +goose Up
ALTER TABLE games ADD COLUMN rated        BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_rating DOUBLE PRECISION NOT NULL DEFAULT 0; -- 0: none recorded
ALTER TABLE games ADD COLUMN black_rd     DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_rating DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_rd     DOUBLE PRECISION NOT NULL DEFAULT 0;

-- A rating as its last rated game left it; the deviation's growth since
-- (one empty rating period a week) is worked out when it is read.
CREATE TABLE ratings (
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    pool       TEXT    NOT NULL,              -- a preset's name
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL DEFAULT 0,     -- rated games played in the pool
    last_ms    BIGINT NOT NULL DEFAULT 0,     -- the end of the last one; 0: none yet
    PRIMARY KEY (account_id, pool)
);
CREATE INDEX ratings_pool ON ratings (pool, rating);

-- One row per player of a rated game, written in the transaction that
-- ends the game: the key (game, account) is what makes a second update
-- for the same game fail.
CREATE TABLE rating_history (
    game_id       TEXT    NOT NULL REFERENCES games (id),
    account_id    BIGINT NOT NULL REFERENCES accounts (id),
    pool          TEXT    NOT NULL,
    before_rating DOUBLE PRECISION NOT NULL,          -- the rating the update started from
    before_rd     DOUBLE PRECISION NOT NULL,
    rating        DOUBLE PRECISION NOT NULL,          -- after the game
    rd            DOUBLE PRECISION NOT NULL,
    volatility    DOUBLE PRECISION NOT NULL,
    at_ms         BIGINT NOT NULL,
    PRIMARY KEY (game_id, account_id)
);
CREATE INDEX rating_history_account ON rating_history (account_id, pool, at_ms);

-- +goose Down
DROP TABLE rating_history;
DROP TABLE ratings;
ALTER TABLE games DROP COLUMN white_rd;
ALTER TABLE games DROP COLUMN white_rating;
ALTER TABLE games DROP COLUMN black_rd;
ALTER TABLE games DROP COLUMN black_rating;
ALTER TABLE games DROP COLUMN rated;
