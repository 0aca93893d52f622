import { createHash } from 'node:crypto';
import { betRequestEventSchemas, type BetRequestReserved } from '@wagers/contracts/events/bet';
import { schemaReader, toEventData, type CommandContext } from '@wagers/platform/decider';
import { conflict, invalid } from '@wagers/platform/errors';
import { ConcurrencyError, type EventStore } from '@wagers/platform/event-store/port';

const readReservation = schemaReader<BetRequestReserved>(betRequestEventSchemas);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Printable ASCII, as clients send UUIDs or similar; long enough for any of them. */
const keyPattern = /^[\x21-\x7e]{1,255}$/;

export function parseIdempotencyKey(header: string | undefined): string | null {
  if (header === undefined) return null;
  if (!keyPattern.test(header)) {
    throw invalid(
      'Idempotency-Key',
      'The Idempotency-Key header must be 1 to 255 visible characters',
    );
  }
  return header;
}

/** The key is the user's own: two users sending the same key never meet. */
export const betRequestStream = (userId: string, key: string) =>
  `betrequest-${sha256(`${userId}\n${key}`)}`;

/** Canonical JSON (sorted keys) of what the request asked for. */
export function requestHash(body: Record<string, unknown>): string {
  const sorted = Object.fromEntries(Object.entries(body).sort(([a], [b]) => a.localeCompare(b)));
  return sha256(JSON.stringify(sorted));
}

/** The bet an earlier request with this key made, if any. */
export async function findBetRequest(
  store: EventStore,
  userId: string,
  key: string,
): Promise<BetRequestReserved['data'] | null> {
  const stream = betRequestStream(userId, key);
  const [recorded] = await store.readStream(stream, { maxCount: 1 });
  if (!recorded) return null;
  const reserved = readReservation(recorded);
  if (!reserved) throw new Error(`Reservation ${stream} holds an unexpected event`);
  return reserved.data;
}

/** The same key may only ever stand for the same request. */
export function sameRequestOrRefuse(reserved: BetRequestReserved['data'], hash: string): string {
  if (reserved.requestHash !== hash) {
    throw conflict(
      'This Idempotency-Key was already used for a different bet. Use a new key for a new bet.',
    );
  }
  return reserved.betId;
}

/**
 * Claims the key for a new bet id. The append with "no stream" is the arbiter: of any number of
 * concurrent requests with the key exactly one writes; the others read which bet it is for.
 */
export async function reserveBetRequest(
  store: EventStore,
  input: { userId: string; key: string; betId: string; requestHash: string },
  context: CommandContext,
): Promise<{ betId: string; first: boolean }> {
  const event: BetRequestReserved = {
    type: 'BetRequestReserved',
    data: { betId: input.betId, userId: input.userId, requestHash: input.requestHash },
  };
  try {
    await store.appendToStream(
      betRequestStream(input.userId, input.key),
      [toEventData(event, context)],
      {
        expectedRevision: 'no_stream',
      },
    );
    return { betId: input.betId, first: true };
  } catch (error) {
    if (!(error instanceof ConcurrencyError)) throw error;
  }
  const reserved = await findBetRequest(store, input.userId, input.key);
  if (!reserved) throw new Error('A reservation that conflicted is missing');
  return { betId: sameRequestOrRefuse(reserved, input.requestHash), first: false };
}
