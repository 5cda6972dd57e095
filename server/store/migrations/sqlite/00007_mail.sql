-- Moves by email: the secrets of the reply addresses mailed to
-- players (game-ID-SECRET@DOMAIN). Each mail gets a secret of its own,
-- bound to one game, one seat and the ply of the board the mail showed;
-- only its hash is kept, so a copy of the database plays no move. A game's
-- secrets are deleted once it has ended. Times are milliseconds since 1970
-- (UTC).

-- +goose Up
CREATE TABLE mail_secrets (
    hash       TEXT    PRIMARY KEY,         -- hex SHA-256 of the secret
    game_id    TEXT    NOT NULL REFERENCES games (id),
    color      TEXT    NOT NULL,            -- the seat the address plays for: x or o
    ply        INTEGER NOT NULL,            -- the ply of the board the mail showed
    created_ms INTEGER NOT NULL
);
CREATE INDEX mail_secrets_game ON mail_secrets (game_id);

-- +goose Down
DROP TABLE mail_secrets;
