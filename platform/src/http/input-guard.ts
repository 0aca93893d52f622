import type { RequestHandler } from 'express';
import { DomainError } from '../errors.ts';

/** A NUL (PostgreSQL text cannot hold one) or half of a UTF-16 pair (not text at all). */
// eslint-disable-next-line no-control-regex -- the NUL is exactly what this looks for
const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function isStorableText(text: string): boolean {
  return !unstorable.test(text);
}

/** The first value under `value` that is not storable text, as a field path; null when all are. */
function badField(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path || '(body)';
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  for (const [key, item] of entries) {
    const field = path ? `${path}.${key}` : key;
    if (!isStorableText(key)) return path || '(body)';
    const found = badField(item, field, depth + 1);
    if (found) return found;
  }
  return null;
}

const refuse = (field: string, message: string) =>
  new DomainError('validation_failed', `${field}: ${message}`, [{ field, message }]);

/**
 * Refuses, before any route runs, a path that is not percent-encoded UTF-8 and a path segment
 * or query value holding a NUL or a lone surrogate: the database would refuse that text later,
 * as a 500. A 400 here names the part.
 */
export const pathAndQueryGuard: RequestHandler = (req, _res, next) => {
  for (const segment of req.path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw refuse('(path)', 'The address is not valid percent-encoded UTF-8');
    }
    if (!isStorableText(decoded))
      throw refuse('(path)', 'The address holds a character that is not allowed');
  }
  const field = badField(req.query, '');
  if (field) throw refuse(field, 'Holds a character that is not allowed');
  next();
};

/** Refuses a parsed body holding a NUL or a lone surrogate in any string, naming the field. */
export const bodyGuard: RequestHandler = (req, _res, next) => {
  const field = badField(req.body, '');
  if (field) throw refuse(field, 'Holds a character that is not allowed');
  next();
};
