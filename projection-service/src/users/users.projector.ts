import { userEventSchemas } from '@wagers/contracts/events/user';
import type { Projector } from '@wagers/platform/projections/projector';

/** rm_users: one row per registered user, as every API response shows users. */
export const usersProjector: Projector = {
  name: 'users',
  version: 1,
  tables: ['rm_users'],
  async apply(client, event) {
    switch (event.type) {
      case 'UserRegistered': {
        const data = userEventSchemas.UserRegistered.parse(event.data);
        await client.query(
          `INSERT INTO rm_users (id, email, first_name, last_name, created_at, revision)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (id) DO NOTHING`,
          [data.userId, data.email, data.firstName, data.lastName, event.metadata.occurredAt, event.revision.toString()],
        );
        return;
      }
      default:
        return;
    }
  },
};
