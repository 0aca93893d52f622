import type { Resolution, ValidationMode, WagerType } from '@wagers/contracts/api/bets';
import { betStreamEventSchemas, type BetStreamEvent } from '@wagers/contracts/events/bet';
import { schemaReader } from '@wagers/platform/decider';

/** Lifecycle of a bet as the rules see it; `deleted` bets have left every list. */
export type BetLifecycle =
  'none' | 'pending' | 'active' | 'awaiting_resolution' | 'completed' | 'declined' | 'deleted';

/** Only what the rules need; display fields live in the read model. */
export interface BetState {
  status: BetLifecycle;
  creatorId: string | null;
  opponentId: string | null;
  /** The newcomer the bet was proposed to, kept so the invitation can be (re)sent. */
  invitee: { email: string | null; phone: string | null; smsConsent: boolean } | null;
  inviteCode: string | null;
  /** How many times the invitation was resent. */
  inviteResends: number;
  /** Set when the bet came from an Idempotency-Key request: a retry must ask the same. */
  requestHash: string | null;
  validationMode: ValidationMode;
  creatorResolution: Resolution | null;
  opponentResolution: Resolution | null;
  winnerId: string | null;
  resolution: Resolution | null;
  wagerType: WagerType;
  wagerAmountCents: number | null;
  /** Settling up a completed money bet: the loser marks it paid, the winner confirms. */
  payment: PaymentStatus;
  /** The winner said the payment last marked never came, and it has not been marked paid since. */
  paymentReportedMissing: boolean;
  /** Mode both: the creator's report stands after REPORT_STANDS_DAYS without an answer. */
  reportStands: boolean;
  /** When the creator last reported (ISO), if the report carried its time. */
  creatorReportedAt: string | null;
  /** In a disagreement, who offered a draw; cleared by any new report. */
  drawOfferedBy: string | null;
  /** How the bet completed: matching reports (or the first, in mode one), a draw offer, or silence. */
  settledBy: 'reports' | 'draw' | 'standing' | null;
  /** The side of a bet under way who deleted their account: the other side's report stands. */
  sideLeft: 'creator' | 'opponent' | null;
}

export type PaymentStatus = 'unpaid' | 'marked_paid' | 'confirmed';

export const initialBetState = (): BetState => ({
  status: 'none',
  creatorId: null,
  opponentId: null,
  invitee: null,
  inviteCode: null,
  inviteResends: 0,
  requestHash: null,
  validationMode: 'both',
  creatorResolution: null,
  opponentResolution: null,
  winnerId: null,
  resolution: null,
  wagerType: 'custom',
  wagerAmountCents: null,
  payment: 'unpaid',
  paymentReportedMissing: false,
  reportStands: false,
  creatorReportedAt: null,
  drawOfferedBy: null,
  settledBy: null,
  sideLeft: null,
});

export function evolve(state: BetState, event: BetStreamEvent): BetState {
  switch (event.type) {
    case 'BetProposed':
      return {
        ...initialBetState(),
        status: 'pending',
        creatorId: event.data.creatorId,
        opponentId: event.data.opponentId,
        invitee:
          event.data.opponentId === null
            ? {
                email: event.data.inviteeEmail,
                phone: event.data.inviteePhone,
                smsConsent: event.data.smsConsent,
              }
            : null,
        validationMode: event.data.validationMode,
        wagerType: event.data.wagerType,
        wagerAmountCents: event.data.wagerAmountCents,
        reportStands: event.data.reportStands === true,
        requestHash: event.data.requestHash ?? null,
      };
    case 'BetInviteAttached':
      return { ...state, inviteCode: event.data.inviteCode };
    case 'BetInviteResent':
      return { ...state, inviteResends: state.inviteResends + 1 };
    case 'BetInviteAccepted':
    case 'BetAccepted':
      return { ...state, status: 'active', opponentId: event.data.opponentId };
    case 'BetDeclined':
      return { ...state, status: 'declined' };
    case 'BetDeleted':
      return { ...state, status: 'deleted' };
    case 'ResolutionSubmitted':
      return {
        ...state,
        status: 'awaiting_resolution',
        drawOfferedBy: null,
        ...(event.data.party === 'creator'
          ? {
              creatorResolution: event.data.resolution,
              creatorReportedAt: event.data.submittedAt ?? null,
            }
          : { opponentResolution: event.data.resolution }),
      };
    case 'ResolutionDisputed':
      return state;
    case 'BetCompleted':
      return {
        ...state,
        status: 'completed',
        resolution: event.data.resolution,
        winnerId: event.data.winnerId,
        settledBy: state.settledBy ?? 'reports',
      };
    case 'BetSideLeft':
      return { ...state, sideLeft: event.data.party };
    case 'DrawOffered':
      return { ...state, drawOfferedBy: event.data.userId };
    case 'DrawAccepted':
      return { ...state, settledBy: 'draw' };
    case 'ReportStood':
      return { ...state, settledBy: 'standing' };
    case 'BetMarkedPaid':
      return { ...state, payment: 'marked_paid', paymentReportedMissing: false };
    case 'BetPaymentConfirmed':
      return { ...state, payment: 'confirmed' };
    case 'BetPaymentNotReceived':
      return { ...state, payment: 'unpaid', paymentReportedMissing: true };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

export const readBetEvent = schemaReader<BetStreamEvent>(betStreamEventSchemas);
