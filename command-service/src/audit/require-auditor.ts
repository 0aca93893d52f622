import type { RequestHandler } from 'express';
import { holdsAuditorRole } from '@wagers/domain/auditors/auditor';
import { notFound } from '@wagers/platform/errors';
import type { EventStore } from '@wagers/platform/event-store/port';
import '@wagers/platform/http/types';

/**
 * Audit calls exist only for auditors: anyone else, signed out included, gets the 404 of an
 * unknown path. The role is read from its stream, so a revocation holds from the next call on.
 */
export function requireAuditor(store: EventStore): RequestHandler {
  return async (req, _res, next) => {
    const userId = req.userId;
    if (!userId || !(await holdsAuditorRole(store, userId))) throw notFound('Not found');
    next();
  };
}
