import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, api } from './api-client.ts';
import { PREPARING_SENTENCE, preparingNotice, retryWhilePrepared } from './retry.ts';

/** A server whose paths answer as scripted, one answer per request, the last one repeated. */
type Answer = { status: number; retryAfter?: string; body: string };
const scripts: Record<string, Answer[]> = {};
const seen: Record<string, number> = {};
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    const count = (seen[path] = (seen[path] ?? 0) + 1);
    const script = scripts[path] ?? [{ status: 404, body: '{"message":"Not found"}' }];
    const answer = script[Math.min(count, script.length) - 1]!;
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      ...(answer.retryAfter ? { 'retry-after': answer.retryAfter } : {}),
    });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const preparing: Answer = {
  status: 503,
  retryAfter: '1',
  body: '{"message":"This part of Wagers is still being prepared. Please try again in a moment."}',
};

/** A read as a screen makes it, through a query client with the product's retry policy. */
function read(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: retryWhilePrepared } });
  return client.fetchQuery({ queryKey: [path], queryFn: () => api.get<unknown>(`${base}${path}`) });
}

describe('a read the server is still preparing', () => {
  it('is asked again when the server says, and shows the answer once it comes', async () => {
    scripts['/api/ready-soon'] = [preparing, preparing, { status: 200, body: '[{"id":1}]' }];
    const started = Date.now();
    await expect(read('/api/ready-soon')).resolves.toEqual([{ id: 1 }]);
    expect(seen['/api/ready-soon']).toBe(3);
    // Retry-After: 1, twice.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });

  it('fails at once for any other error, and for a 503 that does not say when to try again', async () => {
    scripts['/api/broken'] = [{ status: 500, body: '{"message":"Something went wrong"}' }];
    await expect(read('/api/broken')).rejects.toThrow('500: ');
    expect(seen['/api/broken']).toBe(1);
    scripts['/api/down'] = [{ status: 503, body: '' }];
    await expect(read('/api/down')).rejects.toThrow('503: ');
    expect(seen['/api/down']).toBe(1);
    scripts['/api/missing'] = [{ status: 404, body: '{"message":"Bet not found"}' }];
    await expect(read('/api/missing')).rejects.toThrow('404: {"message":"Bet not found"}');
    expect(seen['/api/missing']).toBe(1);
  });

  it('gives up after about two minutes, then shows the failure', () => {
    const { retry, retryDelay } = retryWhilePrepared;
    const inFive = new ApiError(503, preparing.body, 'Service Unavailable', '5');
    expect(retryDelay(1, inFive)).toBe(5000);
    expect(retry(23, inFive)).toBe(true);
    expect(retry(24, inFive)).toBe(false);
    // Retry-After as a date, and asked waits kept between one and thirty seconds.
    const at = new Date(Date.now() + 10_000).toUTCString();
    const byDate = new ApiError(503, '', 'Service Unavailable', at);
    expect(retryDelay(1, byDate)).toBeGreaterThan(8000);
    expect(retryDelay(1, byDate)).toBeLessThanOrEqual(10_000);
    expect(retryDelay(1, new ApiError(503, '', '', '0'))).toBe(1000);
    expect(retryDelay(1, new ApiError(503, '', '', '3600'))).toBe(30_000);
  });
});

describe('what a loading state says while its read waits', () => {
  it("gives the server's sentence, or the product's, only for a 503 that said when to try again", () => {
    expect(preparingNotice(new ApiError(503, preparing.body, 'Service Unavailable', '5'))).toBe(
      'This part of Wagers is still being prepared. Please try again in a moment.',
    );
    expect(preparingNotice(new ApiError(503, '', 'Service Unavailable', '5'))).toBe(
      PREPARING_SENTENCE,
    );
    expect(preparingNotice(new ApiError(503, 'busy', 'Service Unavailable', '5'))).toBe(
      PREPARING_SENTENCE,
    );
    // Simply loading, or a failure that is not asked again: nothing to say.
    expect(preparingNotice(null)).toBeNull();
    expect(preparingNotice(new ApiError(503, preparing.body, 'Service Unavailable'))).toBeNull();
    expect(preparingNotice(new ApiError(500, preparing.body, 'Error', '5'))).toBeNull();
    expect(preparingNotice(new TypeError('Failed to fetch'))).toBeNull();
  });
});
