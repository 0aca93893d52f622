import type { Server } from 'node:http';
import express, { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaveUnservedReads } from './routes.ts';

describe('a router that leaves the reads it does not serve', () => {
  let server: Server;
  let url: string;
  const seen: string[] = [];

  beforeAll(async () => {
    const features = Router();
    features.get('/api/things/:id', (req, res) => void res.send(`thing ${req.params.id}`));
    features.use('/api/guarded', (_req, res) => void res.status(403).send('guarded'));
    const nested = Router();
    nested.post('/api/things', (_req, res) => void res.status(201).send('made'));
    nested.get('/api/nested/:id/more', (req, res) => void res.send(`nested ${req.params.id}`));
    features.use(nested);

    const router = Router();
    router.use(leaveUnservedReads(features));
    router.use((req, _res, next) => {
      seen.push(`${req.method} ${req.path}`);
      next();
    });
    router.use(features);

    const app = express();
    app.use(router);
    app.use((req, res) => void res.send(`elsewhere ${req.method} ${req.path}`));
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const call = async (method: string, path: string) => {
    const response = await fetch(`${url}${path}`, { method });
    return `${response.status} ${await response.text()}`;
  };

  it('serves the reads it has routes for, nested ones and HEAD included', async () => {
    expect(await call('GET', '/api/things/7')).toBe('200 thing 7');
    expect(await call('GET', '/api/nested/3/more')).toBe('200 nested 3');
    expect(await call('HEAD', '/api/things/7')).toBe('200 ');
    expect(await call('GET', '/api/guarded/anything')).toBe('403 guarded');
  });

  it('hands any other read to what follows, without running its middleware', async () => {
    seen.length = 0;
    expect(await call('GET', '/api/things')).toBe('200 elsewhere GET /api/things');
    expect(await call('GET', '/api/things/7/other')).toBe('200 elsewhere GET /api/things/7/other');
    expect(await call('GET', '/')).toBe('200 elsewhere GET /');
    expect(seen).toEqual([]);
  });

  it('lets every other method through its middleware, served or not', async () => {
    seen.length = 0;
    expect(await call('POST', '/api/things')).toBe('201 made');
    expect(await call('DELETE', '/api/things/7')).toBe('200 elsewhere DELETE /api/things/7');
    expect(seen).toEqual(['POST /api/things', 'DELETE /api/things/7']);
  });
});
