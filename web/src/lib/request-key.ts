/**
 * One Idempotency-Key per distinct request: sending the same body again (after a lost answer or a
 * second click) reuses its key, so the server answers with what it made the first time; a changed
 * body is a new request with a new key. Once a request is answered, `answered()` ends it: the next
 * send, even of the same body, is a new request.
 */
/** A request sent: its body as sent, and the key it went under. */
export interface SentRequest {
  body: string;
  key: string;
}

/** The request to send `body` as: `last` again when its body is the same, else one with a new key. */
export function nextRequest(
  last: SentRequest | null | undefined,
  body: unknown,
  newKey: () => string = () => crypto.randomUUID(),
): SentRequest {
  const text = JSON.stringify(body);
  return last?.body === text ? last : { body: text, key: newKey() };
}

export function requestKeys(newKey: () => string = () => crypto.randomUUID()) {
  let last: SentRequest | null = null;
  const keyFor = (body: unknown): string => {
    last = nextRequest(last, body, newKey);
    return last.key;
  };
  return Object.assign(keyFor, {
    answered: (): void => {
      last = null;
    },
  });
}
