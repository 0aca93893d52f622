import type { CommandServiceDeps } from '../deps.ts';
import type { IdentityToLink, LoginLinks } from './login-links.ts';

export const TOO_MANY_LINKS =
  'Too many sign-in links were sent to this address. Please wait a few minutes and try again.';

/** Issues a sign-in link and mails it; false when the address has had too many lately. */
export async function sendSignInLink(
  deps: CommandServiceDeps,
  links: LoginLinks,
  email: string,
  redirect: string | null,
  toLink: IdentityToLink | null = null,
): Promise<boolean> {
  const token = await links.issue(email, redirect, deps.runtime.now(), toLink);
  if (!token) return false;
  const link = `${deps.publicUrl()}/api/login/verify?token=${encodeURIComponent(token)}`;
  await deps.signInMailer.sendSignInLink(email, link);
  return true;
}
