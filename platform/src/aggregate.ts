import type { DomainEvent } from '@wagers/contracts/events/envelope';
import {
  handleCommand,
  type CommandContext,
  type CommandResult,
  type Decider,
  type EventReader,
  type HandleOptions,
} from './decider.ts';
import type { EventStore } from './event-store/port.ts';

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
  const { decider, read } = aggregate;
  let state = decider.initialState();
  for (const recorded of await store.readStream(aggregate.stream(id))) {
    const event = read(recorded);
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
