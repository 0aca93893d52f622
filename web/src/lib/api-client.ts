import {
  POSITION_HEADER,
  isGlobalPosition,
  maxPosition,
  type GlobalPosition,
} from '@wagers/contracts/position';

/**
 * A non-OK response. The message is "status: body text" (or the status text when the body is
 * empty), so callers and the 401 check can read it the same way everywhere.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;
  /** When the server asked to be tried again (`Retry-After`), in ms from now; null if it did not. */
  readonly retryAfterMs: number | null;

  constructor(status: number, body: string, statusText: string, retryAfter: string | null = null) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.retryAfterMs = retryAfterMs(retryAfter);
  }

  /** The server's own sentence from a problem-details body, if it sent one. */
  get serverMessage(): string | undefined {
    try {
      const parsed: unknown = JSON.parse(this.body);
      if (parsed && typeof parsed === 'object' && 'message' in parsed) {
        const { message } = parsed;
        return typeof message === 'string' && message ? message : undefined;
      }
    } catch {
      // A plain-text body has no separate message.
    }
    return undefined;
  }

  /** The fields a refused request named (`errors` of a problem-details body), if any. */
  get fieldErrors(): { field: string; message: string }[] {
    try {
      const parsed: unknown = JSON.parse(this.body);
      if (!parsed || typeof parsed !== 'object' || !('errors' in parsed)) return [];
      const { errors } = parsed;
      if (!Array.isArray(errors)) return [];
      return errors.flatMap((entry: unknown) => {
        if (!entry || typeof entry !== 'object') return [];
        const { field, message } = entry as Record<string, unknown>;
        return typeof field === 'string' && typeof message === 'string' && message
          ? [{ field, message }]
          : [];
      });
    } catch {
      return [];
    }
  }
}

/** `Retry-After` as seconds or as an HTTP date, in ms from now. */
function retryAfterMs(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: /.test(error.message);
}

export function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}

/**
 * What the server said of each field of a request it refused as invalid (a 400 naming fields),
 * each sentence once; undefined for any other failure.
 */
export function fieldErrorText(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  const messages = [...new Set(error.fieldErrors.map((entry) => entry.message))];
  return messages.length > 0 ? messages.join(' ') : undefined;
}

// Read-your-writes: the highest log position any command response reported. Kept in session
// storage so a full page load (sign-in, reload) still waits for the user's own last write.
const storageKey = 'wagers.position';
let highestPosition: GlobalPosition | null = readStoredPosition();

function readStoredPosition(): GlobalPosition | null {
  try {
    const stored = sessionStorage.getItem(storageKey);
    return stored && isGlobalPosition(stored) ? stored : null;
  } catch {
    return null;
  }
}

function rememberPosition(response: Response): void {
  const seen = response.headers.get(POSITION_HEADER);
  if (!seen || !isGlobalPosition(seen)) return;
  const next = maxPosition(highestPosition, seen);
  if (next === highestPosition) return;
  highestPosition = next;
  try {
    if (next) sessionStorage.setItem(storageKey, next);
  } catch {
    // Storage may be unavailable (private mode); memory still holds the position.
  }
}

export function currentPosition(): GlobalPosition | null {
  return highestPosition;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type RequestOptions = {
  body?: unknown;
  signal?: AbortSignal;
  /** GET /api/auth/user answers 401 when signed out; that is a result, not an error. */
  on401?: 'throw' | 'null';
  /** The user search reports errors as "status: statusText". */
  errorText?: 'body' | 'statusText';
  /** Names a create, so a retry whose first answer was lost gets that answer, not a copy. */
  idempotencyKey?: string;
};

async function request<T>(method: Method, url: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method === 'GET' && highestPosition) headers[POSITION_HEADER] = highestPosition;
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;

  const response = await fetch(url, {
    method,
    headers,
    credentials: 'include',
    signal: options.signal,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  rememberPosition(response);

  if (options.on401 === 'null' && response.status === 401) return null as T;
  if (!response.ok) {
    const body = options.errorText === 'statusText' ? '' : await response.text();
    throw new ApiError(
      response.status,
      body,
      response.statusText,
      response.headers.get('retry-after'),
    );
  }
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(url: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', url, options),
  post: <T>(url: string, body?: unknown, options?: Pick<RequestOptions, 'idempotencyKey'>) =>
    request<T>('POST', url, { ...options, body }),
  put: <T>(url: string, body?: unknown) => request<T>('PUT', url, { body }),
  delete: <T>(url: string, body?: unknown) => request<T>('DELETE', url, { body }),
};
