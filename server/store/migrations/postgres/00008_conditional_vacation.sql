-- Conditional moves and vacation. Times are milliseconds since
-- 1970 (UTC), durations milliseconds.

-- +goose Up
-- A seat's tree of conditional moves in a game: it holds only while the
-- game's log has entry entries (a move it did not name, a takeback or the
-- end leave it stale). The row stays when the tree is used up or cleared:
-- played_entry and note are what the players are told about it.
CREATE TABLE conditionals (
    game_id      TEXT    NOT NULL REFERENCES games (id),
    color        TEXT    NOT NULL,            -- the owner's seat: x or o
    account_id   BIGINT  NOT NULL,            -- the owner's account
    entry        BIGINT  NOT NULL,            -- the game's log length the tree was left at
    ply          BIGINT  NOT NULL,
    tree         TEXT    NOT NULL DEFAULT '', -- JSON; '' for none
    played_entry BIGINT  NOT NULL DEFAULT -1, -- the log entry of the last reply played from it
    note         TEXT    NOT NULL DEFAULT '', -- what the owner is told (a tree cancelled)
    note_entry   BIGINT  NOT NULL DEFAULT -1,
    updated_ms   BIGINT  NOT NULL,
    PRIMARY KEY (game_id, color)
);

-- An account's vacation: the time banked as of accrued_ms, and since when
-- it is on vacation (0: it is not). No row: nothing used yet, accrued from
-- the account's creation.
CREATE TABLE vacations (
    account_id BIGINT PRIMARY KEY REFERENCES accounts (id),
    since_ms   BIGINT NOT NULL DEFAULT 0,
    bank_ms    BIGINT NOT NULL DEFAULT 0,
    accrued_ms BIGINT NOT NULL
);
CREATE INDEX vacations_since ON vacations (since_ms);

-- +goose Down
DROP TABLE vacations;
DROP TABLE conditionals;
