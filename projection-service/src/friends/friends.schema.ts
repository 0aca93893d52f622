import type { ProjectorSchema } from '@wagers/platform/projections/projector';

/** The friends projector's tables, as each of its builds makes them in its own schema. */
export const friendsSchema: ProjectorSchema = {
  tables: `
    -- Both directions of every friendship, so "my friends" is one index range.
    CREATE TABLE rm_friendships (
      user_id uuid NOT NULL,
      friend_id uuid NOT NULL,
      since timestamptz NOT NULL,
      -- Revision of the pair's friendship stream this row reflects.
      revision bigint NOT NULL,
      PRIMARY KEY (user_id, friend_id)
    );
    -- Every friend request; lists show the pending ones.
    CREATE TABLE rm_friend_requests (
      id text PRIMARY KEY,
      sender_id uuid NOT NULL,
      receiver_id uuid NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'accepted', 'declined')),
      created_at timestamptz NOT NULL,
      revision bigint NOT NULL
    );`,
  indexes: `
    CREATE INDEX rm_friend_requests_sender ON rm_friend_requests (sender_id, created_at) WHERE status = 'pending';
    CREATE INDEX rm_friend_requests_receiver ON rm_friend_requests (receiver_id, created_at) WHERE status = 'pending';`,
};
