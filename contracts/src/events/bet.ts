import { z } from 'zod';
import { resolutions, validationModes, wagerTypes } from '../api/bets.ts';

export const betStream = (betId: string) => `bet-${betId}`;

const resolution = z.enum(resolutions);
const party = z.enum(['creator', 'opponent']);

export const betEventSchemas = {
  BetProposed: z.object({
    betId: z.string(),
    creatorId: z.string(),
    /** A friend; null when a newcomer is invited and has not joined yet. */
    opponentId: z.string().nullable(),
    /** The invited newcomer's address or number (one of them); both null for a bet with a friend. */
    inviteeEmail: z.string().nullable(),
    inviteePhone: z.string().nullable(),
    smsConsent: z.boolean(),
    title: z.string(),
    description: z.string(),
    wagerType: z.enum(wagerTypes),
    /** Integer cents; null for a custom wager. */
    wagerAmountCents: z.number().int().nonnegative().nullable(),
    wagerDescription: z.string().nullable(),
    /** YYYY-MM-DD or null. */
    endDate: z.string().nullable(),
    validationMode: z.enum(validationModes),
    /** Hash of the request when it came with an Idempotency-Key (the bet id derives from the key). */
    requestHash: z.string().nullable().optional(),
    /** Mode both: the creator's report stands if the opponent has not answered 7 days after it. */
    reportStands: z.boolean().optional(),
  }),
  /**
   * The invite that brings the newcomer in, sent under this code by a process manager.
   * `signedLink`: the invite opens only with its signed link (absent before links were signed).
   */
  BetInviteAttached: z.object({
    inviteCode: z.string(),
    signedLink: z.literal(true).optional(),
  }),
  /** `sequence` counts the bet's resends (1, 2, ...), so the invite is resent once per request. */
  BetInviteResent: z.object({
    inviteCode: z.string(),
    sequence: z.number().int().positive().optional(),
  }),
  /** The newcomer accepted the bet's invite and is now the opponent. */
  BetInviteAccepted: z.object({ opponentId: z.string(), inviteCode: z.string() }),
  BetAccepted: z.object({ opponentId: z.string() }),
  /** `reason` is there when the opponent's account was deleted, not the bet alone. */
  BetDeclined: z.object({
    opponentId: z.string(),
    reason: z.enum(['account_deleted']).optional(),
  }),
  /** `reason` is there when the creator's account was deleted, not the bet alone. */
  BetDeleted: z.object({
    deletedBy: z.string(),
    reason: z.enum(['account_deleted']).optional(),
  }),
  /** `submittedAt` (ISO) dates the report, so a standing report can wait 7 days from it. */
  ResolutionSubmitted: z.object({
    party,
    userId: z.string(),
    resolution,
    submittedAt: z.string().optional(),
  }),
  /** Mode both: the two answers differ; either party may resubmit. */
  ResolutionDisputed: z.object({ creatorResolution: resolution, opponentResolution: resolution }),
  /** winnerId is null for a draw. */
  BetCompleted: z.object({ resolution, winnerId: z.string().nullable() }),
  /**
   * A side of a bet under way deleted their account: nobody is left to answer the other side,
   * whose report stands from then on (one made before included).
   */
  BetSideLeft: z.object({ party, userId: z.string() }),
} as const;

type Schemas = typeof betEventSchemas;
type EventOf<Type extends keyof Schemas> = { type: Type; data: z.infer<Schemas[Type]> };

export type BetProposed = EventOf<'BetProposed'>;
export type BetInviteAttached = EventOf<'BetInviteAttached'>;
export type BetInviteResent = EventOf<'BetInviteResent'>;
export type BetInviteAccepted = EventOf<'BetInviteAccepted'>;
export type BetAccepted = EventOf<'BetAccepted'>;
export type BetDeclined = EventOf<'BetDeclined'>;
export type BetDeleted = EventOf<'BetDeleted'>;
export type ResolutionSubmitted = EventOf<'ResolutionSubmitted'>;
export type ResolutionDisputed = EventOf<'ResolutionDisputed'>;
export type BetCompleted = EventOf<'BetCompleted'>;
export type BetSideLeft = EventOf<'BetSideLeft'>;

