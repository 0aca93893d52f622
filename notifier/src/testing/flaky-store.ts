import type { EventStore } from '@wagers/platform/event-store/port';

/**
 * For tests: the real store, except that the next append to a stream whose id starts with one of
 * the prefixes in `failNextAppend` fails once, before anything is written, as a connection to
 * PostgreSQL dropped mid-call would. Everything else goes to the real store.
 */
export function flakyStore(real: EventStore): { store: EventStore; failNextAppend: Set<string> } {
  const failNextAppend = new Set<string>();
  const store = new Proxy(real, {
    get(target, property, receiver) {
      if (property === 'appendToStream') {
        const append: EventStore['appendToStream'] = async (streamId, ...rest) => {
          for (const prefix of failNextAppend) {
            if (!streamId.startsWith(prefix)) continue;
            failNextAppend.delete(prefix);
            throw new Error('Connection terminated unexpectedly');
          }
          return target.appendToStream(streamId, ...rest);
        };
        return append;
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return { store, failNextAppend };
}
