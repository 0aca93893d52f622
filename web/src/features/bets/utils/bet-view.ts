import type { Bet, Resolution } from '@wagers/contracts/api/bets';
import { displayName } from '@wagers/contracts/api/display';

export type Role = 'creator' | 'opponent' | 'spectator';

export function roleOf(bet: Bet, userId: string): Role {
  if (bet.creatorId === userId) return 'creator';
  if (bet.opponentId !== null && bet.opponentId === userId) return 'opponent';
  return 'spectator';
}

/** Only the two participants of an accepted bet report the outcome. */
export function canResolve(bet: Bet, role: Role): boolean {
  return (
    role !== 'spectator' &&
    bet.opponentId !== null &&
    (bet.status === 'active' || bet.status === 'awaiting_resolution')
  );
}

/** A participant of a completed bet whose two reports matched still sees that they agreed. */
export function showsAgreement(bet: Bet, role: Role): boolean {
  return (
    role !== 'spectator' &&
    bet.status === 'completed' &&
    bet.creatorResolution !== null &&
    bet.creatorResolution === bet.opponentResolution
  );
}

export type ResolutionPhase = 'open' | 'waiting' | 'agreed' | 'disagreed';

/** Where the two reports stand, from the viewer's side. */
export function resolutionPhase(
  bet: Bet,
  role: Role,
): {
  phase: ResolutionPhase;
  mine: Resolution | null;
  theirs: Resolution | null;
} {
  const mine =
    role === 'creator'
      ? bet.creatorResolution
      : role === 'opponent'
        ? bet.opponentResolution
        : null;
  const theirs =
    role === 'creator'
      ? bet.opponentResolution
      : role === 'opponent'
        ? bet.creatorResolution
        : null;
  if (bet.creatorResolution && bet.opponentResolution) {
    return {
      phase: bet.creatorResolution === bet.opponentResolution ? 'agreed' : 'disagreed',
      mine,
      theirs,
    };
  }
  return { phase: mine ? 'waiting' : 'open', mine, theirs };
}

export function resolutionLabel(bet: Bet, resolution: Resolution): string {
  switch (resolution) {
    case 'creator_won':
      return `${displayName(bet.creator)} won`;
    case 'opponent_won':
      return `${bet.opponent ? displayName(bet.opponent) : 'Opponent'} won`;
    case 'draw':
      return 'Draw';
    default: {
      const unknown: never = resolution;
      return String(unknown);
    }
  }
}

/** The participant who lost a completed bet owes the winner; a draw has no loser. */
export function isLoser(bet: Bet, userId: string): boolean {
  return (
    bet.status === 'completed' &&
    bet.winnerId !== null &&
    bet.winnerId !== userId &&
    roleOf(bet, userId) !== 'spectator'
  );
}

export function mustPay(bet: Bet, userId: string): boolean {
  return bet.wagerType === 'money' && isLoser(bet, userId);
}
