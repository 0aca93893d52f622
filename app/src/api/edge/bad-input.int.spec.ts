import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betInput, betsTestbed, type BetsTestbed } from '../bets/http-fixtures.ts';

/** Text the database cannot hold answers 400 naming the part, on every route, before it runs. */
describe('bad input at the edge', () => {
  let bed: BetsTestbed;

  beforeAll(async () => {
    bed = await betsTestbed();
  });
  afterAll(async () => {
    await bed?.stop();
  });

  const raw = (method: string, path: string, body?: string) =>
    fetch(`${bed.app.url}${path}`, {
      method,
      headers: {
        cookie: bed.alice.client.cookie!,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body,
    });

  it.each([
    ['GET', '/api/bets/%E0%A4%A', '(path)'],
    ['GET', '/api/bets/%ED%A0%80', '(path)'],
    ['GET', '/api/bets/%00', '(path)'],
    ['POST', '/api/bets/x%00y/accept', '(path)'],
    ['POST', '/api/invites/%00/accept', '(path)'],
    ['GET', '/api/invites/%00', '(path)'],
    ['GET', '/api/users/search?query=%00', 'query'],
    ['GET', '/api/bets?status=a%00b', 'status'],
  ])('%s %s answers 400 naming %s', async (method, path, field) => {
    const response = await raw(method, path);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({
      code: 'validation_failed',
      errors: [{ field }],
    });
  });

  it.each([
    ['a NUL', 'Rain\u0000 on Sunday'],
    ['a lone surrogate', 'Rain \ud800 on Sunday'],
  ])('refuses a body field holding %s, naming it, and appends nothing', async (_what, title) => {
    const before = await bed.countEvents();
    const response = await raw('POST', '/api/bets', JSON.stringify(betInput({ title })));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: [{ field: 'title' }] });
    const nested = await raw(
      'PUT',
      '/api/user',
      JSON.stringify({ firstName: 'A', lastName: 'B', extra: [{ deep: title }] }),
    );
    expect(nested.status).toBe(400);
    expect(await nested.json()).toMatchObject({ errors: [{ field: 'extra.0.deep' }] });
    expect(await bed.countEvents()).toBe(before);
  });

  it('answers 400 to a body in a charset or encoding it cannot read', async () => {
    for (const headers of [
      { 'content-type': 'application/json; charset=latin1' },
      { 'content-type': 'application/json', 'content-encoding': 'snappy' },
    ] as Record<string, string>[]) {
      const response = await fetch(`${bed.app.url}/api/bets`, {
        method: 'POST',
        headers: { cookie: bed.alice.client.cookie!, ...headers },
        body: JSON.stringify(betInput()),
      });
      expect(response.status, JSON.stringify(headers)).toBe(400);
      expect(await response.json()).toMatchObject({ errors: [{ field: '(body)' }] });
    }
  });

  it('still takes text with emoji and accents', async () => {
    const response = await bed.alice.client.put('/api/user', {
      firstName: 'Zoë 🎲',
      lastName: 'B',
    });
    expect(response.status, response.text).toBe(200);
  });
});
