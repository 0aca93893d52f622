import type { CommandServiceDeps } from '../deps.ts';
import { deletedAccountHolding } from '../users/register.ts';
import type { IdentityToLink, LoginLinks } from './login-links.ts';

export const TOO_MANY_LINKS =
  'Too many sign-in links were sent to this address. Please wait a few minutes and try again.';

/**
 * Issues a sign-in link and mails it; when the address has had too many lately, the seconds
 * until it may ask again (the caller's `Retry-After`). A link asked for while the address is
 * still a deleted account's is marked as asked after that deletion, so the erasure keeps it.
 */
export async function sendSignInLink(
  deps: CommandServiceDeps,
  links: LoginLinks,
  email: string,
  redirect: string | null,
  toLink: IdentityToLink | null = null,
): Promise<{ sent: true } | { sent: false; retryAfterSeconds: number }> {
  const issued = await links.issue(email, redirect, deps.runtime.now(), toLink, () =>
    deletedAccountHolding(deps.store, email),
  );
  if (!('token' in issued)) return { sent: false, retryAfterSeconds: issued.retryAfterSeconds };
  const link = `${deps.publicUrl()}/api/login/verify?token=${encodeURIComponent(issued.token)}`;
  await deps.signInMailer.sendSignInLink(email, link);
  return { sent: true };
}
