-- Duplicates absorbed at the door: a channel's redelivery of a callback already in the message
-- table is answered "already received" and stores nothing (DESIGN.md §3, step 2), so nothing
-- else counts it. The ingest adds each one here, per channel and five-minute bucket (the
-- dashboard's finest; every coarser bucket is a whole number of them): bucket_start_ms is the
-- bucket's start, UTC epoch milliseconds, a multiple of 300000. One upsert per bucket touched;
-- at most 288 rows a day per channel. Counts only: a count that could not be written is logged and
-- the duplicate answered as before (IngestService), so this table is never the reason a channel
-- gets an error. The key starts with the bucket: the dashboard reads a time range of every channel.
CREATE TABLE IF NOT EXISTS callback_door_counts (
    channel         VARCHAR(191) NOT NULL,
    bucket_start_ms BIGINT NOT NULL CHECK (bucket_start_ms % 300000 = 0),
    duplicates      BIGINT NOT NULL DEFAULT 0 CHECK (duplicates >= 0),
    updated_at      BIGINT NOT NULL,
    PRIMARY KEY (bucket_start_ms, channel)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
