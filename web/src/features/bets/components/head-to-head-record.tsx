import type { HeadToHead } from '@wagers/contracts/api/head-to-head';
import { formatUsd } from '@wagers/contracts/api/money';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useHeadToHead } from '../api/get-head-to-head.ts';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "2 wins, 1 loss, 0 draws · up $14.50" */
export function recordLine(record: HeadToHead): string {
  const tally = [
    count(record.wins, 'win', 'wins'),
    count(record.losses, 'loss', 'losses'),
    count(record.draws, 'draw', 'draws'),
  ].join(', ');
  const net = record.netCents;
  const money = net > 0 ? `up ${formatUsd(net)}` : net < 0 ? `down ${formatUsd(-net)}` : 'even';
  return `${tally} · ${money}`;
}

/** Your record against one person, as a line of text; `record` is null while it loads. */
export function HeadToHeadLine({ record }: { record: HeadToHead | null }) {
  if (!record) return <Skeleton className="h-4 w-40" />;
  return (
    <p className="text-sm text-slate-700" data-testid="head-to-head">
      <span className="font-medium">Your record:</span> {recordLine(record)}
    </p>
  );
}

/** The bet page's line: your record against the other participant. */
export function HeadToHeadWith({ userId }: { userId: string }) {
  const { data } = useHeadToHead(userId);
  return <HeadToHeadLine record={data ?? null} />;
}
