import { UnrecoverableError } from 'bullmq';
import { inviteStream, type InviteChannel, type InviteSent } from '@wagers/contracts/events/invite';
import { betAggregate } from '@wagers/domain/bets/decide';
import {
  inviteAggregate,
  readInviteEvent,
  type InviteCommand,
  type InviteState,
} from '@wagers/domain/invites/invite';
import { INVITE_LINK_KEY, inviteLinks } from '@wagers/domain/invites/links';
import { isOptedOut } from '@wagers/domain/invites/sms-opt-out';
import { handle, load } from '@wagers/platform/aggregate';
import type { CommandContext } from '@wagers/platform/decider';
import type { EventStore, RecordedEvent } from '@wagers/platform/event-store/port';
import type { Logger } from '@wagers/platform/logger';
import type { Runtime } from '@wagers/platform/runtime';
import { signingKey } from '@wagers/platform/signing-keys';
import type { Pool } from 'pg';
import { deliveryFailureKind, deliveryFailureReason } from './delivery-failure.ts';
import type { Mailer } from './mailer.ts';
import type { SmsSender } from './sms.ts';
import { inviteEmail, inviteSms } from './templates/invite.ts';

export interface InviteDeliveryDeps {
  store: EventStore;
  /** Where the key that signs invite links is kept. */
  pool: Pool;
  mailer: Mailer;
  sms: SmsSender;
  runtime: Runtime;
  logger: Logger;
  publicUrl: () => string;
}

export interface DeliveryAttempt {
  code: string;
  deliveryId: string;
  /** No retry follows this attempt if it fails. */
  isLastAttempt: boolean;
  /** An earlier attempt sent the message and failed to record it: only the record is left. */
  alreadySent?: boolean;
  /**
   * Notes on the job that the message went out, before the delivery is recorded, so that a retry
   * after a failed record does not send it again.
   */
  markSent?: () => Promise<void>;
}

/**
 * Only a refusal of this recipient (an unknown mailbox, an invalid or unsubscribed number) will not
 * improve with retries; a refusal of our own credentials or settings is the account's, and waits
 * for an operator like any outage.
 */
export function isPermanent(error: unknown): boolean {
  return deliveryFailureKind(error) === 'recipient';
}

/**
 * Delivers one InviteSent / InviteResent by email or SMS, then records the outcome on the
 * invite's stream. A delivery the stream already records as done is not sent again.
 */
export function inviteDelivery(deps: InviteDeliveryDeps) {
  const log = deps.logger.child({ component: 'invite-delivery' });
  const links = inviteLinks(signingKey(deps.pool, INVITE_LINK_KEY), deps.publicUrl);

  async function loadInvite(code: string) {
    const recorded = await deps.store.readStream(inviteStream(code));
    const { decider } = inviteAggregate;
    let state: InviteState = decider.initialState();
    let sent: InviteSent | null = null;
    for (const event of recorded) {
      const domainEvent = readInviteEvent(event);
      if (!domainEvent) continue;
      if (domainEvent.type === 'InviteSent') sent = domainEvent;
      state = decider.evolve(state, domainEvent);
    }
    return { recorded, state, sent };
  }

  async function record(code: string, request: RecordedEvent, command: InviteCommand) {
    const context: CommandContext = {
      actorId: null,
      correlationId: request.metadata.correlationId,
      causationId: request.id,
      now: deps.runtime.now(),
      newId: deps.runtime.newId,
    };
    await handle(deps.store, inviteAggregate, code, command, context);
  }

  return async function deliver({
    code,
    deliveryId,
    isLastAttempt,
    alreadySent = false,
    markSent,
  }: DeliveryAttempt): Promise<void> {
    const { recorded, state, sent } = await loadInvite(code);
    const request = recorded.find((event) => event.id === deliveryId);
    if (!request || !sent || state.status === 'none')
      throw new UnrecoverableError(`No delivery ${deliveryId} on invite`);
    if (state.deliveries[deliveryId] === 'delivered') {
      log.info({ deliveryId }, 'invite already delivered; not sending again');
      return;
    }
    const channel: InviteChannel = sent.data.inviteePhone ? 'sms' : 'email';
    if (alreadySent) {
      log.info({ deliveryId }, 'invite sent by an earlier attempt; recording it');
      await record(code, request, { type: 'RecordDelivery', data: { deliveryId, channel } });
      return;
    }
    if (state.status === 'accepted') {
      log.info({ deliveryId }, 'invite accepted before delivery; not sending');
      return;
    }
    // A bet's invite is for a bet still open: one deleted or declined since is not offered.
    if (sent.data.betId !== null) {
      const bet = await load(deps.store, betAggregate, sent.data.betId);
      if (bet.status !== 'pending') {
        log.info({ deliveryId, bet: bet.status }, 'the bet is no longer pending; not sending');
        return;
      }
    }
    const inviterName = sent.data.inviterName;
    if (inviterName === null) {
      log.info({ deliveryId }, 'the inviter deleted their account; not sending');
      return;
    }
    const message = {
      inviterName,
      // As the invite opens now: a resend signs one sent before links were signed, and a delivery
      // of the first sending retried after it then carries the signed link too.
      link: (await links.linkFor(code, state.signedLink)).inviteLink,
      message: sent.data.message,
      forBet: sent.data.betId !== null,
    };
    try {
      if (sent.data.inviteePhone) {
        if (await isOptedOut(deps.store, sent.data.inviteePhone)) {
          await record(code, request, {
            type: 'RecordDeliveryFailure',
            data: { deliveryId, channel, reason: 'The number has opted out of SMS (STOP)' },
          });
          return;
        }
        await deps.sms.send(sent.data.inviteePhone, inviteSms(message));
      } else if (sent.data.inviteeEmail) {
        await deps.mailer.send(inviteEmail(sent.data.inviteeEmail, message));
      } else {
        // Its address was erased with an account that had it: there is no one to send it to, and
        // nothing was delivered.
        log.info({ deliveryId }, "the invitee's address was erased; not sending");
        return;
      }
    } catch (error) {
      const permanent = isPermanent(error);
      const reason = deliveryFailureReason(error);
      if (permanent || isLastAttempt) {
        await record(code, request, {
          type: 'RecordDeliveryFailure',
          data: { deliveryId, channel, reason },
        });
      }
      if (permanent) throw new UnrecoverableError(reason);
      throw error;
    }
    // Sent: whatever fails from here on must not send it again.
    await markSent?.();
    await record(code, request, { type: 'RecordDelivery', data: { deliveryId, channel } });
  };
}

export type InviteDeliverer = ReturnType<typeof inviteDelivery>;
