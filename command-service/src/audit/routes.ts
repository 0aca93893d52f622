import { Router, type Request, type Response } from 'express';
import { auditHistoryQuerySchema } from '@wagers/contracts/api/audit';
import type { AuditView } from '@wagers/contracts/events/auditor';
import { displayName } from '@wagers/contracts/api/user';
import { betStream } from '@wagers/contracts/events/bet';
import { auditTrailAggregate, trailDay } from '@wagers/domain/auditors/audit-trail';
import { handle } from '@wagers/platform/aggregate';
import { currentUserId } from '@wagers/platform/auth/sessions';
import { ownSiteReadsOnly } from '@wagers/platform/http/same-site';
import { notFound } from '@wagers/platform/errors';
import { parseInput } from '@wagers/platform/http/validate';
import { loadAnchors } from '@wagers/platform/event-store/chain-verifier';
import { isMetadataObject } from '@wagers/platform/event-store/event-hash';
import { erasedInClear, storedForm } from '@wagers/platform/event-store/personal-data';
import { recordedTimes } from '@wagers/platform/event-store/recorded-at';
import type { RecordedEvent } from '@wagers/platform/event-store/port';
import { commandContext, recordWrite } from '../context.ts';
import type { CommandServiceDeps } from '../deps.ts';
import {
  asOfMoment,
  auditExport,
  auditHistory,
  historyAsOf,
  microsInstant,
} from './bet-history.ts';
import { requireAuditor } from './require-auditor.ts';
import { isUuid } from '@wagers/contracts/ids';

/**
 * An auditor's look at one bet, straight from its stream. Recording the look is this call's one
 * append (the auditor's trail for the day), made before anything is shown.
 */
export function auditRouter(deps: CommandServiceDeps): Router {
  const router = Router();
  router.use('/api/audit', requireAuditor(deps.store));
  // A look is recorded on the auditor's trail: only when asked for from this site.
  router.use('/api/audit/bets/:id', ownSiteReadsOnly(deps.publicUrl));

  async function readBet(
    req: Request,
    res: Response,
    view: AuditView,
    asOf?: string,
  ): Promise<[string, RecordedEvent[]]> {
    // Bet ids are stored in lower case; the search finds a bet by its id in any case, so does this.
    const betId = String(req.params.id).toLowerCase();
    // The export is the stream as stored (personal fields sealed), as its hashes cover it; the
    // fields of older events stored in clear are left out once erased (auditExport).
    const store = view === 'export' ? storedForm(deps.store) : deps.store;
    const recorded = isUuid(betId) ? await store.readStream(betStream(betId)) : [];
    if (recorded.length === 0) throw notFound('Bet not found');
    // A HEAD request is answered without the body: nothing of the bet is shown, so no look is.
    if (req.method === 'HEAD') return [betId, recorded];
    const context = commandContext(req, deps.runtime);
    const auditorId = currentUserId(req);
    const result = await handle(
      deps.store,
      auditTrailAggregate,
      trailDay(auditorId, context.now),
      {
        type: 'RecordBetViewed',
        data: { auditorId, betId, view, ...(asOf ? { asOf } : {}) },
      },
      context,
    );
    await recordWrite(deps.sessions, req, res, result.position);
    return [betId, recorded];
  }

  async function namesOf(recorded: RecordedEvent[]) {
    // An actor id edited into something else than a user's id names nobody: the query would
    // refuse it as a uuid, so it is left out (and named "Unknown User").
    const actors = recorded.map((event): unknown =>
      isMetadataObject(event.metadata) ? event.metadata.actorId : null,
    );
    const ids = [
      ...new Set(actors.filter((id): id is string => typeof id === 'string' && isUuid(id))),
    ];
    const { rows } = await deps.pool.query<{
      id: string;
      email: string | null;
      first_name: string | null;
      last_name: string | null;
      deleted: boolean;
    }>(
      `SELECT id, email, first_name, last_name, deleted_at IS NOT NULL AS deleted
       FROM rm_users WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const names = new Map(
      rows.map((row) => [
        row.id,
        displayName({
          firstName: row.first_name,
          lastName: row.last_name,
          email: row.email,
          deleted: row.deleted,
        }),
      ]),
    );
    return (id: string | null) => (id === null ? 'Wagers' : (names.get(id) ?? 'Unknown User'));
  }

  /** Times to the microsecond, which only PostgreSQL's log keeps (EventStoreDB's keep ms). */
  const timesOf = (betId: string) =>
    deps.store.kind === 'postgres'
      ? recordedTimes(deps.pool, betStream(betId))
      : Promise.resolve(new Map<string, string>());

  router.get('/api/audit/bets/:id/history', async (req, res) => {
    const { asOf } = parseInput(auditHistoryQuerySchema, req.query);
    const moment = asOf === undefined ? null : asOfMoment(asOf, deps.runtime.now());
    const at = moment && microsInstant(moment.at);
    const [betId, recorded] = await readBet(req, res, 'history', at ?? undefined);
    // The stored form too, to name a sealed value edited in the database (it reads as erased).
    const [stored, times, names] = await Promise.all([
      storedForm(deps.store).readStream(betStream(betId)),
      timesOf(betId),
      namesOf(recorded),
    ]);
    const entries = auditHistory(recorded, names, { stored, recordedTimes: times });
    res.json(moment ? { betId, ...historyAsOf(entries, moment) } : { betId, entries });
  });

  router.get('/api/audit/bets/:id/export', async (req, res) => {
    const [betId, recorded] = await readBet(req, res, 'export');
    const [anchors, times, erased] = await Promise.all([
      loadAnchors(deps.pool, betStream(betId)),
      timesOf(betId),
      erasedInClear(deps.store, recorded),
    ]);
    const anchor = anchors.get(betStream(betId)) ?? null;
    res.setHeader('content-disposition', `attachment; filename="bet-${betId}-audit.json"`);
    res.json(auditExport(betId, recorded, anchor, deps.runtime.now(), times, erased));
  });
  return router;
}
