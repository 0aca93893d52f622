import { z } from 'zod';
import { userSchema } from './user.ts';
import {
  BET_LIMITS,
  BET_MESSAGES,
  MIN_WAGER_CENTS,
  resolutions,
  validationModes,
  wagerTypes,
} from './bet-rules.ts';
import { checkInvitee } from './invitee.ts';
import { parseDollarsToCents } from './money.ts';

export {
  betStatuses,
  resolutions,
  wagerTypes,
  validationModes,
  BET_LIMITS,
  type BetStatus,
  type Resolution,
  type WagerType,
  type ValidationMode,
} from './bet-rules.ts';
import type { ValidationMode, WagerType } from './bet-rules.ts';

/** A bet as GET /api/bets and GET /api/bets/{id} return it (spec section 3). */
export const betSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  wagerType: z.enum(wagerTypes),
  /** Dollars with two decimals, e.g. "12.50"; null for a custom wager. */
  wagerAmount: z.string().nullable(),
  wagerAmountCents: z.number().int().nullable(),
  wagerDescription: z.string().nullable(),
  /** YYYY-MM-DD or null. */
  endDate: z.string().nullable(),
  validationMode: z.enum(validationModes),
  status: z.string(),
  creatorId: z.string(),
  opponentId: z.string().nullable(),
  creator: userSchema,
  opponent: userSchema.nullable(),
  creatorResolution: z.enum(resolutions).nullable(),
  opponentResolution: z.enum(resolutions).nullable(),
  winnerId: z.string().nullable(),
  winner: userSchema.nullable(),
  /** Email or phone of the invited newcomer while no opponent has joined; shown to the creator only. */
  invitee: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Bet = z.infer<typeof betSchema>;

const filled = (value: string | number | null | undefined) =>
  value !== null && value !== undefined && String(value).trim() !== '';

/**
 * POST /api/bets, the one definition the route and the wizard both apply. Exactly one opponent:
 * a friend (`opponentId`), or a newcomer by a valid `inviteeEmail`, or by `inviteePhone` in
 * international format with `smsConsent: true` (the invitee rules of `./invitee.ts`). A money wager names an amount of more than zero with at most two
 * decimals; a custom wager describes what is at stake. Rules that need the log (is the opponent
 * a friend, is the end date past) are the decider's.
 */
export const createBetRequestSchema = z
  .object({
    title: z.string().trim().min(1, 'Title is required').max(BET_LIMITS.title),
    description: z.string().trim().min(1, 'Description is required').max(BET_LIMITS.description),
    wagerType: z.enum(wagerTypes),
    /** Dollars, as typed ("12.5") or a number; at most two decimals. Money wagers only. */
    wagerAmount: z.union([z.string(), z.number()]).nullish(),
    wagerDescription: z.string().trim().max(BET_LIMITS.wagerDescription).nullish(),
    endDate: z.string().nullish(),
    validationMode: z.enum(validationModes).default('both'),
    opponentId: z.string().trim().nullish(),
    inviteeEmail: z.string().trim().nullish(),
    inviteePhone: z.string().trim().nullish(),
    smsConsent: z.boolean().nullish(),
    /** Mode both: "if my friend has not answered 7 days after my report, my report stands". */
    reportStands: z.boolean().nullish(),
  })
  .superRefine((body, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    const friend = filled(body.opponentId);
    const email = filled(body.inviteeEmail);
    const phone = filled(body.inviteePhone);
    if (!friend && !email && !phone) issue('opponentId', BET_MESSAGES.chooseOpponent);
    if (friend && (email || phone)) issue('opponentId', BET_MESSAGES.friendOrNewcomer);
    if (email && phone) issue('inviteePhone', BET_MESSAGES.emailOrPhone);
    if (!friend && email !== phone) {
      // The newcomer's own rules (the email's or the phone's format, consent for a phone).
      const checked = checkInvitee(body);
      if (!checked.ok) {
        for (const field of checked.refusal.fields) issue(field, checked.refusal.message);
      }
    }
    if (body.wagerType === 'money') {
      if (!filled(body.wagerAmount)) issue('wagerAmount', BET_MESSAGES.amountMissing);
      else {
        const cents = parseDollarsToCents(body.wagerAmount!);
        if (cents === null || cents < MIN_WAGER_CENTS) {
          issue('wagerAmount', BET_MESSAGES.amountFormat);
        }
      }
    }
    if (body.wagerType === 'custom' && !filled(body.wagerDescription)) {
      issue('wagerDescription', BET_MESSAGES.wagerDescription);
    }
  });

interface BetDetails {
  title: string;
  description: string;
  wagerType: WagerType;
  wagerAmount?: string | number | null;
  wagerDescription?: string | null;
  endDate?: string | null;
  validationMode?: ValidationMode;
  reportStands?: boolean | null;
}
/** Who the bet is proposed to: a friend, a newcomer by email, or by phone with their consent. */
export type BetOpponent =
  { opponentId: string } | { inviteeEmail: string } | { inviteePhone: string; smsConsent: true };
export type CreateBetRequest = BetDetails & BetOpponent;
/** Any body a client may send, valid or not: what the schema reads. */
export type CreateBetBody = z.input<typeof createBetRequestSchema>;

export const createBetResponseSchema = betSchema.extend({
  invite: z.object({ code: z.string(), inviteLink: z.string() }).optional(),
});
export type CreateBetResponse = z.infer<typeof createBetResponseSchema>;

export const resolveBetRequestSchema = z.object({ resolution: z.enum(resolutions) });
export type ResolveBetRequest = z.infer<typeof resolveBetRequestSchema>;

/** One line of a bet's history (GET /api/bets/{id}/history): the auditor's view. */
export const betHistoryEntrySchema = z.object({
  eventId: z.string(),
  type: z.string(),
  revision: z.number().int(),
  occurredAt: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string(),
  summary: z.string(),
});
export type BetHistoryEntry = z.infer<typeof betHistoryEntrySchema>;

export const statsSchema = z.object({
  totalBets: z.number().int(),
  activeBets: z.number().int(),
  wonBets: z.number().int(),
  friendsCount: z.number().int(),
});
export type Stats = z.infer<typeof statsSchema>;

/** GET /api/bets/{id}/terms: how the bet can end without matching reports. */
export const betTermsSchema = z.object({
  /** The creator's report stands if the opponent has not answered 7 days after it. */
  reportStands: z.boolean(),
  /** When it will stand (ISO), while the creator has reported and the opponent has not. */
  standsAt: z.string().nullable(),
  /** Who offered a draw in the current disagreement. */
  drawOfferedBy: z.string().nullable(),
  /** How the bet completed, once it has. */
  settledBy: z.enum(['reports', 'draw', 'standing']).nullable(),
});
export type BetTerms = z.infer<typeof betTermsSchema>;
