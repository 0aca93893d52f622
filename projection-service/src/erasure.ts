import type { ClientBase } from 'pg';
import { userEventSchemas } from '@wagers/contracts/events/user';
import { emailDigestSql } from '@wagers/platform/event-store/sealed-fields';
import type { RecordedEvent } from '@wagers/platform/event-store/port';
import type { Projector } from '@wagers/platform/projections/projector';

/** Removes from a projector's rows an address by its digest (the rows it copied in clear). */
export type EraseAddress = (client: ClientBase, emailDigest: string) => Promise<void>;

const deletedAddresses = (events: RecordedEvent[]) =>
  events
    .filter((event) => event.type === 'AccountDeleted')
    .map((event) => userEventSchemas.AccountDeleted.parse(event.data).emailDigest);

/**
 * A projector that, after each page, also erases the address of every account the page deleted
 * from the rows it copied it into (an invitation to that address made before the account
 * existed). A rebuild reads those fields as null already: their key is destroyed.
 */
export function withAddressErasure(projector: Projector, erase: EraseAddress): Projector {
  const eraseDeleted = async (client: ClientBase, events: RecordedEvent[]) => {
    for (const digest of deletedAddresses(events)) await erase(client, digest);
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

/** Event data copied as JSON: its `inviteeEmail` goes when it is the deleted account's address. */
const eraseFromEventData = (table: string) => (client: ClientBase, digest: string) =>
  client
    .query(
      `UPDATE ${table} SET data = jsonb_set(data::jsonb, '{inviteeEmail}', 'null')
        WHERE type = 'BetProposed' AND ${emailDigestSql(`data->>'inviteeEmail'`)} = $1`,
      [digest],
    )
    .then(() => undefined);

export const eraseInvitedAddress: Record<'invites' | 'bets' | 'activity', EraseAddress> = {
  async invites(client, digest) {
    await client.query(
      `UPDATE rm_invites SET invitee_email = NULL WHERE ${emailDigestSql('invitee_email')} = $1`,
      [digest],
    );
  },
  async bets(client, digest) {
    await client.query(
      `UPDATE rm_bets SET invitee = NULL WHERE ${emailDigestSql('invitee')} = $1`,
      [digest],
    );
    await eraseFromEventData('rm_bet_history')(client, digest);
  },
  activity: eraseFromEventData('rm_activity'),
};
