import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { notificationKinds, type NotificationKind } from '@wagers/contracts/api/notifications';

/** Used when NOTIFICATION_SIGNING_SECRET is unset: links then work only within this process. */
const processSecret = randomBytes(32).toString('hex');

const signature = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(payload).digest('base64url');

/** A token that names one person and one kind, signed so it cannot be forged or altered. */
export function unsubscribeToken(
  secret: string | undefined,
  userId: string,
  kind: NotificationKind,
): string {
  const payload = Buffer.from(`${userId}:${kind}`).toString('base64url');
  return `${payload}.${signature(secret ?? processSecret, payload)}`;
}

/** The person and kind a token names, or null for a forged or damaged token. */
export function readUnsubscribeToken(
  secret: string | undefined,
  token: string,
): { userId: string; kind: NotificationKind } | null {
  const [payload, given] = token.split('.');
  if (!payload || !given) return null;
  const expected = Buffer.from(signature(secret ?? processSecret, payload));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  const [userId, kind] = Buffer.from(payload, 'base64url').toString().split(':');
  if (!userId || !notificationKinds.includes(kind as NotificationKind)) return null;
  return { userId, kind: kind as NotificationKind };
}
