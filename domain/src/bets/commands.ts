import type { Resolution, ValidationMode, WagerType } from '@wagers/contracts/api/bets';

export type ProposeBet = {
  type: 'ProposeBet';
  data: {
    betId: string;
    creatorId: string;
    /** A friend, or null when a newcomer is invited. */
    opponentId: string | null;
    /** Whether the friendship stream says creator and opponent are friends (read before deciding). */
    opponentIsFriend: boolean;
    /** The friend's account was deleted (read before deciding): nobody is left to answer. */
    opponentDeleted: boolean;
    /** The creator's own email, read before deciding: nobody invites themselves. */
    creatorEmail: string;
    /** The creator's own mobile number from their profile, if any, read likewise. */
    creatorPhone: string | null;
    /** The invited phone's opt-out stream says STOP (read before deciding). */
    inviteePhoneOptedOut: boolean;
    /** Chosen before deciding for a newcomer, so the answer carries the invite link at once. */
    inviteCode: string | null;
    /** Hash of an Idempotency-Key request's content; null without a key. */
    requestHash: string | null;
    inviteeEmail: string | null;
    inviteePhone: string | null;
    smsConsent: boolean;
    title: string;
    description: string;
    wagerType: WagerType;
    wagerAmountCents: number | null;
    wagerDescription: string | null;
    endDate: string | null;
    validationMode: ValidationMode;
    /** Mode both: the creator's report stands if the opponent stays silent for 7 days. */
    reportStands?: boolean;
    /** ISO time the command was issued; the end date is checked against it. */
    proposedAt: string;
  };
};
export type ResendInvite = {
  type: 'ResendInvite';
  /**
   * `phoneOptedOut`: the invited phone's opt-out stream says STOP (read before deciding).
   * `sequence`: which of the bet's resends the caller's Idempotency-Key stands for; a repeat of
   * one already done is a no-op.
   */
  data: { actorId: string; phoneOptedOut: boolean; sequence?: number };
};
export type JoinFromInvite = {
  type: 'JoinFromInvite';
  data: { opponentId: string; inviteCode: string };
};
export type AcceptBet = { type: 'AcceptBet'; data: { actorId: string } };
export type DeclineBet = { type: 'DeclineBet'; data: { actorId: string } };
export type DeleteBet = { type: 'DeleteBet'; data: { actorId: string } };
/** The participant deleted their account: their open bet ends as the rules allow. */
export type LeaveForDeletedAccount = { type: 'LeaveForDeletedAccount'; data: { actorId: string } };
export type SubmitResolution = {
  type: 'SubmitResolution';
  /** `submittedAt`: ISO time of the report, recorded so a standing report can count days from it. */
  data: { actorId: string; resolution: Resolution; submittedAt?: string };
};

/** Settling up a completed money bet: the loser pays, the winner confirms or says it never came. */
export type MarkPaid = { type: 'MarkPaid'; data: { actorId: string } };
export type ConfirmReceipt = { type: 'ConfirmReceipt'; data: { actorId: string } };
export type ReportNotReceived = { type: 'ReportNotReceived'; data: { actorId: string } };

/** In a disagreement: one side offers a draw, the other accepts it (or ignores it). */
export type OfferDraw = { type: 'OfferDraw'; data: { actorId: string } };
export type AcceptDraw = { type: 'AcceptDraw'; data: { actorId: string } };
/** Issued by the scheduler with its clock: the creator's report stands if its days have passed. */
export type ApplyStandingReport = { type: 'ApplyStandingReport'; data: { now: string } };

export type BetCommand =
  | ProposeBet
  | ResendInvite
  | JoinFromInvite
  | AcceptBet
  | DeclineBet
  | DeleteBet
  | LeaveForDeletedAccount
  | SubmitResolution
  | MarkPaid
  | ConfirmReceipt
  | ReportNotReceived
  | OfferDraw
  | AcceptDraw
  | ApplyStandingReport;
