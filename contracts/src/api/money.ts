/**
 * Money is kept as integer cents everywhere; these are the only two conversions, done on
 * strings so no float ever touches an amount.
 */
export function parseDollarsToCents(input: string | number): number | null {
  const text = typeof input === 'number' ? String(input) : input.trim();
  const match = /^(\d{1,9})(?:\.(\d{0,2}))?$/.exec(text);
  if (!match?.[1]) return null;
  const cents = (match[2] ?? '').padEnd(2, '0');
  return Number(match[1]) * 100 + Number(cents);
}

/** 1250 -> "12.50" */
export function formatCents(cents: number): string {
  const whole = Math.floor(cents / 100);
  const rest = String(cents % 100).padStart(2, '0');
  return `${whole}.${rest}`;
}

/** 1250 -> "$12.50" */
export function formatUsd(cents: number): string {
  return `$${formatCents(cents).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}
