import type { DomainEvent } from '@wagers/contracts/events/envelope';
import {
  handleCommand,
  type CommandContext,
  type CommandResult,
  type Decider,
  type EventReader,
  type HandleOptions,
} from './decider.ts';
import type { EventStore, RecordedEvent, StreamRevision } from './event-store/port.ts';

/** Everything needed to load and change one kind of aggregate: its stream, its decider, its reader. */
export interface Aggregate<Id, State, Command, Event extends DomainEvent> {
  stream: (id: Id) => string;
  decider: Decider<State, Command, Event>;
  read: EventReader<Event>;
}

export function defineAggregate<Id, State, Command, Event extends DomainEvent>(
  aggregate: Aggregate<Id, State, Command, Event>,
): Aggregate<Id, State, Command, Event> {
  return aggregate;
}

/** The aggregate's current state, read-only: for facts a command needs from another aggregate. */
export async function load<Id, State, Event extends DomainEvent>(
  store: EventStore,
  aggregate: Aggregate<Id, State, never, Event>,
  id: Id,
): Promise<State> {
  return (await loadRead(store, aggregate, id)).state;
}

/**
 * The aggregate's current state and the stream it was folded from: a command that takes facts
 * from the state before it decides passes `read` on to `handle`, which then does not read again.
 */
export async function loadRead<Id, State, Event extends DomainEvent>(
  store: EventStore,
  aggregate: Aggregate<Id, State, never, Event>,
  id: Id,
): Promise<{ state: State; read: RecordedEvent[] }> {
  const recorded = await store.readStream(aggregate.stream(id));
  return { state: fold(aggregate, recorded), read: recorded };
}

/**
 * The aggregate's state as of `revision`, that event included, whatever came after it: for a
 * follower of the log that acts on each event as things stood when it happened, however late.
 */
export async function loadAsOf<Id, State, Event extends DomainEvent>(
  store: EventStore,
  aggregate: Aggregate<Id, State, never, Event>,
  id: Id,
  revision: StreamRevision,
): Promise<State> {
  const recorded = await store.readStream(aggregate.stream(id), {
    maxCount: Number(revision) + 1,
  });
  return fold(aggregate, recorded);
}

function fold<Id, State, Event extends DomainEvent>(
  aggregate: Aggregate<Id, State, never, Event>,
  recorded: readonly RecordedEvent[],
): State {
  const { decider } = aggregate;
  let state = decider.initialState();
  for (const each of recorded) {
    const event = aggregate.read(each);
    if (event) state = decider.evolve(state, event);
  }
  return state;
}

/** One command on one aggregate: load, decide, append once (retrying on a concurrent write). */
export function handle<Id, State, Command, Event extends DomainEvent>(
  store: EventStore,
  aggregate: Aggregate<Id, State, Command, Event>,
  id: Id,
  command: Command,
  context: CommandContext,
  options?: HandleOptions,
): Promise<CommandResult<State, Event>> {
  return handleCommand(
    store,
    aggregate.stream(id),
    aggregate.decider,
    aggregate.read,
    command,
    context,
    options,
  );
}
