-- Puzzles (package puzzle): each one proved by the solver and checked by a
-- second method before it is stored. body is the puzzle's JSON as
-- json.Marshal writes puzzle.Puzzle (read back with puzzle.Decode, which
-- checks it); the columns are what the server looks puzzles up by. A
-- puzzle's rating moves with the rated attempts (Glicko-2): rating, rd
-- and volatility are its current rating, the JSON's rating only its start.
-- themes is the themes' names between spaces (" win capture "), so that
-- LIKE '% capture %' finds a theme. Times are milliseconds since 1970 (UTC).

-- +goose Up
CREATE TABLE puzzles (
    id         TEXT PRIMARY KEY,
    rules      TEXT NOT NULL,              -- rules.Rules.String: "alak size=7"
    preset     TEXT NOT NULL,              -- the preset's name: the pool
    body       TEXT NOT NULL,
    themes     TEXT NOT NULL,
    source     TEXT NOT NULL,              -- game, selfplay, table, position
    game_id    TEXT NOT NULL DEFAULT '',   -- the finished game it was found in
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    volatility REAL NOT NULL,
    plays      INTEGER NOT NULL DEFAULT 0,      -- first attempts
    solved     INTEGER NOT NULL DEFAULT 0,      -- first attempts that solved it
    created_ms INTEGER NOT NULL
);
CREATE INDEX puzzles_pool ON puzzles (preset, rating);
CREATE INDEX puzzles_rules ON puzzles (rules, rating);

-- A personal puzzle: a position of a finished game where the account's
-- move changed the outcome ("learn from your mistakes").
CREATE TABLE puzzle_owners (
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    puzzle_id  TEXT NOT NULL REFERENCES puzzles (id),
    game_id    TEXT NOT NULL,
    ply        INTEGER NOT NULL,
    played     TEXT NOT NULL,              -- the move the account chose there
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);
CREATE INDEX puzzle_owners_game ON puzzle_owners (game_id);

-- One row per account and puzzle: the key is what makes an account's
-- first attempt the only one that counts for the ratings (two attempts at
-- once: one inserts the row, the other finds it). The first attempt's
-- result and rating change stay; later attempts count in tries and last_*.
CREATE TABLE puzzle_attempts (
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    puzzle_id     TEXT NOT NULL REFERENCES puzzles (id),
    first_correct INTEGER NOT NULL,
    last_correct  INTEGER NOT NULL,
    tries         INTEGER NOT NULL,
    rated         INTEGER NOT NULL DEFAULT 0,   -- the first attempt moved the ratings
    before_rating REAL NOT NULL DEFAULT 0,   -- the account's puzzle rating before it
    before_rd     REAL NOT NULL DEFAULT 0,
    rating        REAL NOT NULL DEFAULT 0,   -- and after it
    rd            REAL NOT NULL DEFAULT 0,
    puzzle_before REAL NOT NULL DEFAULT 0,   -- the puzzle's rating before it
    puzzle_after  REAL NOT NULL DEFAULT 0,
    first_ms      INTEGER NOT NULL,
    last_ms       INTEGER NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);
CREATE INDEX puzzle_attempts_recent ON puzzle_attempts (account_id, last_ms);

-- Each account's puzzle rating: one pool of its own, apart from the games'.
CREATE TABLE puzzle_ratings (
    account_id INTEGER PRIMARY KEY REFERENCES accounts (id),
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,      -- rated attempts
    last_ms    INTEGER NOT NULL DEFAULT 0       -- the last one; 0: none yet
);

-- +goose Down
DROP TABLE puzzle_ratings;
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_owners;
DROP TABLE puzzles;
