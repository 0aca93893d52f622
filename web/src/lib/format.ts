import { formatUsd, parseDollarsToCents } from '@wagers/contracts/api/money';

/** "Oct 25, 2025", in the browser's time zone unless `timeZone` names another ("UTC"). */
export function formatDate(iso: string, timeZone?: string): string {
  const date = parseDate(iso);
  return date
    ? date.toLocaleDateString('en-US', {
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        timeZone,
      })
    : iso;
}

/**
 * "Oct 25, 2025, 3:04 PM", in the browser's time zone unless `timeZone` names another ("UTC");
 * with `seconds`, "Oct 25, 2025, 3:04:05 PM".
 */
export function formatDateTime(
  iso: string,
  { timeZone, seconds = false }: { timeZone?: string; seconds?: boolean } = {},
): string {
  const date = parseDate(iso);
  return date
    ? date.toLocaleString('en-US', {
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        ...(seconds ? { second: '2-digit' } : {}),
        timeZone,
      })
    : iso;
}

/** "October 2025" */
export function formatMonthYear(iso: string): string {
  const date = parseDate(iso);
  return date ? date.toLocaleDateString('en-US', { month: 'long', year: 'numeric' }) : iso;
}

/** A date-only value ("2025-10-25") read as a local calendar day, not UTC midnight. */
function parseDate(value: string): Date | null {
  const dayOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = dayOnly
    ? new Date(Number(dayOnly[1]), Number(dayOnly[2]) - 1, Number(dayOnly[3]))
    : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Today as YYYY-MM-DD in the visitor's time zone (date input minimum). */
export function todayIso(): string {
  const now = new Date();
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

type Wager = {
  wagerType: 'money' | 'custom';
  wagerAmount?: string | null;
  wagerAmountCents?: number | null;
  wagerDescription?: string | null;
};

/** Money as a dollar amount, otherwise the custom wager description. */
export function formatWager(wager: Wager): string {
  if (wager.wagerType === 'money') {
    if (typeof wager.wagerAmountCents === 'number') return formatUsd(wager.wagerAmountCents);
    const cents = wager.wagerAmount ? parseDollarsToCents(wager.wagerAmount) : null;
    return formatUsd(cents ?? 0);
  }
  return wager.wagerDescription ?? '';
}
