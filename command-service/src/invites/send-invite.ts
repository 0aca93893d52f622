import { randomBytes } from 'node:crypto';
import { displayName } from '@wagers/contracts/api/user';
import { inviteStream } from '@wagers/contracts/events/invite';
import type { GlobalPosition } from '@wagers/contracts/position';
import { handleCommand, type CommandContext } from '@wagers/platform/decider';
import { DomainError, invalid, unauthorized } from '@wagers/platform/errors';
import { ConcurrencyError, type EventStore } from '@wagers/platform/event-store/port';
import { loadUser } from '../users/load-user.ts';
import { inviteDecider, readInviteEvent } from './invite.ts';
import { parseInvitee, type InviteeInput } from './invitee.ts';
import { isOptedOut } from './sms-opt-out.ts';

export const INVITE_MESSAGE_MAX = 500;

export interface SendInviteInput extends InviteeInput {
  inviterId: string;
  betId?: string | null;
  message?: string | null;
  /**
   * A code chosen (and recorded) beforehand, e.g. on the bet, so a retry after a crash sends the
   * same invite: if it was sent already, nothing is written again.
   */
  code?: string;
}

/** 144 random bits, URL-safe: the code is the only secret guarding an invite. */
export function newInviteCode(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * Invites a newcomer by email or SMS (for a friendship, or for a bet when `betId` is given). The
 * notifier follows the log and delivers the InviteSent event; nothing is sent from here.
 */
export async function sendInvite(
  store: EventStore,
  input: SendInviteInput,
  context: CommandContext,
  publicUrl: string,
): Promise<{ code: string; inviteLink: string; position: GlobalPosition | null }> {
  if (input.code && (await inviteExists(store, input.code))) {
    return { code: input.code, inviteLink: inviteLink(publicUrl, input.code), position: null };
  }
  const invitee = parseInvitee(input);
  const message = input.message?.trim() || null;
  if (message && message.length > INVITE_MESSAGE_MAX) {
    throw invalid('message', `Message must be at most ${INVITE_MESSAGE_MAX} characters`);
  }
  const inviter = await loadUser(store, input.inviterId);
  if (inviter.status !== 'registered') throw unauthorized();
  const code = input.code ?? newInviteCode();
  let result;
  try {
    result = await handleCommand(
      store,
      inviteStream(code),
      inviteDecider,
      readInviteEvent,
      {
        type: 'SendInvite',
        data: {
          code,
          inviterId: inviter.userId,
          inviterName: displayName(inviter),
          inviterEmail: inviter.email,
          inviteeEmail: invitee.email,
          inviteePhone: invitee.phone,
          phoneOptedOut: invitee.phone ? await isOptedOut(store, invitee.phone) : false,
          betId: input.betId ?? null,
          message,
          at: context.now.toISOString(),
        },
      },
      context,
      { maxAttempts: 1 },
    );
  } catch (error) {
    // Someone sent this very invite at the same moment: it is out, which is all that was asked.
    if (
      input.code &&
      (error instanceof ConcurrencyError ||
        (error instanceof DomainError && error.code === 'conflict')) &&
      (await inviteExists(store, input.code))
    ) {
      return { code, inviteLink: inviteLink(publicUrl, code), position: null };
    }
    throw error;
  }
  if (!result.position) throw new Error('InviteSent was not written');
  return { code, inviteLink: inviteLink(publicUrl, code), position: result.position };
}

async function inviteExists(store: EventStore, code: string): Promise<boolean> {
  return (await store.readStream(inviteStream(code), { maxCount: 1 })).length > 0;
}

export const inviteLink = (publicUrl: string, code: string) =>
  `${publicUrl.replace(/\/$/, '')}/invite/${code}`;
