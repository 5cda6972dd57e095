-- An index on the account of a token or session: a password change revokes
-- every other token and session of the account, and the
-- ClaimGames of a guest deletes the guest's sessions; without it both scan
-- the whole table.

-- +goose Up
CREATE INDEX tokens_account ON tokens (account_id);

-- +goose Down
DROP INDEX tokens_account;
