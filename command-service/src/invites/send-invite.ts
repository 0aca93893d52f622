import { randomBytes } from 'node:crypto';
import { displayName } from '@wagers/contracts/api/user';
import type { GlobalPosition } from '@wagers/contracts/position';
import { inviteAggregate } from '@wagers/domain/invites/invite';
import { parseInvitee, type InviteeInput } from '@wagers/domain/invites/invitee';
import type { InviteLinks } from '@wagers/domain/invites/links';
import { isOptedOut } from '@wagers/domain/invites/sms-opt-out';
import { handle } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import { invalid, unauthorized } from '@wagers/platform/errors';
import type { EventStore } from '@wagers/platform/event-store/port';
import { loadUser } from '../users/load-user.ts';

export const INVITE_MESSAGE_MAX = 500;

export interface SendInviteInput extends InviteeInput {
  inviterId: string;
  message?: string | null;
}

/** With an Idempotency-Key: the code kept for the key, and the hash of what the request asked. */
export interface KeyedInvite {
  code: string;
  requestHash: string;
}

/**
 * 144 random bits, URL-safe: the invite's code, which names its stream. The log holds it, so it
 * is no secret: the invite opens only with the link that adds its signature (InviteLinks).
 */
export function newInviteCode(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * POST /api/invites: invites a newcomer to be a friend, by email or SMS, in one append on a new
 * invite stream. The notifier follows the log and delivers InviteSent; nothing is sent from here.
 * A retry of a keyed request appends nothing and answers as the first did.
 */
export async function sendInvite(
  store: EventStore,
  input: SendInviteInput,
  context: CommandContext,
  links: InviteLinks,
  keyed: KeyedInvite | null = null,
  /** Counted once the invitation has passed every rule, before it is appended (its limits). */
  beforeAppend?: () => Promise<void>,
): Promise<{ code: string; inviteLink: string; position: GlobalPosition | null }> {
  const invitee = parseInvitee(input);
  const message = input.message?.trim() || null;
  if (message && message.length > INVITE_MESSAGE_MAX) {
    throw invalid('message', `Message must be at most ${INVITE_MESSAGE_MAX} characters`);
  }
  const [inviter, phoneOptedOut] = await Promise.all([
    loadUser(store, input.inviterId),
    isOptedOut(store, invitee.phone),
  ]);
  if (inviter.status !== 'registered' || inviter.email === null) throw unauthorized();
  const code = keyed?.code ?? newInviteCode();
  const result = await handle(
    store,
    inviteAggregate,
    code,
    {
      type: 'SendInvite',
      data: {
        code,
        inviterId: inviter.userId,
        inviterName: displayName(inviter),
        inviterEmail: inviter.email,
        inviterPhone: inviter.phone,
        inviteeEmail: invitee.email,
        inviteePhone: invitee.phone,
        phoneOptedOut,
        betId: null,
        message,
        at: context.now.toISOString(),
        requestHash: keyed?.requestHash ?? null,
        signedLink: true,
      },
    },
    context,
    { beforeAppend },
  );
  if (!result.position && !keyed) throw new Error('InviteSent was not written');
  // A retry answers for the invite its key made, which may predate signed links.
  const signed = result.state.status !== 'none' && result.state.signedLink;
  return { ...(await links.linkFor(code, signed)), position: result.position };
}
