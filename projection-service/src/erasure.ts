import type { ClientBase } from 'pg';
import { userEventSchemas } from '@wagers/contracts/events/user';
import { emailDigestSql } from '@wagers/platform/event-store/sealed-fields';
import type { RecordedEvent } from '@wagers/platform/event-store/port';
import type { Projector } from '@wagers/platform/projections/projector';

/** A deleted account's address, by digest, and its numbers (null once its key is destroyed). */
export interface DeletedAccount {
  emailDigest: string;
  phones: string[];
}

/** Removes from a projector's rows a deleted account's address and numbers (the rows it copied in clear). */
export type EraseAddress = (client: ClientBase, deleted: DeletedAccount) => Promise<void>;

const deletedAddresses = (events: RecordedEvent[]): DeletedAccount[] =>
  events
    .filter((event) => event.type === 'AccountDeleted')
    .map((event) => {
      const { emailDigest, phones } = userEventSchemas.AccountDeleted.parse(event.data);
      return { emailDigest, phones: phones ?? [] };
    });

/**
 * A projector that, after each page, also erases the address and numbers of every account the
 * page deleted from the rows it copied them into (an invitation to that address or number made
 * before the account existed). A rebuild reads those fields as null already: their keys are
 * destroyed. The erasure destroys the number's key only once the live builds have passed the
 * deletion, so they read the number from the event.
 */
export function withAddressErasure(projector: Projector, erase: EraseAddress): Projector {
  const eraseDeleted = async (client: ClientBase, events: RecordedEvent[]) => {
    for (const deleted of deletedAddresses(events)) await erase(client, deleted);
  };
  const { bulkLoader, previous } = projector;
  return {
    ...projector,
    ...(previous && { previous: withAddressErasure(previous, erase) }),
    ...(projector.eventTypes && {
      eventTypes: new Set([...projector.eventTypes, 'AccountDeleted']),
    }),
    async applyPage(client, events, context) {
      if (projector.applyPage) await projector.applyPage(client, events, context);
      else for (const event of events) await projector.apply?.(client, event);
      await eraseDeleted(client, events);
    },
    ...(bulkLoader && {
      bulkLoader: () => {
        const loader = bulkLoader();
        return {
          async fold(events) {
            const write = await loader.fold(events);
            return async (client) => {
              await write(client);
              await eraseDeleted(client, events);
            };
          },
        };
      },
    }),
  };
}

/**
 * Event data copied as JSON: its `inviteeEmail` goes when it is the deleted account's address, its
 * `inviteePhone` when it is one of its numbers.
 */
const eraseFromEventData =
  (table: string) => async (client: ClientBase, deleted: DeletedAccount) => {
    await client.query(
      `UPDATE ${table} SET data = jsonb_set(data::jsonb, '{inviteeEmail}', 'null')
      WHERE type = 'BetProposed' AND ${emailDigestSql(`data->>'inviteeEmail'`)} = $1`,
      [deleted.emailDigest],
    );
    if (deleted.phones.length === 0) return;
    await client.query(
      `UPDATE ${table} SET data = jsonb_set(data::jsonb, '{inviteePhone}', 'null')
      WHERE type = 'BetProposed' AND data->>'inviteePhone' = ANY($1::text[])`,
      [deleted.phones],
    );
  };

export const eraseInvitedAddress: Record<'invites' | 'bets' | 'activity', EraseAddress> = {
  async invites(client, deleted) {
    await client.query(
      `UPDATE rm_invites SET invitee_email = NULL WHERE ${emailDigestSql('invitee_email')} = $1`,
      [deleted.emailDigest],
    );
    if (deleted.phones.length > 0) {
      await client.query(
        `UPDATE rm_invites SET invitee_phone = NULL WHERE invitee_phone = ANY($1::text[])`,
        [deleted.phones],
      );
    }
  },
  async bets(client, deleted) {
    await client.query(
      `UPDATE rm_bets SET invitee = NULL WHERE ${emailDigestSql('invitee')} = $1`,
      [deleted.emailDigest],
    );
    if (deleted.phones.length > 0) {
      await client.query(`UPDATE rm_bets SET invitee = NULL WHERE invitee = ANY($1::text[])`, [
        deleted.phones,
      ]);
    }
    await eraseFromEventData('rm_bet_history')(client, deleted);
  },
  activity: eraseFromEventData('rm_activity'),
};
