import { describe, expect, it } from 'vitest';
import { auditHistoryQuerySchema } from '@wagers/contracts/api/audit';
import { fieldFromInstant, instantFromField } from './moment-field.ts';

describe('the date-and-time field of the audit page, read as UTC', () => {
  it('names the instant the history call is asked for, which its schema takes', () => {
    for (const [value, instant] of [
      ['2026-03-03T14:00', '2026-03-03T14:00:00Z'],
      ['2026-03-03T14:00:05', '2026-03-03T14:00:05Z'],
      ['2026-03-03T14:00:05.250', '2026-03-03T14:00:05.250Z'],
    ]) {
      expect(instantFromField(value!)).toBe(instant);
      expect(auditHistoryQuerySchema.safeParse({ asOf: instant }).success).toBe(true);
    }
    expect(instantFromField('')).toBe('');
    expect(auditHistoryQuerySchema.safeParse({ asOf: instantFromField('') }).success).toBe(false);
  });

  it('shows an instant in UTC, whatever offset it was written in', () => {
    expect(fieldFromInstant('2026-03-03T14:00:00Z')).toBe('2026-03-03T14:00:00');
    expect(fieldFromInstant('2026-03-03T16:00:05+02:00')).toBe('2026-03-03T14:00:05');
    expect(fieldFromInstant('2026-03-03T14:00:05.25Z')).toBe('2026-03-03T14:00:05.250');
    expect(fieldFromInstant(null)).toBe('');
    expect(fieldFromInstant('not a moment')).toBe('');
  });
});
