-- Engines on the server: an account may be a bot (it plays
-- through the API only, and joins a person's open challenge only when its
-- creator allowed bots), and an open challenge may allow bots.

-- +goose Up
ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN allow_bots INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE games DROP COLUMN allow_bots;
ALTER TABLE accounts DROP COLUMN bot;
