import type { z } from 'zod';
import type { createBetRequestSchema } from '@wagers/contracts/api/bets';
import { parseDollarsToCents } from '@wagers/contracts/api/money';
import { invalid } from '@wagers/platform/errors';
import { parseInvitee } from '../invites/invitee.ts';
import type { ProposeBet } from './commands.ts';

type CreateBetBody = z.output<typeof createBetRequestSchema>;

const blankToNull = (value: string | null | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

function parseAmount(body: CreateBetBody): number | null {
  if (body.wagerType !== 'money') return null;
  const raw = body.wagerAmount;
  if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === ''))
    return null;
  const cents = parseDollarsToCents(raw);
  if (cents === null) {
    throw invalid(
      'wagerAmount',
      'Enter an amount of zero or more with at most two decimals, e.g. 12.50',
    );
  }
  return cents;
}

/** YYYY-MM-DD; a full ISO time is cut to its date, as the picker sends dates only. */
function parseEndDate(raw: string | null | undefined): string | null {
  const text = blankToNull(raw);
  if (text === null) return null;
  const match = /^(\d{4}-\d{2}-\d{2})(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  const date = match?.[1];
  if (
    !date ||
    Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ||
    new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date
  ) {
    throw invalid('endDate', 'Enter the end date as YYYY-MM-DD');
  }
  return date;
}

/** The friend the body names, if any. */
export const requestedOpponent = (body: CreateBetBody) => blankToNull(body.opponentId);

/** The newcomer the body names, normalised (email lowercased, phone in E.164), if any. */
export function requestedNewcomer(body: CreateBetBody) {
  const hasInvitee =
    blankToNull(body.inviteeEmail) !== null || blankToNull(body.inviteePhone) !== null;
  return hasInvitee ? parseInvitee(body) : null;
}

/** What the decider needs from other aggregates (and the invite code), read before deciding. */
export type ProposeFacts = Pick<
  ProposeBet['data'],
  | 'opponentIsFriend'
  | 'opponentDeleted'
  | 'creatorEmail'
  | 'creatorPhone'
  | 'inviteePhoneOptedOut'
  | 'inviteCode'
  | 'requestHash'
>;

/**
 * Turns a validated POST /api/bets body into the ProposeBet command: amounts to cents, the
 * newcomer's email or phone normalised. The rules themselves are the decider's.
 */
export function toProposeBet(
  body: CreateBetBody,
  ids: { betId: string; creatorId: string; proposedAt: Date },
  facts: ProposeFacts,
): ProposeBet {
  const invitee = requestedNewcomer(body);
  return {
    type: 'ProposeBet',
    data: {
      ...facts,
      betId: ids.betId,
      creatorId: ids.creatorId,
      opponentId: requestedOpponent(body),
      inviteeEmail: invitee?.email ?? null,
      inviteePhone: invitee?.phone ?? null,
      smsConsent: invitee?.phone ? body.smsConsent === true : false,
      title: body.title,
      description: body.description,
      wagerType: body.wagerType,
      wagerAmountCents: parseAmount(body),
      wagerDescription: body.wagerType === 'custom' ? blankToNull(body.wagerDescription) : null,
      endDate: parseEndDate(body.endDate),
      validationMode: body.validationMode,
      reportStands: body.reportStands === true,
      proposedAt: ids.proposedAt.toISOString(),
    },
  };
}
