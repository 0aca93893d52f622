import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bet } from '@wagers/contracts/api/bets';
import type { InviteView } from '@wagers/contracts/api/invites';
import { createPool } from '@wagers/platform/db';
import { createPostgresEventStore } from '@wagers/platform/event-store/postgres';
import type { EventStore } from '@wagers/platform/event-store/port';
import { ensureBetInvite } from './propose-bet.ts';
import { betsTestbed, type BetsTestbed } from './http-fixtures.ts';
import { runBetCommand } from './run-bet-command.ts';

/**
 * A process that dies right after writing a newcomer's bet, before its invitation, leaves the
 * bet pending with nobody invited. These tests make that state by writing only the proposal,
 * then show the creator's Resend Invite finishes it, and concurrent finishers send one invite.
 */
describe('a newcomer bet whose invitation was cut short', () => {
  let bed: BetsTestbed;
  let pool: Pool;
  let store: EventStore;

  beforeAll(async () => {
    bed = await betsTestbed();
    pool = createPool(bed.app.databaseUrl, 4);
    store = createPostgresEventStore(pool, { connectionString: bed.app.databaseUrl });
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await bed?.stop();
  });

  async function proposalOnly(inviteeEmail: string): Promise<string> {
    const betId = randomUUID();
    const context = {
      actorId: bed.alice.user.id,
      correlationId: randomUUID(),
      now: new Date(),
      newId: randomUUID,
    };
    await runBetCommand(
      store,
      betId,
      {
        type: 'ProposeBet',
        data: {
          betId,
          creatorId: bed.alice.user.id,
          opponentId: null,
          opponentIsFriend: false,
          inviteeEmail,
          inviteePhone: null,
          smsConsent: false,
          title: 'Cut short',
          description: 'The server stopped halfway',
          wagerType: 'custom',
          wagerAmountCents: null,
          wagerDescription: 'Coffee',
          endDate: null,
          validationMode: 'both',
          proposedAt: new Date().toISOString(),
        },
      },
      context,
    );
    return betId;
  }

  const invitesFor = (betId: string) =>
    bed.countEvents(`type = 'InviteSent' AND data->>'betId' = $1`, [betId]);

  it("is finished by the creator's Resend Invite: the newcomer gets the invitation", async () => {
    const betId = await proposalOnly('halfway@example.com');
    expect(await invitesFor(betId)).toBe(0);
    expect((await bed.bob.client.post(`/api/bets/${betId}/resend-invite`)).status).toBe(404);

    const resent = await bed.alice.client.post(`/api/bets/${betId}/resend-invite`);
    expect(resent.status, resent.text).toBe(200);
    expect(await invitesFor(betId)).toBe(1);

    const code = (
      await bed.db.query<{ code: string }>(
        `SELECT data->>'inviteCode' AS code FROM es_events WHERE stream_id = $1 AND type = 'BetInviteAttached'`,
        [`bet-${betId}`],
      )
    ).rows[0]?.code;
    const view = await bed.alice.client.get<InviteView>(`/api/invites/${code}`);
    expect(view.body.bet?.id).toBe(betId);
    const bet = await bed.alice.client.get<Bet>(`/api/bets/${betId}`);
    expect(bet.body.invitee).toBe('halfway@example.com');

    // Once it is out, a second resend is an ordinary resend, not a second invitation.
    expect((await bed.alice.client.post(`/api/bets/${betId}/resend-invite`)).status).toBe(200);
    expect(await invitesFor(betId)).toBe(1);
    expect(
      await bed.countEvents(`type = 'InviteResent' AND stream_id = $1`, [`invite-${code}`]),
    ).toBe(1);
  });

  it('sends exactly one invitation when several finishers race', async () => {
    const betId = await proposalOnly('race@example.com');
    const context = () => ({
      actorId: bed.alice.user.id,
      correlationId: randomUUID(),
      now: new Date(),
      newId: randomUUID,
    });
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        ensureBetInvite({ store, publicUrl: bed.app.url }, betId, context()),
      ),
    );
    expect(results.some((position) => position !== null)).toBe(true);
    expect(await invitesFor(betId)).toBe(1);
    expect(
      await bed.countEvents(`type = 'BetInviteAttached' AND stream_id = $1`, [`bet-${betId}`]),
    ).toBe(1);
  });
});
