-- The opening explorer: for each rules and move prefix from
-- the rules' own start (key: store.ExplorerKey, a 64-bit hash of both),
-- the moves finished games played next, with their results; and the games
-- counted, so that none is counted twice. The server fills both when a
-- game finishes and counts the games finished before (the backfill) at
-- start.

-- +goose Up
CREATE TABLE explorer (
    prefix  BIGINT  NOT NULL,
    move    TEXT    NOT NULL,
    rules   TEXT    NOT NULL,
    games   BIGINT  NOT NULL DEFAULT 0,
    x_wins  BIGINT  NOT NULL DEFAULT 0,
    draws   BIGINT  NOT NULL DEFAULT 0,
    o_wins  BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (prefix, move)
);

CREATE TABLE explorer_games (
    game_id TEXT PRIMARY KEY
);

-- +goose Down
DROP TABLE explorer_games;
DROP TABLE explorer;
