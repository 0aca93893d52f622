import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AuditAsOf,
  AuditBetHistory,
  AuditBetSummary,
  AuditExport,
  AuditTrailEntry,
} from '@wagers/contracts/api/audit';
import type { SignedInUser } from '@wagers/contracts/api/user';
import { loadConfig } from '@wagers/platform/config';
import { createLogger } from '@wagers/platform/logger';
import { hostService, type RunningHost } from '@wagers/platform/service-host';
import { projectionService } from '@wagers/projection-service/service';
import { ApiClient, testRedisUrl } from '../../test-support/test-app.ts';
import {
  befriend,
  betInput,
  betsTestbed,
  completedBet,
  person,
  proposeTo,
  sync,
  type BetsTestbed,
  type Person,
} from '../bets/http-fixtures.ts';
import { runNode, runScript } from '../../test-support/run-script.ts';
import type { EventMetadata } from '@wagers/contracts/events/envelope';
import { eventHash } from '@wagers/platform/event-store/event-hash';

let bed: BetsTestbed;
let carol: Person;
let eve: Person;
/** A bet that went through a disagreement before both agreed on a draw. */
let disputed: string;

beforeAll(async () => {
  bed = await betsTestbed();
  [carol, eve] = [await person(bed.app, 'Carol', 'Checker'), await person(bed.app, 'Eve')];
  const { alice, bob } = bed;
  disputed = (await proposeTo(alice, bob, { title: 'Disputed rain' })).id;
  const steps: [Person, string, object?][] = [
    [bob, 'accept'],
    [alice, 'resolve', { resolution: 'creator_won' }],
    [bob, 'resolve', { resolution: 'opponent_won' }],
    [alice, 'resolve', { resolution: 'draw' }],
    [bob, 'resolve', { resolution: 'draw' }],
  ];
  for (const [who, action, body] of steps) {
    const done = await who.client.post(`/api/bets/${disputed}/${action}`, body);
    expect(done.status, done.text).toBe(200);
    sync(alice, bob);
  }
  const granted = await runScript('auditors', ['grant', carol.user.email!], bed.app.databaseUrl);
  expect(granted.code, granted.stderr).toBe(0);
  await bed.app.settled();
}, 360_000);
afterAll(() => bed?.stop(), 60_000);

const auditCalls = (betId: string) => [
  `/api/audit/bets?q=${betId}`,
  `/api/audit/bets/${betId}/history`,
  `/api/audit/bets/${betId}/history?asOf=${new Date().toISOString()}`,
  `/api/audit/bets/${betId}/history?asOf=not-a-moment`,
  `/api/audit/bets/${betId}/export`,
  `/api/audit/trail?betId=${betId}`,
];

async function storedMetadata(betId: string) {
  const { rows } = await bed.db.query<{ metadata: { correlationId: string; hash: string } }>(
    'SELECT metadata FROM es_events WHERE stream_id = $1 ORDER BY stream_revision',
    [`bet-${betId}`],
  );
  return rows.map((row) => row.metadata);
}

describe('the auditor role from the command line', () => {
  it('grants once, as one event, and lists the auditor', async () => {
    const again = await runScript('auditors', ['grant', carol.user.email!], bed.app.databaseUrl);
    expect(again.stdout).toContain('is already an auditor');
    expect(await bed.countEvents(`type = 'AuditorRoleGranted'`)).toBe(1);

    const listed = await runScript('auditors', ['list'], bed.app.databaseUrl);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(carol.user.email);
    expect(listed.stdout).not.toContain(bed.alice.user.email);
  });

  it('refuses an email no account signs in with', async () => {
    const run = await runScript('auditors', ['grant', 'nobody@example.com'], bed.app.databaseUrl);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No account signs in with nobody@example.com');
  });

  it('tells the web app who is an auditor', async () => {
    expect((await carol.client.get<SignedInUser>('/api/auth/user')).body.isAuditor).toBe(true);
    expect((await bed.alice.client.get<SignedInUser>('/api/auth/user')).body).not.toHaveProperty(
      'isAuditor',
    );
  });
});

describe('audit calls for anyone who is not an auditor', () => {
  it.each<[string, () => ApiClient]>([
    ['a participant', () => bed.alice.client],
    ['a stranger', () => eve.client],
    ['a signed-out visitor', () => bed.app.anonymous()],
  ])('answer 404 to %s', async (_, client) => {
    for (const url of auditCalls(disputed)) {
      const response = await client().get(url);
      expect(response.status, url).toBe(404);
      expect(response.text, url).not.toContain('Disputed rain');
    }
  });
});

