import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proposeCommand } from '@wagers/domain/bets/bet-fixtures';
import { betAggregate } from '@wagers/domain/bets/decide';
import type { BetCommand } from '@wagers/domain/bets/commands';
import { handle } from '@wagers/platform/aggregate';
import type { HandleOptions } from '@wagers/platform/decider';
import { loadConfig } from '@wagers/platform/config';
import { createPool } from '@wagers/platform/db';
import { createEventStore } from '@wagers/platform/event-store/factory';
import type { CreateInviteResponse } from '@wagers/contracts/api/invites';
import type { FriendRequest } from '@wagers/contracts/api/friends';
import type { Problem } from '@wagers/contracts/problem';
import type { ActivityEntry } from '@wagers/contracts/api/activity';
import type { Bet, BetHistoryEntry, CreateBetResponse, Stats } from '@wagers/contracts/api/bets';
import { betStream } from '@wagers/contracts/events/bet';
import { rewindFollowerOf } from '../../test-support/rewind.ts';
import { streamEvents } from '@wagers/test-support/log';
import type { User } from '@wagers/contracts/api/user';
import { friendsProjector } from '@wagers/projection-service/friends/friends.projector';
import { usersProjector } from '@wagers/projection-service/users/users.projector';
import type { TestApp } from '../../test-support/test-app.ts';
import {
  befriend,
  betInput,
  betsTestbed,
  person,
  proposeTo,
  type BetsTestbed,
  type Person,
} from '../bets/http-fixtures.ts';
import { rebuild } from '../bets/rebuild.ts';

