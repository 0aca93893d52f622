import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { Bet } from '@wagers/contracts/api/bets';
import { displayName } from '@wagers/contracts/api/display';
import { Avatar } from '@/components/ui/avatar.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { UserAvatar } from '@/components/user-avatar.tsx';
import { paths } from '@/config/paths.ts';
import { formatDate, formatWager } from '@/lib/format.ts';
import { BetStatusBadge } from './bet-status-badge.tsx';

/**
 * One bet in a list; the whole card opens the bet. The link is the title, stretched over the card,
 * so its name is the text it shows (WCAG 2.5.3) and the rest of the card describes it.
 */
export function BetCard({ bet }: { bet: Bet }) {
  const opponent = bet.opponent ? displayName(bet.opponent) : 'Pending invite';
  const id = useId();
  return (
    <article
      data-testid="bet-card"
      data-bet-id={bet.id}
      className="relative rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition hover:border-indigo-300 hover:shadow-md has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-indigo-600 sm:p-5"
    >
      <div className="flex items-center justify-between gap-3">
        <div
          className="flex items-center gap-2"
          aria-label={`${displayName(bet.creator)} versus ${opponent}`}
          role="img"
          id={`${id}-people`}
        >
          <UserAvatar user={bet.creator} size="sm" />
          <span aria-hidden="true" className="text-xs font-semibold text-slate-600 uppercase">
            vs
          </span>
          {bet.opponent ? (
            <UserAvatar user={bet.opponent} size="sm" />
          ) : (
            <Avatar fallback="?" size="sm" />
          )}
        </div>
        <span id={`${id}-status`}>
          <BetStatusBadge status={bet.status} />
        </span>
      </div>
      <h3 className="mt-3 font-semibold break-words text-slate-900">
        <Link
          to={paths.bet(bet.id)}
          aria-describedby={`${id}-people ${id}-status ${id}-wager`}
          className="outline-none after:absolute after:inset-0 after:rounded-xl"
        >
          {bet.title}
        </Link>
      </h3>
      <p className="mt-1 line-clamp-2 text-sm break-words text-slate-700">{bet.description}</p>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
        <span className="font-semibold text-indigo-800" data-testid="bet-wager" id={`${id}-wager`}>
          {formatWager(bet)}
        </span>
        <span className="text-slate-600">{formatDate(bet.createdAt)}</span>
      </div>
    </article>
  );
}

export function BetCardSkeleton() {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 sm:p-5">
      <div className="flex items-center justify-between">
        <div className="flex items-center gap-2">
          <Skeleton className="size-8 rounded-full" />
          <Skeleton className="size-8 rounded-full" />
        </div>
        <Skeleton className="h-5 w-16 rounded-full" />
      </div>
      <Skeleton className="mt-4 h-5 w-2/3" />
      <Skeleton className="mt-2 h-4 w-full" />
      <Skeleton className="mt-3 h-4 w-1/3" />
    </div>
  );
}
