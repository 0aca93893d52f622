import type { Pool } from 'pg';
import { hashToken, newToken } from '@wagers/platform/auth/tokens';

export const LINK_TTL_MS = 15 * 60 * 1000;
/** Links one address may ask for per window, so the product cannot be used to flood an inbox. */
export const LINKS_PER_WINDOW = 5;

/** A provider's id for the person, kept with a link asked for from a provider sign-in with no email. */
export interface LinkedIdentity {
  provider: string;
  subject: string;
}

export class LoginLinks {
  constructor(private readonly pool: Pool) {}

  /** Stores a new single-use link (hashed) and returns its raw token, or null when rate limited. */
  async issue(
    email: string,
    redirect: string | null,
    now: Date,
    identity: LinkedIdentity | null = null,
  ): Promise<string | null> {
    const recent = await this.pool.query<{ count: string }>(
      'SELECT count(*) AS count FROM login_tokens WHERE email = $1 AND created_at > $2',
      [email, new Date(now.getTime() - LINK_TTL_MS)],
    );
    if (Number(recent.rows[0]?.count ?? 0) >= LINKS_PER_WINDOW) return null;
    const token = newToken();
    await this.pool.query(
      `INSERT INTO login_tokens (token_hash, email, redirect, created_at, expires_at, provider, provider_subject)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        hashToken(token),
        email,
        redirect,
        now,
        new Date(now.getTime() + LINK_TTL_MS),
        identity?.provider ?? null,
        identity?.subject ?? null,
      ],
    );
    return token;
  }

  /** Who a link would sign in, without using it up: the confirmation page shows this. */
  async peek(token: string, now: Date): Promise<{ email: string } | null> {
    const result = await this.pool.query<{ email: string }>(
      'SELECT email FROM login_tokens WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2',
      [hashToken(token), now],
    );
    return result.rows[0] ?? null;
  }

  /** Uses a link up: works once, and only before it expires. */
  async redeem(
    token: string,
    now: Date,
  ): Promise<{ email: string; redirect: string | null; identity: LinkedIdentity | null } | null> {
    const result = await this.pool.query<{
      email: string;
      redirect: string | null;
      provider: string | null;
      provider_subject: string | null;
    }>(
      `UPDATE login_tokens SET used_at = $2
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
       RETURNING email, redirect, provider, provider_subject`,
      [hashToken(token), now],
    );
    const row = result.rows[0];
    if (!row) return null;
    const identity =
      row.provider && row.provider_subject
        ? { provider: row.provider, subject: row.provider_subject }
        : null;
    return { email: row.email, redirect: row.redirect, identity };
  }
}
