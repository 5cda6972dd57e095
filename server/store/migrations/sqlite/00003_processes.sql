-- The server processes serving the database and when each was last known
-- alive, so that one starting can tell how long nobody served the games
-- and give the running clocks that time back (store.Store.Resume). Times
-- are milliseconds since 1970 (UTC).

-- +goose Up
CREATE TABLE processes (
    id      TEXT PRIMARY KEY,           -- a random id a process takes at start
    beat_ms INTEGER NOT NULL,           -- its last heartbeat, or its clean stop
    stopped INTEGER NOT NULL DEFAULT 0  -- 1 once it stopped cleanly
);

-- +goose Down
DROP TABLE processes;
