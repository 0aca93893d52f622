import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { copiedColumns, CopiedEvent } from './copied-event.ts';
import type { RecordedEvent } from './port.ts';
import { openEvent, upcastToSealedVersion } from './sealed-fields.ts';

const data = '{"title": "Who \\"wins\\"", "amount": 1500, "note": null, "paid": false}';

/** An event as the bulk read parses it from a line of COPY text. */
function copied(type = 'BetProposed', dataText = data): CopiedEvent {
  const [id, streamId] = [randomUUID(), `bet-${randomUUID()}`];
  // COPY escapes the data's backslashes.
  const columns = `${streamId}\t3\t${id}\t${type}\t${dataText.replaceAll('\\', '\\\\')}`;
  const text = `77\t1234\t${columns}\t{"actorId": null}\t2026-03-01 12:00:00+00\n`;
  const from = text.indexOf(streamId);
  return new CopiedEvent(
    id,
    streamId,
    3n,
    '77-1234',
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
    text,
    from,
    from + columns.length,
  );
}

const columnsOf = (event: RecordedEvent, skip = 0) =>
  `${event.streamId.slice(skip)}\t3\t${event.id}\t${event.type}\t${data.replaceAll('\\', '\\\\')}`;

describe('an event the bulk read copied', () => {
  it('is the event as any other to a reader: its data parsed, equal to a plain object', () => {
    const read = copied();
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

  it('gives its columns as COPY wrote them, for its data or a copy with the same members', () => {
    const read = copied();
    expect(copiedColumns(read, read.data)).toBe(columnsOf(read));
    expect(copiedColumns(read, read.data, 4)).toBe(columnsOf(read, 4));
    const reordered = { paid: false, note: null, amount: 1500, title: 'Who "wins"' };
    expect(copiedColumns(read, reordered)).toBe(columnsOf(read));
  });

  it('gives nothing for data a schema changed: a member dropped, added or turned', () => {
    const read = copied();
    const { note, ...dropped } = read.data as Record<string, unknown>;
    expect(note).toBeNull();
    expect(copiedColumns(read, dropped)).toBeNull();
    expect(copiedColumns(read, { ...(read.data as object), added: 'default' })).toBeNull();
    expect(copiedColumns(read, { ...(read.data as object), amount: '1500' })).toBeNull();
    expect(copiedColumns(read, { ...(read.data as object), note: undefined })).toBeNull();
    expect(copiedColumns(read, [read.data])).toBeNull();
    expect(copiedColumns(read, null)).toBeNull();
  });

  it('gives nothing once nested data may differ: a copied inner object', () => {
    const read = copied('BetProposed', '{"inner": {"a": 1}}');
    const inner = (read.data as { inner: { a: number } }).inner;
    expect(copiedColumns(read, { inner })).not.toBeNull();
    expect(copiedColumns(read, { inner: { a: 1 } })).toBeNull();
  });

  it('gives nothing once a member was replaced, nor for a copy of the event', () => {
    for (const change of [
      (event: CopiedEvent) => (event.data = { title: 'Another' }),
      (event: CopiedEvent) => (event.type = 'BetAccepted'),
      (event: CopiedEvent) => (event.streamId = `bet-${randomUUID()}`),
      (event: CopiedEvent) => (event.id = randomUUID()),
      (event: CopiedEvent) => (event.revision = 4n),
    ]) {
      const read = copied();
      change(read);
      expect(copiedColumns(read, read.data)).toBeNull();
    }
    const read = copied();
    expect(copiedColumns({ ...read }, read.data)).toBeNull();
  });

  it('keeps its columns through the personal-data reader only where it gives the event itself', () => {
    // No personal field in this type: the reader gives the event as it is.
    const accepted = copied('BetAccepted', '{"opponentId": "u1"}');
    const opened = upcastToSealedVersion(openEvent(accepted, new Map()), new Set());
    expect(copiedColumns(opened, opened.data)).not.toBeNull();
    // A type with personal fields is given as a copy, whose data may be opened or erased.
    const proposed = copied();
    const copy = upcastToSealedVersion(openEvent(proposed, new Map()), new Set());
    expect(copiedColumns(copy, copy.data)).toBeNull();
  });
});
