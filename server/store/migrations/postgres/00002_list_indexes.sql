-- Indexes for the lists that select by what they show: the challenges
-- addressed to an account, and the open challenges of the lobby (a list
-- must not read a fixed window of waiting games and filter it).

-- +goose Up
CREATE INDEX games_opponent ON games (opponent_id, state);
CREATE INDEX games_kind ON games (kind, state, updated_ms);

-- +goose Down
DROP INDEX games_kind;
DROP INDEX games_opponent;
