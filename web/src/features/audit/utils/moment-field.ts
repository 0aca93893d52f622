/**
 * The instant a date-and-time field (type datetime-local, whose value has no zone) names when read
 * as UTC, or '' when the field is empty or not filled in completely.
 */
export function instantFromField(value: string): string {
  if (!value) return '';
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00Z` : `${value}Z`;
}

/** The value a date-and-time field shows for an instant, in UTC, or '' for none. */
export function fieldFromInstant(iso: string | null): string {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(ms)) return '';
  // To the second, unless the instant has a fraction of one.
  return new Date(ms).toISOString().slice(0, ms % 1000 === 0 ? 19 : 23);
}
