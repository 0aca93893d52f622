import type { Pool } from 'pg';
import { hashToken, newToken } from '@wagers/platform/auth/tokens';

const FLOW_TTL_MS = 10 * 60 * 1000;

export interface StartedFlow {
  state: string;
  codeVerifier: string;
  nonce: string | null;
  /** Goes in a cookie: the callback must come back to the browser that began the sign-in. */
  browserToken: string;
}

export interface FinishedFlow {
  codeVerifier: string;
  nonce: string | null;
  posted: URLSearchParams | null;
  redirect: string | null;
}

/**
 * Provider sign-ins in flight, and what is remembered of the people they sign in. Each state is
 * used at most once: finishing deletes it, so a replayed callback finds nothing.
 */
export class ProviderFlows {
  constructor(private readonly pool: Pool) {}

  async start(
    provider: string,
    flow: Omit<StartedFlow, 'browserToken'>,
    redirect: string | null,
    now: Date,
  ): Promise<string> {
    const browserToken = newToken();
    await this.pool.query(
      `INSERT INTO oauth_states (state_hash, provider, code_verifier, nonce, browser_hash, redirect, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        hashToken(flow.state),
        provider,
        flow.codeVerifier,
        flow.nonce,
        hashToken(browserToken),
        redirect,
        new Date(now.getTime() + FLOW_TTL_MS),
      ],
    );
    return browserToken;
  }

  /** Keeps what a form_post provider posted, once, for the callback the browser is sent to next. */
  async keepPosted(provider: string, state: string, posted: string, now: Date): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE oauth_states SET posted = $3
       WHERE state_hash = $1 AND provider = $2 AND posted IS NULL AND expires_at > $4`,
      [hashToken(state), provider, posted, now],
    );
    return (result.rowCount ?? 0) > 0;
  }

  /** Uses the state up; null unless it is live and this browser began it. */
  async finish(
    provider: string,
    state: string,
    browserToken: string | null,
    now: Date,
  ): Promise<FinishedFlow | null> {
    if (!state || !browserToken) return null;
    const result = await this.pool.query<{
      code_verifier: string;
      nonce: string | null;
      posted: string | null;
      redirect: string | null;
    }>(
      `DELETE FROM oauth_states
       WHERE state_hash = $1 AND provider = $2 AND browser_hash = $3 AND expires_at > $4
       RETURNING code_verifier, nonce, posted, redirect`,
      [hashToken(state), provider, hashToken(browserToken), now],
    );
    const row = result.rows[0];
    if (!row) return null;
    return {
      codeVerifier: row.code_verifier,
      nonce: row.nonce,
      posted: row.posted === null ? null : new URLSearchParams(row.posted),
      redirect: row.redirect,
    };
  }

  async link(provider: string, subject: string, userId: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO provider_identities (provider, subject, user_id) VALUES ($1, $2, $3)
       ON CONFLICT (provider, subject) DO UPDATE SET user_id = EXCLUDED.user_id`,
      [provider, subject, userId],
    );
  }

  async linkedUser(provider: string, subject: string): Promise<string | null> {
    const result = await this.pool.query<{ user_id: string }>(
      'SELECT user_id FROM provider_identities WHERE provider = $1 AND subject = $2',
      [provider, subject],
    );
    return result.rows[0]?.user_id ?? null;
  }

  /** A sign-in that gave no email waits for one; the returned token goes in the page's form. */
  async awaitEmail(
    provider: string,
    subject: string,
    redirect: string | null,
    now: Date,
  ): Promise<string> {
    const token = newToken();
    await this.pool.query(
      `INSERT INTO provider_pending (token_hash, provider, subject, redirect, expires_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [hashToken(token), provider, subject, redirect, new Date(now.getTime() + FLOW_TTL_MS)],
    );
    return token;
  }

  async pending(
    provider: string,
    token: string,
    now: Date,
  ): Promise<{ subject: string; redirect: string | null } | null> {
    const result = await this.pool.query<{ subject: string; redirect: string | null }>(
      `SELECT subject, redirect FROM provider_pending
       WHERE token_hash = $1 AND provider = $2 AND expires_at > $3`,
      [hashToken(token), provider, now],
    );
    return result.rows[0] ?? null;
  }
}
