-- Up Migration
-- Blue-green projections (decision 0008): each projector build keeps its tables in a schema of its
-- own, and the names the queries use are views over the live build. The tables made so far become
-- build 1 of their projector, data, indexes and checkpoint included.
CREATE SCHEMA proj_users_b1;
ALTER TABLE rm_users SET SCHEMA proj_users_b1;
CREATE VIEW rm_users AS SELECT * FROM proj_users_b1.rm_users;

CREATE SCHEMA proj_friends_b1;
ALTER TABLE rm_friendships SET SCHEMA proj_friends_b1;
ALTER TABLE rm_friend_requests SET SCHEMA proj_friends_b1;
CREATE VIEW rm_friendships AS SELECT * FROM proj_friends_b1.rm_friendships;
CREATE VIEW rm_friend_requests AS SELECT * FROM proj_friends_b1.rm_friend_requests;

CREATE SCHEMA proj_invites_b1;
ALTER TABLE rm_invites SET SCHEMA proj_invites_b1;
CREATE VIEW rm_invites AS SELECT * FROM proj_invites_b1.rm_invites;

CREATE SCHEMA proj_bets_b1;
ALTER TABLE rm_bets SET SCHEMA proj_bets_b1;
ALTER TABLE rm_bet_history SET SCHEMA proj_bets_b1;
CREATE VIEW rm_bets AS SELECT * FROM proj_bets_b1.rm_bets;
CREATE VIEW rm_bet_history AS SELECT * FROM proj_bets_b1.rm_bet_history;

INSERT INTO projection_checkpoints (name, build, version, schema_name, status)
VALUES ('users', 1, 1, 'proj_users_b1', 'live'),
       ('friends', 1, 1, 'proj_friends_b1', 'live'),
       ('invites', 1, 1, 'proj_invites_b1', 'live'),
       ('bets', 1, 1, 'proj_bets_b1', 'live')
ON CONFLICT (name, build) DO UPDATE SET schema_name = EXCLUDED.schema_name;

-- Down Migration
-- Not reversible: later builds live in schemas this migration knows nothing of.
