import { userEventSchemas, type UserEvent } from '@wagers/contracts/events/user';
import { schemaReader } from '@wagers/platform/decider';
import type { Projector } from '@wagers/platform/projections/projector';
import {
  factsOf,
  foldRows,
  rowTable,
  type Fact,
  type TextRow,
} from '@wagers/platform/projections/row-table';
import { usersSchema } from './users.schema.ts';

const readUserEvent = schemaReader<UserEvent>(userEventSchemas);

const users = rowTable('rm_users', 'id', {
  id: 'uuid',
  email: 'text',
  first_name: 'text',
  last_name: 'text',
  profile_image_url: 'text',
  created_at: 'timestamptz',
  deleted_at: 'timestamptz',
  revision: 'bigint',
});

type UserRow = TextRow<
  | 'id'
  | 'email'
  | 'first_name'
  | 'last_name'
  | 'profile_image_url'
  | 'created_at'
  | 'deleted_at'
  | 'revision'
>;

type UserFact = Fact<UserEvent>;

/** The user after one more event of their stream; an event applied before changes nothing. */
export function evolveUser(row: UserRow | undefined, { event, revision, occurredAt }: UserFact) {
  if (event.type === 'UserRegistered') {
    return (
      row ?? {
        id: event.data.userId,
        email: event.data.email,
        first_name: event.data.firstName,
        last_name: event.data.lastName,
        profile_image_url: null,
        created_at: occurredAt,
        deleted_at: null,
        revision: revision.toString(),
      }
    );
  }
  if (!row || BigInt(row.revision!) >= revision) return row;
  return { ...row, ...changeOf(event, occurredAt), revision: revision.toString() };
}

function changeOf(event: UserEvent, occurredAt: string): Partial<UserRow> {
  switch (event.type) {
    case 'ProfileUpdated':
      return { first_name: event.data.firstName, last_name: event.data.lastName };
    case 'AvatarChanged':
      return { profile_image_url: event.data.avatarUrl };
    // The phone number stays on the user's stream: no list or search shows it.
    case 'AccountDeleted':
      // Nothing personal stays; every view shows "Deleted user" where the person was.
      return {
        email: null,
        first_name: null,
        last_name: null,
        profile_image_url: null,
        deleted_at: occurredAt,
      };
    default:
      return {};
  }
}

/** rm_users: one row per registered user, as every API response shows users. */
export const usersProjector: Projector = {
  name: 'users',
  version: 2,
  eventTypes: new Set(Object.keys(userEventSchemas)),
  tables: ['rm_users'],
  schema: usersSchema,
  async applyPage(client, events, { atCommit }) {
    const facts = factsOf(events, readUserEvent);
    await foldRows(client, users, facts, (fact) => fact.event.data.userId, evolveUser, atCommit);
  },
};
