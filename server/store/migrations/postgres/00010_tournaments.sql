-- Tournaments: a tournament, its players, and the slots of its
-- rounds with the game played for each. Times are milliseconds since 1970
-- (UTC).

-- +goose Up
CREATE TABLE tournaments (
    id           TEXT PRIMARY KEY,
    name         TEXT    NOT NULL,
    organiser_id BIGINT  NOT NULL REFERENCES accounts (id),
    rules        TEXT    NOT NULL,
    clock        TEXT    NOT NULL,
    format       TEXT    NOT NULL,             -- round-robin | double-round-robin | swiss | knockout
    rated        INTEGER NOT NULL DEFAULT 0,
    rounds       INTEGER NOT NULL DEFAULT 0,   -- Swiss: the rounds to play
    max_players  INTEGER NOT NULL DEFAULT 0,   -- 0: no limit
    starts_ms    BIGINT  NOT NULL DEFAULT 0,   -- 0: when the organiser says
    state        TEXT    NOT NULL,             -- open | running | finished
    round        INTEGER NOT NULL DEFAULT 0,   -- the last round paired
    winner       TEXT    NOT NULL DEFAULT '',
    version      INTEGER NOT NULL,             -- the optimistic lock of every change
    created_ms   BIGINT  NOT NULL,
    started_ms   BIGINT  NOT NULL DEFAULT 0,
    ended_ms     BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX tournaments_state ON tournaments (state, created_ms);

CREATE TABLE tournament_players (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id),
    account_id    BIGINT  NOT NULL REFERENCES accounts (id),
    rating        DOUBLE PRECISION    NOT NULL DEFAULT 0,
    withdrawn     INTEGER NOT NULL DEFAULT 0,
    joined_ms     BIGINT  NOT NULL,
    PRIMARY KEY (tournament_id, account_id)
);
CREATE INDEX tournament_players_account ON tournament_players (account_id);

-- The key (tournament, round, slot) is what makes a second pairing of the
-- same round fail, whichever process tries it.
CREATE TABLE tournament_games (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    slot          INTEGER NOT NULL,
    x_id          BIGINT  NOT NULL,
    o_id          BIGINT  NOT NULL DEFAULT 0,    -- 0: a bye
    game_id       TEXT    NOT NULL DEFAULT '', -- '': a bye, or decided without a game
    tries         INTEGER NOT NULL DEFAULT 0,  -- games made for the slot (an aborted one is replayed)
    forfeit       TEXT    NOT NULL DEFAULT '', -- x | o: that side wins by forfeit
    PRIMARY KEY (tournament_id, round, slot)
);
CREATE INDEX tournament_games_game ON tournament_games (game_id);

-- +goose Down
DROP TABLE tournament_games;
DROP TABLE tournament_players;
DROP TABLE tournaments;
