import type { RequestHandler, Response } from 'express';
import type { ClientBase, Pool } from 'pg';
import { maxPosition, parsePosition, type GlobalPosition } from '@wagers/contracts/position';
import { unauthorized } from '../errors.ts';
import '../http/types.ts';
import { Batches } from './batches.ts';
import { readCookie } from './cookies.ts';
import {
  SESSIONS_CHANNEL,
  SessionCache,
  sessionChange,
  type CachedSession,
} from './session-cache.ts';
import { hashToken, newToken } from './tokens.ts';

export const SESSION_COOKIE = 'wagers_session';

export interface SessionOptions {
  ttlDays: number;
  /** Secure cookies in production (HTTPS). */
  secure: boolean;
  /** Where to LISTEN for changes to sessions; without it every lookup reads the table. */
  connectionString?: string;
}

/** A session just made, whose cookie the browser has not been given yet. */
export interface NewSession {
  sessionTokenHash: string;
  token: string;
  expiresAt: Date;
}

/**
 * Server-side sessions in PostgreSQL, shared by every service that answers /api. Each process
 * keeps the sessions it has read (see SessionCache): every change to a row is announced before
 * the change is answered, and every process drops what it heard changed.
 */
export class SessionStore {
  private readonly cache: SessionCache | null;
  /** Position moves, many sessions per UPDATE: a session's concurrent commands never queue on its row. */
  private readonly moves: Batches<SessionMove>;

  constructor(
    private readonly pool: Pool,
    private readonly options: SessionOptions,
  ) {
    this.cache = options.connectionString ? new SessionCache(pool, options.connectionString) : null;
    // Each batch is announced by its own statement's commit.
    this.moves = new Batches(
      (moves) =>
        moveSessions(
          pool,
          moves,
          this.cache?.payloads(moves.map(({ tokenHash }) => ({ tokenHash }))) ?? [],
        ),
      200,
    );
  }

  /** Starts listening for changes; until then (and whenever the listener is down) nothing is kept. */
  async start(): Promise<void> {
    await this.cache?.start();
  }

  async close(): Promise<void> {
    await this.moves.drain().catch(() => undefined);
    await this.cache?.close();
  }

  /**
   * Makes a session for the user, not yet the browser's: `sendCookie` gives it to the browser once
   * the caller knows the sign-in stands, so one refused after the session was made hands nothing
   * out.
   */
  async create(
    userId: string,
    position: GlobalPosition | null,
    now = new Date(),
  ): Promise<NewSession> {
    const token = newToken();
    const expiresAt = new Date(now.getTime() + this.options.ttlDays * 86_400_000);
    const [major, minor] = position ? parsePosition(position) : [0n, 0n];
    // The sign-in's own write (a reservation) is one a process manager answers.
    await this.pool.query(
      `INSERT INTO sessions (token_hash, user_id, position, position_major, position_minor,
                             reaction_position, reaction_major, reaction_minor, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $3, $4, $5, $6, $7)`,
      [hashToken(token), userId, position, major.toString(), minor.toString(), now, expiresAt],
    );
    return { sessionTokenHash: hashToken(token), token, expiresAt };
  }

