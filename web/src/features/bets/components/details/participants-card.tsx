import type { Bet } from '@wagers/contracts/api/bets';
import { displayName } from '@wagers/contracts/api/display';
import type { User } from '@wagers/contracts/api/user';
import { Avatar } from '@/components/ui/avatar.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { UserAvatar } from '@/components/user-avatar.tsx';
import { HeadToHeadWith } from '../head-to-head-record.tsx';

export function ParticipantsCard({ bet, userId }: { bet: Bet; userId: string }) {
  const otherId = bet.creatorId === userId ? bet.opponentId : bet.creatorId;
  return (
    <Card data-testid="participants-card">
      <CardHeader>
        <CardTitle>Participants</CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-[1fr_auto_1fr] items-start gap-3">
        <Participant user={bet.creator} role="Creator" isYou={bet.creatorId === userId} />
        <span aria-hidden="true" className="self-center text-sm font-bold text-slate-600 uppercase">
          vs
        </span>
        {bet.opponent ? (
          <Participant user={bet.opponent} role="Opponent" isYou={bet.opponentId === userId} />
        ) : (
          <div className="flex flex-col items-center gap-2 text-center">
            <Avatar fallback="?" size="lg" />
            <p className="font-medium text-slate-900">Pending Invite</p>
            {bet.invitee ? <p className="text-sm break-all text-slate-600">{bet.invitee}</p> : null}
          </div>
        )}
        {otherId ? (
          <div className="col-span-3">
            <HeadToHeadWith userId={otherId} />
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function Participant({ user, role, isYou }: { user: User; role: string; isYou: boolean }) {
  return (
    <div className="flex min-w-0 flex-col items-center gap-2 text-center">
      <UserAvatar user={user} size="lg" />
      <p className="max-w-full font-medium break-words text-slate-900">
        {displayName(user)}
        {isYou ? <span className="text-slate-600"> (you)</span> : null}
      </p>
      <p className="text-xs text-slate-600">{role}</p>
    </div>
  );
}