export type BetEvent =
  | BetProposed
  | BetInviteAttached
  | BetInviteResent
  | BetInviteAccepted
  | BetAccepted
  | BetDeclined
  | BetDeleted
  | ResolutionSubmitted
  | ResolutionDisputed
  | BetCompleted
  | BetSideLeft;

export const betEventTypes = Object.keys(betEventSchemas) as BetEvent['type'][];

/**
 * Reservation stream of one Idempotency-Key of one user (the pair hashed), appended with expected
 * revision "no stream": the first POST /api/bets with the key wins, a retry finds its bet here.
 */
export const betRequestEventSchemas = {
  BetRequestReserved: z.object({
    betId: z.string(),
    userId: z.string(),
    /** Hash of the request body, so the key cannot be reused for a different bet. */
    requestHash: z.string(),
  }),
} as const;
export type BetRequestReserved = {
  type: 'BetRequestReserved';
  data: z.infer<typeof betRequestEventSchemas.BetRequestReserved>;
};

/**
 * Settling up a completed money bet, in the bet's own stream. Kept apart from `BetEvent` so the
 * readers that only know the bet's lifecycle skip them as unknown types.
 */
export const betSettlementEventSchemas = {
  /** The loser says they paid. */
  BetMarkedPaid: z.object({ userId: z.string() }),
  /** The winner says the money arrived; the bet is settled. */
  BetPaymentConfirmed: z.object({ userId: z.string() }),
  /** The winner says nothing arrived; the bet is owed again. */
  BetPaymentNotReceived: z.object({ userId: z.string() }),
} as const;

/** An event of one of the bet stream's schema maps. */
type StreamEventOf<Schemas extends Record<string, z.ZodType>, Type extends keyof Schemas> = {
  type: Type;
  data: z.infer<Schemas[Type]>;
};
type SettlementSchemas = typeof betSettlementEventSchemas;
export type BetMarkedPaid = StreamEventOf<SettlementSchemas, 'BetMarkedPaid'>;
export type BetPaymentConfirmed = StreamEventOf<SettlementSchemas, 'BetPaymentConfirmed'>;
export type BetPaymentNotReceived = StreamEventOf<SettlementSchemas, 'BetPaymentNotReceived'>;
export type BetSettlementEvent = BetMarkedPaid | BetPaymentConfirmed | BetPaymentNotReceived;

/**
 * Ending a stall or a disagreement without matching reports; each is followed, in the same
 * append, by the BetCompleted every reader already knows.
 */
export const betDisputeEventSchemas = {
  /** In a disagreement, one side offers to call it a draw. */
  DrawOffered: z.object({ userId: z.string() }),
  /** The other side took the offer. */
  DrawAccepted: z.object({ userId: z.string() }),
  /** The opponent did not answer within the days after the creator's report: it stands. */
  ReportStood: z.object({ resolution, reportedAt: z.string(), days: z.number().int() }),
} as const;

type DisputeSchemas = typeof betDisputeEventSchemas;
export type DrawOffered = StreamEventOf<DisputeSchemas, 'DrawOffered'>;
export type DrawAccepted = StreamEventOf<DisputeSchemas, 'DrawAccepted'>;
export type ReportStood = StreamEventOf<DisputeSchemas, 'ReportStood'>;
export type BetDisputeEvent = DrawOffered | DrawAccepted | ReportStood;

/** Everything the bet stream holds. */
export type BetStreamEvent = BetEvent | BetSettlementEvent | BetDisputeEvent;
export const betStreamEventSchemas = {
  ...betEventSchemas,
  ...betSettlementEventSchemas,
  ...betDisputeEventSchemas,
};