  /** Gives the browser the session's cookie, in place of any session cookie it had. */
  sendCookie(session: NewSession, res: Response): void {
    res.cookie(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.options.secure,
      path: '/',
      expires: session.expiresAt,
    });
  }

  /** The live session the token names, from this process's cache when it holds it. */
  async find(token: string): Promise<CachedSession | null> {
    return this.findByHash(hashToken(token));
  }

  private async findByHash(tokenHash: string): Promise<CachedSession | null> {
    return (await this.cache?.find(tokenHash)) ?? this.read(tokenHash);
  }

  /** The row as the table holds it now; kept in the cache for the next request. */
  private read(tokenHash: string): Promise<CachedSession | null> {
    const select = async () => {
      const result = await this.pool.query<{
        user_id: string;
        position: string | null;
        reaction_position: string | null;
        expires_at: Date;
      }>(
        `SELECT user_id, position, reaction_position, expires_at FROM sessions
          WHERE token_hash = $1 AND expires_at > now()`,
        [tokenHash],
      );
      const row = result.rows[0];
      return row
        ? {
            userId: row.user_id,
            position: row.position,
            reaction: row.reaction_position,
            expiresAt: row.expires_at.getTime(),
            settled: null,
          }
        : null;
    };
    if (this.cache) return this.cache.load(tokenHash, select);
    return select().then((row) => row && { ...row, readAt: performance.now() });
  }

  /** The session as the table holds it now (it may have moved since the request began). */
  async reread(req: { sessionTokenHash?: string }): Promise<CachedSession | null> {
    if (!req.sessionTokenHash) return null;
    return this.read(req.sessionTokenHash);
  }

  /**
   * The process managers had passed `reaction` before the session's row was read at `readAt`:
   * whatever they did in answer to its writes up to there is in that row.
   */
  settled(req: { sessionTokenHash?: string }, readAt: number, reaction: GlobalPosition): void {
    if (req.sessionTokenHash) this.cache?.settled(req.sessionTokenHash, readAt, reaction);
  }

  /**
   * Records that this session's command wrote up to `position`; a lower one never wins.
   * `reaction: false` says no process manager reacts to what it wrote, so later commands and
   * reads need not wait for them to pass it.
   */
  async advance(
    req: { sessionTokenHash?: string },
    position: GlobalPosition | null,
    { reaction = true }: { reaction?: boolean } = {},
  ): Promise<void> {
    const tokenHash = req.sessionTokenHash;
    if (!tokenHash || !position) return;
    await this.moves.add({ tokenHash, position, reaction });
    this.cache?.advanced(tokenHash, position, reaction);
  }

  /** Ends the session the token names, leaving the browser's cookie as it is. */
  async end(token: string | null): Promise<void> {
    if (!token) return;
    const tokenHash = hashToken(token);
    await this.pool.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
    this.cache?.forgetToken(tokenHash);
    await this.cache?.announce({ tokenHash });
  }

  /** Ends the session the token names and clears the browser's cookie (a sign-out). */
  async destroy(token: string | null, res: Response): Promise<void> {
    await this.end(token);
    res.clearCookie(SESSION_COOKIE, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.options.secure,
    });
  }

  /** Ends every session of the user (signed out everywhere), in this process at once. */
  async endUser(userId: string): Promise<void> {
    await endUserSessions(this.pool, userId);
    this.cache?.forgetUser(userId);
  }

  /** Sets `req.userId` when the request carries a live session. */
  middleware(): RequestHandler {
    return async (req, _res, next) => {
      const token = readCookie(req.headers.cookie, SESSION_COOKIE);
      if (token) {
        const tokenHash = hashToken(token);
        const session = await this.findByHash(tokenHash);
        if (session) {
          req.userId = session.userId;
          req.sessionPosition = session.position;
          req.sessionReaction = session.reaction;
          req.sessionTokenHash = tokenHash;
          req.sessionReadAt = session.readAt;
          req.sessionSettled = session.settled;
        }
      }
      next();
    };
  }
}

/**
 * SET clauses that move a position column trio (`position`, `position_major`, `position_minor`, or
 * the `reaction_` ones) to the given one when it is further, and leave it otherwise (every CASE
 * sees the row as it was).
 */
function forward(prefix: 'position' | 'reaction', text: string, major: string, minor: string) {
  const [textColumn, majorColumn, minorColumn] =
    prefix === 'position'
      ? ['position', 'position_major', 'position_minor']
      : ['reaction_position', 'reaction_major', 'reaction_minor'];
  const further = `(s.${majorColumn}, s.${minorColumn}) < (${major}, ${minor})`;
  return [
    [textColumn, text],
    [majorColumn, major],
    [minorColumn, minor],
  ]
    .map(([column, value]) => `${column} = CASE WHEN ${further} THEN ${value} ELSE s.${column} END`)
    .join(', ');
}

interface SessionMove {
  tokenHash: string;
  position: GlobalPosition;
  /** Whether a process manager may react to the write. */
  reaction: boolean;
}