/** What a deleted account left pending for others: none of it may make a friend of "Deleted user". */
describe('what a deleted account left behind', () => {
  let bed: BetsTestbed;
  let app: TestApp;
  beforeAll(async () => {
    bed = await betsTestbed();
    app = bed.app;
  });
  afterAll(() => bed?.stop());

  const deleteAccount = async (who: Person) => {
    const deleted = await who.client.request('DELETE', '/api/user', {
      confirmEmail: who.user.email,
    });
    expect(deleted.status, deleted.text).toBe(200);
    await app.settled();
  };

  it('an invitation from a deleted account is not found, and accepting it is refused', async () => {
    const gone = await person(app, 'Gone');
    const newcomer = await person(app, 'Newcomer');
    const sent = await gone.client.post<CreateInviteResponse>('/api/invites', {
      inviteeEmail: 'someone.new@example.com',
    });
    expect(sent.status, sent.text).toBe(201);
    await deleteAccount(gone);

    const read = await app.anonymous().get<Problem>(`/api/invites/${sent.body.code}`);
    expect(read.status).toBe(404);
    expect(read.body.message).toBe('This invite link is invalid or has expired');
    const before = await bed.countEvents();
    const accepted = await newcomer.client.post<Problem>(`/api/invites/${sent.body.code}/accept`);
    expect(accepted.status).toBe(409);
    expect(accepted.body.message).toBe('The person who sent this invite has deleted their account');
    expect(await bed.countEvents()).toBe(before);
    await app.settled();
    expect((await newcomer.client.get<User[]>('/api/friends')).body).toEqual([]);
  });

  it('a friend request from a deleted account leaves the list, and accepting it is refused', async () => {
    const gone = await person(app, 'Gone');
    const asked = await person(app, 'Asked');
    const receiver = await person(app, 'Receiver');
    const sent = await gone.client.post<{ id: string }>('/api/friend-requests', {
      receiverId: receiver.user.id,
    });
    expect(sent.status, sent.text).toBe(201);
    const toGone = await asked.client.post('/api/friend-requests', { receiverId: gone.user.id });
    expect(toGone.status, toGone.text).toBe(201);
    await deleteAccount(gone);

    expect((await receiver.client.get<FriendRequest[]>('/api/friend-requests')).body).toEqual([]);
    expect((await asked.client.get<FriendRequest[]>('/api/friend-requests')).body).toEqual([]);
    const before = await bed.countEvents();
    const accepted = await receiver.client.post<Problem>(
      `/api/friend-requests/${sent.body.id}/accept`,
    );
    expect(accepted.status).toBe(409);
    expect(accepted.body.message).toBe('This person has deleted their account');
    expect(await bed.countEvents()).toBe(before);
    expect((await receiver.client.get<User[]>('/api/friends')).body).toEqual([]);
  });

  it('a friend who deleted their account leaves the friends list and the count, rebuilt too', async () => {
    const gone = await person(app, 'Gone');
    const stays = await person(app, 'Stays');
    const other = await person(app, 'Other');
    await befriend(stays, gone);
    await befriend(stays, other);
    await app.settled();
    const friendIds = async () =>
      (await stays.client.get<User[]>('/api/friends')).body.map((friend) => friend.id);
    const friendsCount = async () =>
      (await stays.client.get<Stats>('/api/stats')).body.friendsCount;
    expect((await friendIds()).sort()).toEqual([gone.user.id, other.user.id].sort());
    expect(await friendsCount()).toBe(2);

    await deleteAccount(gone);
    expect(await friendIds()).toEqual([other.user.id]);
    expect(await friendsCount()).toBe(1);

    await rebuild(app, [friendsProjector, usersProjector]);
    await app.settled();
    expect(await friendIds()).toEqual([other.user.id]);
    expect(await friendsCount()).toBe(1);
  });

  /** Two new friends and a bet between them that `opponent` has accepted. */
  const betUnderWay = async (creator: Person, opponent: Person) => {
    await befriend(creator, opponent);
    const bet = await proposeTo(creator, opponent);
    expect((await opponent.client.post(`/api/bets/${bet.id}/accept`)).status).toBe(200);
    return bet;
  };

  it('a bet under way with a deleted account: the side left reports, and its report stands at once', async () => {
    const gone = await person(app, 'Gone');
    const left = await person(app, 'Left');
    // Gone proposed it, so Left, the opponent, has no standing report to wait for either.
    const bet = await betUnderWay(gone, left);
    await deleteAccount(gone);

    const reported = await left.client.post<{ status: string }>(`/api/bets/${bet.id}/resolve`, {
      resolution: 'opponent_won',
    });
    expect(reported.status, reported.text).toBe(200);
    expect(reported.body.status).toBe('completed');
    const seen = (await left.client.get<Bet>(`/api/bets/${bet.id}`)).body;
    expect(seen).toMatchObject({
      status: 'completed',
      winnerId: left.user.id,
      opponentResolution: 'opponent_won',
      creatorResolution: null,
      creator: { id: gone.user.id, deleted: true },
    });
    const history = await left.client.get<BetHistoryEntry[]>(`/api/bets/${bet.id}/history`);
    expect(history.body.map((entry) => entry.summary)).toEqual([
      expect.stringMatching(/ proposed /),
      'Left Tester accepted the bet',
      "Deleted user deleted their account; Left Tester's report now decides the outcome",
      'Left Tester reported the outcome: Left Tester won',
      'Bet completed: Left Tester won',
    ]);
    const activity = await left.client.get<ActivityEntry[]>('/api/activity');
    expect(activity.body.map((entry) => entry.summary)).toContain(
      "Deleted user deleted their account; Left Tester's report now decides the outcome",
    );
  });

  it("lets go of an account's bets once, even when the log is read again from its start, as on the first run after accounts were deleted", async () => {
    const gone = await person(app, 'Gone');
    const left = await person(app, 'Left');
    const bet = await betUnderWay(left, gone);
    await deleteAccount(gone);
    const events = async () =>
      (await streamEvents(app.databaseUrl, betStream(bet.id))).map((event) => event.type);
    expect(await events()).toEqual(['BetProposed', 'BetAccepted', 'BetSideLeft']);

    // The manager's next build reads the log from the start.
    await rewindFollowerOf(app.databaseUrl, 'pm-bets-of-deleted-accounts');
    await app.settled();
    expect(await events()).toEqual(['BetProposed', 'BetAccepted', 'BetSideLeft']);
    const reported = await left.client.post<{ status: string }>(`/api/bets/${bet.id}/resolve`, {
      resolution: 'creator_won',
    });
    expect(reported.body.status).toBe('completed');
  });

  it('a report waiting for a side who then deletes their account stands at once', async () => {
    const left = await person(app, 'Left');
    const gone = await person(app, 'Gone');
    const bet = await betUnderWay(left, gone);
    const waiting = await left.client.post<{ status: string }>(`/api/bets/${bet.id}/resolve`, {
      resolution: 'creator_won',
    });
    expect(waiting.body.status).toBe('awaiting_resolution');
    await deleteAccount(gone);

    expect((await left.client.get<Bet>(`/api/bets/${bet.id}`)).body).toMatchObject({
      status: 'completed',
      winnerId: left.user.id,
      creatorResolution: 'creator_won',
      opponentResolution: null,
    });
  });

  /** A command on a bet, as a request or a process manager runs it, outside the app. */
  const onBet = async (
    betId: string,
    command: BetCommand,
    actorId: string,
    options?: HandleOptions,
  ) => {
    const pool = createPool(app.databaseUrl, 2);
    const store = createEventStore(loadConfig({}), pool, app.databaseUrl);
    const context = { actorId, correlationId: randomUUID(), now: new Date(), newId: randomUUID };
    try {
      await handle(store, betAggregate, betId, command, context, options);
    } finally {
      await store.close();
      await pool.end();
    }
  };

  it('a bet proposed to someone deleting their account as it is proposed ends declined, though the deletion came first in the log', async () => {
    const proposes = await person(app, 'Proposes');
    const gone = await person(app, 'Gone');
    await befriend(proposes, gone);
    const betId = randomUUID();
    // The proposal passed its rules while Gone still had an account (as POST /api/bets reads it);
    // the deletion lands between those rules and the proposal's append.
    await onBet(
      betId,
      proposeCommand({ betId, creatorId: proposes.user.id, opponentId: gone.user.id }),
      proposes.user.id,
      { beforeAppend: () => deleteAccount(gone) },
    );
    // In the log, the deletion comes before the proposal that named Gone.
    const order = await bed.db.query<{ type: string }>(
      `SELECT type FROM es_events WHERE stream_id = $1 AND type = 'AccountDeleted'
          OR stream_id = $2 AND type = 'BetProposed'
        ORDER BY transaction_id, global_position`,
      [`user-${gone.user.id}`, betStream(betId)],
    );
    expect(order.rows.map((row) => row.type)).toEqual(['AccountDeleted', 'BetProposed']);
    await app.settled();

    const types = (await streamEvents(app.databaseUrl, betStream(betId))).map((e) => e.type);
    expect(types).toEqual(['BetProposed', 'BetDeclined']);
    const seen = await proposes.client.get<Bet>(`/api/bets/${betId}`);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body).toMatchObject({ status: 'declined', opponent: { deleted: true } });
  });

  it('a newcomer who deletes their account as they join a bet by its invite leaves it at once', async () => {
    const creates = await person(app, 'Creates');
    const joining = await person(app, 'Joining');
    const created = await creates.client.post<CreateBetResponse>(
      '/api/bets',
      betInput({ inviteeEmail: 'someone.joining@example.com', validationMode: 'both' }),
    );
    expect(created.status, created.text).toBe(201);
    const betId = created.body.id;
    const attached = (await streamEvents(app.databaseUrl, betStream(betId))).find(
      (event) => event.type === 'BetInviteAttached',
    );
    const inviteCode = (attached?.data as { inviteCode: string }).inviteCode;
    await deleteAccount(joining);

    // The invite was accepted just before the deletion; the manager that joins the newcomer to the
    // bet appends after it.
    await onBet(
      betId,
      { type: 'JoinFromInvite', data: { opponentId: joining.user.id, inviteCode } },
      joining.user.id,
    );
    await app.settled();

    const types = (await streamEvents(app.databaseUrl, betStream(betId))).map((e) => e.type);
    expect(types).toEqual(['BetProposed', 'BetInviteAttached', 'BetInviteAccepted', 'BetSideLeft']);
    // Nobody is left to confirm: the creator's report decides.
    const reported = await creates.client.post<{ status: string }>(`/api/bets/${betId}/resolve`, {
      resolution: 'creator_won',
    });
    expect(reported.status, reported.text).toBe(200);
    expect(reported.body.status).toBe('completed');
  });

  it('signs the account out on every device at once: its other sessions can do nothing', async () => {
    const gone = await person(app, 'Gone');
    const friend = await person(app, 'Friend');
    await befriend(friend, gone);
    const bet = await proposeTo(friend, gone);
    const otherDevice = await app.signIn(gone.user.email!);
    const deleted = await gone.client.request('DELETE', '/api/user', {
      confirmEmail: gone.user.email,
    });
    expect(deleted.status, deleted.text).toBe(200);

    // At once, before the account's erasure has run.
    expect((await otherDevice.get('/api/auth/user')).status).toBe(401);
    expect((await otherDevice.post(`/api/bets/${bet.id}/accept`)).status).toBe(401);
    expect(
      (await otherDevice.post('/api/friend-requests', { receiverId: bed.alice.user.id })).status,
    ).toBe(401);
    await app.settled();
    const seen = await friend.client.get<{ status: string }>(`/api/bets/${bet.id}`);
    expect(seen.body.status, 'the bet proposed to the deleted account is declined').toBe(
      'declined',
    );
  });
});
