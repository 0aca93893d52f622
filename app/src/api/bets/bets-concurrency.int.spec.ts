import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  resolutions,
  type Bet,
  type Resolution,
  type ValidationMode,
} from '@wagers/contracts/api/bets';
import { betStream } from '@wagers/contracts/events/bet';
import { createPool } from '@wagers/platform/db';
import { handleCommand, type CommandContext } from '@wagers/platform/decider';
import { DomainError } from '@wagers/platform/errors';
import { ConcurrencyError, type EventStore } from '@wagers/platform/event-store/port';
import { loadConfig } from '@wagers/platform/config';
import { createEventStore } from '@wagers/platform/event-store/factory';
import type { Problem } from '@wagers/contracts/problem';
import type { TestApp } from '../../test-support/test-app.ts';
import { readBetEvent } from '@wagers/domain/bets/bet';
import { proposeCommand } from '@wagers/domain/bets/bet-fixtures';
import { betDecider } from '@wagers/domain/bets/decide';
import { betsTestbed, proposeTo, sync, type BetsTestbed, type Person } from './http-fixtures.ts';

const ROUNDS = 50;
/** Fifty rounds of a few requests each: far more than one test's default, on a loaded machine. */
const ROUND_TIMEOUT = 120_000;

let bed: BetsTestbed;
let app: TestApp;
let alice: Person;
let bob: Person;

beforeAll(async () => {
  bed = await betsTestbed();
  ({ app, alice, bob } = bed);
});
afterAll(() => bed?.stop());

async function streamOf(betId: string) {
  const result = await bed.db.query<{
    stream_revision: string;
    type: string;
    data: { party?: string; resolution?: Resolution; winnerId?: string | null };
  }>(
    'SELECT stream_revision, type, data FROM es_events WHERE stream_id = $1 ORDER BY stream_revision',
    [`bet-${betId}`],
  );
  result.rows.forEach((row, index) => expect(Number(row.stream_revision)).toBe(index));
  return result.rows;
}

/** Every pairing of answers comes up: agreements, disagreements, draws. */
const answersFor = (round: number): [Resolution, Resolution] => [
  resolutions[round % 3]!,
  resolutions[(round + Math.floor(round / 3)) % 3]!,
];

async function raceOnce(mode: ValidationMode, round: number) {
  const bet = await proposeTo(alice, bob, { validationMode: mode, title: `Race ${mode} ${round}` });
  expect((await bob.client.post(`/api/bets/${bet.id}/accept`)).status).toBe(200);
  const [creatorAnswer, opponentAnswer] = answersFor(round);
  const [fromCreator, fromOpponent] = await Promise.all([
    alice.client.post<Problem>(`/api/bets/${bet.id}/resolve`, { resolution: creatorAnswer }),
    bob.client.post<Problem>(`/api/bets/${bet.id}/resolve`, { resolution: opponentAnswer }),
  ]);
  sync(alice, bob);
  const seen = (await alice.client.get<Bet>(`/api/bets/${bet.id}`)).body;
  return {
    bet,
    creatorAnswer,
    opponentAnswer,
    fromCreator,
    fromOpponent,
    seen,
    events: await streamOf(bet.id),
  };
}

const winnerOf = (resolution: Resolution) =>
  resolution === 'creator_won' ? alice.user.id : resolution === 'opponent_won' ? bob.user.id : null;

describe('both participants resolve at the same instant', () => {
  it(
    `mode both, ${ROUNDS} times: both answers are kept and the outcome follows them`,
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const race = await raceOnce('both', round);
        expect(race.fromCreator.status, race.fromCreator.text).toBe(200);
        expect(race.fromOpponent.status, race.fromOpponent.text).toBe(200);
        const submitted = race.events.filter((e) => e.type === 'ResolutionSubmitted');
        expect(submitted.map((e) => `${e.data.party}:${e.data.resolution}`).sort()).toEqual(
          [`creator:${race.creatorAnswer}`, `opponent:${race.opponentAnswer}`].sort(),
        );
        expect(race.seen).toMatchObject({
          creatorResolution: race.creatorAnswer,
          opponentResolution: race.opponentAnswer,
        });
        if (race.creatorAnswer === race.opponentAnswer) {
          expect(race.events.at(-1)).toMatchObject({
            type: 'BetCompleted',
            data: { winnerId: winnerOf(race.creatorAnswer) },
          });
          expect(race.seen).toMatchObject({
            status: 'completed',
            winnerId: winnerOf(race.creatorAnswer),
          });
        } else {
          expect(race.events.filter((e) => e.type === 'ResolutionDisputed')).toHaveLength(1);
          expect(race.events.some((e) => e.type === 'BetCompleted')).toBe(false);
          expect(race.seen).toMatchObject({ status: 'awaiting_resolution', winnerId: null });
        }
      }
    },
    ROUND_TIMEOUT,
  );

  it(
    `mode one, ${ROUNDS} times: exactly one answer decides, the other is told it came too late`,
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const race = await raceOnce('one', round);
        const statuses = [race.fromCreator.status, race.fromOpponent.status].sort();
        expect(statuses).toEqual([200, 409]);
        const loser = race.fromCreator.status === 409 ? race.fromCreator : race.fromOpponent;
        expect(loser.body.message).toBe(
          'This bet is already completed. The outcome can no longer be changed.',
        );
        const decided = race.fromCreator.status === 200 ? race.creatorAnswer : race.opponentAnswer;
        expect(race.events.map((e) => e.type)).toEqual([
          'BetProposed',
          'BetAccepted',
          'ResolutionSubmitted',
          'BetCompleted',
        ]);
        expect(race.events[2]?.data).toMatchObject({
          party: race.fromCreator.status === 200 ? 'creator' : 'opponent',
          resolution: decided,
        });
        expect(race.seen).toMatchObject({ status: 'completed', winnerId: winnerOf(decided) });
      }
    },
    ROUND_TIMEOUT,
  );
});