/**
 * Moves each named session forward to the highest position given for it, and its reaction
 * position to the highest of those a process manager may react to, in one statement.
 */
/** Moves sessions forward, and by the same statement sends `announcements` on SESSIONS_CHANNEL. */
async function moveSessions(
  pool: Pool,
  moves: SessionMove[],
  announcements: string[],
): Promise<void> {
  const furthest = new Map<string, { position: GlobalPosition; reaction: GlobalPosition | null }>();
  for (const move of moves) {
    const seen = furthest.get(move.tokenHash);
    furthest.set(move.tokenHash, {
      position: maxPosition(seen?.position ?? null, move.position)!,
      reaction: maxPosition(seen?.reaction ?? null, move.reaction ? move.position : null),
    });
  }
  const rows = [...furthest].map(([tokenHash, { position, reaction }]) => {
    const [major, minor] = parsePosition(position);
    const [reactionMajor, reactionMinor] = reaction ? parsePosition(reaction) : [0n, 0n];
    return {
      tokenHash,
      position,
      major: major.toString(),
      minor: minor.toString(),
      reaction,
      reactionMajor: reactionMajor.toString(),
      reactionMinor: reactionMinor.toString(),
    };
  });
  const column = <Key extends keyof (typeof rows)[number]>(key: Key) => rows.map((row) => row[key]);
  await pool.query({
    // Prepared: every write request moves its session.
    name: 'sessions_move',
    text: `WITH moved AS (
       UPDATE sessions s
          SET ${forward('position', 'm.position', 'm.major', 'm.minor')},
              ${forward('reaction', 'm.reaction', 'm.reaction_major', 'm.reaction_minor')}
         FROM unnest($1::text[], $2::text[], $3::numeric[], $4::numeric[],
                     $5::text[], $6::numeric[], $7::numeric[])
              AS m (token_hash, position, major, minor, reaction, reaction_major, reaction_minor)
        WHERE s.token_hash = m.token_hash
       RETURNING 1)
     SELECT pg_notify($8, p) FROM unnest($9::text[]) AS p WHERE EXISTS (SELECT 1 FROM moved)`,
    values: [
      column('tokenHash'),
      column('position'),
      column('major'),
      column('minor'),
      column('reaction'),
      column('reactionMajor'),
      column('reactionMinor'),
      SESSIONS_CHANNEL,
      announcements,
    ],
  });
}

/**
 * Moves every session of a user forward to `position`: a process manager acting on a user's
 * behalf calls it in the transaction that commits its checkpoint, so the user's next read waits
 * for what it wrote. What a process manager writes counts as a write that one may react to. The change is announced by the same statement (at commit, when inside a
 * transaction), so every process drops the user's cached sessions.
 */
export async function advanceUserSessions(
  db: Pool | ClientBase,
  userId: string,
  position: GlobalPosition,
): Promise<void> {
  const [major, minor] = parsePosition(position);
  await db.query(
    `WITH moved AS (
       UPDATE sessions SET position = $2, position_major = $3, position_minor = $4,
                           reaction_position = $2, reaction_major = $3, reaction_minor = $4
        WHERE user_id = $1 AND (position_major, position_minor) < ($3::numeric, $4::numeric)
       RETURNING 1)
     SELECT pg_notify($5, $6) WHERE EXISTS (SELECT 1 FROM moved)`,
    [
      userId,
      position,
      major.toString(),
      minor.toString(),
      SESSIONS_CHANNEL,
      sessionChange({ userId }),
    ],
  );
}

/**
 * Ends every session of a user (an account deleted): the same statement announces it, so every
 * process drops the user's cached sessions and their next call is signed out.
 */
export async function endUserSessions(db: Pool | ClientBase, userId: string): Promise<void> {
  await db.query(
    `WITH ended AS (DELETE FROM sessions WHERE user_id = $1 RETURNING 1)
     SELECT pg_notify($2, $3) WHERE EXISTS (SELECT 1 FROM ended)`,
    [userId, SESSIONS_CHANNEL, sessionChange({ userId })],
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
