import { inviteEventSchemas, type InviteEvent } from '@wagers/contracts/events/invite';
import { schemaReader } from '@wagers/platform/decider';
import type { Projector } from '@wagers/platform/projections/projector';
import {
  factsOf,
  foldRows,
  rowTable,
  type Fact,
  type TextRow,
} from '@wagers/platform/projections/row-table';
import { invitesSchema } from './invites.schema.ts';

const readInviteEvent = schemaReader<InviteEvent>(inviteEventSchemas);

const columns = {
  code: 'text',
  inviter_id: 'uuid',
  invitee_email: 'text',
  invitee_phone: 'text',
  bet_id: 'uuid',
  message: 'text',
  signed_link: 'boolean',
  status: 'text',
  accepted_by: 'uuid',
  delivery_status: 'text',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  revision: 'bigint',
};
const invites = rowTable('rm_invites', 'code', columns);

type InviteRow = TextRow<keyof typeof columns>;

type InviteFact = Fact<InviteEvent>;

function changes(event: InviteEvent): Partial<InviteRow> {
  switch (event.type) {
    case 'InviteResent':
      return {
        delivery_status: 'pending',
        ...(event.data.signedLink === true ? { signed_link: 'true' } : {}),
      };
    case 'InviteSealed':
      return { signed_link: 'true' };
    case 'InviteAccepted':
      return { status: 'accepted', accepted_by: event.data.acceptedBy };
    case 'InviteDelivered':
      return { delivery_status: 'delivered' };
    case 'InviteDeliveryFailed':
      return { delivery_status: 'failed' };
    default:
      return {};
  }
}

/** The invite after one more event of its stream; an event applied before changes nothing. */
export function evolveInvite(
  row: InviteRow | undefined,
  { event, revision, occurredAt }: InviteFact,
) {
  if (event.type === 'InviteSent') {
    const data = event.data;
    return (
      row ?? {
        code: data.code,
        inviter_id: data.inviterId,
        invitee_email: data.inviteeEmail,
        invitee_phone: data.inviteePhone,
        bet_id: data.betId,
        message: data.message,
        signed_link: data.signedLink === true ? 'true' : 'false',
        status: 'pending',
        accepted_by: null,
        delivery_status: 'pending',
        created_at: occurredAt,
        updated_at: occurredAt,
        revision: revision.toString(),
      }
    );
  }
  if (!row || BigInt(row.revision!) >= revision) return row;
  return { ...row, ...changes(event), updated_at: occurredAt, revision: revision.toString() };
}

/** rm_invites: one row per invite, for the public invite page and the inviter's lists. */
export const invitesProjector: Projector = {
  name: 'invites',
  // 2: signed_link.
  version: 2,
  eventTypes: new Set(Object.keys(inviteEventSchemas)),
  tables: ['rm_invites'],
  schema: invitesSchema,
  async applyPage(client, events, { atCommit }) {
    const facts = factsOf(events, readInviteEvent);
    await foldRows(client, invites, facts, (fact) => fact.event.data.code, evolveInvite, atCommit);
  },
};
