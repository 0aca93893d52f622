import { formatDateTime } from '@/lib/format.ts';

/** A moment as the audit area shows it: in UTC, to the second, and saying so. */
export function utcMoment(iso: string): string {
  return `${formatDateTime(iso, { timeZone: 'UTC', seconds: true })} (UTC)`;
}
