import type { KeyObject } from 'node:crypto';
import type { DataKeys } from './data-keys.ts';
import type { AppendOptions, EventStore, EventToAppend, RecordedEvent } from './port.ts';
import {
  erasedClearFields,
  lookupsOf,
  openEvent,
  personalValues,
  sealEvent,
  upcastToSealedVersion,
} from './sealed-fields.ts';

const decorated = new WeakMap<object, { inner: EventStore; keys: DataKeys }>();

const isRecordedEvent = (value: unknown): value is RecordedEvent =>
  typeof value === 'object' &&
  value !== null &&
  'streamId' in value &&
  'type' in value &&
  'data' in value &&
  'metadata' in value;

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

/** Whether a value is, or carries, events to open. */
const holdsEvents = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.some((item) => isRecordedEvent(item) || Array.isArray(item))
    : isRecordedEvent(value) || (typeof value === 'object' && value !== null && 'events' in value);

/**
 * Wraps any EventStore so personal fields (contracts/src/events/personal-data.ts) are sealed with
 * their subject's key on the way in and opened on the way out, or read as null once the key is
 * destroyed. It wraps the store below the hash chain's view, so the chain covers the sealed form.
 *
 * Every read goes through it, whatever the method: anything a method resolves to, hands to an
 * `on…` callback or yields that is an event, or a list or page of events, is opened. A read
 * method added to the port later is covered without a change here.
 */
export function withPersonalData<Store extends EventStore>(inner: Store, keys: DataKeys): Store {
  async function openAll(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const { keyIds, subjects } = lookupsOf(events);
    if (keyIds.size === 0 && subjects.size === 0) return events;
    const [found, erased] = await Promise.all([
      keyIds.size > 0 ? keys.keysById(keyIds) : new Map<string, KeyObject>(),
      subjects.size > 0 ? keys.erased(subjects) : new Set<string>(),
    ]);
    return events.map((event) => upcastToSealedVersion(openEvent(event, found), erased));
  }

  async function openResult(value: unknown): Promise<unknown> {
    if (Array.isArray(value)) {
      if (value.length > 0 && value.every(isRecordedEvent)) return openAll(value);
      if (value.some(Array.isArray)) return Promise.all(value.map(openResult));
      return value;
    }
    if (isRecordedEvent(value)) return (await openAll([value]))[0];
    if (typeof value !== 'object' || value === null) return value;
    if (isAsyncIterable(value)) return openIterable(value);
    if ('events' in value && Array.isArray(value.events)) {
      return { ...value, events: await openResult(value.events) };
    }
    return value;
  }

  async function* openIterable(source: AsyncIterable<unknown>): AsyncGenerator<unknown> {
    for await (const item of source) yield await openResult(item);
  }

  /** An options object whose `on…` callbacks receive opened events. */
  function withOpenedCallbacks(argument: unknown): unknown {
    if (typeof argument !== 'object' || argument === null || Array.isArray(argument)) {
      return argument;
    }
    const callbacks = Object.entries(argument).filter(
      ([name, value]) => name.startsWith('on') && typeof value === 'function',
    );
    // Anything else (a signal, a client) is passed on as it is, not copied.
    if (callbacks.length === 0) return argument;
    const wrapped: Record<string, unknown> = { ...argument };
    for (const [name, callback] of callbacks) {
      const call = callback as (...a: unknown[]) => unknown;
      // Callbacks given no events (caught up, an error) are called as they were, at once.
      wrapped[name] = (...args: unknown[]) =>
        args.some(holdsEvents)
          ? Promise.all(args.map(openResult)).then((opened) => call(...opened))
          : call(...args);
    }
    return wrapped;
  }

  async function appendToStream(streamId: string, events: EventToAppend[], options: AppendOptions) {
    return inner.appendToStream(streamId, await sealAll(events), options);
  }

  async function sealAll(events: EventToAppend[]): Promise<EventToAppend[]> {
    const subjects = new Set(
      events.flatMap((event) => personalValues(event.type, event.data).map((v) => v.subject)),
    );
    if (subjects.size === 0) return events.map((event) => sealEvent(event, new Map()));
    // A user's key is never made again once destroyed; an address's is, for the next person.
    const gone = await keys.erased([...subjects].filter((s) => s.startsWith('user:')));
    const found = new Map<string, { keyId: string; key: KeyObject } | null>();
    for (const subject of subjects) {
      found.set(subject, gone.has(subject) ? null : await keys.keyFor(subject));
    }
    return events.map((event) => sealEvent(event, found));
  }

  async function close() {
    await inner.close();
    await keys.close();
  }

  const proxy = new Proxy(inner, {
    get(target, property, receiver) {
      if (property === 'appendToStream') return appendToStream;
      if (property === 'close') return close;
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(
          target,
          args.map(withOpenedCallbacks),
        );
        if (result instanceof Promise) return result.then(openResult);
        return isAsyncIterable(result) ? openIterable(result) : result;
      };
    },
  });
  decorated.set(proxy, { inner, keys });
  return proxy;
}

/**
 * The store beneath the personal-data decorator: events exactly as stored, sealed fields sealed.
 * For whatever must see the stored form (the hash chain's verifier, the audit export).
 */
export function storedForm(store: EventStore): EventStore {
  return decorated.get(store)?.inner ?? store;
}

/** Destroys the subjects' keys: from now on their sealed fields read as null, everywhere. */
export async function destroyDataKeys(store: EventStore, subjects: string[]): Promise<void> {
  const entry = decorated.get(store);
  if (!entry) throw new Error('This event store does not seal personal data');
  await entry.keys.destroy(subjects);
}

/**
 * Of events read in their stored form (`storedForm`), the personal fields each holds in clear
 * although their subject is erased (events written before sealing, schema version 1), by event
 * id: what a reader of the stored form must not show. Empty for a store that seals nothing.
 */
export async function erasedInClear(
  store: EventStore,
  stored: readonly RecordedEvent[],
): Promise<Map<string, string[]>> {
  const entry = decorated.get(store);
  const { subjects } = lookupsOf([...stored]);
  const found = new Map<string, string[]>();
  if (!entry || subjects.size === 0) return found;
  const erased = await entry.keys.erased(subjects);
  for (const event of stored) {
    const fields = erasedClearFields(event, erased);
    if (fields.length > 0) found.set(event.id, fields);
  }
  return found;
}
