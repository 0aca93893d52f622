import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { inviteAggregate } from '@wagers/domain/invites/invite';
import { isOptedOut } from '@wagers/domain/invites/sms-opt-out';
import { handle, loadRead } from '@wagers/platform/aggregate';
import { DomainError } from '@wagers/platform/errors';
import type { EventStore } from '@wagers/platform/event-store/port';
import { asksForHelp, exitWithUsage } from '@wagers/platform/operator-cli-usage';
import { runOperatorCommand } from '../audit/operator-cli.ts';

const usage = `Usage: npm run invites -- <command>

  sign-pending   send again, with a signed link, every pending invite sent before links were
                 signed: the newcomer gets the new link, and the code alone, which the event
                 log shows, no longer opens the invite; one whose number has opted out of
                 texts is closed to its code without sending anything

Reads DATABASE_URL (and EVENT_STORE) like the services do; without it, the database that
"npm start" runs.`;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Closes the invites that still open with their code alone (sent before decision 33): each is
 * resent, and the resend's signed link becomes the only way in. One whose number has opted out
 * of texts cannot be sent anything: it is sealed instead (only a signed link opens it, and none
 * was sent), and its inviter can send it again. The invite's own stream decides which still need
 * it, so a second run, or one racing the read model, does nothing twice.
 */
async function signPending(pool: Pool, store: EventStore): Promise<number> {
  const { rows } = await pool.query<{ code: string }>(
    `SELECT code FROM rm_invites WHERE status = 'pending' AND NOT signed_link ORDER BY created_at`,
  );
  // An operator at the command line: no signed-in actor; one correlation id per invocation.
  const context = { actorId: null, correlationId: randomUUID(), newId: randomUUID };
  let resent = 0;
  let sealed = 0;
  const notClosed: string[] = [];
  for (const { code } of rows) {
    const { state: invite, read } = await loadRead(store, inviteAggregate, code);
    if (invite.status !== 'pending' || invite.signedLink) continue;
    const phoneOptedOut = await isOptedOut(store, invite.inviteePhone);
    try {
      const result = await handle(
        store,
        inviteAggregate,
        code,
        phoneOptedOut
          ? { type: 'SealInvite', data: { actorId: null } }
          : { type: 'ResendInvite', data: { actorId: null, phoneOptedOut } },
        { ...context, now: new Date() },
        { read },
      );
      if (result.events.some((event) => event.type === 'InviteResent')) resent += 1;
      if (result.events.some((event) => event.type === 'InviteSealed')) sealed += 1;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      notClosed.push(`${invite.betId ? 'a bet invite' : 'an invite'}: ${error.message}`);
    }
  }
  if (resent === 0 && sealed === 0 && notClosed.length === 0) {
    console.log('Every pending invite opens only with its signed link.');
  }
  if (resent > 0) {
    console.log(
      `Resent ${plural(resent, 'invite', 'invites')} with a signed link; the code alone no longer opens ${resent === 1 ? 'it' : 'them'}.`,
    );
  }
  if (sealed > 0) {
    console.log(
      `Closed ${plural(sealed, 'invite', 'invites')} to a number that has opted out of texts: nothing could be sent, and the code alone no longer opens ${sealed === 1 ? 'it' : 'them'}. The person who sent ${sealed === 1 ? 'it' : 'them'} can send ${sealed === 1 ? 'it' : 'them'} again.`,
    );
  }
  for (const reason of notClosed) console.log(`Still open with its code: ${reason}`);
  return notClosed.length > 0 ? 1 : 0;
}

function main(args: string[]): void {
  const [command] = args;
  if (asksForHelp(args)) exitWithUsage(usage, args);
  if (command === 'sign-pending') {
    return runOperatorCommand(({ pool, store }) => signPending(pool, store));
  }
  exitWithUsage(usage, args);
}

main(process.argv.slice(2));
