import { createHash } from 'node:crypto';
import { invalid } from '@wagers/platform/errors';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** Printable ASCII, as clients send UUIDs or similar; long enough for any of them. */
const keyPattern = /^[\x21-\x7e]{1,255}$/;

export function parseIdempotencyKey(header: string | undefined): string | null {
  if (header === undefined) return null;
  if (!keyPattern.test(header)) {
    throw invalid(
      'Idempotency-Key',
      'The Idempotency-Key header must be 1 to 255 visible characters',
    );
  }
  return header;
}

/**
 * The bet id a creator's key stands for: a UUID (version 8, RFC 9562) from a hash of the user and
 * the key, so every request with the key names the same bet stream and the append decides which
 * one made it. Two users sending the same key never meet.
 */
export function betIdForKey(userId: string, key: string): string {
  const bytes = sha256(`bet\n${userId}\n${key}`).subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Canonical JSON (sorted keys) of what the request asked for. */
export function requestHash(body: object): string {
  const sorted = Object.fromEntries(Object.entries(body).sort(([a], [b]) => a.localeCompare(b)));
  return sha256(JSON.stringify(sorted)).toString('hex');
}
