import type { BetSettlementEvent } from '@wagers/contracts/events/bet';
import { conflict, forbidden } from '@wagers/platform/errors';
import type { BetState } from './bet.ts';
import { requireParty, stateSentence } from './access.ts';
import type { ConfirmReceipt, MarkPaid, ReportNotReceived } from './commands.ts';

type Role = 'winner' | 'loser';

/** The caller's side of a completed money bet that has money to move; refusals otherwise. */
function settlementRole(state: BetState, actorId: string): Role {
  requireParty(state, actorId);
  if (state.status !== 'completed')
    throw conflict(`${stateSentence(state)} Only a completed bet can be settled up.`);
  if (state.wagerType !== 'money' || !state.wagerAmountCents)
    throw conflict('This bet has no money to settle.');
  if (state.winnerId === null) throw conflict('This bet was a draw: nobody owes anything.');
  return state.winnerId === actorId ? 'winner' : 'loser';
}

export function markPaid(command: MarkPaid, state: BetState): BetSettlementEvent[] {
  const { actorId } = command.data;
  if (settlementRole(state, actorId) !== 'loser')
    throw forbidden('Only the loser can mark this bet paid');
  if (state.payment === 'confirmed') throw conflict('This bet is already settled.');
  if (state.payment === 'marked_paid') return [];
  return [{ type: 'BetMarkedPaid', data: { userId: actorId } }];
}

export function confirmReceipt(command: ConfirmReceipt, state: BetState): BetSettlementEvent[] {
  const { actorId } = command.data;
  if (settlementRole(state, actorId) !== 'winner')
    throw forbidden('Only the winner can confirm the payment');
  if (state.payment === 'confirmed') return [];
  if (state.payment === 'unpaid') throw conflict('The loser has not marked this bet paid yet.');
  return [{ type: 'BetPaymentConfirmed', data: { userId: actorId } }];
}

/**
 * The winner says the money never came: the bet is owed again, and the loser may mark it paid
 * anew. Only a payment the loser said they made can be missing: before that there is nothing to
 * report. The same report again, before the loser marks it paid anew, changes nothing (a retry).
 */
export function reportNotReceived(
  command: ReportNotReceived,
  state: BetState,
): BetSettlementEvent[] {
  const { actorId } = command.data;
  if (settlementRole(state, actorId) !== 'winner')
    throw forbidden('Only the winner can say the payment did not arrive');
  if (state.payment === 'confirmed') throw conflict('You already confirmed this payment arrived.');
  if (state.payment === 'unpaid' && state.paymentReportedMissing) return [];
  if (state.payment === 'unpaid')
    throw conflict(
      'The loser has not marked this bet paid yet: there is no payment to report missing.',
    );
  return [{ type: 'BetPaymentNotReceived', data: { userId: actorId } }];
}
