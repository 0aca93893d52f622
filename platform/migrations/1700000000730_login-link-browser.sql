-- Up Migration
-- A sign-in link asked for from a provider sign-in that gave no email links that provider's
-- account only when it is confirmed in the browser that asked for it (a cookie, hashed here):
-- anyone can ask for a link to someone else's address, and the owner who confirms it must not
-- take a stranger's provider account into theirs.
ALTER TABLE login_tokens ADD COLUMN browser_hash text;

-- Down Migration
ALTER TABLE login_tokens DROP COLUMN browser_hash;
