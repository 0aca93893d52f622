-- Up Migration
-- The deleted account that still held a link's address when the link was asked for (the log said
-- so to the process that sent it), or null: the erasure of that account keeps the link, which is
-- the next account's, and sweeps the others. Which side of a deletion a link is on is read from
-- the log, not from two processes' clocks (created_at against the deletion's occurredAt).
ALTER TABLE login_tokens ADD COLUMN asked_after_deletion_of uuid;

-- Down Migration
ALTER TABLE login_tokens DROP COLUMN asked_after_deletion_of;
