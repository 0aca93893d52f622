import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { auditorAggregate } from '@wagers/domain/auditors/auditor';
import { emailReservationAggregate } from '@wagers/domain/users/email-reservation';
import { handle, load } from '@wagers/platform/aggregate';
import type { EventStore } from '@wagers/platform/event-store/port';
import { asksForHelp, exitWithUsage } from '@wagers/platform/operator-cli-usage';
import { runOperatorCommand } from './operator-cli.ts';
import { isUuid } from '@wagers/contracts/ids';

const usage = `Usage: npm run auditors -- <command>

  grant EMAIL        give the account with this email the auditor role
  revoke EMAIL|ID    take the auditor role away; a deleted account, which keeps no address,
                     by the id the list shows
  list               everyone who holds the role (as the read model shows it)

Reads DATABASE_URL (and EVENT_STORE) like the services do; without it, the database that
"npm start" runs.`;

async function changeRole(store: EventStore, command: 'grant' | 'revoke', who: string) {
  // A role is revoked by id too: an erased account's address is gone, and the list names it so.
  const byId = command === 'revoke' && isUuid(who.trim());
  const userId = byId
    ? who.trim().toLowerCase()
    : (await load(store, emailReservationAggregate, who.trim().toLowerCase())).userId;
  if (!userId) {
    console.error(`No account signs in with ${who}.`);
    return 1;
  }
  const result = await handle(
    store,
    auditorAggregate,
    userId,
    {
      type: command === 'grant' ? 'GrantAuditorRole' : 'RevokeAuditorRole',
      data: { userId },
    },
    // An operator at the command line: no signed-in actor; one correlation id per invocation.
    { actorId: null, correlationId: randomUUID(), now: new Date(), newId: randomUUID },
  );
  const done = command === 'grant' ? 'is now an auditor' : 'is no longer an auditor';
  const already = command === 'grant' ? 'is already an auditor' : 'was not an auditor';
  console.log(`${who} ${result.events.length > 0 ? done : already}.`);
  return 0;
}

async function list(pool: Pool) {
  const { rows } = await pool.query<{
    email: string | null;
    user_id: string;
    granted_at: Date;
    deleted: boolean;
  }>(
    `SELECT u.email, a.user_id, a.granted_at, u.deleted_at IS NOT NULL AS deleted
       FROM rm_auditors a LEFT JOIN rm_users u ON u.id = a.user_id ORDER BY a.granted_at`,
  );
  if (rows.length === 0) console.log('No auditors.');
  for (const row of rows) {
    // An erased account keeps no address: say why it is named by its id, and that nobody can
    // sign in to it and use the role.
    const who = row.deleted ? `${row.user_id} (deleted account, cannot sign in)` : row.email;
    console.log(`${who ?? row.user_id}  since ${row.granted_at.toISOString()}`);
  }
  return 0;
}

function main(args: string[]): void {
  const [command, who] = args;
  if (asksForHelp(args)) exitWithUsage(usage, args);
  if (command === 'list') return runOperatorCommand(({ pool }) => list(pool));
  if ((command === 'grant' || command === 'revoke') && who) {
    return runOperatorCommand(({ store }) => changeRole(store, command, who));
  }
  exitWithUsage(usage, args);
}

main(process.argv.slice(2));
