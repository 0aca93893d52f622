import { z } from 'zod';
import { userSchema } from './user.ts';
import { BET_LIMITS, resolutions, validationModes, wagerTypes } from './bet-rules.ts';

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

/**
 * POST /api/bets. Exactly one opponent: a friend (`opponentId`) or a newcomer (`inviteeEmail`,
 * or `inviteePhone` with `smsConsent: true`). The server applies the same schema.
 */
export const createBetRequestSchema = z.object({
  title: z.string().trim().min(1, 'Title is required').max(BET_LIMITS.title),
  description: z.string().trim().min(1, 'Description is required').max(BET_LIMITS.description),
  wagerType: z.enum(wagerTypes),
  /** Dollars, as typed ("12.5") or a number; at most two decimals. Money wagers only. */
  wagerAmount: z.union([z.string(), z.number()]).nullish(),
  wagerDescription: z.string().trim().max(BET_LIMITS.wagerDescription).nullish(),
  endDate: z.string().nullish(),
  validationMode: z.enum(validationModes).default('both'),
  opponentId: z.string().nullish(),
  inviteeEmail: z.string().nullish(),
  inviteePhone: z.string().nullish(),
  smsConsent: z.boolean().nullish(),
  /** Mode both: "if my friend has not answered 7 days after my report, my report stands". */
  reportStands: z.boolean().nullish(),
});
export type CreateBetRequest = z.input<typeof createBetRequestSchema>;

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
