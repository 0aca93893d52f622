import { userEventSchemas } from '@wagers/contracts/events/user';
import type { Projector } from '@wagers/platform/projections/projector';
import { usersSchema } from './users.schema.ts';

/** rm_users: one row per registered user, as every API response shows users. */
export const usersProjector: Projector = {
  name: 'users',
  version: 1,
  tables: ['rm_users'],
  schema: usersSchema,
  async apply(client, event) {
    const revision = event.revision.toString();
    switch (event.type) {
      case 'UserRegistered': {
        const data = userEventSchemas.UserRegistered.parse(event.data);
        await client.query(
          `INSERT INTO rm_users (id, email, first_name, last_name, created_at, revision)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (id) DO NOTHING`,
          [
            data.userId,
            data.email,
            data.firstName,
            data.lastName,
            event.metadata.occurredAt,
            revision,
          ],
        );
        return;
      }
      case 'ProfileUpdated': {
        const data = userEventSchemas.ProfileUpdated.parse(event.data);
        await client.query(
          `UPDATE rm_users SET first_name = $2, last_name = $3, revision = $4 WHERE id = $1 AND revision < $4`,
          [data.userId, data.firstName, data.lastName, revision],
        );
        return;
      }
      case 'AvatarChanged': {
        const data = userEventSchemas.AvatarChanged.parse(event.data);
        await client.query(
          `UPDATE rm_users SET profile_image_url = $2, revision = $3 WHERE id = $1 AND revision < $3`,
          [data.userId, data.avatarUrl, revision],
        );
        return;
      }
      default:
        return;
    }
  },
};
