-- The play server's first schema: accounts, tokens, games and the log of
-- their moves. Times are milliseconds since 1970 (UTC), durations
-- milliseconds.

-- +goose Up
CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY,
    name          TEXT,                       -- NULL for a guest
    name_key      TEXT UNIQUE,                -- lower-case name: names are unique without regard to case
    pass_hash     TEXT    NOT NULL DEFAULT '',
    email         TEXT    NOT NULL DEFAULT '',
    confirm_moves INTEGER NOT NULL DEFAULT 0,
    created_ms    INTEGER NOT NULL
);

CREATE TABLE tokens (
    hash       TEXT PRIMARY KEY,              -- hex SHA-256 of the secret
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    kind       TEXT    NOT NULL,              -- session | api
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
);

CREATE TABLE games (
    id           TEXT PRIMARY KEY,
    rules        TEXT    NOT NULL,
    start        TEXT    NOT NULL DEFAULT '',
    preset       TEXT    NOT NULL,
    size         TEXT    NOT NULL,
    black_id     INTEGER NOT NULL DEFAULT 0,
    white_id     INTEGER NOT NULL DEFAULT 0,
    black_bot    TEXT    NOT NULL DEFAULT '',
    white_bot    TEXT    NOT NULL DEFAULT '',
    creator_id   INTEGER NOT NULL,
    color        TEXT    NOT NULL,
    kind         TEXT    NOT NULL,
    opponent_id  INTEGER NOT NULL DEFAULT 0,
    invite_hash  TEXT    NOT NULL DEFAULT '',
    clock        TEXT    NOT NULL,
    state        TEXT    NOT NULL,
    version      INTEGER NOT NULL,
    ply          INTEGER NOT NULL,
    entries      INTEGER NOT NULL,
    black_ms     INTEGER NOT NULL DEFAULT 0,
    white_ms     INTEGER NOT NULL DEFAULT 0,
    turn_ms      INTEGER NOT NULL DEFAULT 0,
    deadline_ms  INTEGER NOT NULL DEFAULT 0, -- 0: no deadline
    warned_entry INTEGER NOT NULL DEFAULT -1,
    draw_offer   TEXT    NOT NULL DEFAULT '',
    takeback     TEXT    NOT NULL DEFAULT '',
    result       TEXT    NOT NULL DEFAULT '',
    reason       TEXT    NOT NULL DEFAULT '',
    winner       TEXT    NOT NULL DEFAULT '',
    expires_ms   INTEGER NOT NULL DEFAULT 0,
    created_ms   INTEGER NOT NULL,
    updated_ms   INTEGER NOT NULL,
    ended_ms     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX games_due ON games (state, deadline_ms);
CREATE INDEX games_expires ON games (state, expires_ms);
CREATE INDEX games_black ON games (black_id, updated_ms);
CREATE INDEX games_white ON games (white_id, updated_ms);
CREATE INDEX games_updated ON games (state, updated_ms);

-- The log: every move and takeback, never changed once written. The key
-- (game, entry) is what makes a second write of the same entry fail.
CREATE TABLE moves (
    game_id  TEXT    NOT NULL REFERENCES games (id),
    n        INTEGER NOT NULL,
    move     TEXT    NOT NULL,               -- '' for a takeback
    undo     INTEGER NOT NULL DEFAULT 0,     -- moves a takeback took back
    by_id    INTEGER NOT NULL,
    at_ms    INTEGER NOT NULL,
    black_ms INTEGER NOT NULL,
    white_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, n)
);

CREATE TABLE analyses (
    game_id    TEXT PRIMARY KEY REFERENCES games (id),
    body       TEXT    NOT NULL,
    created_ms INTEGER NOT NULL
);

-- +goose Down
DROP TABLE analyses;
DROP TABLE moves;
DROP TABLE games;
DROP TABLE tokens;
DROP TABLE accounts;
