import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dataJsonText, EventWithDataText } from './json-text.ts';
import type { RecordedEvent } from './port.ts';
import { openEvent, upcastToSealedVersion } from './sealed-fields.ts';

const text = '{"title": "Who \\"wins\\"", "amount": 1500, "note": null, "paid": false}';

function event(type = 'BetProposed', dataText = text): EventWithDataText {
  return new EventWithDataText(
    randomUUID(),
    `bet-${randomUUID()}`,
    0n,
    '10-1',
    type,
    dataText,
    {
      actorId: null,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: '2026-03-01T12:00:00.000Z',
      schemaVersion: 2,
    },
    new Date('2026-03-01T12:00:00.000Z'),
  );
}

describe('the JSON text of an event read as text', () => {
  it('is the event as any other to a reader: its data parsed, equal to a plain object', () => {
    const read = event();
    const plain: RecordedEvent = { ...read };
    expect(read.data).toEqual({ title: 'Who "wins"', amount: 1500, note: null, paid: false });
    expect(read).toEqual(plain);
    expect(Object.keys(read)).toEqual([
      'id',
      'streamId',
      'revision',
      'position',
      'type',
      'data',
      'metadata',
      'recordedAt',
    ]);
  });

  it('is given for its data, or a copy of it with the same members in any order', () => {
    const read = event();
    expect(dataJsonText(read, read.data)).toBe(text);
    expect(dataJsonText(read, { paid: false, note: null, amount: 1500, title: 'Who "wins"' })).toBe(
      text,
    );
  });

  it('is not given for data a schema changed: a member dropped, added or turned', () => {
    const read = event();
    const { note, ...dropped } = read.data as Record<string, unknown>;
    expect(note).toBeNull();
    expect(dataJsonText(read, dropped)).toBeNull();
    expect(dataJsonText(read, { ...(read.data as object), added: 'default' })).toBeNull();
    expect(dataJsonText(read, { ...(read.data as object), amount: '1500' })).toBeNull();
    expect(dataJsonText(read, { ...(read.data as object), note: undefined })).toBeNull();
    expect(dataJsonText(read, [read.data])).toBeNull();
    expect(dataJsonText(read, null)).toBeNull();
  });

  it('is not given once nested data may differ: a copied inner object', () => {
    const read = event('BetProposed', '{"inner": {"a": 1}}');
    const data = read.data as { inner: { a: number } };
    expect(dataJsonText(read, data)).toBe('{"inner": {"a": 1}}');
    expect(dataJsonText(read, { inner: data.inner })).toBe('{"inner": {"a": 1}}');
    expect(dataJsonText(read, { inner: { a: 1 } })).toBeNull();
  });

  it('is not given once the data was replaced, nor for a copy of the event', () => {
    const replaced = event();
    replaced.data = { title: 'Another' };
    expect(dataJsonText(replaced, replaced.data)).toBeNull();
    const read = event();
    expect(dataJsonText({ ...read }, read.data)).toBeNull();
    const plain: RecordedEvent = { ...read };
    expect(dataJsonText(plain, plain.data)).toBeNull();
  });

  it('follows the personal-data reader: kept where it leaves the data as read', () => {
    // No personal field of this type: the reader gives the event itself.
    const other = event('BetAccepted', '{"opponentId": "u1"}');
    const opened = upcastToSealedVersion(openEvent(other, new Map()), new Set());
    expect(dataJsonText(opened, opened.data)).toBe('{"opponentId": "u1"}');
    // A type with personal fields is given as a copy, whose data may be opened or erased.
    const proposed = event();
    const copy = upcastToSealedVersion(openEvent(proposed, new Map()), new Set());
    expect(dataJsonText(copy, copy.data)).toBeNull();
  });
});
