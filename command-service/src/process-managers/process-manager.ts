import type { ClientBase, Pool } from 'pg';
import type { GlobalPosition } from '@wagers/contracts/position';
import type { ProcessManagerName } from '@wagers/domain/process-managers';
import { advanceUserSessions } from '@wagers/platform/auth/sessions';
import type { CommandContext } from '@wagers/platform/decider';
import { DomainError } from '@wagers/platform/errors';
import type { EventStore, RecordedEvent } from '@wagers/platform/event-store/port';
import type { Logger } from '@wagers/platform/logger';
import type { Projector } from '@wagers/platform/projections/projector';
import { runProjector, type RunningProjector } from '@wagers/platform/projections/runner';
import type { Runtime } from '@wagers/platform/runtime';
import type { AvatarStore } from '../avatar/avatar-store.ts';

/**
 * Reacts to events of some types with commands on other aggregates. Every reaction must be
 * idempotent by the target's own state (deterministic ids, "already done" is a no-op), because an
 * event is handled again when a crash came between the commands and the checkpoint.
 */
export interface ProcessManager {
  name: ProcessManagerName;
  /** Event types it acts on: a command that appends one makes its actor's reads wait for it. */
  reactsTo: ReadonlySet<string>;
  /**
   * Event types it looks at but seldom acts on (a race to catch): appending one alone does not
   * make the actor's reads wait; when it does act, it moves the actor's sessions as ever.
   */
  looksAt?: ReadonlySet<string>;
  /**
   * Called with the events of a page it reacts to, before `react` sees any of them: what their
   * reactions read is read here for the whole page, in one round trip instead of one each.
   */
  beginPage?(events: RecordedEvent[]): Promise<void>;
  /** Returns where its last write landed, or null when there was nothing left to do. */
  react(event: RecordedEvent, context: CommandContext): Promise<GlobalPosition | null>;
}

/** Every event type the manager reacts to or looks at. */
function typesOf(manager: ProcessManager): ReadonlySet<string> {
  return new Set([...manager.reactsTo, ...(manager.looksAt ?? [])]);
}

export interface ProcessManagerDeps {
  store: EventStore;
  pool: Pool;
  connectionString: string;
  runtime: Runtime;
  logger: Logger;
  /** Where pictures are: an erased account's go with it. */
  avatars: Pick<AvatarStore, 'removeAllOf'>;
}

/** The command context of a reaction: same correlation as the event, caused by it, by its actor. */
export function reactionContext(event: RecordedEvent, runtime: Runtime): CommandContext {
  return {
    actorId: event.metadata.actorId,
    correlationId: event.metadata.correlationId,
    causationId: event.id,
    now: runtime.now(),
    newId: runtime.newId,
  };
}

/**
 * Runs a process manager on the projection runner's machinery: one active copy behind an advisory
 * lock, its own checkpoint committed after each page (never reset by a rebuild, version fixed at
 * 1). In the checkpoint's transaction it moves the actor's sessions past what it wrote, so the
 * person whose command set it off reads the outcome next. A refusal by the target aggregate is
 * final (logged, never retried); any other failure stops the page and the runner tries again.
 */
export function startProcessManager(
  manager: ProcessManager,
  deps: ProcessManagerDeps,
): RunningProjector {
  const log = deps.logger.child({ processManager: manager.name });
  const types = typesOf(manager);
  const reactTo = async (client: ClientBase, event: RecordedEvent) => {
    let position: GlobalPosition | null;
    try {
      position = await manager.react(event, reactionContext(event, deps.runtime));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      log.warn(
        { eventId: event.id, type: event.type, code: error.code, reason: error.message },
        'reaction refused; nothing to do for this event',
      );
      return;
    }
    const actorId = event.metadata.actorId;
    if (position && actorId) await advanceUserSessions(client, actorId, position);
  };
  const projector: Projector = {
    name: manager.name,
    version: 1,
    tables: [],
    eventTypes: types,
    async applyPage(client, events) {
      const page = events.filter((event) => types.has(event.type));
      if (page.length === 0) return;
      await manager.beginPage?.(page);
      for (const event of page) await reactTo(client, event);
    },
  };
  return runProjector(projector, {
    store: deps.store,
    pool: deps.pool,
    connectionString: deps.connectionString,
    logger: log,
  });
}
