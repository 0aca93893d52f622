import type { RequestHandler, Response } from 'express';
import type { ClientBase, Pool } from 'pg';
import { parsePosition, type GlobalPosition } from '@wagers/contracts/position';
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
  ): Promise<{ sessionTokenHash: string }> {
    const token = newToken();
    const expiresAt = new Date(now.getTime() + this.options.ttlDays * 86_400_000);
    const [major, minor] = position ? parsePosition(position) : [0n, 0n];
    await this.pool.query(
      `INSERT INTO sessions (token_hash, user_id, position, position_major, position_minor, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [hashToken(token), userId, position, major.toString(), minor.toString(), now, expiresAt],
    );
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.options.secure,
      path: '/',
      expires: expiresAt,
    });
    return { sessionTokenHash: hashToken(token) };
  }

  async find(token: string): Promise<{ userId: string; position: GlobalPosition | null } | null> {
    return this.findByHash(hashToken(token));
  }

  private async findByHash(
    tokenHash: string,
  ): Promise<{ userId: string; position: GlobalPosition | null } | null> {
    const result = await this.pool.query<{ user_id: string; position: string | null }>(
      'SELECT user_id, position FROM sessions WHERE token_hash = $1 AND expires_at > now()',
      [tokenHash],
    );
    const row = result.rows[0];
    return row ? { userId: row.user_id, position: row.position } : null;
  }

  /** The session's written position as it is now (it may have moved since the request began). */
  async currentPosition(req: { sessionTokenHash?: string }): Promise<GlobalPosition | null> {
    if (!req.sessionTokenHash) return null;
    return (await this.findByHash(req.sessionTokenHash))?.position ?? null;
  }

  /** Records that this session's command wrote up to `position`; a lower one never wins. */
  async advance(
    req: { sessionTokenHash?: string },
    position: GlobalPosition | null,
  ): Promise<void> {
    if (!req.sessionTokenHash || !position) return;
    await advancePosition(this.pool, 'token_hash', req.sessionTokenHash, position);
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
        req.sessionReadAt = performance.now();
        const session = await this.find(token);
        if (session) {
          req.userId = session.userId;
          req.sessionPosition = session.position;
          req.sessionTokenHash = hashToken(token);
        }
      }
      next();
    };
  }
}

/**
 * Moves every session of a user forward to `position`: a process manager acting on a user's
 * behalf calls it in the transaction that commits its checkpoint, so the user's next read waits
 * for what it wrote.
 */
export async function advanceUserSessions(
  db: Pool | ClientBase,
  userId: string,
  position: GlobalPosition,
): Promise<void> {
  await advancePosition(db, 'user_id', userId, position);
}

async function advancePosition(
  db: Pool | ClientBase,
  key: 'token_hash' | 'user_id',
  value: string,
  position: GlobalPosition,
): Promise<void> {
  const [major, minor] = parsePosition(position);
  await db.query(
    `UPDATE sessions SET position = $2, position_major = $3, position_minor = $4
      WHERE ${key} = $1 AND (position_major, position_minor) < ($3::numeric, $4::numeric)`,
    [value, position, major.toString(), minor.toString()],
  );
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
