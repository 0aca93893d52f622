import type { DomainEvent, EventMetadata } from '@wagers/contracts/events/envelope';
import type { GlobalPosition } from '@wagers/contracts/position';
import { storedHash } from './event-store/event-hash.ts';
import { ConcurrencyError, type EventStore, type RecordedEvent } from './event-store/port.ts';

/**
 * An aggregate as two pure functions: `decide` turns a command and the current state into new
 * events (or throws a DomainError); `evolve` folds one event into the state.
 */
export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: () => State;
  decide: (command: Command, state: State) => Event[];
  evolve: (state: State, event: Event) => State;
}

/** Turns a stored event back into a domain event: upcasts old versions and validates the data. */
export type EventReader<Event extends DomainEvent> = (recorded: RecordedEvent) => Event | null;

export interface CommandContext {
  actorId: string | null;
  correlationId: string;
  causationId?: string | null;
  now: Date;
  newId: () => string;
}

export interface HandleOptions {
  maxAttempts?: number;
  /**
   * Runs once, when the decision has passed every rule of the aggregate and is about to be
   * appended: a check that costs something of its own (a rate limit's count) and must not be paid
   * for a command that the aggregate refuses anyway. It refuses by throwing, and nothing is
   * appended.
   */
  beforeAppend?: () => Promise<void>;
  /**
   * The stream as the caller has just read it (to take from it a fact about another aggregate):
   * the first attempt decides on it instead of reading it again; one after a concurrent write
   * reads afresh.
   */
  read?: RecordedEvent[];
}

export interface CommandResult<State, Event extends DomainEvent> {
  events: Event[];
  state: State;
  /** Where the last new event landed; null when the command changed nothing. */
  position: GlobalPosition | null;
}

/**
 * Loads a stream, folds it, decides and appends with the revision it read. A concurrent writer
 * makes the append fail; the whole cycle then runs again on fresh state, a bounded number of times.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  readEvent: EventReader<Event>,
  command: Command,
  context: CommandContext,
  { maxAttempts = 5, beforeAppend, read }: HandleOptions = {},
): Promise<CommandResult<State, Event>> {
  let checked = false;
  for (let attempt = 1; ; attempt++) {
    const recorded = attempt === 1 && read ? read : await store.readStream(streamId);
    let state = decider.initialState();
    for (const event of recorded) {
      const domainEvent = readEvent(event);
      if (domainEvent) state = decider.evolve(state, domainEvent);
    }
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, position: null };
    if (beforeAppend && !checked) {
      await beforeAppend();
      checked = true;
    }
    const last = recorded[recorded.length - 1];
    try {
      const result = await store.appendToStream(
        streamId,
        events.map((event) => toEventData(event, context)),
        // The stream was just read: the hash chain needs no second read for its last link, when
        // that event carries its hash. One written before hash chains has none, and its hash
        // must be computed from the stream as stored, not as read here (personal fields opened,
        // or null once erased): the hash chain's decorator reads that itself.
        last
          ? { expectedRevision: last.revision, previousHash: storedHash(last) }
          : { expectedRevision: 'no_stream' },
      );
      return { events, state: events.reduce(decider.evolve, state), position: result.position };
    } catch (error) {
      if (error instanceof ConcurrencyError && attempt < maxAttempts) continue;
      throw error;
    }
  }
}

export function toEventData(event: DomainEvent, context: CommandContext, schemaVersion = 1) {
  const metadata: EventMetadata = {
    actorId: context.actorId,
    correlationId: context.correlationId,
    causationId: context.causationId ?? null,
    occurredAt: context.now.toISOString(),
    schemaVersion,
  };
  return { id: context.newId(), type: event.type, data: event.data, metadata };
}

/**
 * An EventReader from a map of event type -> zod schema of its data. Unknown types are skipped,
 * so an aggregate never trips over an event it does not care about.
 */
export function schemaReader<Event extends DomainEvent>(schemas: {
  [Type in Event['type']]: { parse: (data: unknown) => Extract<Event, { type: Type }>['data'] };
}): EventReader<Event> {
  return (recorded) => {
    const schema = (schemas as Record<string, { parse: (data: unknown) => unknown } | undefined>)[
      recorded.type
    ];
    if (!schema) return null;
    return { type: recorded.type, data: schema.parse(recorded.data) } as Event;
  };
}
