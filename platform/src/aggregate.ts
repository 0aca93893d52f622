import type { DomainEvent } from '@wagers/contracts/events/envelope';
import {
  handleCommand,
  type CommandContext,
  type CommandResult,
  type Decider,
  type EventReader,
  type HandleOptions,
} from './decider.ts';
import type { EventStore, RecordedEvent } from './event-store/port.ts';

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
  const { decider } = aggregate;
  let state = decider.initialState();
  const recorded = await store.readStream(aggregate.stream(id));
  for (const each of recorded) {
    const event = aggregate.read(each);
    if (event) state = decider.evolve(state, event);
  }
  return { state, read: recorded };
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
