import type { RequestHandler, Response } from 'express';
import type { Pool } from 'pg';
import type { GlobalPosition } from '@wagers/contracts/position';
import { unauthorized } from '../errors.ts';
import '../http/types.ts';
import { readCookie } from './cookies.ts';
import { hashToken, newToken } from './tokens.ts';

export const SESSION_COOKIE = 'wagers_session';

export interface SessionOptions {
  ttlDays: number;
  /** Secure cookies in production (HTTPS). */
  secure: boolean;
}

/** Server-side sessions in PostgreSQL, shared by every service that answers /api. */
export class SessionStore {
  constructor(
    private readonly pool: Pool,
    private readonly options: SessionOptions,
  ) {}

  async create(
    userId: string,
    position: GlobalPosition | null,
    res: Response,
    now = new Date(),
  ): Promise<void> {
    const token = newToken();
    const expiresAt = new Date(now.getTime() + this.options.ttlDays * 86_400_000);
    await this.pool.query(
      'INSERT INTO sessions (token_hash, user_id, position, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [hashToken(token), userId, position, now, expiresAt],
    );
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.options.secure,
      path: '/',
      expires: expiresAt,
    });
  }

  async find(token: string): Promise<{ userId: string; position: GlobalPosition | null } | null> {
    const result = await this.pool.query<{ user_id: string; position: string | null }>(
      'SELECT user_id, position FROM sessions WHERE token_hash = $1 AND expires_at > now()',
      [hashToken(token)],
    );
    const row = result.rows[0];
    return row ? { userId: row.user_id, position: row.position } : null;
  }

  async destroy(token: string | null, res: Response): Promise<void> {
    if (token)
      await this.pool.query('DELETE FROM sessions WHERE token_hash = $1', [hashToken(token)]);
    res.clearCookie(SESSION_COOKIE, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.options.secure,
    });
  }

  /** Sets `req.userId` when the request carries a live session. */
  middleware(): RequestHandler {
    return async (req, _res, next) => {
      const token = readCookie(req.headers.cookie, SESSION_COOKIE);
      if (token) {
        const session = await this.find(token);
        if (session) {
          req.userId = session.userId;
          req.sessionPosition = session.position;
        }
      }
      next();
    };
  }
}

export function sessionToken(cookieHeader: string | undefined): string | null {
  return readCookie(cookieHeader, SESSION_COOKIE);
}

/** 401 unless signed in. */
export const requireUser: RequestHandler = (req, _res, next) => {
  if (!req.userId) throw unauthorized();
  next();
};

/** The signed-in user's id; only call behind `requireUser`. */
export function currentUserId(req: { userId?: string }): string {
  if (!req.userId) throw unauthorized();
  return req.userId;
}
