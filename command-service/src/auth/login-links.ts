import type { Pool } from 'pg';
import { hashToken, newToken } from '@wagers/platform/auth/tokens';
import { hourlySweep, inTransaction } from '@wagers/platform/db';

export const LINK_TTL_MS = 15 * 60 * 1000;
/** The cookie of the browser that asked for a link carrying a provider's account. */
export const LINK_BROWSER_COOKIE = 'wagers_link';
/** Links one address may ask for per window, so the product cannot be used to flood an inbox. */
export const LINKS_PER_WINDOW = 5;

/** A provider's id for the person, kept with a link asked for from a provider sign-in with no email. */
export interface LinkedIdentity {
  provider: string;
  subject: string;
}

/**
 * A provider's account to link when the link is confirmed, and the browser that asked for it
 * (its raw token, kept in a cookie there): the account is linked only if that browser confirms.
 */
export interface IdentityToLink {
  identity: LinkedIdentity;
  browserToken: string;
}

/** What a link would do, shown before it is used. */
export interface LinkPreview {
  email: string;
  /** The provider whose account the link carries, and whether this browser would link it. */
  linking: { provider: string; here: boolean } | null;
}

/** How long a link is kept once it has expired: its address is then no longer held here. */
const KEPT_AFTER_EXPIRY_MS = 3600_000;

export class LoginLinks {
  private readonly sweep: (at: Date) => void;

  constructor(private readonly pool: Pool) {
    this.sweep = hourlySweep((at) =>
      pool.query('DELETE FROM login_tokens WHERE expires_at < $1', [
        new Date(at.getTime() - KEPT_AFTER_EXPIRY_MS),
      ]),
    );
  }

  /**
   * Stores a new single-use link (hashed) and returns its raw token; past the limit, the seconds
   * until the oldest link of the window leaves it and the address may ask again. The limit holds
   * for links asked for at the same moment too.
   * `deletedHolder` looks in the log for the deleted account that still holds the address, once
   * the link is within the limit and before it is stored: that account's erasure leaves the link
   * alone.
   */
  async issue(
    email: string,
    redirect: string | null,
    now: Date,
    toLink: IdentityToLink | null = null,
    deletedHolder: () => Promise<string | null> = () => Promise.resolve(null),
  ): Promise<{ token: string } | { retryAfterSeconds: number }> {
    const full = await this.windowFull(this.pool, email, now);
    if (full) return full;
    this.sweep(now);
    const askedAfterDeletionOf = await deletedHolder();
    const token = newToken();
    // Counted again and stored under the address's lock: of links asked for at once, only as
    // many as the window has room for are stored.
    return inTransaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext('login-link:' || $1))", [email]);
      const fullNow = await this.windowFull(client, email, now);
      if (fullNow) return fullNow;
      await client.query(
        `INSERT INTO login_tokens
           (token_hash, email, redirect, created_at, expires_at, provider, provider_subject,
            browser_hash, asked_after_deletion_of)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          hashToken(token),
          email,
          redirect,
          now,
          new Date(now.getTime() + LINK_TTL_MS),
          toLink?.identity.provider ?? null,
          toLink?.identity.subject ?? null,
          toLink ? hashToken(toLink.browserToken) : null,
          askedAfterDeletionOf,
        ],
      );
      return { token };
    });
  }

  /** The seconds until the address may ask again when its window is full; null when it is not. */
  private async windowFull(
    db: Pick<Pool, 'query'>,
    email: string,
    now: Date,
  ): Promise<{ retryAfterSeconds: number } | null> {
    const recent = await db.query<{ count: string; oldest: Date | null }>(
      `SELECT count(*) AS count, min(created_at) AS oldest
         FROM login_tokens WHERE email = $1 AND created_at > $2`,
      [email, new Date(now.getTime() - LINK_TTL_MS)],
    );
    const { count, oldest } = recent.rows[0] ?? { count: '0', oldest: null };
    if (Number(count) < LINKS_PER_WINDOW || !oldest) return null;
    const freeAt = oldest.getTime() + LINK_TTL_MS;
    return { retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)) };
  }

  /**
   * Who a link would sign in, and which provider's account it would link in the browser holding
   * `browserToken`, without using it up: the confirmation page shows this.
   */
  async peek(token: string, now: Date, browserToken: string | null): Promise<LinkPreview | null> {
    const result = await this.pool.query<{
      email: string;
      provider: string | null;
      browser_hash: string | null;
    }>(
      `SELECT email, provider, browser_hash FROM login_tokens
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`,
      [hashToken(token), now],
    );
    const row = result.rows[0];
    if (!row) return null;
    return {
      email: row.email,
      linking: row.provider
        ? { provider: row.provider, here: sameBrowser(row.browser_hash, browserToken) }
        : null,
    };
  }

  /**
   * Uses a link up: works once, and only before it expires. The provider's account it carries
   * comes back only when the browser holding `browserToken` asked for the link.
   */
  async redeem(
    token: string,
    now: Date,
    browserToken: string | null,
  ): Promise<{ email: string; redirect: string | null; identity: LinkedIdentity | null } | null> {
    const result = await this.pool.query<{
      email: string;
      redirect: string | null;
      provider: string | null;
      provider_subject: string | null;
      browser_hash: string | null;
    }>(
      `UPDATE login_tokens SET used_at = $2
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
       RETURNING email, redirect, provider, provider_subject, browser_hash`,
      [hashToken(token), now],
    );
    const row = result.rows[0];
    if (!row) return null;
    const identity =
      row.provider && row.provider_subject && sameBrowser(row.browser_hash, browserToken)
        ? { provider: row.provider, subject: row.provider_subject }
        : null;
    return { email: row.email, redirect: row.redirect, identity };
  }

  /**
   * Makes a link used up at `usedAt` usable again, as if it had not been followed: for a sign-in
   * refused for now, which made no session.
   */
  async giveBack(token: string, usedAt: Date): Promise<void> {
    await this.pool.query(
      'UPDATE login_tokens SET used_at = NULL WHERE token_hash = $1 AND used_at = $2',
      [hashToken(token), usedAt],
    );
  }
}

/** Whether the browser holding `browserToken` is the one whose token was hashed as `hash`. */
function sameBrowser(hash: string | null, browserToken: string | null): boolean {
  return hash !== null && browserToken !== null && hashToken(browserToken) === hash;
}