describe('an auditor', () => {
  it('finds bets by id, by a participant email or name, and by day', async () => {
    const ids = async (query: string) => {
      const found = await carol.client.get<AuditBetSummary[]>(`/api/audit/bets?${query}`);
      expect(found.status, found.text).toBe(200);
      return found.body.map((bet) => bet.id);
    };
    const today = new Date().toISOString().slice(0, 10);

    expect(await ids(`q=${disputed}`)).toEqual([disputed]);
    expect(await ids(`q=${encodeURIComponent(bed.bob.user.email!.toUpperCase())}`)).toContain(
      disputed,
    );
    expect(await ids('q=alice%20tester')).toContain(disputed);
    expect(await ids('q=Carol')).toEqual([]);
    const invited = await bed.alice.client.post<{ id: string }>('/api/bets', {
      ...betInput({ title: 'For a newcomer' }),
      inviteeEmail: 'newcomer.audit@example.com',
    });
    expect(invited.status, invited.text).toBe(201);
    expect(await ids('q=newcomer.audit')).toEqual([invited.body.id]);
    expect(await ids(`from=${today}&to=${today}`)).toContain(disputed);
    expect(await ids('from=2001-01-01&to=2001-12-31')).toEqual([]);
    for (const query of ['from=2024-13-45', 'to=2023-02-29', 'from=0000-01-01']) {
      const refused = await carol.client.get(`/api/audit/bets?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.text, query).toContain('No such day');
    }
    const swapped = await carol.client.get('/api/audit/bets?from=2026-03-02&to=2026-03-01');
    expect(swapped.status, swapped.text).toBe(400);
    expect(swapped.text).toContain('to: Must be on or after from');
    const [summary] = (await carol.client.get<AuditBetSummary[]>(`/api/audit/bets?q=${disputed}`))
      .body;
    expect(summary).toMatchObject({
      title: 'Disputed rain',
      status: 'completed',
      creator: { id: bed.alice.user.id, name: 'Alice Tester', email: bed.alice.user.email },
      opponent: { id: bed.bob.user.id, name: 'Bob Tester' },
    });
  });

  it("sees a newcomer's invite by its code, which does not open it: only the invitee's link does", async () => {
    const invited = await bed.alice.client.post<{ id: string; invite: { code: string } }>(
      '/api/bets',
      { ...betInput({ title: 'Invite in the history' }), inviteeEmail: 'linked.audit@example.com' },
    );
    expect(invited.status, invited.text).toBe(201);
    const linkCode = invited.body.invite.code;
    const history = await carol.client.get<AuditBetHistory>(
      `/api/audit/bets/${invited.body.id}/history`,
    );
    const exported = await carol.client.get(`/api/audit/bets/${invited.body.id}/export`);
    const attached = history.body.entries.find((entry) => entry.type === 'BetInviteAttached');
    const logged = String((attached?.data as { inviteCode?: unknown }).inviteCode);
    expect(linkCode.startsWith(`${logged}.`)).toBe(true);
    expect(history.text).not.toContain(linkCode);
    expect(exported.text).not.toContain(linkCode);

    carol.client.position = bed.alice.client.position;
    expect((await carol.client.get(`/api/invites/${logged}`)).status).toBe(404);
    expect((await carol.client.post(`/api/invites/${logged}/accept`)).status).toBe(404);
    expect((await carol.client.get(`/api/invites/${linkCode}`)).status).toBe(200);
  });

  it('reads every event of a bet in order, with actor, time, correlation id, data and hash', async () => {
    const history = await carol.client.get<AuditBetHistory>(`/api/audit/bets/${disputed}/history`);

    expect(history.status, history.text).toBe(200);
    const stored = await storedMetadata(disputed);
    expect(history.body.entries.map((entry) => entry.revision)).toEqual(stored.map((_, i) => i));
    expect(history.body.entries.map((entry) => entry.correlationId)).toEqual(
      stored.map((metadata) => metadata.correlationId),
    );
    expect(history.body.entries.map((entry) => entry.hash)).toEqual(stored.map((m) => m.hash));
    const [proposal, acceptance] = history.body.entries;
    expect(proposal).toMatchObject({
      type: 'BetProposed',
      actorId: bed.alice.user.id,
      actorName: 'Alice Tester',
      data: { title: 'Disputed rain', creatorId: bed.alice.user.id },
    });
    expect(acceptance).toMatchObject({ type: 'BetAccepted', actorName: 'Bob Tester' });
    for (const entry of history.body.entries) {
      expect(Date.parse(entry.occurredAt)).not.toBeNaN();
    }
  });

  it('sees the bet as of each event, replayed through the disagreement', async () => {
    const history = await carol.client.get<AuditBetHistory>(`/api/audit/bets/${disputed}/history`);

    const asOf = history.body.entries.map((entry) => [
      entry.type,
      entry.stateAfter.status,
      entry.stateAfter.creatorResolution,
      entry.stateAfter.opponentResolution,
    ]);
    expect(asOf).toEqual([
      ['BetProposed', 'pending', null, null],
      ['BetAccepted', 'active', null, null],
      ['ResolutionSubmitted', 'awaiting_resolution', 'creator_won', null],
      ['ResolutionSubmitted', 'awaiting_resolution', 'creator_won', 'opponent_won'],
      ['ResolutionDisputed', 'awaiting_resolution', 'creator_won', 'opponent_won'],
      ['ResolutionSubmitted', 'awaiting_resolution', 'draw', 'opponent_won'],
      ['ResolutionDisputed', 'awaiting_resolution', 'draw', 'opponent_won'],
      ['ResolutionSubmitted', 'awaiting_resolution', 'draw', 'draw'],
      ['BetCompleted', 'completed', 'draw', 'draw'],
    ]);
    expect(history.body.entries.at(-1)!.stateAfter).toMatchObject({
      resolution: 'draw',
      winnerId: null,
    });
  });

  it('reads a bet by its id in capitals too, as the search finds it', async () => {
    const upper = disputed.toUpperCase();
    const found = await carol.client.get<AuditBetSummary[]>(`/api/audit/bets?q=${upper}`);
    expect(found.body.map((bet) => bet.id)).toEqual([disputed]);

    const history = await carol.client.get<AuditBetHistory>(`/api/audit/bets/${upper}/history`);
    expect(history.status, history.text).toBe(200);
    expect(history.body.betId).toBe(disputed);
    expect(history.body.entries).toHaveLength(9);
    const exported = await carol.client.get<AuditExport>(`/api/audit/bets/${upper}/export`);
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.streamId).toBe(`bet-${disputed}`);
    const verified = await runScript('audit', ['verify', upper], bed.app.databaseUrl);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain('9 events in 1 streams checked, 0 broken');
  });

  it('gets 404 for a bet that does not exist, and records nothing for it', async () => {
    const before = await bed.countEvents(`type = 'AuditorViewedBet'`);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await carol.client.get(`/api/audit/bets/${missing}/history`)).status).toBe(404);
    expect((await carol.client.get('/api/audit/bets/not-a-bet/export')).status).toBe(404);
    expect(await bed.countEvents(`type = 'AuditorViewedBet'`)).toBe(before);
  });

  it('records no look for a HEAD request, which shows nothing of the bet', async () => {
    const before = await bed.countEvents(`type = 'AuditorViewedBet'`);
    for (const view of ['history', 'export']) {
      const head = await fetch(`${bed.app.url}/api/audit/bets/${disputed}/${view}`, {
        method: 'HEAD',
        headers: { cookie: carol.client.cookie! },
      });
      expect(head.status, view).toBe(200);
      expect(await head.text(), view).toBe('');
    }
    expect(await bed.countEvents(`type = 'AuditorViewedBet'`)).toBe(before);
  });

  it("records no look that another site sent the auditor's browser to", async () => {
    const before = await bed.countEvents(`type = 'AuditorViewedBet'`);
    for (const site of ['cross-site', 'same-site']) {
      for (const view of ['history', 'export']) {
        const sent = await carol.client.request(
          'GET',
          `/api/audit/bets/${disputed}/${view}`,
          undefined,
          {
            'sec-fetch-site': site,
          },
        );
        expect(sent.status, `${site} ${view}`).toBe(403);
      }
    }
    // A browser too old to say Sec-Fetch-Site (Safari before 16.4) names the page in Referer.
    const fromElsewhere = await carol.client.request(
      'GET',
      `/api/audit/bets/${disputed}/export`,
      undefined,
      { referer: 'https://elsewhere.example/page' },
    );
    expect(fromElsewhere.status).toBe(403);
    expect(await bed.countEvents(`type = 'AuditorViewedBet'`)).toBe(before);
    const here = await carol.client.request(
      'GET',
      `/api/audit/bets/${disputed}/history`,
      undefined,
      {
        'sec-fetch-site': 'same-origin',
      },
    );
    expect(here.status).toBe(200);
  });

  it('leaves a trail of every look, which auditors can read', async () => {
    const bet = await proposeTo(bed.alice, bed.bob, { title: 'Watched closely' });
    await carol.client.get(`/api/audit/bets/${bet.id}/history`);
    await carol.client.get(`/api/audit/bets/${bet.id}/export`);

    // A read waits at most 2 s for the trail's projector; a busy server can take longer.
    const looks = async () => {
      const trail = await carol.client.get<AuditTrailEntry[]>(`/api/audit/trail?betId=${bet.id}`);
      expect(trail.status, trail.text).toBe(200);
      return trail.body.map(({ auditorId, auditorName, betId, view }) => ({
        auditorId,
        auditorName,
        betId,
        view,
      }));
    };

    await expect.poll(looks, { timeout: 15_000 }).toEqual([
      { auditorId: carol.user.id, auditorName: 'Carol Checker', betId: bet.id, view: 'export' },
      { auditorId: carol.user.id, auditorName: 'Carol Checker', betId: bet.id, view: 'history' },
    ]);
    const everything = await carol.client.get<AuditTrailEntry[]>('/api/audit/trail');
    expect(everything.body.map((entry) => entry.betId)).toContain(disputed);
  });
});

describe('the bet as of a moment', () => {
  /** A bet proposed, accepted and reported on, each a moment apart. */
  let betId: string;
  /** When the log recorded each of its events, as the history tells (to the microsecond). */
  let recordedAt: string[];
  /** The same, in milliseconds. */
  let recorded: number[];
  const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
  const asOf = async (moment: string) => {
    const before = await bed.countEvents(`type = 'AuditorViewedBet'`);
    const answer = await carol.client.get<AuditBetHistory & { asOf: AuditAsOf }>(
      `/api/audit/bets/${betId}/history?asOf=${encodeURIComponent(moment)}`,
    );
    expect(answer.status, answer.text).toBe(200);
    expect(await bed.countEvents(`type = 'AuditorViewedBet'`)).toBe(before + 1);
    return answer.body;
  };
  const iso = (ms: number) => new Date(ms).toISOString();

  beforeAll(async () => {
    const { alice, bob } = bed;
    betId = (await proposeTo(alice, bob, { title: 'Hail by noon' })).id;
    for (const [who, action, body] of [
      [bob, 'accept', undefined],
      [alice, 'resolve', { resolution: 'creator_won' }],
    ] as const) {
      await pause();
      const done = await who.client.post(`/api/bets/${betId}/${action}`, body);
      expect(done.status, done.text).toBe(200);
      sync(alice, bob);
    }
    const whole = await carol.client.get<AuditBetHistory>(`/api/audit/bets/${betId}/history`);
    expect(whole.body.entries.map((entry) => entry.type)).toEqual([
      'BetProposed',
      'BetAccepted',
      'ResolutionSubmitted',
    ]);
    expect(whole.body).not.toHaveProperty('asOf');
    recordedAt = whole.body.entries.map((entry) => entry.recordedAt);
    recorded = recordedAt.map((at) => Date.parse(at));
    expect(recorded[0]).toBeLessThan(recorded[1]!);
    expect(recorded[1]).toBeLessThan(recorded[2]!);
  });

  it('did not exist before its first event, which is no 404', async () => {
    const moment = iso(recorded[0]! - 1);
    const before = await asOf(moment);
    expect(before.betId).toBe(betId);
    expect(before.entries).toEqual([]);
    expect(before.asOf).toMatchObject({ at: moment, existed: false, laterEvents: 3 });
    expect(before.asOf.state).toMatchObject({ status: 'none', creatorId: null });
  });

  it('is cut between two events, with the state after the earlier one', async () => {
    const between = await asOf(iso((recorded[1]! + recorded[2]!) / 2));
    expect(between.entries.map((entry) => entry.type)).toEqual(['BetProposed', 'BetAccepted']);
    expect(between.asOf).toMatchObject({ existed: true, laterEvents: 1 });
    expect(between.asOf.state).toEqual(between.entries[1]!.stateAfter);
    expect(between.asOf.state).toMatchObject({ status: 'active', creatorResolution: null });

    // The moment an event was recorded includes it, in any offset.
    expect(recordedAt[1]).toMatch(/\.\d{6}Z$/);
    const atAcceptance = await asOf(recordedAt[1]!.replace('Z', '+00:00'));
    expect(atAcceptance.entries.map((entry) => entry.type)).toEqual(['BetProposed', 'BetAccepted']);
    const twoHoursAhead = `${iso(recorded[1]! + 2 * 3_600_000).slice(0, 19)}${recordedAt[1]!.slice(19, 26)}+02:00`;
    const inOffset = await asOf(twoHoursAhead);
    expect(Date.parse(inOffset.asOf.at)).toBe(recorded[1]);
    expect(inOffset.asOf.at.replace(/Z$/, '').padEnd(26, '0')).toBe(recordedAt[1]!.slice(0, 26));
    expect(inOffset.entries).toHaveLength(2);
  });

  it('is the whole history after the last event, and now for a moment still to come', async () => {
    const after = await asOf(iso(recorded[2]! + 1));
    expect(after.entries.map((entry) => entry.type)).toEqual([
      'BetProposed',
      'BetAccepted',
      'ResolutionSubmitted',
    ]);
    expect(after.asOf).toMatchObject({ existed: true, laterEvents: 0 });
    expect(after.asOf.state).toMatchObject({
      status: 'awaiting_resolution',
      creatorResolution: 'creator_won',
    });

    const asked = Date.now();
    const future = await asOf('2999-01-01T00:00:00Z');
    expect(future.entries).toHaveLength(3);
    expect(future.asOf.laterEvents).toBe(0);
    expect(Date.parse(future.asOf.at)).toBeGreaterThanOrEqual(asked - 1_000);
    expect(Date.parse(future.asOf.at)).toBeLessThanOrEqual(Date.now());
  });

  it('goes by the microsecond the log recorded an event at, and the export shows it', async () => {
    const bet = await proposeTo(bed.alice, bed.bob, { title: 'Within a microsecond' });
    const done = await bed.bob.client.post(`/api/bets/${bet.id}/accept`);
    expect(done.status, done.text).toBe(200);
    // As if recorded just after 14:00, by less than a millisecond.
    for (const [revision, at] of [
      [0, '2026-03-03T13:00:00Z'],
      [1, '2026-03-03T14:00:00.0004Z'],
    ] as const) {
      await bed.db.query(
        `UPDATE es_events SET recorded_at = $3 WHERE stream_id = $1 AND stream_revision = $2`,
        [`bet-${bet.id}`, revision, at],
      );
    }
    const at = async (moment: string) => {
      const answer = await carol.client.get<AuditBetHistory & { asOf: AuditAsOf }>(
        `/api/audit/bets/${bet.id}/history?asOf=${encodeURIComponent(moment)}`,
      );
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };

    const atTwo = await at('2026-03-03T14:00:00Z');
    expect(atTwo.entries.map((entry) => entry.type)).toEqual(['BetProposed']);
    expect(atTwo.asOf).toMatchObject({ at: '2026-03-03T14:00:00.000Z', laterEvents: 1 });
    expect(atTwo.asOf.state).toMatchObject({ status: 'pending' });
    const justAfter = await at('2026-03-03T14:00:00.0004Z');
    expect(justAfter.entries.map((entry) => entry.type)).toEqual(['BetProposed', 'BetAccepted']);
    expect(justAfter.asOf).toMatchObject({ at: '2026-03-03T14:00:00.000400Z', laterEvents: 0 });
    expect((await at('2026-03-03T14:00:00.000399999Z')).asOf.laterEvents).toBe(1);

    const whole = await carol.client.get<AuditBetHistory>(`/api/audit/bets/${bet.id}/history`);
    expect(whole.body.entries.map((entry) => entry.recordedAt)).toEqual([
      '2026-03-03T13:00:00.000000Z',
      '2026-03-03T14:00:00.000400Z',
    ]);
    const exported = await carol.client.get<AuditExport>(`/api/audit/bets/${bet.id}/export`);
    expect(exported.body.events.map((event) => event.recordedAt)).toEqual([
      '2026-03-03T13:00:00.000000Z',
      '2026-03-03T14:00:00.000400Z',
    ]);
  });

  it('records the moment with the look', async () => {
    const moment = iso((recorded[1]! + recorded[2]!) / 2);
    await asOf(moment);
    const { rows } = await bed.db.query<{ data: { betId: string; view: string; asOf?: string } }>(
      `SELECT data FROM es_events WHERE type = 'AuditorViewedBet' ORDER BY global_position DESC
        LIMIT 1`,
    );
    expect(rows[0]!.data).toMatchObject({ betId, view: 'history', asOf: moment });

    // The trail's read model follows the log a moment behind.
    const looks = async () => {
      const trail = await carol.client.get<AuditTrailEntry[]>(`/api/audit/trail?betId=${betId}`);
      expect(trail.status, trail.text).toBe(200);
      return trail.body.map((look) => look.asOf);
    };
    await expect.poll(looks, { timeout: 15_000 }).toContain(moment);
    expect(await looks()).toContain(null);
  });

  it('refuses a moment that is malformed or does not exist, naming the field, and records no look', async () => {
    const before = await bed.countEvents(`type = 'AuditorViewedBet'`);
    for (const [moment, message] of [
      ['yesterday', 'asOf: Use an ISO 8601 instant'],
      ['2026-03-03T14:00', 'asOf: Use an ISO 8601 instant'],
      ['2026-03-03 14:00:00Z', 'asOf: Use an ISO 8601 instant'],
      ['2026-02-30T12:00:00Z', 'asOf: No such moment'],
      ['2026-03-03T24:00:00Z', 'asOf: No such moment'],
    ]) {
      const refused = await carol.client.get(
        `/api/audit/bets/${betId}/history?asOf=${encodeURIComponent(moment!)}`,
      );
      expect(refused.status, moment).toBe(400);
      expect(refused.text, moment).toContain(message);
    }
    const twice = await carol.client.get(
      `/api/audit/bets/${betId}/history?asOf=2026-03-03T14:00:00Z&asOf=2026-03-04T14:00:00Z`,
    );
    expect(twice.status, twice.text).toBe(400);
    expect(twice.text).toContain('asOf:');
    expect(await bed.countEvents(`type = 'AuditorViewedBet'`)).toBe(before);
  });
});

describe('erased accounts', () => {
  /** An auditor who looked at a bet he was in, then deleted his account. */
  let dave: Person;

  it('are named "Deleted user" in the search and the trail, as in the history', async () => {
    dave = await person(bed.app, 'Dave', 'Gone');
    await befriend(bed.alice, dave);
    const bet = await proposeTo(bed.alice, dave, { title: 'Before Dave left' });
    const granted = await runScript('auditors', ['grant', dave.user.email!], bed.app.databaseUrl);
    expect(granted.code, granted.stderr).toBe(0);
    expect((await dave.client.get(`/api/audit/bets/${bet.id}/history`)).status).toBe(200);
    const deleted = await dave.client.request('DELETE', '/api/user', {
      confirmEmail: dave.user.email,
    });
    expect(deleted.status, deleted.text).toBe(200);
    await bed.app.settled();

    const found = await carol.client.get<AuditBetSummary[]>(`/api/audit/bets?q=${bet.id}`);
    expect(found.body[0]!.opponent).toEqual({
      id: dave.user.id,
      name: 'Deleted user',
      email: null,
    });
    const looks = await carol.client.get<AuditTrailEntry[]>(`/api/audit/trail?betId=${bet.id}`);
    expect(looks.body.find((look) => look.auditorId === dave.user.id)?.auditorName).toBe(
      'Deleted user',
    );
  });

  it('are marked as such in the list of auditors, which has no address left for them', async () => {
    const listed = await runScript('auditors', ['list'], bed.app.databaseUrl);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`${dave.user.id} (deleted account, cannot sign in)  since `);
  });

  it('lose the role by the id the list shows, since no address is left to name them by', async () => {
    const revoked = await runScript('auditors', ['revoke', dave.user.id], bed.app.databaseUrl);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`${dave.user.id} is no longer an auditor.`);
    await bed.app.settled();
    const listed = await runScript('auditors', ['list'], bed.app.databaseUrl);
    expect(listed.stdout).not.toContain(dave.user.id);
    const again = await runScript('auditors', ['revoke', dave.user.id], bed.app.databaseUrl);
    expect(again.stdout).toContain(`${dave.user.id} was not an auditor.`);
  });
});

describe('tamper evidence', () => {
  it('exports a bet that an outside party verifies with the script in docs/audit', async () => {
    const exported = await carol.client.get<AuditExport>(`/api/audit/bets/${disputed}/export`);
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.events).toHaveLength(9);
    const dir = await mkdtemp(path.join(tmpdir(), 'wagers-export-'));
    const file = path.join(dir, 'export.json');
    await writeFile(file, exported.text);

    const intact = await runNode('docs/audit/verify-export.mjs', [file]);
    expect(intact.code, intact.stderr).toBe(0);
    expect(intact.stdout).toContain(`OK bet-${disputed}: 9 events, chain intact`);

    const edited = JSON.parse(await readFile(file, 'utf8')) as AuditExport;
    (edited.events[3]!.data as { resolution: string }).resolution = 'creator_won';
    await writeFile(file, JSON.stringify(edited));
    const broken = await runNode('docs/audit/verify-export.mjs', [file]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`BROKEN at revision 3 (event ${edited.events[3]!.id}`);

    // Signed out, the download is the 404 problem: no export, so not a broken one either.
    const refused = await bed.app.anonymous().get(`/api/audit/bets/${disputed}/export`);
    await writeFile(file, refused.text);
    const notExport = await runNode('docs/audit/verify-export.mjs', [file]);
    expect(notExport.code).toBe(2);
    expect(notExport.stdout).not.toContain('BROKEN');
    expect(notExport.stderr).toContain(`${file} is not a Wagers audit export`);
  });

  it('npm run audit -- verify finds exactly the event edited in SQL', async () => {
    const bet = await proposeTo(bed.alice, bed.bob, { title: 'Edited later' });
    await bed.bob.client.post(`/api/bets/${bet.id}/accept`);
    await bed.app.settled();
    const intact = await runScript('audit', ['verify', bet.id], bed.app.databaseUrl);
    expect(intact.code, intact.stdout + intact.stderr).toBe(0);
    expect(intact.stdout).toContain('0 broken');
    const [proposal] = await bed.db
      .query<{ event_id: string }>(
        `SELECT event_id FROM es_events WHERE stream_id = $1 AND stream_revision = 0`,
        [`bet-${bet.id}`],
      )
      .then((result) => result.rows);

    await bed.db.query(
      `UPDATE es_events SET data = jsonb_set(data, '{title}', '"Edited later, quietly"')
        WHERE stream_id = $1 AND stream_revision = 0`,
      [`bet-${bet.id}`],
    );

    const one = await runScript('audit', ['verify', bet.id], bed.app.databaseUrl);
    expect(one.code).toBe(1);
    expect(one.stdout).toContain(
      `BROKEN bet-${bet.id} at revision 0 (event ${proposal!.event_id})`,
    );
    const all = await runScript('audit', ['verify'], bed.app.databaseUrl);
    expect(all.code).toBe(1);
    expect(all.stdout.match(/^BROKEN .*$/gm)).toEqual([
      expect.stringContaining(`BROKEN bet-${bet.id} at revision 0`),
    ]);
    expect(all.stdout).toContain('1 broken');
    // Its progress goes to stderr (here no terminal: a line every ten pages, and one at the end),
    // with the number of events and the rate.
    const events = Number(/^(\d+) events in/m.exec(all.stdout)?.[1]);
    expect(all.stderr.trim().split('\n').at(-1)).toMatch(
      new RegExp(
        `^verify: ${events.toLocaleString('en-US')} events checked in [\\d.]+ s \\([\\d,]+ events/s\\)$`,
      ),
    );
    expect(all.stdout).not.toContain('events checked');
  });
  it('npm run audit -- verify names an event deleted in SQL as missing', async () => {
    const bet = await proposeTo(bed.alice, bed.bob, { title: 'Accepted, then not' });
    await bed.bob.client.post(`/api/bets/${bet.id}/accept`);
    await bed.bob.client.post(`/api/bets/${bet.id}/resolve`, { resolution: 'opponent_won' });
    await bed.app.settled();
    const { rows } = await bed.db.query<{ event_id: string }>(
      `SELECT event_id FROM es_events WHERE stream_id = $1 ORDER BY stream_revision`,
      [`bet-${bet.id}`],
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);

    await bed.db.query(`DELETE FROM es_events WHERE stream_id = $1 AND stream_revision = 1`, [
      `bet-${bet.id}`,
    ]);

    const run = await runScript('audit', ['verify', bet.id], bed.app.databaseUrl);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `BROKEN bet-${bet.id} at revision 2 (event ${rows[2]!.event_id}): an event before it is missing`,
    );
    expect(run.stdout).toMatch(/expected revision 1\n\s+found\s+revision 2/);
  });
  it('still shows the history of a bet whose event was edited into data its rules refuse', async () => {
    const bet = await proposeTo(bed.alice, bed.bob, { title: 'Resolved, then rewritten' });
    await bed.bob.client.post(`/api/bets/${bet.id}/accept`);
    await bed.alice.client.post(`/api/bets/${bet.id}/resolve`, { resolution: 'creator_won' });
    await bed.app.settled();

    await bed.db.query(
      `UPDATE es_events SET data = jsonb_set(data, '{resolution}', '"nobody_won"')
        WHERE stream_id = $1 AND stream_revision = 2`,
      [`bet-${bet.id}`],
    );

    const history = await carol.client.get<AuditBetHistory>(`/api/audit/bets/${bet.id}/history`);
    expect(history.status, history.text).toBe(200);
    const [, accepted, edited] = history.body.entries;
    expect(history.body.entries).toHaveLength(3);
    expect(accepted!.readError).toBeNull();
    expect(edited).toMatchObject({
      type: 'ResolutionSubmitted',
      data: { resolution: 'nobody_won' },
      stateAfter: accepted!.stateAfter,
    });
    expect(edited!.readError).toContain('resolution:');
  });
  it('lists an event whose metadata or sealed value was edited in SQL with what is wrong, and verify names it', async () => {
    const invited = async (title: string) => {
      const created = await bed.alice.client.post<{ id: string }>('/api/bets', {
        ...betInput({ title }),
        inviteeEmail: `${title.toLowerCase().replaceAll(' ', '.')}@example.com`,
      });
      expect(created.status, created.text).toBe(201);
      return created.body.id;
    };
    const accepted = async (title: string) => {
      const bet = await proposeTo(bed.alice, bed.bob, { title });
      const done = await bed.bob.client.post(`/api/bets/${bet.id}/accept`);
      expect(done.status, done.text).toBe(200);
      return bet.id;
    };
    const edits = [
      {
        betId: await accepted('Accepted by an operator'),
        revision: 1,
        sql: `UPDATE es_events SET metadata = jsonb_set(metadata, '{actorId}', '"operator"')`,
        problem: 'metadata.actorId: not a user id ("operator")',
      },
      {
        betId: await invited('Proposed by nobody'),
        revision: 0,
        sql: `UPDATE es_events SET metadata = 'null'::jsonb`,
        problem: 'metadata: not an object, as the log writes it (null)',
      },
      {
        betId: await invited('Sealed with no key'),
        revision: 0,
        sql: `UPDATE es_events SET data = jsonb_set(data, '{inviteeEmail}',
                to_jsonb('sealed:not-a-key:' || split_part(data->>'inviteeEmail', ':', 3)))`,
        problem: 'inviteeEmail: sealed with a key id that names no key ("not-a-key")',
      },
    ];
    await bed.app.settled();
    for (const { betId, revision, sql, problem } of edits) {
      const stream = `bet-${betId}`;
      const { rows } = await bed.db.query<{ event_id: string }>(
        `SELECT event_id FROM es_events WHERE stream_id = $1 AND stream_revision = $2`,
        [stream, revision],
      );
      const edited = await bed.db.query(`${sql} WHERE stream_id = $1 AND stream_revision = $2`, [
        stream,
        revision,
      ]);
      expect(edited.rowCount, problem).toBe(1);

      const history = await carol.client.get<AuditBetHistory>(`/api/audit/bets/${betId}/history`);
      expect(history.status, `${problem}: ${history.text}`).toBe(200);
      const entry = history.body.entries.find((e) => e.revision === revision);
      expect(entry?.eventId).toBe(rows[0]!.event_id);
      expect(entry?.readError, problem).toContain(problem);
      const exported = await carol.client.get(`/api/audit/bets/${betId}/export`);
      expect(exported.status, exported.text).toBe(200);
      const file = path.join(await mkdtemp(path.join(tmpdir(), 'wagers-export-')), 'export.json');
      await writeFile(file, exported.text);
      const offline = await runNode('docs/audit/verify-export.mjs', [file]);
      expect(offline.code, `${problem}: ${offline.stdout}${offline.stderr}`).toBe(1);
      expect(offline.stdout).toContain(
        `BROKEN at revision ${revision} (event ${rows[0]!.event_id}`,
      );

      const run = await runScript('audit', ['verify', betId], bed.app.databaseUrl);
      expect(run.code, `${problem}: ${run.stdout}${run.stderr}`).toBe(1);
      expect(run.stdout).toContain(
        `BROKEN ${stream} at revision ${revision} (event ${rows[0]!.event_id})`,
      );
    }
    const all = await runScript('audit', ['verify'], bed.app.databaseUrl);
    expect(all.code, all.stderr).toBe(1);
    for (const { betId, revision } of edits) {
      expect(all.stdout).toContain(`BROKEN bet-${betId} at revision ${revision} (event`);
    }
  });

  it('npm run audit -- verify exits 3, not 1 as for a broken chain, when it cannot reach the log', async () => {
    const run = await runScript('audit', ['verify'], 'postgres://postgres@127.0.0.1:1/wagers');
    expect(run.code).toBe(3);
    expect(run.stdout).not.toContain('BROKEN');
    expect(run.stderr.trim()).toBe('Could not finish: connect ECONNREFUSED 127.0.0.1:1');
  });
});

describe('tamper evidence for bets written before hash chains', () => {
  /** A bet whose events lost their hashes, as events written before hash chains have none. */
  async function legacyBet(title: string) {
    const bet = await completedBet(bed.alice, bed.bob, 'draw', { title });
    await bed.app.settled();
    const stripped = await bed.db.query(
      `UPDATE es_events SET metadata = metadata - 'hash' WHERE stream_id = $1`,
      [`bet-${bet.id}`],
    );
    return { betId: bet.id, events: stripped.rowCount! };
  }
  async function exportChecked(betId: string) {
    const exported = await carol.client.get<AuditExport>(`/api/audit/bets/${betId}/export`);
    expect(exported.status, exported.text).toBe(200);
    const dir = await mkdtemp(path.join(tmpdir(), 'wagers-export-'));
    const file = path.join(dir, 'export.json');
    await writeFile(file, exported.text);
    return { exported: exported.body, run: await runNode('docs/audit/verify-export.mjs', [file]) };
  }

  it('are reported by the export script as the CLI does, carrying no hash and never anchored, not as edited', async () => {
    const { betId } = await legacyBet('Older than chains, never anchored');
    const { rows } = await bed.db.query<{ event_id: string }>(
      'SELECT event_id FROM es_events WHERE stream_id = $1 AND stream_revision = 0',
      [`bet-${betId}`],
    );
    const first = rows[0];
    const cli = await runScript('audit', ['verify', betId], bed.app.databaseUrl);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(
      `BROKEN bet-${betId} at revision 0 (event ${first!.event_id}): it carries no hash and its stream was never anchored`,
    );

    const { exported, run } = await exportChecked(betId);
    expect(exported.anchor).toBeNull();
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain(
      `BROKEN at revision 0 (event ${first!.event_id}, BetProposed): it carries no hash and its stream was never anchored`,
    );
    expect(run.stdout).not.toContain('does not match');

    // An export of no events proves nothing: refused, as a file that is no export is.
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'wagers-export-')), 'empty.json');
    await writeFile(file, JSON.stringify({ ...exported, anchor: null, events: [] }));
    const empty = await runNode('docs/audit/verify-export.mjs', [file]);
    expect(empty.code, empty.stdout).toBe(2);
    expect(empty.stdout).not.toMatch(/^OK /m);
    expect(empty.stderr).toContain(`${file} has no events`);
  });

  it('reports the last events of an anchored bet deleted in SQL as missing, in verify and in the export', async () => {
    const { betId, events } = await legacyBet('Older than chains, then cut short');
    expect(events).toBeGreaterThanOrEqual(5);
    const anchored = await runScript('audit', ['anchor'], bed.app.databaseUrl);
    expect(anchored.code, anchored.stderr).toBe(0);
    expect(anchored.stderr).toMatch(
      /^anchor: [\d,]+ events checked in [\d.]+ s \([\d,]+ events\/s\)$/m,
    );
    expect((await runScript('audit', ['verify', betId], bed.app.databaseUrl)).code).toBe(0);
    expect((await exportChecked(betId)).run.code).toBe(0);

    await bed.db.query(`DELETE FROM es_events WHERE stream_id = $1 AND stream_revision >= 3`, [
      `bet-${betId}`,
    ]);

    const one = await runScript('audit', ['verify', betId], bed.app.databaseUrl);
    expect(one.code, one.stdout + one.stderr).toBe(1);
    expect(one.stdout).toContain(
      `BROKEN bet-${betId} at revision 3 (no event): the stream ends here, before the revision it was anchored through`,
    );
    expect(one.stdout).toMatch(/expected revision 3\n\s+found\s+\(none\)/);
    expect(one.stdout).toContain('3 events in 1 streams checked, 1 broken');
    const all = await runScript('audit', ['verify'], bed.app.databaseUrl);
    expect(all.code).toBe(1);
    expect(all.stdout).toContain(`BROKEN bet-${betId} at revision 3 (no event)`);

    const { exported, run } = await exportChecked(betId);
    expect(exported.anchor).toMatchObject({ throughRevision: events - 1 });
    expect(exported.events).toHaveLength(3);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain(
      `BROKEN at revision 3: the stream ends before revision ${events - 1}, which its anchor covers`,
    );
    expect(run.stdout).not.toMatch(/^OK /m);
  });

  it('reports an anchored bet whose every event was deleted in SQL as missing them, not as no bet', async () => {
    const { betId } = await legacyBet('Older than chains, then gone');
    const anchored = await runScript('audit', ['anchor'], bed.app.databaseUrl);
    expect(anchored.code, anchored.stderr).toBe(0);

    await bed.db.query(`DELETE FROM es_events WHERE stream_id = $1`, [`bet-${betId}`]);

    const one = await runScript('audit', ['verify', betId], bed.app.databaseUrl);
    expect(one.code, one.stdout + one.stderr).toBe(1);
    expect(one.stderr).not.toContain('No bet');
    expect(one.stdout).toContain(`BROKEN bet-${betId} at revision 0 (no event)`);
    expect(one.stdout).toContain('0 events in 1 streams checked, 1 broken');
    const all = await runScript('audit', ['verify'], bed.app.databaseUrl);
    expect(all.code).toBe(1);
    expect(all.stdout).toContain(`BROKEN bet-${betId} at revision 0 (no event)`);
    // A bet that never was is still no bet.
    const unknown = await runScript('audit', ['verify', crypto.randomUUID()], bed.app.databaseUrl);
    expect(unknown.code).toBe(2);
  });
});

describe('an invitation stored before personal data was sealed', () => {
  /** The bet's stream as stored, its first event turned into a version 1 one and rechained. */
  async function storedBeforeSealing(betId: string, email: string, { chained = true } = {}) {
    const { rows } = await bed.db.query<{
      event_id: string;
      type: string;
      data: Record<string, unknown>;
      metadata: EventMetadata & { hash?: string };
    }>(
      'SELECT event_id, type, data, metadata FROM es_events WHERE stream_id = $1 ORDER BY stream_revision',
      [`bet-${betId}`],
    );
    let previous: string | null = null;
    for (const [revision, row] of rows.entries()) {
      const { hash: _stored, ...metadata } = row.metadata;
      const data = revision === 0 ? { ...row.data, inviteeEmail: email } : row.data;
      if (revision === 0) metadata.schemaVersion = 1;
      const hash = eventHash({ id: row.event_id, type: row.type, data, metadata }, previous);
      await bed.db.query('UPDATE es_events SET data = $2, metadata = $3 WHERE event_id = $1', [
        row.event_id,
        data,
        chained ? { ...metadata, hash } : metadata,
      ]);
      previous = hash;
    }
  }
  async function exported(betId: string) {
    const response = await carol.client.get<AuditExport>(`/api/audit/bets/${betId}/export`);
    expect(response.status, response.text).toBe(200);
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'wagers-export-')), 'export.json');
    await writeFile(file, response.text);
    return { text: response.text, body: response.body, file };
  }

  it('is left out of the export once its person deleted their account, and the rest still verifies', async () => {
    const email = `early.newcomer.${Date.now()}@example.com`;
    const proposed = await bed.alice.client.post<{ id: string }>('/api/bets', {
      ...betInput({ title: 'Invited before sealing' }),
      inviteeEmail: email,
    });
    expect(proposed.status, proposed.text).toBe(201);
    const betId = proposed.body.id;
    const cancelled = await bed.alice.client.request('DELETE', `/api/bets/${betId}`);
    expect(cancelled.status, cancelled.text).toBe(200);
    await bed.app.settled();
    await storedBeforeSealing(betId, email);

    // Nothing erased yet: the address is as stored, and the whole chain is recomputed.
    const before = await exported(betId);
    expect(before.body.events[0]!.data).toMatchObject({ inviteeEmail: email });
    expect(before.body.events.some((event) => event.redacted)).toBe(false);
    const intact = await runNode('docs/audit/verify-export.mjs', [before.file]);
    expect(intact.code, intact.stdout + intact.stderr).toBe(0);
    expect(intact.stdout).toContain(`OK bet-${betId}: ${before.body.events.length} events`);

    const newcomer = await bed.app.signIn(email);
    const deleted = await newcomer.request('DELETE', '/api/user', { confirmEmail: email });
    expect(deleted.status, deleted.text).toBe(200);
    await bed.app.settled();

    const history = await carol.client.get<AuditBetHistory>(`/api/audit/bets/${betId}/history`);
    expect(history.status, history.text).toBe(200);
    expect(history.body.entries[0]!.data).toMatchObject({ inviteeEmail: null });

    const after = await exported(betId);
    expect(after.text).not.toContain(email);
    expect(after.text).not.toContain(email.split('@')[0]);
    const [first, ...rest] = after.body.events;
    expect(first!.data).toMatchObject({ inviteeEmail: { erased: true } });
    expect(first!.redacted).toEqual({ fields: ['inviteeEmail'], hash: first!.metadata.hash });
    expect(rest.every((event) => event.redacted === undefined)).toBe(true);

    const partly = await runNode('docs/audit/verify-export.mjs', [after.file]);
    expect(partly.code, partly.stdout + partly.stderr).toBe(3);
    expect(partly.stdout).not.toContain('BROKEN');
    expect(partly.stdout).toContain(
      `INCOMPLETE bet-${betId}: ${after.body.events.length} events, chain intact where it could be recomputed`,
    );
    expect(partly.stdout).toContain(
      `revision 0 (event ${first!.id}, BetProposed): inviteeEmail erased; its hash as stored taken as given`,
    );
    // The events after it are still checked against it.
    const edited = JSON.parse(await readFile(after.file, 'utf8')) as AuditExport;
    edited.events[1]!.type = 'BetAccepted';
    await writeFile(after.file, JSON.stringify(edited));
    const broken = await runNode('docs/audit/verify-export.mjs', [after.file]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`BROKEN at revision 1 (event ${edited.events[1]!.id}`);

    // The product still recomputes the whole chain from the log.
    const verified = await runScript('audit', ['verify', betId], bed.app.databaseUrl);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });

  it('written before hash chains too, its link then computed from the event as stored', async () => {
    const email = `older.newcomer.${Date.now()}@example.com`;
    const proposed = await bed.alice.client.post<{ id: string }>('/api/bets', {
      ...betInput({ title: 'Invited before chains' }),
      inviteeEmail: email,
    });
    expect(proposed.status, proposed.text).toBe(201);
    const betId = proposed.body.id;
    expect((await bed.alice.client.request('DELETE', `/api/bets/${betId}`)).status).toBe(200);
    await bed.app.settled();
    await storedBeforeSealing(betId, email, { chained: false });
    const anchored = await runScript('audit', ['anchor'], bed.app.databaseUrl);
    expect(anchored.code, anchored.stderr).toBe(0);
    const before = await exported(betId);
    expect(before.body.anchor).toMatchObject({ throughRevision: before.body.events.length - 1 });
    expect((await runNode('docs/audit/verify-export.mjs', [before.file])).code).toBe(0);

    const newcomer = await bed.app.signIn(email);
    const deleted = await newcomer.request('DELETE', '/api/user', { confirmEmail: email });
    expect(deleted.status, deleted.text).toBe(200);
    await bed.app.settled();

    const after = await exported(betId);
    expect(after.text).not.toContain(email);
    const first = after.body.events[0]!;
    expect(first.metadata).not.toHaveProperty('hash');
    expect(first.redacted?.fields).toEqual(['inviteeEmail']);
    const partly = await runNode('docs/audit/verify-export.mjs', [after.file]);
    expect(partly.code, partly.stdout + partly.stderr).toBe(3);
    expect(partly.stdout).not.toContain('BROKEN');
    expect(partly.stdout).toContain(
      `revision 0 (event ${first.id}, BetProposed): inviteeEmail erased`,
    );
    // The anchor still checks the events after it: a wrong hash given for it does not pass.
    const edited = JSON.parse(await readFile(after.file, 'utf8')) as AuditExport;
    edited.events[0]!.redacted!.hash = '0'.repeat(64);
    await writeFile(after.file, JSON.stringify(edited));
    const broken = await runNode('docs/audit/verify-export.mjs', [after.file]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`BROKEN at revision ${edited.events.length - 1} `);
    expect(broken.stdout).toContain('do not match the anchored hash');
  });
});

describe('a revoked auditor', () => {
  /**
   * The query API on its own, as production runs it (deploy/Caddyfile sends the search and the
   * trail there, a bet's history and export to the command service): in the one process of the
   * test app the command service's check covers every audit path and would hide the query's.
   */
  let queries: RunningHost;
  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      DATABASE_URL: bed.app.databaseUrl,
      REDIS_URL: testRedisUrl,
      LOG_LEVEL: 'silent',
      READ_YOUR_WRITES_TIMEOUT_MS: '15000',
    });
    queries = await hostService({
      config,
      logger: createLogger('silent'),
      migrations: [],
      parts: async function* (context) {
        yield await projectionService(context);
      },
    });
  }, 120_000);
  afterAll(() => queries?.stop(), 60_000);

  it('gets 404 from every audit call right after the revocation, with the audit read model held back', async () => {
    const atQueries = new ApiClient(queries.url, false);
    atQueries.cookie = carol.client.cookie;
    /** Each audit call at the service production sends it to. */
    const call = (url: string) =>
      new URL(url, 'http://x').pathname.startsWith('/api/audit/bets/')
        ? carol.client.get(url)
        : atQueries.get(url);
    await bed.app.settled();
    for (const url of [`/api/audit/bets?q=${disputed}`, `/api/audit/trail?betId=${disputed}`]) {
      expect((await call(url)).status, url).toBe(200);
    }
    // The audit projector cannot apply the revocation while this transaction holds the row it
    // deletes: rm_auditors still names Carol, as it does while the projector lags or is down.
    const holder = new pg.Client({ connectionString: bed.app.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      const held = await holder.query('SELECT 1 FROM rm_auditors WHERE user_id = $1 FOR UPDATE', [
        carol.user.id,
      ]);
      expect(held.rowCount).toBe(1);

      const revoked = await runScript(
        'auditors',
        ['revoke', carol.user.email!],
        bed.app.databaseUrl,
      );
      expect(revoked.stdout).toContain('is no longer an auditor');

      for (const url of auditCalls(disputed)) {
        const response = await call(url);
        expect(response.status, url).toBe(404);
        expect(response.text, url).not.toContain('Disputed rain');
      }
      // The read model is still behind: only the web app's Audit entry follows it.
      const { rowCount } = await bed.db.query('SELECT 1 FROM rm_auditors WHERE user_id = $1', [
        carol.user.id,
      ]);
      expect(rowCount).toBe(1);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const isAuditor = async () =>
      (await carol.client.get<SignedInUser>('/api/auth/user')).body.isAuditor ?? false;
    await expect.poll(isAuditor, { timeout: 15_000 }).toBe(false);
    for (const url of auditCalls(disputed)) {
      expect((await call(url)).status, url).toBe(404);
    }
  });
});
