import type { Resolution } from '@wagers/contracts/api/bets';
import { formatUsd } from '@wagers/contracts/api/money';
import type { BetStreamEvent } from '@wagers/contracts/events/bet';

export interface SummaryNames {
  actor: string;
  creator: string;
  /** The opponent's display name, or a placeholder while none has joined. */
  opponent: string;
}

function outcome(resolution: Resolution, names: SummaryNames): string {
  if (resolution === 'creator_won') return `${names.creator} won`;
  if (resolution === 'opponent_won') return `${names.opponent} won`;
  return 'a draw';
}

/**
 * One line a person can read, for each event of a bet stream: every type is named, so a new one
 * is a type error here until it has its words.
 */
export function summarize(event: BetStreamEvent, names: SummaryNames): string {
  switch (event.type) {
    case 'BetProposed': {
      const d = event.data;
      const wager =
        d.wagerType === 'money'
          ? formatUsd(d.wagerAmountCents ?? 0)
          : (d.wagerDescription ?? 'a custom stake');
      // The newcomer's address stays private: the summary says only how they were invited.
      const to = d.opponentId
        ? names.opponent
        : d.inviteeEmail
          ? 'a newcomer invited by email'
          : 'a newcomer invited by text message';
      const mode =
        d.validationMode === 'one'
          ? 'the first answer decides'
          : d.reportStands
            ? `both must confirm the outcome; ${names.creator}'s report stands after 7 days without an answer`
            : 'both must confirm the outcome';
      return `${names.actor} proposed "${d.title}" to ${to} for ${wager} (${mode})`;
    }
    case 'BetInviteAttached':
      return 'The invitation was sent to the newcomer';
    case 'BetInviteResent':
      return `${names.actor} sent the invitation again`;
    case 'BetInviteAccepted':
      return `${names.opponent} accepted the invitation and joined the bet`;
    case 'BetAccepted':
      return `${names.actor} accepted the bet`;
    case 'BetDeclined':
      return `${names.actor} declined the bet`;
    case 'BetDeleted':
      return `${names.actor} deleted the bet`;
    case 'ResolutionSubmitted':
      return `${names.actor} reported the outcome: ${outcome(event.data.resolution, names)}`;
    case 'ResolutionDisputed':
      return `The answers differ (${names.creator}: ${outcome(event.data.creatorResolution, names)}; ${names.opponent}: ${outcome(event.data.opponentResolution, names)}); waiting for both to agree`;
    case 'BetCompleted':
      return event.data.resolution === 'draw'
        ? 'Bet completed as a draw'
        : `Bet completed: ${outcome(event.data.resolution, names)}`;
    case 'BetSideLeft': {
      const other = event.data.party === 'creator' ? names.opponent : names.creator;
      return `${names.actor} deleted their account; ${other}'s report now decides the outcome`;
    }
    case 'DrawOffered':
      return `${names.actor} offered to call it a draw`;
    case 'DrawAccepted':
      return `${names.actor} accepted the draw`;
    case 'ReportStood':
      return `${names.creator}'s report stands (${outcome(event.data.resolution, names)}): no answer within ${event.data.days} days`;
    case 'BetMarkedPaid':
      return `${names.actor} marked the bet paid`;
    case 'BetPaymentConfirmed':
      return `${names.actor} confirmed the payment arrived`;
    case 'BetPaymentNotReceived':
      return `${names.actor} said the payment did not arrive`;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