/**
 * The HTTP races above may or may not overlap on a given run. Here both commands are made to read
 * the bet before either writes, every time, so every round is a real write conflict that the
 * command handler must resolve by re-deciding on fresh state.
 */
describe('forced collisions: both read the bet before either writes', () => {
  const context = (actorId: string): CommandContext => ({
    actorId,
    correlationId: randomUUID(),
    now: new Date(),
    newId: randomUUID,
  });

  function collidingStore(store: EventStore, streamId: string) {
    const stats = { conflicts: 0 };
    const held: (() => void)[] = [];
    let firstReads = 2;
    const colliding: EventStore = {
      kind: store.kind,
      async readStream(id, options) {
        const events = await store.readStream(id, options);
        if (id === streamId && firstReads > 0) {
          firstReads -= 1;
          await new Promise<void>((release) => {
            held.push(release);
            if (held.length === 2) held.forEach((go) => go());
          });
        }
        return events;
      },
      async appendToStream(id, events, options) {
        try {
          return await store.appendToStream(id, events, options);
        } catch (error) {
          if (error instanceof ConcurrencyError) stats.conflicts += 1;
          throw error;
        }
      },
      readStreams: (ids) => store.readStreams(ids),
      readAll: (options) => store.readAll(options),
      readAllPages: (options) => store.readAllPages(options),
      subscribeToAll: (options) => store.subscribeToAll(options),
      headPosition: () => store.headPosition(),
      close: () => store.close(),
    };
    return { colliding, stats };
  }

  let pool: pg.Pool;
  let store: EventStore;
  beforeAll(() => {
    pool = createPool(app.databaseUrl, 4);
    store = createEventStore(loadConfig({}), pool, app.databaseUrl);
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
  });

  async function collide(mode: ValidationMode, round: number) {
    const betId = randomUUID();
    const [creator, opponent] = [alice.user.id, bob.user.id];
    await handleCommand(
      store,
      betStream(betId),
      betDecider,
      readBetEvent,
      proposeCommand({ betId, creatorId: creator, opponentId: opponent, validationMode: mode }),
      context(creator),
    );
    await handleCommand(
      store,
      betStream(betId),
      betDecider,
      readBetEvent,
      { type: 'AcceptBet', data: { actorId: opponent } },
      context(opponent),
    );
    const { colliding, stats } = collidingStore(store, betStream(betId));
    const [creatorAnswer, opponentAnswer] = answersFor(round);
    const outcomes = await Promise.allSettled([
      handleCommand(
        colliding,
        betStream(betId),
        betDecider,
        readBetEvent,
        { type: 'SubmitResolution', data: { actorId: creator, resolution: creatorAnswer } },
        context(creator),
      ),
      handleCommand(
        colliding,
        betStream(betId),
        betDecider,
        readBetEvent,
        { type: 'SubmitResolution', data: { actorId: opponent, resolution: opponentAnswer } },
        context(opponent),
      ),
    ]);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(DomainError);
    }
    return {
      betId,
      creatorAnswer,
      opponentAnswer,
      outcomes,
      conflicts: stats.conflicts,
      events: await streamOf(betId),
    };
  }

  it(
    `mode both, ${ROUNDS} collisions: the loser re-decides and both answers land`,
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const run = await collide('both', round);
        expect(run.conflicts).toBe(1);
        expect(run.outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
        expect(run.events.filter((e) => e.type === 'ResolutionSubmitted')).toHaveLength(2);
        const agreed = run.creatorAnswer === run.opponentAnswer;
        expect(run.events.at(-1)?.type).toBe(agreed ? 'BetCompleted' : 'ResolutionDisputed');
      }
    },
    ROUND_TIMEOUT,
  );

  it(
    `mode one, ${ROUNDS} collisions: the loser re-decides and is refused`,
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const run = await collide('one', round);
        expect(run.conflicts).toBe(1);
        expect(run.outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
        expect(run.events.map((e) => e.type)).toEqual([
          'BetProposed',
          'BetAccepted',
          'ResolutionSubmitted',
          'BetCompleted',
        ]);
      }
    },
    ROUND_TIMEOUT,
  );
});
