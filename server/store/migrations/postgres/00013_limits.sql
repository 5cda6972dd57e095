-- Limits shared by every server process on the database (the sign-in
-- limits): token buckets, each with its tokens as of at_ms and the time
-- it is full again (full_ms, after which it may be forgotten: a bucket
-- that is not stored is full), and marks that hold until until_ms (an
-- address that guessed a name's password wrong). Keys are the server's
-- (hashes, not names). Times are milliseconds since 1970 (UTC).

-- +goose Up
CREATE TABLE limit_buckets (
    key     TEXT PRIMARY KEY,
    tokens  DOUBLE PRECISION NOT NULL,
    at_ms   BIGINT NOT NULL,
    full_ms BIGINT NOT NULL
);
CREATE INDEX limit_buckets_full ON limit_buckets (full_ms);

CREATE TABLE limit_marks (
    key      TEXT PRIMARY KEY,
    until_ms BIGINT NOT NULL
);
CREATE INDEX limit_marks_until ON limit_marks (until_ms);

-- +goose Down
DROP TABLE limit_marks;
DROP TABLE limit_buckets;
