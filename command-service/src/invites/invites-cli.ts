import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { inviteAggregate } from '@wagers/domain/invites/invite';
import { isOptedOut } from '@wagers/domain/invites/sms-opt-out';
import { handle, loadRead } from '@wagers/platform/aggregate';
import { DomainError } from '@wagers/platform/errors';
import type { EventStore } from '@wagers/platform/event-store/port';
import { runOperatorCommand } from '../audit/operator-cli.ts';

const usage = `Usage: npm run invites -- <command>

  sign-pending   send again, with a signed link, every pending invite sent before links were
                 signed: the newcomer gets the new link, and the code alone, which the event
                 log shows, no longer opens the invite

Reads DATABASE_URL (and EVENT_STORE) like the services do; without it, the database that
"npm start" runs.`;

/**
 * Closes the invites that still open with their code alone (sent before decision 33): each is
 * resent, and the resend's signed link becomes the only way in. The invite's own stream decides
 * which still need it, so a second run, or one racing the read model, resends nothing twice.
 */
async function signPending(pool: Pool, store: EventStore): Promise<number> {
  const { rows } = await pool.query<{ code: string }>(
    `SELECT code FROM rm_invites WHERE status = 'pending' AND NOT signed_link ORDER BY created_at`,
  );
  // An operator at the command line: no signed-in actor; one correlation id per invocation.
  const correlationId = randomUUID();
  let resent = 0;
  const notResent: string[] = [];
  for (const { code } of rows) {
    const { state: invite, read } = await loadRead(store, inviteAggregate, code);
    if (invite.status !== 'pending' || invite.signedLink) continue;
    const phoneOptedOut = await isOptedOut(store, invite.inviteePhone);
    try {
      const result = await handle(
        store,
        inviteAggregate,
        code,
        { type: 'ResendInvite', data: { actorId: null, phoneOptedOut } },
        { actorId: null, correlationId, now: new Date(), newId: randomUUID },
        { read },
      );
      if (result.events.length > 0) resent += 1;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      notResent.push(`${invite.betId ? 'a bet invite' : 'an invite'}: ${error.message}`);
    }
  }
  console.log(
    resent === 0 && notResent.length === 0
      ? 'Every pending invite opens only with its signed link.'
      : `Resent ${resent} invite${resent === 1 ? '' : 's'} with a signed link; the code alone no longer opens ${resent === 1 ? 'it' : 'them'}.`,
  );
  for (const reason of notResent) console.log(`Not resent, still open with its code: ${reason}`);
  return notResent.length > 0 ? 1 : 0;
}

function main([command]: string[]): void {
  if (command === 'sign-pending') {
    return runOperatorCommand(({ pool, store }) => signPending(pool, store));
  }
  console.error(usage);
  process.exit(2);
}

main(process.argv.slice(2));
