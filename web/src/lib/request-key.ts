/**
 * One Idempotency-Key per distinct request: sending the same body again (after a lost answer or a
 * second click) reuses its key, so the server answers with what it made the first time; a changed
 * body is a new request with a new key. Once a request is answered, `answered()` ends it: the next
 * send, even of the same body, is a new request.
 */
export function requestKeys(newKey: () => string = () => crypto.randomUUID()) {
  let last: { body: string; key: string } | null = null;
  const keyFor = (body: unknown): string => {
    const text = JSON.stringify(body);
    if (last?.body !== text) last = { body: text, key: newKey() };
    return last.key;
  };
  return Object.assign(keyFor, {
    answered: (): void => {
      last = null;
    },
  });
}
