-- Around a game: the messages between the players, the seats
-- that muted their opponent's messages, and each game's rematch. Times are
-- milliseconds since 1970 (UTC).

-- +goose Up
CREATE TABLE messages (
    id      INTEGER PRIMARY KEY,
    game_id TEXT    NOT NULL REFERENCES games (id),
    color   TEXT    NOT NULL,               -- the writer's seat: x or o
    by_id   INTEGER NOT NULL,               -- the writer's account
    text    TEXT    NOT NULL,
    at_ms   INTEGER NOT NULL
);
CREATE INDEX messages_game ON messages (game_id, id);

-- A player mutes the other's messages in one game: by seat, so that a
-- guest's game claimed by an account keeps it.
CREATE TABLE mutes (
    game_id TEXT NOT NULL REFERENCES games (id),
    color   TEXT NOT NULL,                  -- the seat that muted the other
    PRIMARY KEY (game_id, color)
);

-- A finished game's rematch: the new game offered (or played) after it.
CREATE TABLE rematches (
    game_id    TEXT PRIMARY KEY REFERENCES games (id),
    rematch_id TEXT NOT NULL REFERENCES games (id)
);
CREATE INDEX rematches_rematch ON rematches (rematch_id);

-- +goose Down
DROP TABLE rematches;
DROP TABLE mutes;
DROP TABLE messages;
